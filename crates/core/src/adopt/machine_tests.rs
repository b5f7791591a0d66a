use super::*;

const S: Duration = Duration::from_secs(1);

/// One transition: the state before, what was observed, what must come next, and the phase after.
struct Case {
    name: &'static str,
    state: fn() -> State,
    obs: fn() -> Observation,
    want: fn() -> Next,
    phase: Phase,
}

fn at(phase: Phase) -> State {
    State { phase, ..State::start(Phase::Untouched, "vpc-1", false, false) }
}

fn change() -> Change {
    Change { field: "metadata.annotations[crossplane.io/paused]".into(), before: None, after: Some("false".into()) }
}

fn polled(progress: Progress, name: Option<&str>, elapsed: Duration) -> Observation {
    Observation::Polled { progress, external_name: name.map(str::to_owned), elapsed, timeout: 10 * S }
}

fn before(step: StepKind, interrupted: bool) -> Observation {
    Observation::Before { step, interrupted }
}

static CASES: &[Case] = &[
    Case {
        name: "write step",
        state: || at(Phase::Paused),
        obs: || before(StepKind::Write, false),
        want: || Next::Write,
        phase: Phase::Paused,
    },
    Case {
        name: "wait step",
        state: || at(Phase::Adopted),
        obs: || before(StepKind::Wait, false),
        want: || Next::Poll,
        phase: Phase::Adopted,
    },
    Case {
        name: "done step",
        state: || at(Phase::Untouched),
        obs: || before(StepKind::Done, false),
        want: || Next::Skip,
        phase: Phase::Untouched,
    },
    Case {
        name: "Ctrl-C between steps",
        state: || at(Phase::Observing),
        obs: || before(StepKind::Write, true),
        want: || Next::Stop(Stop::Interrupted),
        phase: Phase::Observing,
    },
    Case {
        name: "Ctrl-C in a wait",
        state: || at(Phase::Adopted),
        obs: || Observation::Interrupted,
        want: || Next::Stop(Stop::Interrupted),
        phase: Phase::Adopted,
    },
    Case {
        name: "pause written",
        state: || at(Phase::Untouched),
        obs: || Observation::Written(Write::Step(Action::Pause)),
        want: || Next::Continue,
        phase: Phase::Paused,
    },
    Case {
        name: "identity written",
        state: || at(Phase::Paused),
        obs: || Observation::Written(Write::Step(Action::Identity)),
        want: || Next::Continue,
        phase: Phase::Paused,
    },
    Case {
        name: "observe written",
        state: || at(Phase::Paused),
        obs: || Observation::Written(Write::Step(Action::Observe)),
        want: || Next::Continue,
        phase: Phase::Observing,
    },
    Case {
        name: "policies restored",
        state: || at(Phase::Observing),
        obs: || Observation::Written(Write::Step(Action::RestorePolicies)),
        want: || Next::Continue,
        phase: Phase::Adopted,
    },
    Case {
        name: "unpaused",
        state: || at(Phase::Paused),
        obs: || Observation::Written(Write::Step(Action::Unpause)),
        want: || Next::Continue,
        phase: Phase::Adopted,
    },
    Case {
        name: "safe stop",
        state: || at(Phase::Observing),
        obs: || Observation::Written(Write::SafeStop),
        want: || Next::Continue,
        phase: Phase::Paused,
    },
    Case {
        name: "undone",
        state: || at(Phase::Observing),
        obs: || Observation::Written(Write::Undo),
        want: || Next::Continue,
        phase: Phase::Untouched,
    },
    Case {
        name: "status-only conflict",
        state: || at(Phase::Paused),
        obs: || Observation::Conflict { changes: vec![], recovering: false },
        want: || Next::Retry,
        phase: Phase::Paused,
    },
    Case {
        name: "status-only conflicts without end",
        state: || State { conflicts: MAX_BENIGN_CONFLICTS - 1, ..at(Phase::Paused) },
        obs: || Observation::Conflict { changes: vec![], recovering: true },
        want: || Next::Stop(Stop::KeepsChanging),
        phase: Phase::Paused,
    },
    Case {
        name: "real conflict, no terminal",
        state: || at(Phase::Paused),
        obs: || Observation::Conflict { changes: vec![change()], recovering: false },
        want: || Next::Stop(Stop::Conflicted(vec![change()])),
        phase: Phase::Paused,
    },
    Case {
        name: "real conflict, may ask",
        state: || State { may_replan: true, ..at(Phase::Paused) },
        obs: || Observation::Conflict { changes: vec![change()], recovering: false },
        want: || Next::Replan,
        phase: Phase::Paused,
    },
    Case {
        name: "real conflict on a recovery write",
        state: || State { may_replan: true, ..at(Phase::Observing) },
        obs: || Observation::Conflict { changes: vec![change()], recovering: true },
        want: || Next::Stop(Stop::Conflicted(vec![change()])),
        phase: Phase::Observing,
    },
    Case {
        name: "confirmed",
        state: || at(Phase::Adopted),
        obs: || polled(Progress::Done("ok".into()), Some("vpc-1"), S),
        want: || Next::Continue,
        phase: Phase::Adopted,
    },
    Case {
        name: "confirmed, but renamed meanwhile",
        state: || at(Phase::Adopted),
        obs: || polled(Progress::Done("ok".into()), Some("other"), S),
        want: || Next::Stop(Stop::NameChanged(Some("other".into()))),
        phase: Phase::Adopted,
    },
    Case {
        name: "not found",
        state: || at(Phase::Observing),
        obs: || polled(Progress::NotFound("gone".into()), Some("vpc-1"), S),
        want: || Next::Undo("gone".into()),
        phase: Phase::Observing,
    },
    Case {
        name: "waiting",
        state: || at(Phase::Observing),
        obs: || polled(Progress::Waiting("w".into()), None, S),
        want: || Next::Sleep(POLL),
        phase: Phase::Observing,
    },
    Case {
        name: "last nap is short",
        state: || at(Phase::Observing),
        obs: || polled(Progress::Waiting("w".into()), None, Duration::from_millis(9800)),
        want: || Next::Sleep(Duration::from_millis(200)),
        phase: Phase::Observing,
    },
    Case {
        name: "timed out",
        state: || State { last_seen: "w".into(), ..at(Phase::Observing) },
        obs: || polled(Progress::Waiting("w".into()), None, 10 * S),
        want: || Next::Stop(Stop::TimedOut(TimedOut { after: 10 * S, last: "w".into() })),
        phase: Phase::Observing,
    },
    Case {
        name: "final wait after an import timed out: only a warning",
        state: || State { import: true, ..at(Phase::Adopted) },
        obs: || polled(Progress::Waiting("w".into()), None, 11 * S),
        want: || Next::Continue,
        phase: Phase::Adopted,
    },
    Case {
        name: "final wait without import timed out",
        state: || at(Phase::Adopted),
        obs: || polled(Progress::Waiting("w".into()), None, 10 * S),
        want: || Next::Stop(Stop::TimedOut(TimedOut { after: 10 * S, last: "w".into() })),
        phase: Phase::Adopted,
    },
    Case {
        name: "read failed",
        state: || at(Phase::Adopted),
        obs: || Observation::ReadFailed { fatal: false, elapsed: S, timeout: 10 * S },
        want: || Next::Sleep(POLL),
        phase: Phase::Adopted,
    },
    Case {
        name: "forbidden read",
        state: || at(Phase::Adopted),
        obs: || Observation::ReadFailed { fatal: true, elapsed: S, timeout: 10 * S },
        want: || Next::Stop(Stop::Failed),
        phase: Phase::Adopted,
    },
    Case {
        name: "reads keep failing",
        state: || State { read_failures: MAX_READ_FAILURES - 1, ..at(Phase::Adopted) },
        obs: || Observation::ReadFailed { fatal: false, elapsed: S, timeout: 10 * S },
        want: || Next::Stop(Stop::Failed),
        phase: Phase::Adopted,
    },
    Case {
        name: "read failed at the deadline",
        state: || at(Phase::Paused),
        obs: || Observation::ReadFailed { fatal: false, elapsed: 10 * S, timeout: 10 * S },
        want: || Next::Stop(Stop::TimedOut(TimedOut { after: 10 * S, last: String::new() })),
        phase: Phase::Paused,
    },
];

