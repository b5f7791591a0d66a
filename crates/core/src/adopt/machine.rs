//! The adoption as a pure state machine: the executor reports what it observed (a write stored,
//! a 409, a read during a wait, Ctrl-C) and [`next`] answers what to do next. Phases, wait
//! timeouts and the conflict policy live here, so they are table-tested without a cluster; the
//! executor only reads, writes, sleeps and reports. The machine never reads the clock: the
//! executor passes the time a wait has taken.

use super::wait::NO_SIGN;
use super::{Action, Change, Progress, Step};
use crate::shell::quoted;
use std::time::Duration;

/// Status-only conflicts (the provider writing status) one write retries before giving up.
pub const MAX_BENIGN_CONFLICTS: usize = 20;
/// How often a wait step re-reads the MR.
pub const POLL: Duration = Duration::from_millis(500);
/// Consecutive failed reads that end a wait (a single failed read is retried).
pub(crate) const MAX_READ_FAILURES: usize = 5;
/// How long the end state must hold, in the final wait after an import, on a provider whose
/// runtime writes no sign of a reconcile ([`Progress::Unmarked`]): long enough for the reconcile
/// the final policies asked for to run and, should it fail, to turn Synced False (a provider not
/// backlogged reconciles a write within seconds); far shorter than sitting out `--timeout`.
pub(crate) const UNMARKED_HOLD: Duration = Duration::from_secs(10);

/// Where an adoption stands, to say what state an interruption or failure leaves the MR in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// Nothing written.
    #[default]
    Untouched,
    /// Paused (identity possibly written).
    Paused,
    /// Observe-only and unpaused (import phase).
    Observing,
    /// Identity complete and unpaused with the final policies.
    Adopted,
}

impl Phase {
    /// Whether stopping now needs a write first: an MR observing only is unpaused, so it is paused
    /// again and gets its policies back before the command gives up.
    pub fn needs_safe_stop(self) -> bool {
        self == Phase::Observing
    }
}

/// A write the executor made, for the phase it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// A plan step's patch.
    Step(Action),
    /// The safe-stop patch (paused again, original policies back).
    SafeStop,
    /// The undo from the marker (exactly as before the adoption).
    Undo,
}

/// What a plan step asks of the executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Send its merge patch.
    Write,
    /// Poll the MR until the provider confirms.
    Wait,
    /// Nothing: a write a resumed adoption already made.
    Done,
}

impl StepKind {
    /// The kind of a plan step.
    pub fn of(step: &Step) -> StepKind {
        match (&step.patch, &step.wait) {
            (Some(_), _) => StepKind::Write,
            (None, Some(_)) => StepKind::Wait,
            (None, None) => StepKind::Done,
        }
    }
}

/// The machine's memory between observations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    /// Where the MR stands.
    pub phase: Phase,
    /// The ID being adopted.
    pub id: String,
    /// Whether the plan verifies with an import phase (a timeout of the final wait is then only
    /// a warning: the import already proved the ID).
    pub import: bool,
    /// Whether a conflicting change may be resolved by re-planning and asking again.
    pub may_replan: bool,
    /// Status-only conflicts met by the current write.
    pub conflicts: usize,
    /// Consecutive failed reads in the current wait.
    pub read_failures: usize,
    /// The last "waiting" judgement reported in the current wait.
    pub last_seen: String,
    /// When, in the current wait, the unmarked end state was first seen ([`UNMARKED_HOLD`]);
    /// any other judgement starts it over.
    pub unmarked_since: Option<Duration>,
    /// A warning to report when the adoption ends.
    pub note: Option<TimedOut>,
    /// A judgement of the provider's progress to show now, before acting on the answer (set by
    /// the last transition only).
    pub say: Option<String>,
}

impl State {
    /// The state before the first step of a plan.
    pub fn start(phase: Phase, id: &str, import: bool, may_replan: bool) -> State {
        State { phase, id: id.to_string(), import, may_replan, ..State::default() }
    }
}

