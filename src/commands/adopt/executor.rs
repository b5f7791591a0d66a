//! Carries out one adoption: asks the state machine what to do next and only reads, writes,
//! sleeps and emits events.

use super::AdoptEnv;
use super::error::{AdoptError, Unchanged};
use super::interrupt::Interrupt;
use super::ui::Ui;
use crate::commands::resolve::Carry;
use serde_json::Value;
use std::io::Write;
use upjet_cluster::connect::Connection;
use upjet_cluster::write::{self, Target, WriteError};
use upjet_core::adopt::machine::{self, Next, Observation, Phase, State, StepKind, Stop, TimedOut};
use upjet_core::adopt::{self, Baseline, Context, Event, Observed, Options, Plan, Step, Verdict};
use upjet_core::error::Error;
use upjet_core::managed::{ManagedResource, keys};
use upjet_core::patch;
use upjet_core::shell::quoted;
use upjet_local::backup;
use upjet_output::adopt::{event_line, left_in, stop_reason, write_plan};
use upjet_output::style::sanitize;

/// Where a job's progress goes: straight to the UI (one MR), or recorded (plans print one line
/// per MR, plus the recorded lines when it failed).
pub(super) enum Sink<'a> {
    Live(&'a mut Ui),
    Recorder(Recorder),
}

/// The progress of a job that is not shown on the terminal directly: plans run many jobs at once.
#[derive(Default)]
pub(super) struct Recorder {
    /// The progress lines.
    pub lines: Vec<String>,
    /// The backup path, from the event that reported it.
    pub backup: Option<String>,
    /// The provider reported that no cloud object has the ID (read from the typed event, so the
    /// plan's summary never parses messages).
    pub not_found: bool,
    /// Someone else changed what matters while the job ran.
    pub conflict: bool,
    /// Where each line also goes as it happens (prefixed with the item), for a printer shared by
    /// the jobs that run concurrently.
    pub tee: Option<Tee>,
}

/// A channel to the one printer of a plan's progress, and the prefix that names the item.
#[derive(Clone)]
pub(super) struct Tee {
    pub prefix: String,
    pub to: tokio::sync::mpsc::UnboundedSender<String>,
}

impl Recorder {
    fn push(&mut self, line: String) {
        if let Some(t) = &self.tee {
            for l in line.lines() {
                let _ = t.to.send(format!("{}: {}", t.prefix, l.trim_start()));
            }
        }
        self.lines.push(line);
    }
}

impl Sink<'_> {
    fn emit(&mut self, event: Event) {
        match self {
            Sink::Live(ui) => ui.say(event_line(&event)),
            Sink::Recorder(r) => {
                match &event {
                    Event::BackupWritten(path) => r.backup = Some(path.display().to_string()),
                    Event::Resuming { backup, .. } => r.backup = Some(backup.clone()),
                    Event::ProviderReports(_) => r.not_found = true,
                    Event::ChangedMeanwhile { .. } | Event::CouldNotPauseChanged(_) => r.conflict = true,
                    _ => {}
                }
                r.push(event_line(&event));
            }
        }
    }
}

/// How a job ended when it did not fail.
pub(super) enum Outcome {
    NothingToDo(String),
    DryRun,
    Adopted { note: Option<TimedOut> },
}

enum Executed {
    Done(Option<TimedOut>),
    Replan(Box<Value>),
}

/// How one conditional write ended.
enum WriteEnd {
    /// Stored; the object written over.
    Stored(Value),
    /// Someone changed what matters; re-plan from this object.
    Replan(Box<Value>),
    /// The machine stopped the adoption.
    Stop(Stop),
    /// The request failed.
    Failed(Error),
}

