//! How long one reconcile of the provider may run, and what that says about a create that has
//! no result yet: still running, or stuck at the create-incomplete gate.
//!
//! crossplane-runtime's `Reconcile` (`pkg/reconciler/managed/reconciler.go`) runs each reconcile
//! under `context.WithTimeout(ctx, r.timeout+reconcileGracePeriod)` and every call of the
//! external client — `Create` included — under `context.WithTimeout(ctx, r.timeout)`. It writes
//! `crossplane.io/external-create-pending` (a plain `Update`) just before `Create`, and the
//! succeeded or failed mark (the critical-annotation updater, on the outer context) just after
//! it returns. So a pending mark younger than the timeout plus the grace period may belong to a
//! `Create` still running (a slow cloud API, a synchronous create): nothing is stuck yet. Past
//! that time the reconcile that wrote it has ended without a result, and the next reconcile stops
//! at the gate.

use super::create_marks::{CreateMarks, ERR_CREATE_INCOMPLETE};
use super::gotime::GoTime;
use super::managed::ManagedResource;

/// crossplane-runtime's `reconcileGracePeriod`: the reconcile's own context outlives the
/// external client's by this much, the time it has to record Create's result.
pub(crate) const RECONCILE_GRACE_SECS: i64 = 30;

/// The pending mark is written with `time.RFC3339`, whole seconds: the real write may be up to
/// this much later than the time it shows.
const MARK_PRECISION_SECS: i64 = 1;

/// The timeout a provider's managed reconciler was built with (`managed.WithTimeout`).
///
/// upjet's generated controllers pass `managed.WithTimeout(3 * time.Minute)` (its template
/// `pkg/pipeline/templates/controller.go.tmpl`, and every `zz_controller.go` of
/// provider-upjet-aws, -gcp and -azure), so three minutes is the default here.
/// crossplane-runtime's own default, for a reconciler built without the option
/// (`managed.NewReconciler`'s `reconcileTimeout`), is one minute; other providers pass their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReconcileTimeout {
    secs: i64,
}

impl ReconcileTimeout {
    /// upjet's generated controllers: three minutes.
    pub const UPJET: ReconcileTimeout = ReconcileTimeout { secs: 180 };

    /// A timeout of whole seconds (a provider's `WithTimeout`); at least one second.
    pub fn from_secs(secs: u64) -> ReconcileTimeout {
        ReconcileTimeout { secs: i64::try_from(secs).unwrap_or(i64::MAX / 4).max(1) }
    }

    /// The timeout in seconds.
    pub fn secs(self) -> i64 {
        self.secs
    }

    /// The latest time the reconcile that wrote a pending mark showing `pending` can still
    /// record Create's result: the mark's second, the external client's timeout, then the grace
    /// period the reconcile keeps to write the result.
    pub(crate) fn result_due(self, pending: GoTime) -> GoTime {
        pending.add_secs(MARK_PRECISION_SECS + self.secs + RECONCILE_GRACE_SECS)
    }
}

impl Default for ReconcileTimeout {
    fn default() -> ReconcileTimeout {
        ReconcileTimeout::UPJET
    }
}

/// When a judgement is made and what it assumes of the provider's reconciler: what the
/// time-dependent rules compare with. Built once per command from its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgedAt {
    /// "Now" (`Settings::now`).
    pub now: GoTime,
    /// The providers' reconcile timeout (`--create-timeout`).
    pub reconcile_timeout: ReconcileTimeout,
}

impl JudgedAt {
    /// A judgement at `now` for providers whose reconcilers time out after `reconcile_timeout`.
    pub fn new(now: GoTime, reconcile_timeout: ReconcileTimeout) -> JudgedAt {
        JudgedAt { now, reconcile_timeout }
    }

    /// A judgement at `now` for upjet's generated controllers (the default timeout).
    pub fn upjet(now: GoTime) -> JudgedAt {
        JudgedAt::new(now, ReconcileTimeout::UPJET)
    }
}

/// What a create without a recorded result means now (crossplane-runtime's
/// `meta.ExternalCreateIncomplete` decides whether there is one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PendingCreate {
    /// Every create has its result: the gate lets the reconciler through.
    None,
    /// The reconcile that marked the create pending may still be inside `Create`; its result is
    /// due by `due`, and only after that can the MR be stuck.
    InFlight {
        /// The latest time the running reconcile can record the result ([`ReconcileTimeout::result_due`]).
        due: GoTime,
    },
    /// No result, and none can come: the reconcile that marked it has ended (its time is up,
    /// the reconciler already reported its gate, or the provider restarted since), so the
    /// reconciler stops at the create-incomplete gate until someone resolves the mark.
    Stuck,
}

impl PendingCreate {
    /// Judges the MR's create marks at `at`. `restarted` holds the provider's (re)start times
    /// when they are known: a start after the pending mark ended the reconcile that wrote it.
    pub fn of(mr: &ManagedResource, marks: &CreateMarks, restarted: &[GoTime], at: JudgedAt) -> PendingCreate {
        if !marks.incomplete() {
            return PendingCreate::None;
        }
        let pending = marks.pending.at;
        let due = at.reconcile_timeout.result_due(pending);
        let ended = restarted.iter().any(|start| start.after(&pending));
        if !at.now.before(&due) || ended || gate_reported_since(mr, pending) {
            PendingCreate::Stuck
        } else {
            PendingCreate::InFlight { due }
        }
    }

    /// The reconciler stops at the gate (or will, at its next reconcile).
    pub(crate) fn is_stuck(self) -> bool {
        self == PendingCreate::Stuck
    }

    /// A create may still be running.
    pub(crate) fn is_in_flight(self) -> bool {
        matches!(self, PendingCreate::InFlight { .. })
    }
}

