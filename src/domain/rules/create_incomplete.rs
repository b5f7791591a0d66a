//! `CreateIncomplete`: the reconciler stopped at its create-incomplete gate and will not go on.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};

/// The reconciler's exact error text at the create-incomplete gate (`errCreateIncomplete`).
pub const ERR_CREATE_INCOMPLETE: &str = "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed";

/// `meta.ExternalCreateIncomplete` (reconciler.go create-incomplete gate): the reconciler stops
/// with `Requeue: false` until someone resolves the pending annotation. Two earlier gates keep
/// it from getting there: a policy set `Validate` rejects (UnsupportedManagementPolicies), and
/// deletion, where the orphan fast path removes the finalizer first or the gate blocks the
/// deletion (DeletionBlockedByCreateGate, whose way out differs: adopt refuses deleted MRs).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    if !facts.marks.incomplete() || facts.management.validate().is_err() || facts.mr.deletion_timestamp.is_some() {
        return None;
    }
    let id = facts.mr.at_provider_id.as_deref();
    let next = match id {
        Some(id) => format!("kubectl upjet adopt {} --id {id} --import", facts.arg()),
        None => format!("kubectl upjet history {}", facts.arg()),
    };
    let f = Finding::new(
        Code::CreateIncomplete,
        format!(
            "create started at {} and no result was recorded; the provider will not touch this MR until the pending annotation is resolved, and a cloud object may exist that nothing tracks",
            facts.marks.pending.raw.as_deref().unwrap_or("?")
        ),
        next,
    );
    Some(facts.with_marks(f).with_opt("synced", facts.synced_message().map(str::to_owned)).suggest(id))
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use super::ERR_CREATE_INCOMPLETE;
    use crate::domain::finding::Code::*;

    /// Follows crossplane-runtime `pkg/meta/meta.go` `ExternalCreateIncomplete` and the gate in
    /// `pkg/reconciler/managed/reconciler.go` `Reconcile` (after pause, Validate and deletion).
    const CASES: &[Case] = &[
        (
            "create incomplete (provider died)",
            || {
                base().annotation(P, T1).annotation(S, T0).cond("Ready", "False", "Creating", "").cond(
                    "Synced",
                    "False",
                    "ReconcileError",
                    ERR_CREATE_INCOMPLETE,
                )
            },
            &[CreateIncomplete, KstatusMisleading],
        ),
        (
            "pending equal to succeeded is complete",
            || base().healthy().annotation(P, T0).annotation(S, "2024-11-30T11:53:06+01:00"),
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
