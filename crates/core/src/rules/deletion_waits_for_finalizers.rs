//! `DeletionWaitsForFinalizers`: a deleted MR holds another controller's finalizer, and
//! crossplane-runtime v2 does not delete its cloud object until that finalizer is gone.

use super::facts::Facts;
use crate::deletion::{Deletion, OnDelete};
use crate::finding::{Code, Finding};

/// The garbage collector's finalizer of a foreground deletion (`kubectl delete
/// --cascade=foreground`): removed once the object's blocking dependents are deleted.
const FOREGROUND: &str = "foregroundDeletion";

/// crossplane-runtime v2's `Reconcile` (crossplane-runtime#851, #855): once Observe has run on a
/// deleted MR, `if len(managed.GetFinalizers()) > 1` it logs "Delay external deletion until all
/// finalizers have been removed" at debug level and returns `Requeue: true` — no condition, no
/// event — before `external.Delete`. That point is reached only by an MR whose deletion deletes
/// its cloud object: a paused MR, unsupported policies and the orphan fast path (`!ShouldDelete`,
/// whose finalizer goes at once, other finalizers or not) stop earlier, and so does the
/// create-incomplete gate (`DeletionBlockedByCreateGate`). Every finalizer counts, crossplane's
/// own included: with it and one other the reconciler waits; with only another one it deletes.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    let deleted_at = mr.deletion_timestamp.as_deref()?;
    if mr.finalizer_count() <= 1 || mr.other_finalizers.is_empty() {
        return None;
    }
    let deletion = Deletion::of(mr);
    if deletion.on_delete != OnDelete::Deletes {
        return None;
    }
    let others: Vec<String> = mr.other_finalizers.iter().map(|f| format!("{f:?}")).collect();
    let foreground = mr.other_finalizers.iter().any(|f| f == FOREGROUND).then_some(
        "; foregroundDeletion is the garbage collector's, removed once the MR's dependents (objects whose ownerReferences name it, such as its connection Secret) are deleted",
    );
    let message = format!(
        "the MR is being deleted but also holds {}: crossplane-runtime v2 does not delete the cloud object while any finalizer besides its own remains, so the object is not deleted yet, and the reconciler requeues without a condition or an event; once {} removed it deletes the cloud object ({}){}. Runtimes before crossplane-runtime#855 delete the object at once and only the MR waits",
        others.join(", "),
        if others.len() == 1 { "it is" } else { "they are" },
        deletion.policy_reason,
        foreground.unwrap_or_default(),
    );
    Some(
        Finding::new(Code::DeletionWaitsForFinalizers, message, facts.upjet("doctor"))
            .with("deletionTimestamp", deleted_at)
            .with("otherFinalizers", mr.other_finalizers.join(", "))
            .with("crossplaneFinalizer", if mr.own_finalizer { "present" } else { "absent" }),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::managed::{FINALIZER, keys};
    use crate::rules::diagnose;
    use crate::testing::Mr;

    const BACKUP: &str = "backup.example.com/pre-delete";

    fn deleting() -> Mr {
        base().healthy().deleting()
    }

    /// crossplane-runtime v2 `pkg/reconciler/managed/reconciler.go` `Reconcile`: the pause gate,
    /// `policy.Validate`, `meta.WasDeleted && !policy.ShouldDelete()` (orphan fast path: the
    /// finalizer goes whatever else holds the MR), the create-incomplete gate, Observe, then
    /// `len(managed.GetFinalizers()) > 1` → requeue before `external.Delete`.
    const CASES: &[Case] = &[
        ("a deletion with crossplane's finalizer alone goes on", || deleting().finalizers(&[FINALIZER]), &[]),
        (
            "crossplane's and another: the external delete waits",
            || deleting().finalizers(&[FINALIZER, BACKUP]),
            &[DeletionWaitsForFinalizers],
        ),
        (
            "two others without crossplane's still count as more than one",
            || deleting().finalizers(&[BACKUP, "other.example.com/x"]),
            &[DeletionWaitsForFinalizers],
        ),
        ("another alone: one finalizer, the reconciler deletes", || deleting().finalizers(&[BACKUP]), &[]),
        ("not deleted: nothing waits", || base().healthy().finalizers(&[FINALIZER, BACKUP]), &[]),
        (
            "Orphan: the fast path removes crossplane's finalizer without waiting",
            || deleting().deletion_policy("Orphan").finalizers(&[FINALIZER, BACKUP]),
            &[],
        ),
        (
            "namespaced, Observe only: orphaned at once",
            || deleting().namespace("a").policies(&["Observe"]).finalizers(&[FINALIZER, BACKUP]),
            &[],
        ),
        (
            "paused: the pause gate stops it first",
            || deleting().annotation(keys::PAUSED, "true").finalizers(&[FINALIZER, BACKUP]),
            &[Paused, DeletionBlockedByPause],
        ),
        (
            "stuck at the create-incomplete gate: that rule's",
            || {
                deleting()
                    .annotation(P, T1)
                    .annotation(S, T0)
                    .cond("Synced", "False", "ReconcileError", crate::create_marks::ERR_CREATE_INCOMPLETE)
                    .finalizers(&[FINALIZER, BACKUP])
            },
            &[DeletionBlockedByCreateGate],
        ),
        (
            "foreground deletion counts too",
            || deleting().finalizers(&[FINALIZER, "foregroundDeletion"]),
            &[DeletionWaitsForFinalizers],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    #[test]
    fn the_finding_names_the_other_finalizers_and_says_the_object_stays() {
        let mr = deleting().finalizers(&[FINALIZER, BACKUP, "foregroundDeletion"]).build();
        let f = diagnose(&mr, at()).into_iter().find(|f| f.code == DeletionWaitsForFinalizers).unwrap();
        assert!(f.message.contains(r#"holds "backup.example.com/pre-delete", "foregroundDeletion""#), "{}", f.message);
        assert!(f.message.contains("the object is not deleted yet"), "{}", f.message);
        assert!(f.message.contains("without a condition or an event"), "{}", f.message);
        assert!(f.message.contains("dependents"), "foregroundDeletion is explained: {}", f.message);
        assert_eq!(f.evidence["otherFinalizers"], "backup.example.com/pre-delete, foregroundDeletion");
        assert_eq!(f.evidence["crossplaneFinalizer"], "present");
        assert_eq!(f.severity, crate::finding::Severity::Info);
    }
}