/// Synced carries the gate's own error, set at or after the pending mark: a reconcile after the
/// one that wrote the mark has already stopped at the gate. (`SetConditions` keeps an equal
/// condition's old transition time, so a gate reported before the mark proves nothing.)
fn gate_reported_since(mr: &ManagedResource, pending: GoTime) -> bool {
    let Some(synced) = mr.condition("Synced") else { return false };
    if synced.status != "False" || !synced.message.contains(ERR_CREATE_INCOMPLETE) {
        return false;
    }
    synced.last_transition_time.as_deref().and_then(GoTime::parse_rfc3339).is_none_or(|t| !t.before(&pending))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::managed::keys;
    use crate::testing::Mr;

    const PENDING: &str = "2026-11-27T10:00:00Z";

    fn t(s: &str) -> GoTime {
        GoTime::parse_rfc3339(s).unwrap()
    }

    fn judge(mr: Mr, restarted: &[GoTime], now: &str, timeout: ReconcileTimeout) -> PendingCreate {
        judge_mr(mr.build(), restarted, now, timeout)
    }

    fn judge_mr(mr: ManagedResource, restarted: &[GoTime], now: &str, timeout: ReconcileTimeout) -> PendingCreate {
        PendingCreate::of(&mr, &CreateMarks::of(&mr), restarted, JudgedAt::new(t(now), timeout))
    }

    fn pending() -> Mr {
        Mr::new("Queue", "q").annotation(keys::CREATE_PENDING, PENDING)
    }

    /// The boundary both ways: the mark's second, the timeout and the 30 s grace period.
    #[test]
    fn in_flight_until_the_timeout_and_the_grace_period_have_passed() {
        let one_minute = ReconcileTimeout::from_secs(60);
        let due = t("2026-11-27T10:01:31Z");
        let cases: &[(&str, &str, ReconcileTimeout, PendingCreate)] = &[
            ("just marked", "2026-11-27T10:00:00Z", one_minute, PendingCreate::InFlight { due }),
            ("at the timeout, within the grace", "2026-11-27T10:01:00Z", one_minute, PendingCreate::InFlight { due }),
            ("one second before due", "2026-11-27T10:01:30Z", one_minute, PendingCreate::InFlight { due }),
            ("due", "2026-11-27T10:01:31Z", one_minute, PendingCreate::Stuck),
            ("long after", "2026-11-27T11:00:00Z", one_minute, PendingCreate::Stuck),
            (
                "upjet's three minutes: still running at two",
                "2026-11-27T10:02:00Z",
                ReconcileTimeout::UPJET,
                PendingCreate::InFlight { due: t("2026-11-27T10:03:31Z") },
            ),
            (
                "upjet's three minutes: stuck after 3m31s",
                "2026-11-27T10:03:31Z",
                ReconcileTimeout::UPJET,
                PendingCreate::Stuck,
            ),
        ];
        for (name, now, timeout, want) in cases {
            assert_eq!(judge(pending(), &[], now, *timeout), *want, "{name}");
        }
    }

    #[test]
    fn a_result_or_no_pending_mark_is_no_pending_create() {
        let done = pending().annotation(keys::CREATE_SUCCEEDED, PENDING);
        assert_eq!(judge(done, &[], "2026-11-27T10:00:10Z", ReconcileTimeout::UPJET), PendingCreate::None);
        let none = Mr::new("Queue", "q");
        assert_eq!(judge(none, &[], "2026-11-27T10:00:10Z", ReconcileTimeout::UPJET), PendingCreate::None);
    }

    /// A young mark is stuck at once when a later reconcile already stopped at the gate, or the
    /// provider restarted after it; a gate reported before the mark, or a start before it, says
    /// nothing about this create.
    #[test]
    fn a_reported_gate_or_a_restart_since_the_mark_ends_the_create_early() {
        let now = "2026-11-27T10:00:20Z";
        let gate = |ltt: &str| pending().cond_at("Synced", "False", "ReconcileError", ERR_CREATE_INCOMPLETE, ltt);
        let cases: Vec<(&str, Mr, Vec<GoTime>, bool)> = vec![
            ("gate reported after the mark", gate("2026-11-27T10:00:05Z"), vec![], true),
            ("gate reported in the mark's second", gate(PENDING), vec![], true),
            ("gate reported before the mark", gate("2026-11-27T09:59:00Z"), vec![], false),
            (
                "another error",
                pending().cond("Synced", "False", "ReconcileError", "connect failed: boom"),
                vec![],
                false,
            ),
            ("provider restarted after the mark", pending(), vec![t("2026-11-27T10:00:09Z")], true),
            ("provider started before the mark", pending(), vec![t("2026-11-27T09:00:00Z")], false),
        ];
        for (name, mr, restarted, stuck) in cases {
            let got = judge(mr, &restarted, now, ReconcileTimeout::UPJET);
            assert_eq!(got.is_stuck(), stuck, "{name}: {got:?}");
            assert_eq!(got.is_in_flight(), !stuck, "{name}: {got:?}");
        }
        let mut untimed = gate(PENDING).build();
        untimed.conditions[0].last_transition_time = None;
        assert!(judge_mr(untimed, &[], now, ReconcileTimeout::UPJET).is_stuck(), "a gate without a transition time");
    }

    #[test]
    fn a_timeout_is_at_least_one_second() {
        assert_eq!(ReconcileTimeout::from_secs(0).secs(), 1);
        assert_eq!(ReconcileTimeout::from_secs(u64::MAX).secs(), i64::MAX / 4);
        assert_eq!(ReconcileTimeout::default(), ReconcileTimeout::UPJET);
    }
}
