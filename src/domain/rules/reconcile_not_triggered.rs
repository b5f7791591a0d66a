//! `ReconcileNotTriggered`: Synced still shows the create-incomplete gate after the create marks
//! were resolved by hand, and nothing will trigger a new reconcile.

use super::create_incomplete::ERR_CREATE_INCOMPLETE;
use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::managed::keys;

/// The gate (`Reconcile`'s create-incomplete check) returns `Requeue: false`, so only a watch
/// event brings the reconciler back. Its watch filter (`resource.DesiredStateChanged`) ignores
/// changes to `external-create-pending` and `external-create-failed`, so removing or rewriting
/// those marks by hand wakes nothing: Synced keeps the gate's message although the marks no
/// longer say incomplete. A changed `reconcile-requested-at` annotation does pass the filter.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let synced = facts.synced_message()?;
    if !synced.contains(ERR_CREATE_INCOMPLETE) || facts.marks.incomplete() || facts.paused {
        return None;
    }
    let f = Finding::new(
        Code::ReconcileNotTriggered,
        "Synced still reports the create-incomplete gate, but the create marks no longer say the create is incomplete: \
         the reconciler ignores edits to external-create-pending and external-create-failed, so it will not reconcile \
         this MR until something else about it changes",
        format!(
            "kubectl annotate {} {}=\"$(date +%s)\" --overwrite",
            facts.kubectl_target(),
            keys::RECONCILE_REQUESTED_AT
        ),
    );
    Some(facts.with_marks(f).with("synced", synced))
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::domain::finding::Code::{self, *};
    use crate::domain::managed::keys;
    use crate::domain::rules::{ERR_CREATE_INCOMPLETE, diagnose};
    use crate::domain::testing::Mr;

    fn gated() -> Mr {
        base().cond("Ready", "False", "Creating", "").cond("Synced", "False", "ReconcileError", ERR_CREATE_INCOMPLETE)
    }

    /// Follows crossplane-runtime `pkg/resource/predicates.go` `DesiredStateChanged` (the
    /// `AnnotationChangedPredicate` ignores external-create-pending and -failed) and
    /// `pkg/reconciler/managed/reconciler.go` `Reconcile` (the create-incomplete gate returns
    /// `Requeue: false`; the pause gate comes first); `pkg/meta` `ExternalCreateIncomplete`.
    const CASES: &[Case] = &[
        ("pending removed by hand", || gated().annotation(S, T0), &[ReconcileNotTriggered]),
        ("every mark removed by hand", gated, &[ReconcileNotTriggered]),
        (
            "failed written after pending by hand",
            || gated().annotation(P, T0).annotation(F, T1),
            &[ReconcileNotTriggered, CreateFailed],
        ),
        (
            "still incomplete: the gate itself",
            || gated().annotation(P, T1).annotation(S, T0),
            &[CreateIncomplete, KstatusMisleading],
        ),
        (
            "paused: the pause gate comes first",
            || gated().annotation(keys::PAUSED, "true"),
            &[Paused, KstatusMisleading],
        ),
        (
            "another reconcile error",
            || base().cond("Synced", "False", "ReconcileError", "connect failed: boom"),
            &[KstatusMisleading],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    #[test]
    fn next_step_requests_a_reconcile() {
        let mr = Mr::new("Vpc", "v").namespace("team-a");
        let mr = mr.cond("Synced", "False", "ReconcileError", ERR_CREATE_INCOMPLETE).build();
        let f = diagnose(&mr, super::super::cases::now())
            .into_iter()
            .find(|f| f.code == Code::ReconcileNotTriggered)
            .unwrap();
        assert_eq!(
            f.next,
            "kubectl annotate vpc.dns.gcp.upbound.io v -n team-a crossplane.io/reconcile-requested-at=\"$(date +%s)\" --overwrite"
        );
    }
}