#[test]
fn transitions() {
    for case in CASES {
        let (state, next) = next(&(case.state)(), (case.obs)());
        assert_eq!(next, (case.want)(), "{}", case.name);
        assert_eq!(state.phase, case.phase, "{}", case.name);
    }
}

#[test]
fn a_judgement_is_shown_once_and_counters_reset_per_step() {
    let s = at(Phase::Observing);
    let (s, _) = next(&s, polled(Progress::Waiting("w".into()), None, S));
    assert_eq!(s.say.as_deref(), Some("w"));
    let (s, _) = next(&s, polled(Progress::Waiting("w".into()), None, 2 * S));
    assert_eq!(s.say, None, "unchanged: not shown again");
    let (s, _) = next(&s, polled(Progress::Done("ok".into()), Some("vpc-1"), 3 * S));
    assert_eq!(s.say.as_deref(), Some("ok"));
    let (s, _) = next(&s, Observation::Conflict { changes: vec![], recovering: false });
    let (s, _) = next(&s, Observation::ReadFailed { fatal: false, elapsed: S, timeout: 10 * S });
    assert_eq!((s.conflicts, s.read_failures), (1, 1));
    let (s, _) = next(&s, before(StepKind::Wait, false));
    assert_eq!((s.conflicts, s.read_failures, s.last_seen.as_str()), (0, 0, ""));
    // The warning of a timed-out final confirmation is kept for the end.
    let s = State { import: true, ..at(Phase::Adopted) };
    let (s, next) = next(&s, polled(Progress::Waiting("slow".into()), None, 10 * S));
    assert_eq!(next, Next::Continue);
    assert_eq!(s.say.as_deref(), Some("slow"), "the last judgement is still shown");
    assert_eq!(s.note, Some(TimedOut { after: 10 * S, last: "slow".into() }));
}

