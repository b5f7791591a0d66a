//! `DeletionBlockedByCreateGate`: a deleted MR waits forever at the create-incomplete gate.

use super::facts::Facts;
use crate::create_marks::ERR_CREATE_INCOMPLETE;
use crate::deletion::{Deletion, OnDelete};
use crate::finding::{Code, Finding};
use crate::managed::keys;

/// The reconciler handles a deleted MR in this order: pause, `Validate`, then the orphan fast
/// path (finalizer removed when `!ShouldDelete`), then the create-incomplete gate, and only then
/// Observe and Delete. So an MR whose deletion would delete its cloud object stops at the gate
/// (Ready=False/Creating, not Deleting) with its finalizer, and `kubectl delete` hangs; adopt
/// refuses deleted MRs, so the way out is to resolve the create marks by hand once the ID is known,
/// or to orphan it through the policies. While the create may still be running (`CreateInFlight`)
/// the reconcile that runs it ends first and records its result, and deletion goes on.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let deleted_at = facts.mr.deletion_timestamp.as_deref()?;
    let deletion = Deletion::of(facts.mr);
    if deletion.on_delete != OnDelete::BlockedByCreateGate || !facts.pending_create.is_stuck() {
        return None;
    }
    let ext = facts.mr.external_name();
    let next = match (ext, facts.mr.at_provider_id.as_deref()) {
        (Some(_), _) => facts.kubectl("annotate").arg_then(keys::CREATE_PENDING, "-").to_string(),
        (None, Some(id)) => facts
            .kubectl("annotate")
            .word("--overwrite")
            .arg(format!("{}={id}", keys::EXTERNAL_NAME))
            .arg_then(keys::CREATE_PENDING, "-")
            .to_string(),
        (None, None) => facts.upjet("history").to_string(),
    };
    let f = Finding::new(
        Code::DeletionBlockedByCreateGate,
        format!(
            "the MR is being deleted but the reconciler stops at the create-incomplete gate (\"{ERR_CREATE_INCOMPLETE}\") before it observes or deletes anything, so the finalizer stays; make sure external-name names the cloud object a create may have made, then remove the pending annotation and the provider deletes it ({}); to keep the cloud object instead, set spec.managementPolicies to [\"Observe\"] and the finalizer is removed without calling the provider",
            deletion.policy_reason
        ),
        next,
    );
    Some(
        facts
            .with_marks(f)
            .with("deletionTimestamp", deleted_at)
            .with_opt(keys::EXTERNAL_NAME, ext)
            .with_opt("atProvider.id", facts.mr.at_provider_id.clone()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::managed::keys;
    use crate::testing::Mr;

    fn stuck() -> Mr {
        base().annotation(P, T1).annotation(S, T0).cond("Ready", "False", "Creating", "").cond(
            "Synced",
            "False",
            "ReconcileError",
            super::ERR_CREATE_INCOMPLETE,
        )
    }

    /// Follows crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile`: pause gate,
    /// `policy.Validate`, `meta.WasDeleted(managed) && !policy.ShouldDelete()` (orphan fast
    /// path), then `meta.ExternalCreateIncomplete(managed)`; `policies.go` `ShouldDelete`.
    const CASES: &[Case] = &[
        ("deleted, would delete: stuck at the gate", || stuck().deleting(), &[DeletionBlockedByCreateGate]),
        ("not deleted: CreateIncomplete only", stuck, &[CreateIncomplete, KstatusMisleading]),
        ("deleted, Orphan: the finalizer goes first", || stuck().deletion_policy("Orphan").deleting(), &[]),
        (
            "deleted, Orphan but non-default policies with Delete: stuck",
            || {
                stuck()
                    .deletion_policy("Orphan")
                    .policies(&["Observe", "Create", "Update", "Delete", "LateInitialize"])
                    .deleting()
            },
            &[DeletionBlockedByCreateGate],
        ),
        (
            "deleted and paused: the pause gate comes first",
            || stuck().annotation(keys::PAUSED, "true").deleting(),
            &[Paused, DeletionBlockedByPause],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    #[test]
    fn next_is_the_safe_way_out() {
        let next = |mr: Mr| {
            super::check(&super::Facts::of(&mr.build(), super::super::cases::at())).map(|f| f.next).unwrap_or_default()
        };
        assert!(next(stuck().deleting()).ends_with("crossplane.io/external-create-pending-"));
        let no_name = Mr::new("RecordSet", "rs").at_provider_id("rs-1").annotation(P, T1).deleting();
        assert!(
            next(no_name)
                .contains("--overwrite crossplane.io/external-name=rs-1 crossplane.io/external-create-pending-")
        );
        let nothing = Mr::new("RecordSet", "rs").annotation(P, T1).deleting();
        assert_eq!(next(nothing), "kubectl upjet history recordset.dns.gcp.upbound.io/rs");
    }
}
