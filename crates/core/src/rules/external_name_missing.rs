//! `ExternalNameMissing`: the cloud object exists (or was created) but no external-name records it.

use super::facts::Facts;
use crate::finding::{Code, Finding, Severity};
use crate::shell::quoted;
use crate::upjet_client::Client;

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
        format!("status.atProvider.id is {id}", id = quoted(id))
    } else if ready {
        "the MR is Ready".to_string()
    } else if facts.marks.succeeded.is_set() && !facts.in_flight && facts.failed_async_create().is_none() {
        match (facts.past_deadline, facts.ended_by_restart) {
            (Some(start), _) => {
                format!("the async create that started at {start} at the latest is past upjet's one-hour deadline")
            }
            (None, Some(restart)) => format!(
                "the async create it shows as running ended with the provider process, which restarted at {restart}"
            ),
            (None, None) => "creation succeeded".to_string(),
        }
    } else {
        return None;
    };
    let id = mr.at_provider_id.as_deref();
    let (message, severity) = message(facts, &why, id);
    let next = match id {
        Some(id) if !facts.policies.should_late_initialize() && facts.upjet.client != Client::TerraformCli => {
            facts.upjet("adopt").opt("--id", id).word("--add-late-initialize").to_string()
        }
        Some(id) => facts.upjet("adopt").opt("--id", id).to_string(),
        None => facts.upjet("history").to_string(),
    };
    let mut f = Finding::new(Code::ExternalNameMissing, message, next)
        .with("ready", mr.condition("Ready").map(|c| c.status.clone()).unwrap_or_else(|| "absent".into()))
        .with("managementPolicies", facts.policies.describe())
        .with_opt("status.atProvider.id", id);
    f.severity = severity;
    Some(facts.with_marks(f).suggest(id))
}

/// The message, and its severity. An ID equal to the MR's own name is how NameAsIdentifier kinds
/// (upjet's default preset) are named: their initializer (crossplane-runtime
/// `NameAsExternalName.Initialize`) writes metadata.name back into an empty external-name at the
/// next reconcile, before Observe, so nothing is lost unless the kind disables it: a warning.
fn message(facts: &Facts, why: &str, id: Option<&str>) -> (String, Severity) {
    let mr = facts.mr;
    let held = mr
        .external_name_placeholder()
        .map(|stub| format!(" (only the placeholder {}, which names no cloud object)", quoted(stub.value)));
    let name_initialized = held.is_none() && id == Some(mr.name.as_str());
    let (mut message, severity) = if name_initialized {
        let m = format!(
            "no external-name although {why}, which is its metadata.name: for a kind named by its MR (NameAsIdentifier) upjet's initializer writes it back at the next reconcile, so check that it did; a kind that disables the initializer creates a duplicate after a provider restart"
        );
        (m, Severity::Warning)
    } else {
        let held = held.unwrap_or_default();
        let m =
            format!("no external-name{held} although {why}; after a provider restart upjet will create a duplicate");
        (m, Severity::Error)
    };
    match id {
        Some(id) => message.push_str(&format!(" (adopt {})", quoted(id))),
        None => message.push_str(" (find the ID with `kubectl upjet history`)"),
    }
    if !facts.policies.should_late_initialize() {
        match facts.upjet.client {
            // upjet's CLI client saves the critical annotations itself (`external.go` `Observe`).
            Client::TerraformCli => {}
            Client::InProcess => message.push_str(&format!(
                "; managementPolicies lack LateInitialize, so upjet will never save it (upjet runs this kind in-process, shown by {})",
                facts.upjet.shown_by
            )),
            Client::Unknown => message.push_str(
                "; managementPolicies lack LateInitialize: upjet's in-process clients (upjet v1 and later) will never save it, its Terraform CLI client saves it itself (which runs this kind is not shown)",
            ),
        }
    }
    (message, severity)
}

#[cfg(test)]
mod tests {
    // Follows crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile` (succeeded
    // written when Create returns; late-init update persists the external-name) and upjet
    // `pkg/controller/external_async_tfpluginsdk.go` `Create` (one-hour deadline).
    use super::super::cases::*;
    use crate::finding::Code::{self, *};
    use crate::rules::diagnose;
    use crate::testing::Mr;

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
            // upjet pkg/config NameAsIdentifier + crossplane-runtime NameAsExternalName.Initialize.
            "the ID is the MR's name: the initializer writes it back (a warning, not lost)",
            || Mr::new("Bucket", "acme-assets").at_provider_id("acme-assets").healthy(),
            &[ExternalNameMissing],
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
    fn an_id_equal_to_the_name_is_a_warning_about_the_initializer() {
        use crate::finding::Severity;
        let mr = Mr::new("Bucket", "acme-assets").at_provider_id("acme-assets").healthy().build();
        let f = diagnose(&mr, at()).into_iter().find(|f| f.code == Code::ExternalNameMissing).unwrap();
        assert_eq!(f.severity, Severity::Warning);
        assert!(f.message.contains("initializer writes it back"), "{}", f.message);
        let other = Mr::new("Key", "k").at_provider_id("mrk-1").healthy().build();
        let f = diagnose(&other, at()).into_iter().find(|f| f.code == Code::ExternalNameMissing).unwrap();
        assert_eq!(f.severity, Severity::Error);
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
        let f = diagnose(&mr, at()).into_iter().find(|f| f.code == Code::ExternalNameMissing).unwrap();
        assert_eq!(f.suggested_id.as_deref(), Some("mrk-123"));
        assert_eq!(
            f.next,
            "kubectl upjet adopt key.kms.aws.m.upbound.io/k -n team-a --id mrk-123 --add-late-initialize"
        );
        assert!(f.message.contains("\"mrk-123\""), "{}", f.message);
        assert_eq!(f.evidence.get(S).map(String::as_str), Some(T0));
    }
}
