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

#[test]
fn only_an_observing_mr_needs_a_safe_stop() {
    for (phase, want) in
        [(Phase::Untouched, false), (Phase::Paused, false), (Phase::Observing, true), (Phase::Adopted, false)]
    {
        assert_eq!(phase.needs_safe_stop(), want, "{phase:?}");
    }
}