/// One adoption being carried out.
pub(super) struct Job<'a> {
    pub conn: &'a Connection,
    pub target: &'a Target,
    /// How the adoption is carried out (`--dry-run`, `--yes`, `--timeout`, the backups).
    pub carry: &'a Carry,
    pub opts: &'a Options,
    pub env: &'a AdoptEnv,
    pub sink: Sink<'a>,
    /// Whether a conflict may be resolved by asking (single MR, terminal, no --yes).
    pub can_ask: bool,
    /// Whether the user already confirmed (--yes, or once for a whole plan).
    pub confirmed: bool,
    /// Ctrl-C.
    pub interrupt: Interrupt,
    /// A plan runner's slot (`--parallel`): held while the MR is being changed, given back before
    /// the final wait, which only reads an MR whose adoption is already written, so that the
    /// next item can start while this one is verified.
    pub slot: Option<tokio::sync::OwnedSemaphorePermit>,
    /// The MR's XR is paused for this adoption (`--pause-composite`).
    pub composite_paused: bool,
}

impl Job<'_> {
    fn may_replan(&self) -> bool {
        self.can_ask && matches!(&self.sink, Sink::Live(ui) if ui.interactive) && !self.carry.confirmed()
    }

    /// A line outside the events (the end of a single adoption).
    pub fn say(&mut self, line: String) {
        match &mut self.sink {
            Sink::Live(ui) => ui.say(line),
            Sink::Recorder(r) => r.push(line),
        }
    }

    /// The adoption of `id`, from the object as read to the end state.
    pub async fn adopt(
        &mut self,
        mut obj: Value,
        id: &str,
        duplicates: &[ManagedResource],
        out: &mut dyn Write,
    ) -> Result<Outcome, AdoptError> {
        let mut phase = Phase::Untouched;
        let mut backup_path: Option<String> = None;
        loop {
            let mut plan = match adopt::preflight(
                &obj,
                id,
                self.opts,
                &Context { duplicates, composite_paused: self.composite_paused },
            ) {
                Verdict::Refused(r) => return Err(r.into()),
                Verdict::NothingToDo(msg) => return Ok(Outcome::NothingToDo(msg)),
                Verdict::Adopt(p) => *p,
            };
            if self.carry.dry_run() {
                self.dry_run(&plan, &obj, out).await?;
                return Ok(Outcome::DryRun);
            }
            if let Sink::Live(ui) = &mut self.sink {
                let _ = write_plan(&mut ui.err, &plan, None, &obj);
            }
            if !self.confirmed {
                self.confirm(phase, &plan, id)?;
            }
            // Backup before the first change; a resumed adoption keeps its original backup.
            if phase == Phase::Untouched {
                backup_path = Some(self.backup(&plan, &obj)?);
                self.hook(0);
            }
            if let Some(p) = &backup_path {
                plan.record_backup(p);
            }
            let mut state = State::start(phase, &plan.id, plan.import, self.may_replan());
            let executed = self.execute(&plan, obj, &mut state).await;
            phase = state.phase;
            match executed? {
                Executed::Done(note) => return Ok(Outcome::Adopted { note }),
                Executed::Replan(fresh) => obj = *fresh,
            }
        }
    }

    fn confirm(&mut self, phase: Phase, plan: &Plan, id: &str) -> Result<(), AdoptError> {
        let target = self.target.display();
        let Sink::Live(ui) = &mut self.sink else {
            return Err(AdoptError::NoTerminal { what: format!("change {target}"), preview: "plan" });
        };
        let question = format!("Adopt {} as {id}?", sanitize(&target), id = quoted(id));
        match ui.confirm_change(&question, format!("change {target}"), "plan") {
            Err(AdoptError::NothingChanged { reason: Unchanged::Cancelled }) if phase != Phase::Untouched => {
                Err(Error::failed(format!("cancelled; {}", left_in(phase, &target, plan))).into())
            }
            other => other,
        }
    }

    /// Writes the backup (or reuses a resumed adoption's) and returns its path.
    fn backup(&mut self, plan: &Plan, obj: &Value) -> Result<String, AdoptError> {
        if let (Some(path), true) = (&plan.marker.backup, plan.resumed) {
            self.sink.emit(Event::Resuming { started: plan.marker.started.clone(), backup: path.clone() });
            return Ok(path.clone());
        }
        let dir = self.carry.backups().map_err(Unchanged::NoBackupDir)?;
        let path = backup::write(dir, obj, (self.env.now)())?;
        let shown = path.display().to_string();
        self.sink.emit(Event::BackupWritten(path));
        Ok(shown)
    }

    /// Prints the plan and every patch, and has the server dry-run each write.
    async fn dry_run(&mut self, plan: &Plan, obj: &Value, out: &mut dyn Write) -> Result<(), AdoptError> {
        write_plan(out, plan, Some(&self.target.path()), obj)?;
        for step in plan.writes() {
            let patch = step.patch_at(patch::resource_version(obj)).unwrap_or_default();
            match write::merge_patch(self.conn, self.target, &patch, true).await {
                Ok(_) => {
                    writeln!(out, "step {}: accepted by the API server (dryRun=All; nothing changed)", step.number)?
                }
                Err(e) => {
                    writeln!(out, "step {}: rejected by the API server: {}", step.number, sanitize(&e.to_string()))?;
                    return Err(e.into_error(self.conn).into());
                }
            }
        }
        writeln!(out, "dry run: nothing was changed and no backup was written")?;
        Ok(())
    }

    /// Sends `patch` conditionally on `current`'s resourceVersion; at each 409 the machine
    /// decides between retrying on the fresh object, re-planning and stopping.
    async fn write(&mut self, state: &mut State, patch: &Value, current: &mut Value, what: machine::Write) -> WriteEnd {
        let recovering = !matches!(what, machine::Write::Step(_));
        loop {
            let body = patch::with_resource_version(patch.clone(), patch::resource_version(current));
            let fresh = match write::merge_patch(self.conn, self.target, &body, false).await {
                Ok(new) => {
                    *state = machine::next(state, Observation::Written(what)).0;
                    return WriteEnd::Stored(std::mem::replace(current, new));
                }
                Err(WriteError::Conflict { .. }) => match write::read(self.conn, self.target).await {
                    Ok(fresh) => fresh,
                    Err(e) => return WriteEnd::Failed(e.into_error(self.conn)),
                },
                Err(e) => return WriteEnd::Failed(e.into_error(self.conn)),
            };
            let changes = adopt::conflicting_changes(current, &fresh);
            if !recovering && !changes.is_empty() {
                self.sink.emit(Event::ChangedMeanwhile { target: self.target.display() });
                for c in &changes {
                    self.sink.emit(Event::ChangedField(c.clone()));
                }
            }
            let (s, next) = machine::next(state, Observation::Conflict { changes, recovering });
            *state = s;
            match next {
                Next::Retry => {
                    let resource_version = patch::resource_version(&fresh).to_string();
                    self.sink.emit(Event::RetryingStatusOnly { resource_version });
                    *current = fresh;
                }
                Next::Replan => return WriteEnd::Replan(Box::new(fresh)),
                Next::Stop(stop @ Stop::Conflicted(_)) => {
                    *current = fresh;
                    return WriteEnd::Stop(stop);
                }
                Next::Stop(stop) => return WriteEnd::Stop(stop),
                other => unreachable!("a conflict never leads to {other:?}"),
            }
        }
    }

    /// Carries out the plan's steps in order.
    async fn execute(&mut self, plan: &Plan, obj: Value, state: &mut State) -> Result<Executed, AdoptError> {
        let mut current = obj;
        let mut baseline = Baseline::default();
        for step in &plan.steps {
            let seen = Observation::Before { step: StepKind::of(step), interrupted: self.interrupt.is_set() };
            let (s, next) = machine::next(state, seen);
            *state = s;
            match next {
                Next::Write => {
                    if let Some(replan) = self.write_step(state, plan, step, &mut current, &mut baseline).await? {
                        return Ok(replan);
                    }
                }
                Next::Poll => {
                    if step.number == plan.steps.len() {
                        self.slot = None;
                    }
                    self.wait_step(state, plan, step, &mut current, &baseline).await?
                }
                Next::Skip => self.sink.emit(Event::StepSkipped {
                    number: step.number,
                    total: plan.steps.len(),
                    title: step.title.clone(),
                }),
                Next::Stop(stop) => return Err(self.stop_for(state, plan, &mut current, &stop).await.into()),
                other => unreachable!("a step never starts with {other:?}"),
            }
            self.hook(step.number);
        }
        Ok(Executed::Done(state.note.clone()))
    }

    fn started(&mut self, plan: &Plan, step: &Step) {
        self.sink.emit(Event::StepStarted { number: step.number, total: plan.steps.len(), title: step.title.clone() });
    }

    async fn write_step(
        &mut self,
        state: &mut State,
        plan: &Plan,
        step: &Step,
        current: &mut Value,
        baseline: &mut Baseline,
    ) -> Result<Option<Executed>, AdoptError> {
        self.started(plan, step);
        let patch = step.patch.as_ref().expect("a write step has a patch");
        match self.write(state, patch, current, machine::Write::Step(step.action)).await {
            WriteEnd::Stored(before) => {
                let token = patch::annotation(current, keys::RECONCILE_REQUESTED_AT).unwrap_or_default().to_string();
                *baseline = Baseline::after_write(&before, &Observed::new(current.clone()), &token);
                let resource_version = patch::resource_version(current).to_string();
                self.sink.emit(Event::Written { resource_version });
                Ok(None)
            }
            WriteEnd::Replan(fresh) => {
                self.sink.emit(Event::Replanning);
                Ok(Some(Executed::Replan(fresh)))
            }
            WriteEnd::Stop(stop) => Err(self.stop_for(state, plan, current, &stop).await.into()),
            WriteEnd::Failed(e) => {
                let stopped = self.stop(state, plan, current, &e.to_string()).await;
                Err(match e {
                    e if e.kind == upjet_core::error::Kind::Cluster => Error::cluster(stopped.to_string()),
                    _ => stopped,
                }
                .into())
            }
        }
    }

    /// Polls the MR until the machine says the wait is over.
    async fn wait_step(
        &mut self,
        state: &mut State,
        plan: &Plan,
        step: &Step,
        current: &mut Value,
        baseline: &Baseline,
    ) -> Result<(), AdoptError> {
        self.started(plan, step);
        let wait = step.wait.as_ref().expect("a wait step has a wait");
        let (timeout, start) = (self.carry.timeout(), (self.env.instant)());
        let mut failure = None;
        loop {
            let seen = match write::read(self.conn, self.target).await {
                Ok(obj) => {
                    let observed = Observed::new(obj);
                    let progress = adopt::progress(wait, baseline, &observed);
                    let external_name = patch::annotation(&observed.obj, keys::EXTERNAL_NAME).map(str::to_owned);
                    *current = observed.obj;
                    Observation::Polled { progress, external_name, elapsed: start.elapsed(), timeout }
                }
                Err(e) => {
                    let fatal = matches!(e, WriteError::Forbidden { .. } | WriteError::NotFound { .. });
                    if !fatal {
                        self.sink.emit(Event::ReadFailed(e.to_string()));
                    }
                    failure = Some(e);
                    Observation::ReadFailed { fatal, elapsed: start.elapsed(), timeout }
                }
            };
            let (s, next) = machine::next(state, seen);
            *state = s;
            if let Some(m) = state.say.take() {
                self.sink.emit(Event::Progress(m));
            }
            match next {
                Next::Continue => return Ok(()),
                Next::Sleep(nap) => {
                    let interrupt = self.interrupt.clone();
                    tokio::select! {
                        _ = tokio::time::sleep(nap) => {}
                        _ = interrupt.wait() => {
                            *state = machine::next(state, Observation::Interrupted).0;
                            return Err(self.stop_for(state, plan, current, &Stop::Interrupted).await.into());
                        }
                    }
                }
                Next::Undo(msg) => return Err(self.not_found(state, plan, current, &msg).await.into()),
                Next::Stop(Stop::Failed) => {
                    let why = failure.take().map(|e| e.into_error(self.conn).to_string()).unwrap_or_default();
                    return Err(self.stop(state, plan, current, &why).await.into());
                }
                Next::Stop(stop) => return Err(self.stop_for(state, plan, current, &stop).await.into()),
                other => unreachable!("a wait never leads to {other:?}"),
            }
        }
    }

    async fn stop_for(&mut self, state: &mut State, plan: &Plan, current: &mut Value, stop: &Stop) -> Error {
        let why = stop_reason(stop, &self.target.display());
        self.stop(state, plan, current, &why).await
    }

    /// Leaves the MR safe after an interruption or failure and says in which state.
    async fn stop(&mut self, state: &mut State, plan: &Plan, current: &mut Value, why: &str) -> Error {
        if state.phase.needs_safe_stop() {
            self.sink.emit(Event::PausingAgain);
            let patch = strip_rv(adopt::safe_stop_patch(&plan.marker, current));
            match self.write(state, &patch, current, machine::Write::SafeStop).await {
                WriteEnd::Stored(_) => {}
                WriteEnd::Stop(Stop::Conflicted(changes)) => self.sink.emit(Event::CouldNotPauseChanged(changes.len())),
                WriteEnd::Stop(stop) => {
                    self.sink.emit(Event::CouldNotPause(stop_reason(&stop, &self.target.display())))
                }
                WriteEnd::Replan(_) => self.sink.emit(Event::CouldNotPauseChanged(0)),
                WriteEnd::Failed(e) => self.sink.emit(Event::CouldNotPause(e.to_string())),
            }
        }
        Error::failed(format!("{}; {}", sanitize(why), left_in(state.phase, &self.target.display(), plan)))
    }

    /// The provider says no cloud object has the ID: put the MR back exactly as it was.
    async fn not_found(&mut self, state: &mut State, plan: &Plan, current: &mut Value, msg: &str) -> Error {
        self.sink.emit(Event::ProviderReports(msg.to_string()));
        self.sink.emit(Event::PuttingBack);
        // Putting an earlier external-name back is declared to the guard, and the declaration
        // taken away by a second write (the marker recorded none).
        let declared = patch::declare(strip_rv(adopt::undo_from_marker(&plan.marker, current)), current);
        let backup = plan.marker.backup.as_deref().map(sanitize).unwrap_or_else(|| "(none)".into());
        let mut end = self.write(state, &declared.patch, current, machine::Write::Undo).await;
        if let (WriteEnd::Stored(_), Some(then)) = (&end, &declared.then) {
            end = self.write(state, then, current, machine::Write::Undo).await;
        }
        let why = match end {
            WriteEnd::Stored(_) => {
                return Error::failed(format!(
                    "no cloud object has ID {} ({}); {} is back exactly as it was (backup: {backup})",
                    quoted(&sanitize(&plan.id)),
                    sanitize(msg),
                    sanitize(&self.target.display())
                ));
            }
            WriteEnd::Stop(Stop::Conflicted(_)) | WriteEnd::Replan(_) => "it changed meanwhile".to_string(),
            WriteEnd::Stop(stop) => stop_reason(&stop, &self.target.display()),
            WriteEnd::Failed(e) => e.to_string(),
        };
        let why = format!("no cloud object has ID {}, and putting the MR back failed ({why})", quoted(&plan.id));
        self.stop(state, plan, current, &why).await
    }

    /// The test hooks after a step (see [`super::test_hook`]).
    fn hook(&self, step: usize) {
        super::test_hook(self.env, step);
    }
}

fn strip_rv(mut patch: Value) -> Value {
    if let Some(m) = patch.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("resourceVersion");
    }
    patch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_the_resource_version() {
        assert_eq!(
            strip_rv(serde_json::json!({"metadata": {"resourceVersion": "1", "a": 1}})),
            serde_json::json!({"metadata": {"a": 1}})
        );
    }
}
