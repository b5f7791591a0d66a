//! `ReconcileNotTriggered`: Synced still shows the create-incomplete gate after the create marks
//! were resolved by hand, and nothing will trigger a new reconcile.

use super::facts::Facts;
use crate::create_marks::ERR_CREATE_INCOMPLETE;
use crate::finding::{Code, Finding};
use crate::managed::keys;

/// The gate (`Reconcile`'s create-incomplete check) returns `Requeue: false`, so only a watch
/// event brings the reconciler back. Its watch filter (`resource.DesiredStateChanged`) ignores
/// changes to `external-create-pending` and `external-create-failed`, so removing or rewriting
/// those marks by hand wakes nothing: Synced keeps the gate's message although the marks no
/// longer say incomplete. A changed `reconcile-requested-at` annotation does pass the filter.
///
/// crossplane-runtime ≥ v2.3 acknowledges that annotation's token in
/// `status.lastHandledReconcileAt`: a request that was handled is no sign of a missing
/// reconcile. A token that was not handled is either still queued, or the provider's runtime is
/// older and records nothing (its CRD has no such field); the message says which.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let synced = facts.synced_message()?;
    if !synced.contains(ERR_CREATE_INCOMPLETE) || facts.marks.incomplete() || facts.paused {
        return None;
    }
    let request = request_state(facts);
    if request == Request::Handled {
        return None;
    }
    let f = Finding::new(
        Code::ReconcileNotTriggered,
        format!(
            "Synced still reports the create-incomplete gate, but the create marks no longer say the create is incomplete: \
             the reconciler ignores edits to external-create-pending and external-create-failed, so it will not reconcile \
             this MR until something else about it changes{}",
            request.says()
        ),
        facts
            .kubectl("annotate")
            .arg_then(format!("{}=", keys::RECONCILE_REQUESTED_AT), "\"$(date +%s)\"")
            .word("--overwrite"),
    );
    let f = f
        .with_opt(keys::RECONCILE_REQUESTED_AT, facts.mr.annotation(keys::RECONCILE_REQUESTED_AT))
        .with_opt("status.lastHandledReconcileAt", facts.mr.last_handled_reconcile_at.as_deref());
    Some(facts.with_marks(f).with("synced", synced))
}

/// What became of the MR's `reconcile-requested-at` token.
#[derive(Debug, PartialEq, Eq)]
enum Request {
    /// No token.
    None,
    /// `status.lastHandledReconcileAt` holds the token: a reconcile saw it.
    Handled,
    /// The runtime acknowledges requests, and this one is not acknowledged yet.
    Queued,
    /// The provider's CRD has no `lastHandledReconcileAt`: its runtime predates v2.3 and records
    /// nothing (the annotation change still woke the reconciler once, when it was made).
    Unacknowledged,
    /// Not acknowledged, and whether the runtime would is unknown.
    Unknown,
}

fn request_state(facts: &Facts) -> Request {
    let Some(token) = facts.mr.annotation(keys::RECONCILE_REQUESTED_AT) else { return Request::None };
    match facts.mr.last_handled_reconcile_at.as_deref() {
        Some(handled) if handled == token => Request::Handled,
        Some(_) => Request::Queued,
        None => match facts.evidence.and_then(|e| e.acknowledges_requests) {
            Some(true) => Request::Queued,
            Some(false) => Request::Unacknowledged,
            None => Request::Unknown,
        },
    }
}

impl Request {
    fn says(&self) -> &'static str {
        match self {
            Request::None | Request::Handled => "",
            Request::Queued => {
                "; a reconcile was requested (reconcile-requested-at) but status.lastHandledReconcileAt does not show it handled yet: the provider has not reconciled since, so check that it runs"
            }
            Request::Unacknowledged => {
                "; reconcile-requested-at is set, but this provider's crossplane-runtime is older than v2.3 and never acknowledges it (its CRD has no status.lastHandledReconcileAt): changing the token still wakes the reconciler"
            }
            Request::Unknown => {
                "; reconcile-requested-at is set but not acknowledged: either the provider has not reconciled since, or its crossplane-runtime is older than v2.3 and records nothing"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::create_marks::ERR_CREATE_INCOMPLETE;
    use crate::finding::Code::{self, *};
    use crate::managed::keys;
    use crate::rules::diagnose;
    use crate::testing::Mr;

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
            "a reconcile request was handled (crossplane-runtime ≥ v2.3): not 'not triggered'",
            || gated().annotation(S, T0).annotation(keys::RECONCILE_REQUESTED_AT, "t1").last_handled("t1"),
            &[],
        ),
        (
            "a newer request not handled yet",
            || gated().annotation(S, T0).annotation(keys::RECONCILE_REQUESTED_AT, "t2").last_handled("t1"),
            &[ReconcileNotTriggered],
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

    /// crossplane-runtime v2.3 `Reconcile`: the handled token goes to
    /// `status.lastHandledReconcileAt`; older runtimes have no such field in their CRDs.
    #[test]
    fn an_unhandled_request_says_whether_the_runtime_acknowledges_requests() {
        use crate::rules::{MrEvidence, findings_with};
        let mr = gated().annotation(S, T0).annotation(keys::RECONCILE_REQUESTED_AT, "t2").build();
        for (acks, says) in [
            (Some(true), "does not show it handled yet"),
            (Some(false), "older than v2.3 and never acknowledges it"),
            (None, "either the provider has not reconciled since, or"),
        ] {
            let ev = MrEvidence { acknowledges_requests: acks, ..MrEvidence::default() };
            let f = findings_with(&mr, Some(&ev), super::super::cases::at())
                .into_iter()
                .find(|f| f.code == Code::ReconcileNotTriggered)
                .unwrap();
            assert!(f.message.contains(says), "{acks:?}: {}", f.message);
            assert_eq!(f.evidence.get(keys::RECONCILE_REQUESTED_AT).map(String::as_str), Some("t2"));
        }
    }

    #[test]
    fn next_step_requests_a_reconcile() {
        let mr = Mr::new("Vpc", "v").namespace("team-a");
        let mr = mr.cond("Synced", "False", "ReconcileError", ERR_CREATE_INCOMPLETE).build();
        let f = diagnose(&mr, super::super::cases::at())
            .into_iter()
            .find(|f| f.code == Code::ReconcileNotTriggered)
            .unwrap();
        assert_eq!(
            f.next,
            "kubectl annotate vpc.dns.gcp.upbound.io v -n team-a crossplane.io/reconcile-requested-at=\"$(date +%s)\" --overwrite"
        );
    }
}
