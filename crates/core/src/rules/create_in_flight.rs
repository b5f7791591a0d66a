//! `CreateInFlight`: a create has no result yet, but the reconcile that started it may still be
//! running, so nothing is stuck (yet).

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::goduration::format_go_secs;
use crate::reconcile_timeout::PendingCreate;

/// crossplane-runtime writes `external-create-pending` just before the external client's Create
/// and the result just after it returns, all inside one reconcile bounded by the reconciler's
/// timeout plus its grace period (`Reconcile`'s two contexts). Until that time has passed since
/// the pending mark, a slow synchronous Create may still be running and will record its result
/// by itself; only after it does the create-incomplete gate apply (`CreateIncomplete`). A
/// reconciler that already reported the gate, or a provider that restarted since the mark,
/// ended that reconcile early. Policies the reconciler rejects stop it before any create
/// (`UnsupportedManagementPolicies`).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let PendingCreate::InFlight { due } = facts.pending_create else { return None };
    if facts.management.validate().is_err() {
        return None;
    }
    let pending = facts.marks.pending.raw.as_deref().unwrap_or("?");
    let timeout = format_go_secs(facts.reconcile_timeout.secs());
    let f = Finding::new(
        Code::CreateInFlight,
        format!(
            "create started at {pending} and has no result yet, but it may still be running: the provider's reconcile gives Create {timeout} and records its result by {due}; only if none comes by then is it stuck (CreateIncomplete). Do not adopt or remove the pending annotation meanwhile"
        ),
        facts.upjet("doctor").to_string(),
    )
    .with("resultDue", due.to_string())
    .with("reconcileTimeout", timeout);
    Some(facts.with_marks(f))
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::create_marks::ERR_CREATE_INCOMPLETE;
    use crate::finding::Code::{self, *};
    use crate::gotime::GoTime;
    use crate::managed::keys;
    use crate::reconcile_timeout::{JudgedAt, ReconcileTimeout};
    use crate::rules::findings_with;
    use crate::testing::Mr;

    const MARKED: &str = "2026-11-27T10:00:00Z";

    fn codes(mr: Mr, now: &str, timeout: ReconcileTimeout) -> Vec<Code> {
        let at = JudgedAt::new(GoTime::parse_rfc3339(now).unwrap(), timeout);
        findings_with(&mr.build(), None, at).into_iter().map(|f| f.code).collect()
    }

    /// What a real crossplane-runtime reconciler leaves while its synchronous Create runs: the
    /// pending mark (a plain Update before Create) on a fresh MR, no status written yet.
    fn creating() -> Mr {
        Mr::new("Queue", "q").created(MARKED).annotation(keys::CREATE_PENDING, MARKED).no_status()
    }

    /// The reconciler-timeout boundary both ways, for crossplane-runtime's default (1m) and
    /// upjet's (3m): in flight (info) until the timeout, its 30 s grace and the mark's second
    /// have passed, then CreateIncomplete (error).
    #[test]
    fn in_flight_until_the_reconcile_timeout_then_incomplete() {
        let one_minute = ReconcileTimeout::from_secs(60);
        let cases: &[(&str, &str, ReconcileTimeout, &[Code])] = &[
            ("1m: ten seconds in", "2026-11-27T10:00:10Z", one_minute, &[CreateInFlight, KstatusMisleading]),
            ("1m: last second of the grace", "2026-11-27T10:01:30Z", one_minute, &[CreateInFlight, KstatusMisleading]),
            ("1m: result due", "2026-11-27T10:01:31Z", one_minute, &[CreateIncomplete, KstatusMisleading]),
            (
                "3m: two minutes in",
                "2026-11-27T10:02:00Z",
                ReconcileTimeout::UPJET,
                &[CreateInFlight, KstatusMisleading],
            ),
            ("3m: result due", "2026-11-27T10:03:31Z", ReconcileTimeout::UPJET, &[CreateIncomplete, KstatusMisleading]),
        ];
        for (name, now, timeout, want) in cases {
            assert_eq!(codes(creating(), now, *timeout), *want, "{name}");
        }
    }

    #[test]
    fn a_reported_gate_is_stuck_however_young_the_mark() {
        let gated = Mr::new("Queue", "q").created(MARKED).annotation(keys::CREATE_PENDING, MARKED).cond_at(
            "Synced",
            "False",
            "ReconcileError",
            ERR_CREATE_INCOMPLETE,
            "2026-11-27T10:00:05Z",
        );
        let got = codes(gated, "2026-11-27T10:00:10Z", ReconcileTimeout::UPJET);
        assert!(got.contains(&CreateIncomplete) && !got.contains(&CreateInFlight), "{got:?}");
    }

    #[test]
    fn the_finding_says_when_the_result_is_due_and_warns_off_adopting() {
        let at = JudgedAt::new(GoTime::parse_rfc3339("2026-11-27T10:00:10Z").unwrap(), ReconcileTimeout::UPJET);
        let f = findings_with(&creating().build(), None, at).into_iter().find(|f| f.code == CreateInFlight).unwrap();
        assert_eq!(f.severity, crate::finding::Severity::Info);
        assert_eq!(f.evidence["resultDue"], "2026-11-27T10:03:31Z");
        assert_eq!(f.evidence["reconcileTimeout"], "3m0s");
        assert!(f.message.contains("Do not adopt"), "{}", f.message);
        assert!(f.suggested_id.is_none());
    }

    const CASES: &[Case] = &[(
        "policies the reconciler rejects stop it before any create",
        || base().healthy().annotation(P, "2024-11-30T10:57:50Z").policies(&["Create", "Update", "Delete"]),
        &[UnsupportedManagementPolicies],
    )];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
