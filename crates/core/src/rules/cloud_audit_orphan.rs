//! `CloudAuditOrphan`: the cloud's own audit record (CloudTrail, GCP Cloud Audit Logs, the Azure
//! Activity Log) shows the provider's identity creating one object for this MR, inside its create
//! window, and the MR does not track it. crossplane-runtime writes the pending mark before
//! `ExternalClient.Create`; upjet's async create returns at once and sets the external-name only
//! when a later Observe persists it (`external_async_tfpluginsdk.go`, the managed reconciler's
//! late-init update): a restart or a missing `LateInitialize` in between leaves the object made
//! and the MR without its ID. The record names the object even when the cloud assigned the ID and
//! nothing tagged it.

use super::facts::Facts;
use crate::cloud_audit::{MrCloudAudit, Observed};
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::shell::quoted;

/// One finding when the provider's creates for the MR made exactly one object and the MR does not
/// track it (several are `CloudAuditDuplicate`'s). The ID is suggested when the MR tracks none, or
/// tracks one that does not work (not Ready), and only when the kind's healthy peers prove how a
/// create's ID reads as an external-name: never to replace a working identity, never a guess.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let audit = facts.evidence?.cloud_audit.as_ref()?;
    let objects = audit.objects();
    let [o] = objects.as_slice() else { return None };
    if o.tracked {
        return None;
    }
    let mr = facts.mr;
    let object = o.object().unwrap_or_default();
    // The create the record shows may be the one still running: its object exists before the MR
    // records its ID, so it is no orphan yet, and adopting it now races the create.
    if let Some(running) = facts.create_running() {
        let message = format!(
            "the cloud's audit record shows the provider creating {} for this MR ({}) while a create may still be running ({running}): it is most likely the object being created, which the MR records when the create ends; do not adopt it now",
            quoted(object),
            when(o)
        );
        let next = facts.upjet("history").opt("--cloud-audit", &o.call.file);
        let mut f = Finding::new(Code::CloudAuditOrphan, message, next).with("createRunning", running);
        f.severity = crate::finding::Severity::Info;
        return Some(with_call(f.with_opt(keys::EXTERNAL_NAME, mr.external_name()), o, audit));
    }
    let may_adopt = audit.tracked.is_none() || !mr.is_true("Ready");
    let message = match &audit.tracked {
        None => format!(
            "the cloud's audit record shows the provider creating {object} for this MR ({}), and the MR tracks no ID: it is the object this MR lost",
            when(o),
            object = quoted(object)
        ),
        Some(t) => format!(
            "the cloud's audit record shows the provider creating {object} for this MR ({}), which tracks {t}: {object} is an orphan nothing tracks",
            when(o),
            object = quoted(object),
            t = quoted(t)
        ),
    };
    let next = match (may_adopt, &o.id) {
        (true, Some(id)) => facts.upjet("adopt").opt("--id", id).word("--import").to_string(),
        _ => facts.upjet("history").opt("--cloud-audit", &o.call.file).to_string(),
    };
    let f = Finding::new(Code::CloudAuditOrphan, message, next).with_opt(keys::EXTERNAL_NAME, mr.external_name());
    Some(with_call(f, o, audit).suggest(o.id.as_deref().filter(|_| may_adopt)))
}

/// `CreateVpc at 2024-11-30T10:00:01Z`.
pub(super) fn when(o: &Observed) -> String {
    match o.call.at {
        Some(t) => format!("{} at {t}", o.call.action),
        None => o.call.action.to_string(),
    }
}

/// The evidence every cloud-audit finding carries about one create: the call (action, principal,
/// account, time, outcome, request ID, `file:line`), the cloud's ID, why it is this MR's, and
/// how the provider's identity and the ID's form are known.
pub(super) fn with_call(f: Finding, o: &Observed, audit: &MrCloudAudit) -> Finding {
    let f = f
        .with("cloudCall", o.call.describe())
        .with("matchedBy", &*o.by)
        .with_opt("cloudId", o.raw_id.clone())
        .with_opt("providerIdentity", audit.identity.as_deref())
        .with("idRule", &*audit.id_rule)
        .with_opt("userAgent", o.call.user_agent.as_deref());
    match &o.id {
        Some(_) => f,
        None => f.with(
            "idForm",
            "unproven: no healthy peer of this kind shows how a create's ID reads as an external-name; verify the cloud ID with `adopt --import`",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::cloud_audit_cases::{Case, audit, check_cloud_cases, obs, obs_at};
    use crate::finding::Code;
    use crate::testing::Mr;

    /// The upstream basis: the async create of `external_async_tfpluginsdk.go` and the late-init
    /// update of crossplane-runtime's managed reconciler; a CloudTrail `CreateHostedZone` (or any
    /// create) by the provider's role in the window names the zone it made.
    const CASES: &[Case] = &[
        (
            "tracks none: suggest the created object",
            || Mr::new("Zone", "z"),
            || audit(vec![obs("Z1", false, Some("Z1"))], None),
            &[(Code::CloudAuditOrphan, Some("Z1"))],
        ),
        (
            "tracks none, the ID's form unproven: report, suggest nothing",
            || Mr::new("Zone", "z"),
            || audit(vec![obs("/hostedzone/Z1", false, None)], None),
            &[(Code::CloudAuditOrphan, None)],
        ),
        (
            "healthy and tracking another ID: an orphan, the identity kept",
            || Mr::new("Zone", "z").external_name("Z0").healthy(),
            || audit(vec![obs("Z1", false, Some("Z1"))], Some("Z0")),
            &[(Code::CloudAuditOrphan, None)],
        ),
        (
            "the create made the tracked object: nothing",
            || Mr::new("Zone", "z").external_name("Z1").healthy(),
            || audit(vec![obs("Z1", true, Some("Z1"))], Some("Z1")),
            &[],
        ),
        (
            "two objects are a duplicate, not this",
            || Mr::new("Zone", "z"),
            || audit(vec![obs("Z1", false, Some("Z1")), obs("Z2", false, Some("Z2"))], None),
            &[(Code::CloudAuditDuplicate, Some("Z1"))],
        ),
    ];

    #[test]
    fn a_create_still_running_is_not_an_orphan() {
        use super::super::{MrEvidence, findings_with};
        use crate::finding::Severity;
        let t = "2024-11-30T10:57:35Z";
        let creating = Mr::new("Zone", "z")
            .annotation(crate::managed::keys::CREATE_PENDING, t)
            .annotation(crate::managed::keys::CREATE_SUCCEEDED, t)
            .cond_at("Ready", "False", "Creating", "", t)
            .cond_at("Synced", "True", "ReconcileSuccess", "", t)
            .build();
        let record = audit(vec![obs_at("Z1", false, Some("Z1"), "2024-11-30T10:57:40Z")], None);
        let ev = MrEvidence { cloud_audit: Some(record), ..MrEvidence::default() };
        let found = findings_with(&creating, Some(&ev), super::super::cases::at());
        let f = found.iter().find(|f| f.code == Code::CloudAuditOrphan).expect("CloudAuditOrphan");
        assert_eq!((f.severity, f.suggested_id.as_deref()), (Severity::Info, None), "{}", f.message);
        assert!(!f.next.contains("adopt"), "{}", f.next);
    }

    #[test]
    fn table() {
        check_cloud_cases(CASES);
    }
}
