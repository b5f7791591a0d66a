//! `ExternalNameMissing`: the cloud object exists (or was created) but no external-name records it.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};

/// upjet's async create sets the external-name on the live object during a later Observe and
/// relies on the late-init update to persist it (reconciler.go late-init step): when that never
/// happened, the next provider restart creates a duplicate. An `external-create-succeeded` mark
/// proves nothing while the async create runs or after its callback recorded a failure; past
/// upjet's one-hour deadline the create may have made an object nothing tracks.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    if mr.external_name().is_some() {
        return None;
    }
    let ready = mr.is_true("Ready");
    let why = if let Some(id) = &mr.at_provider_id {
        format!("status.atProvider.id is {id:?}")
    } else if ready {
        "the MR is Ready".to_string()
    } else if facts.marks.succeeded.is_set() && !facts.in_flight && facts.failed_async_create().is_none() {
        match facts.past_deadline {
            Some(start) => {
                format!("the async create that started at {start} at the latest is past upjet's one-hour deadline")
            }
            None => "creation succeeded".to_string(),
        }
    } else {
        return None;
    };
    let id = mr.at_provider_id.as_deref();
    let held = match mr.external_name_placeholder() {
        Some(stub) => format!(" (only the placeholder {:?}, which names no cloud object)", stub.value),
        None => String::new(),
    };
    let mut message =
        format!("no external-name{held} although {why}; after a provider restart upjet will create a duplicate");
    match id {
        Some(id) => message.push_str(&format!(" (adopt {id:?})")),
        None => message.push_str(" (find the ID with `kubectl upjet history`)"),
    }
    if !facts.policies.should_late_initialize() {
        message.push_str("; managementPolicies lack LateInitialize, so upjet will never save it");
    }
    let next = match id {
        Some(id) if !facts.policies.should_late_initialize() => {
            format!("kubectl upjet adopt {} --id {id} --add-late-initialize", facts.arg())
        }
        Some(id) => format!("kubectl upjet adopt {} --id {id}", facts.arg()),
        None => format!("kubectl upjet history {}", facts.arg()),
    };
    let f = Finding::new(Code::ExternalNameMissing, message, next)
        .with("ready", mr.condition("Ready").map(|c| c.status.clone()).unwrap_or_else(|| "absent".into()))
        .with("managementPolicies", facts.policies.describe())
        .with_opt("status.atProvider.id", id);
    Some(facts.with_marks(f).suggest(id))
}

#[cfg(test)]
mod tests {
    // Follows crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile` (succeeded
    // written when Create returns; late-init update persists the external-name) and upjet
    // `pkg/controller/external_async_tfpluginsdk.go` `Create` (one-hour deadline).
    use super::super::cases::*;
    use crate::domain::finding::Code::{self, *};
    use crate::domain::rules::diagnose;
    use crate::domain::testing::Mr;

    const CASES: &[Case] = &[
        (
            "external-name missing, Ready, id known, no LateInitialize",
            || {
                Mr::new("Key", "k")
                    .at_provider_id("mrk-123")
                    .annotation(P, T0)
                    .annotation(S, T0)
                    .healthy()
                    .policies(&["Observe", "Create", "Update", "Delete"])
            },
            &[ExternalNameMissing, LateInitializeMissing],
        ),
        (
            "external-name missing, only succeeded, not in flight",
            || {
                Mr::new("Key", "k").annotation(P, T0).annotation(S, T0).cond("Ready", "False", "Unavailable", "").cond(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    "",
                )
            },
            &[ExternalNameMissing],
        ),
        (
            "only succeeded, Creating: hidden while in flight",
            || {
                Mr::new("Key", "k").annotation(P, T0).annotation(S, T0).cond("Ready", "False", "Creating", "").cond(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    "",
                )
            },
            &[AsyncInFlight],
        ),
        (
            "only succeeded, Creating past upjet's deadline: no longer hidden",
            || {
                let old = "2024-11-30T09:30:00Z";
                Mr::new("Key", "k")
                    .annotation(P, old)
                    .annotation(S, old)
                    .cond_at("Ready", "False", "Creating", "", old)
                    .cond_at("Synced", "True", "ReconcileSuccess", "", old)
            },
            &[ExternalNameMissing, AsyncDeadlinePassed],
        ),
        (
            "external-name empty string counts as missing",
            || Mr::new("Key", "k").external_name("").at_provider_id("mrk-1").healthy(),
            &[ExternalNameMissing],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    #[test]
    fn finding_carries_evidence_next_and_suggestion() {
        let mr = Mr::new("Key", "k")
            .at_provider_id("mrk-123")
            .annotation(S, T0)
            .healthy()
            .policies(&["Observe", "Create"])
            .namespace("team-a")
            .api_version("kms.aws.m.upbound.io/v1beta1")
            .build();
        let f = diagnose(&mr, now()).into_iter().find(|f| f.code == Code::ExternalNameMissing).unwrap();
        assert_eq!(f.suggested_id.as_deref(), Some("mrk-123"));
        assert_eq!(
            f.next,
            "kubectl upjet adopt key.kms.aws.m.upbound.io/k -n team-a --id mrk-123 --add-late-initialize"
        );
        assert!(f.message.contains("\"mrk-123\""), "{}", f.message);
        assert_eq!(f.evidence.get(S).map(String::as_str), Some(T0));
    }
}