/// The provider did not confirm a wait in time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedOut {
    /// The timeout of the wait.
    pub after: Duration,
    /// The last judgement seen.
    pub last: String,
}

/// What the executor observed.
#[derive(Clone, Debug, PartialEq)]
pub enum Observation {
    /// Between steps: the next step's kind, and whether Ctrl-C was pressed.
    Before {
        /// What the step asks.
        step: StepKind,
        /// Ctrl-C was pressed.
        interrupted: bool,
    },
    /// A write was stored.
    Written(Write),
    /// A write got 409; `changes` are what someone else changed on the parts that matter (empty:
    /// status only). `recovering`: the write was a safe stop or an undo, never re-planned.
    Conflict {
        /// What changed that matters.
        changes: Vec<Change>,
        /// The write was a recovery write.
        recovering: bool,
    },
    /// A read during a wait: its judgement, the external-name the MR has now, and how long the
    /// wait has taken of its timeout.
    Polled {
        /// The wait judgement of the read.
        progress: Progress,
        /// The MR's external-name now.
        external_name: Option<String>,
        /// Time since the wait started.
        elapsed: Duration,
        /// The wait's timeout.
        timeout: Duration,
    },
    /// A read during a wait failed; `fatal` for failures a retry cannot fix (forbidden, gone).
    ReadFailed {
        /// Not worth retrying.
        fatal: bool,
        /// Time since the wait started.
        elapsed: Duration,
        /// The wait's timeout.
        timeout: Duration,
    },
    /// Ctrl-C during a wait.
    Interrupted,
}

/// What the executor does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Send the current step's patch.
    Write,
    /// Read the MR (the first read of a wait).
    Poll,
    /// Sleep this long (or until Ctrl-C), then read again.
    Sleep(Duration),
    /// The step needs nothing: say so and go on.
    Skip,
    /// The step is complete.
    Continue,
    /// A status-only conflict: send the same write again on the fresh object.
    Retry,
    /// Someone else changed what matters: show it, then re-plan from the fresh object.
    Replan,
    /// The provider reports that no cloud object has the ID: put the MR back as it was.
    Undo(String),
    /// Stop here, leaving the MR safe (see [`Phase::needs_safe_stop`]).
    Stop(Stop),
}

/// Why an adoption stops before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Ctrl-C.
    Interrupted,
    /// Someone else changed what matters, and it is not re-planned.
    Conflicted(Vec<Change>),
    /// Status-only conflicts kept coming.
    KeepsChanging,
    /// The external-name was changed by someone else during a wait.
    NameChanged(Option<String>),
    /// The provider did not confirm in time.
    TimedOut(TimedOut),
    /// A write or read failed; the executor holds the error.
    Failed,
}

/// The single transition function of an adoption.
pub fn next(state: &State, obs: Observation) -> (State, Next) {
    let mut s = state.clone();
    s.say = None;
    let next = match obs {
        Observation::Before { interrupted: true, .. } | Observation::Interrupted => Next::Stop(Stop::Interrupted),
        Observation::Before { step, .. } => {
            s.conflicts = 0;
            s.read_failures = 0;
            s.last_seen.clear();
            s.unmarked_since = None;
            match step {
                StepKind::Write => Next::Write,
                StepKind::Wait => Next::Poll,
                StepKind::Done => Next::Skip,
            }
        }
        Observation::Written(write) => {
            s.conflicts = 0;
            s.phase = phase_after(s.phase, write);
            Next::Continue
        }
        Observation::Conflict { changes, recovering } => on_conflict(&mut s, changes, recovering),
        Observation::Polled { progress, external_name, elapsed, timeout } => {
            s.read_failures = 0;
            on_poll(&mut s, progress, external_name, elapsed, timeout)
        }
        Observation::ReadFailed { fatal, elapsed, timeout } => {
            s.read_failures += 1;
            if fatal || s.read_failures >= MAX_READ_FAILURES {
                Next::Stop(Stop::Failed)
            } else {
                keep_waiting(&mut s, None, elapsed, timeout)
            }
        }
    };
    (s, next)
}