/// On a runtime that writes no sign of a reconcile, the final wait after an import ends once
/// the end state held for [`UNMARKED_HOLD`] (or at the timeout), saying what it confirmed and
/// what it could not; anything else seen meanwhile starts the hold over; without an import the
/// ID is unproven and the wait times out as before.
#[test]
fn an_unmarked_end_state_is_taken_once_it_held_after_an_import() {
    let unmarked = || Progress::Unmarked("Synced=True and Ready=True".into());
    let final_wait = || State { import: true, ..at(Phase::Adopted) };
    let long = |progress: Progress, name: Option<&str>, elapsed: Duration| Observation::Polled {
        progress,
        external_name: name.map(str::to_owned),
        elapsed,
        timeout: 90 * S,
    };
    let (s, n) = next(&final_wait(), long(unmarked(), Some("vpc-1"), S));
    assert_eq!((n, s.unmarked_since), (Next::Sleep(POLL), Some(S)));
    assert!(s.say.as_deref().is_some_and(|m| m.contains("watching that this holds for 10s")), "{:?}", s.say);
    let (s, n) = next(&s, long(unmarked(), Some("vpc-1"), S + UNMARKED_HOLD - S / 2));
    assert_eq!(n, Next::Sleep(POLL));
    let (done, n) = next(&s, long(unmarked(), Some("vpc-1"), S + UNMARKED_HOLD));
    assert_eq!((n, done.note.clone()), (Next::Continue, None), "done, with no timeout warning");
    let said = done.say.clone().unwrap_or_default();
    assert!(said.starts_with("confirmed: Synced=True and Ready=True for 10s after the final policies"), "{said}");
    assert!(said.contains("the import proved ID \"vpc-1\"") && said.contains("not proven: the reconcile"), "{said}");
    assert!(said.contains("before v1.20"), "{said}");
    // A Synced gone False meanwhile starts the hold over.
    let (s2, _) = next(&s, long(Progress::Waiting("Synced=False".into()), Some("vpc-1"), 6 * S));
    assert_eq!(s2.unmarked_since, None);
    let (s2, n) = next(&s2, long(unmarked(), Some("vpc-1"), S + UNMARKED_HOLD));
    assert_eq!((n, s2.unmarked_since), (Next::Sleep(POLL), Some(S + UNMARKED_HOLD)));
    // Renamed meanwhile: not taken.
    let (_, n) = next(&s, long(unmarked(), Some("other"), S + UNMARKED_HOLD));
    assert_eq!(n, Next::Stop(Stop::NameChanged(Some("other".into()))));
    // A timeout shorter than the hold: taken at the timeout, still not a warning.
    let short = State { unmarked_since: Some(S), ..final_wait() };
    let (s3, n) = next(&short, polled(unmarked(), Some("vpc-1"), 10 * S));
    assert_eq!((n, s3.note), (Next::Continue, None));
    // Without an import nothing proved the ID: it waits, and times out as before.
    let (s4, n) = next(&at(Phase::Adopted), polled(unmarked(), Some("vpc-1"), S + UNMARKED_HOLD / 2));
    assert_eq!((n, s4.unmarked_since), (Next::Sleep(POLL), None));
    let (_, n) = next(&s4, polled(unmarked(), Some("vpc-1"), 10 * S));
    assert!(matches!(n, Next::Stop(Stop::TimedOut(_))), "{n:?}");
}

#[test]
fn only_an_observing_mr_needs_a_safe_stop() {
    for (phase, want) in
        [(Phase::Untouched, false), (Phase::Paused, false), (Phase::Observing, true), (Phase::Adopted, false)]
    {
        assert_eq!(phase.needs_safe_stop(), want, "{phase:?}");
    }
}
