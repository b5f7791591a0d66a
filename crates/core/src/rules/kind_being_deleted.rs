//! `KindBeingDeleted`: the MR's kind is going away (its CRD or MRD is being deleted), and the MR
//! with it.

use super::facts::Facts;
use crate::deletion::{Deletion, OnDelete};
use crate::finding::{Code, Finding, Severity};
use crate::kind_removal::{CLOUD_OBJECT, DEFINITIONS};

/// Deleting a CRD deletes every object of it (the API server's
/// `customresourcecleanup.apiextensions.k8s.io` finalizer), and in Crossplane v2 the CRD goes
/// with its MRD, and with the ProviderRevision that owns the MRD (crossplane
/// `internal/controller/apiextensions/managed/crd.go`; crossplane#7173, #4251): each MR is deleted as any deleted MR is, so the managed
/// reconciler's gates decide what happens to its cloud object ([`Deletion`]). An error when the
/// object is deleted (or will be once the create-incomplete gate is resolved), a warning when it
/// is left in place, untracked, or the MR hangs (paused, unsupported policies) and with it the
/// CRD's deletion. The way to keep the object is the policies' (`keep_cloud_object_patch`): the
/// provider reads the patched MR before it deletes anything, as long as it still runs.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let removal = facts.evidence?.kind_removal.as_ref().filter(|r| r.removing())?;
    let mr = facts.mr;
    let deletion = Deletion::of(mr);
    let deletes = matches!(deletion.on_delete, OnDelete::Deletes | OnDelete::BlockedByCreateGate);
    let state = if mr.deletion_timestamp.is_some() { "is being deleted" } else { "will be deleted" };
    let message = format!(
        "the MR's kind is going away: {}, which deletes every MR of the kind; this one {state}, and that {}",
        removal.describe(),
        deletion.describe()
    );
    let (next, keep) = match facts.management.keep_cloud_object_patch() {
        Some(patch) if deletes => (
            facts.kubectl("patch").word("--type").word("merge").opt("-p", patch),
            facts.management.keep_cloud_object_fix().unwrap_or_default(),
        ),
        _ => (
            facts.kubectl("get").word("-o").word("yaml").word(">").arg(format!("{}.yaml", mr.name)),
            "keep its manifest, external-name included, to adopt the object again once the kind is back".to_string(),
        ),
    };
    let mut f = Finding::new(Code::KindBeingDeleted, message, next)
        .with(DEFINITIONS, removal.describe())
        .with(CLOUD_OBJECT, if deletes { "deleted" } else { "kept" })
        .with("keep", keep)
        .with_opt("deletionTimestamp", mr.deletion_timestamp.clone());
    if !deletes {
        f.severity = Severity::Warning;
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind_removal::KindRemoval;
    use crate::managed::FINALIZER;
    use crate::rules::cases::*;
    use crate::rules::{MrEvidence, findings_with};
    use crate::testing::Mr;

    fn removal(crd: bool, mrd: bool) -> MrEvidence {
        let at = Some("2024-11-30T11:00:00Z".to_string());
        MrEvidence {
            kind_removal: Some(KindRemoval {
                name: "recordsets.dns.gcp.upbound.io".into(),
                crd_deleted_at: at.clone().filter(|_| crd),
                mrd_deleted_at: at.filter(|_| mrd),
            }),
            ..MrEvidence::default()
        }
    }

    fn judged(mr: Mr, evidence: &MrEvidence) -> Option<Finding> {
        findings_with(&mr.build(), Some(evidence), at()).into_iter().find(|f| f.code == Code::KindBeingDeleted)
    }

    fn deleting() -> Mr {
        base().healthy().finalizers(&[FINALIZER]).deleting()
    }

    /// What each MR's own gates make of the deletion its kind's removal starts
    /// (crossplane-runtime `Reconcile`: pause, `Validate`, orphan fast path, create gate, Delete).
    #[test]
    fn each_mr_is_judged_by_its_own_gates() {
        let gone = removal(true, false);
        for (case, mr, cloud, severity, next) in [
            (
                "legacy, default policies: Orphan keeps it",
                deleting(),
                "deleted",
                Severity::Error,
                r#"kubectl patch recordset.dns.gcp.upbound.io rs --type merge -p '{"spec":{"deletionPolicy":"Orphan"}}'"#,
            ),
            (
                "namespaced: the policies without Delete",
                deleting().namespace("team-a"),
                "deleted",
                Severity::Error,
                r#"kubectl patch recordset.dns.gcp.upbound.io rs -n team-a --type merge -p '{"spec":{"managementPolicies":["Observe","Create","Update","LateInitialize"]}}'"#,
            ),
            (
                "Orphan already: left in place",
                deleting().deletion_policy("Orphan"),
                "kept",
                Severity::Warning,
                "kubectl get recordset.dns.gcp.upbound.io rs -o yaml > rs.yaml",
            ),
            (
                "not deleted yet (the MRD goes first): still deleted with the kind",
                base().healthy(),
                "deleted",
                Severity::Error,
                r#"kubectl patch recordset.dns.gcp.upbound.io rs --type merge -p '{"spec":{"deletionPolicy":"Orphan"}}'"#,
            ),
        ] {
            let f = judged(mr, &gone).unwrap_or_else(|| panic!("{case}"));
            assert_eq!(f.evidence[CLOUD_OBJECT], cloud, "{case}");
            assert_eq!(f.severity, severity, "{case}");
            assert_eq!(f.next, next, "{case}");
        }
    }

    #[test]
    fn the_message_names_the_definition_and_what_happens_to_the_object() {
        let f = judged(deleting(), &removal(false, true)).unwrap();
        assert!(f.message.contains("its ManagedResourceDefinition recordsets.dns.gcp.upbound.io is being deleted (since 2024-11-30T11:00:00Z)"), "{}", f.message);
        assert!(f.message.contains("this one is being deleted"), "{}", f.message);
        assert!(f.message.contains("deletes the cloud object"), "{}", f.message);
        assert_eq!(f.evidence["keep"], "set spec.deletionPolicy: Orphan");
    }

    #[test]
    fn nothing_without_a_removal() {
        assert!(judged(deleting(), &MrEvidence::default()).is_none());
        assert!(judged(deleting(), &removal(false, false)).is_none(), "definitions served: no removal");
        assert!(findings_with(&deleting().build(), None, at()).iter().all(|f| f.code != Code::KindBeingDeleted));
    }
}