fn phase_after(phase: Phase, write: Write) -> Phase {
    match write {
        Write::Step(Action::Pause | Action::Identity) => Phase::Paused,
        Write::Step(Action::Observe) => Phase::Observing,
        Write::Step(Action::RestorePolicies | Action::Unpause | Action::KeepPause) => Phase::Adopted,
        Write::Step(Action::WaitImported | Action::WaitReady) => phase,
        Write::SafeStop => Phase::Paused,
        Write::Undo => Phase::Untouched,
    }
}

/// The conflict policy: status-only conflicts are retried on the fresh object up to
/// [`MAX_BENIGN_CONFLICTS`]; a change to what matters is never overwritten.
fn on_conflict(s: &mut State, changes: Vec<Change>, recovering: bool) -> Next {
    if changes.is_empty() {
        s.conflicts += 1;
        return if s.conflicts >= MAX_BENIGN_CONFLICTS { Next::Stop(Stop::KeepsChanging) } else { Next::Retry };
    }
    if s.may_replan && !recovering { Next::Replan } else { Next::Stop(Stop::Conflicted(changes)) }
}

fn on_poll(s: &mut State, progress: Progress, name: Option<String>, elapsed: Duration, timeout: Duration) -> Next {
    if !matches!(progress, Progress::Unmarked(_)) {
        s.unmarked_since = None;
    }
    match progress {
        Progress::Done(m) => done(s, m, name),
        Progress::NotFound(m) => Next::Undo(m),
        Progress::Waiting(m) => keep_waiting(s, Some(m), elapsed, timeout),
        // The import proved the ID; what this runtime can show of the rest is its end state,
        // held long enough for the reconcile asked for to have failed if it were going to.
        Progress::Unmarked(m) if s.import && s.phase == Phase::Adopted => {
            let since = *s.unmarked_since.get_or_insert(elapsed);
            let held = elapsed.saturating_sub(since);
            if held < UNMARKED_HOLD && elapsed < timeout {
                let hold = UNMARKED_HOLD.as_secs();
                return keep_waiting(
                    s,
                    Some(format!("{m}; {NO_SIGN}: watching that this holds for {hold}s")),
                    elapsed,
                    timeout,
                );
            }
            let (id, held) = (s.id.clone(), held.as_secs());
            let m = format!(
                "confirmed: {m} for {held}s after the final policies were written, and the import proved ID {id}; not proven: the reconcile of the final policies itself, since {NO_SIGN}",
                id = quoted(&id)
            );
            done(s, m, name)
        }
        // Without an import the ID is unproven: only a sign of a reconcile could confirm it.
        Progress::Unmarked(m) => {
            keep_waiting(s, Some(format!("{m}, but {NO_SIGN} and no import proved the ID")), elapsed, timeout)
        }
    }
}

/// The wait is over with `m` confirmed, unless the external-name is no longer the ID.
fn done(s: &mut State, m: String, name: Option<String>) -> Next {
    s.say = Some(m);
    if name.as_deref() == Some(s.id.as_str()) { Next::Continue } else { Next::Stop(Stop::NameChanged(name)) }
}

/// Another poll, or the end of the wait when it has timed out.
fn keep_waiting(s: &mut State, seen: Option<String>, elapsed: Duration, timeout: Duration) -> Next {
    if let Some(m) = seen.filter(|m| *m != s.last_seen) {
        s.last_seen = m.clone();
        s.say = Some(m);
    }
    if elapsed < timeout {
        return Next::Sleep(POLL.min(timeout - elapsed));
    }
    let timed_out = TimedOut { after: timeout, last: s.last_seen.clone() };
    if s.phase == Phase::Adopted && s.import {
        // The import already proved the ID; only the final confirmation is missing.
        s.note = Some(timed_out);
        Next::Continue
    } else {
        Next::Stop(Stop::TimedOut(timed_out))
    }
}

#[cfg(test)]
#[path = "machine_tests.rs"]
mod tests;
