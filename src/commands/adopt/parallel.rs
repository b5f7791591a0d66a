//! Running a plan's adoptions at the same time (`--parallel N`) and, with `--probe`, trying each
//! item's ranked candidate IDs in turn.
//!
//! Every item is still one ordinary [`Job`]: its own backup, conditional writes and verification
//! through the Observe-only import. What is added here is only orchestration: at most N jobs in
//! flight, one printer for all of them (each job sends its progress lines, prefixed with its
//! item, over a channel; a job never holds the terminal), a count as items finish, and the
//! probe loop, which moves to the next candidate only after re-reading the MR and checking that
//! the miss left it exactly as it was. Ctrl-C stops starting items (and candidates); running
//! jobs reach their own safe state, as a single adoption does.

use super::AdoptEnv;
use super::error::AdoptError;
use super::executor::{Job, Outcome, Recorder, Sink, Tee};
use super::interrupt::Interrupt;
use super::ui::Ui;
use crate::commands::resolve::{Carry, Parallel};
use futures::StreamExt;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use tokio::sync::mpsc;
use upjet_cluster::connect::Connection;
use upjet_cluster::write::{self, Target};
use upjet_core::adopt::machine::TimedOut;
use upjet_core::adopt::{Options, probe};
use upjet_core::managed::ManagedResource;
use upjet_core::plan::PlanItem;
use upjet_core::shell::quoted;
use upjet_output::adopt::timed_out;
use upjet_output::style;

/// One plan item, located and read.
pub(super) struct Item {
    pub plan: PlanItem,
    pub target: Target,
    pub obj: Value,
    /// Which of `plan.ranked()` to start with: the first, or with `--probe` the one an earlier
    /// run adopted or was adopting (see [`probe::start_index`]).
    pub start: usize,
}

impl Item {
    /// The candidate ID this item starts with.
    pub fn id(&self) -> &str {
        self.plan.ranked().get(self.start).copied().unwrap_or(&self.plan.id)
    }
}

/// The counts the last line of a plan reports.
#[derive(Default)]
pub(super) struct Tally {
    pub adopted: usize,
    pub skipped: usize,
    pub refused: usize,
    /// Every failure, including the two kinds counted again below.
    pub failed: usize,
    /// Failed because the provider found no candidate (the MR is back as it was).
    pub not_found: usize,
    /// Failed because someone else changed the MR meanwhile.
    pub conflicts: usize,
    pub not_started: usize,
}

/// How one item of the plan ended.
pub(super) enum End {
    Adopted {
        id: String,
        note: Option<TimedOut>,
        backup: Option<String>,
        missed: Vec<String>,
    },
    Skipped {
        id: String,
    },
    /// Ctrl-C before it (or its next candidate) started; the MR is as it was.
    Interrupted {
        missed: Vec<String>,
    },
    /// The provider found none of the candidates tried; the last error says the MR is back.
    NotFound {
        missed: Vec<String>,
        error: String,
    },
    Refused(String),
    Conflict(String),
    Failed {
        error: String,
        lines: Vec<String>,
    },
}

/// How many items may be verifying (final wait, slot given back) per `--parallel` slot.
const VERIFYING_PER_SLOT: usize = 4;

/// What every job of a plan shares.
pub(super) struct Runner<'a> {
    pub conn: &'a Connection,
    /// How each adoption is carried out.
    pub carry: &'a Carry,
    /// `--parallel`, `--probe`.
    pub parallel: Parallel,
    pub opts: &'a Options,
    pub env: &'a AdoptEnv,
    /// Other MRs of the items' kinds by external-name (for each candidate's duplicate check).
    pub by_name: &'a HashMap<String, Vec<ManagedResource>>,
    pub interrupt: Interrupt,
    /// `--parallel` slots: an item holds one while its MR is being changed (see `Job::slot`).
    pub slots: std::sync::Arc<tokio::sync::Semaphore>,
}

impl Runner<'_> {
    /// A job for one item whose progress is recorded (and, with `tee`, streamed).
    pub(crate) fn job<'j>(&'j self, item: &'j Item, tee: Option<Tee>) -> Job<'j> {
        Job {
            conn: self.conn,
            target: &item.target,
            carry: self.carry,
            opts: self.opts,
            env: self.env,
            sink: Sink::Recorder(Recorder { tee, ..Recorder::default() }),
            can_ask: false,
            confirmed: true,
            interrupt: self.interrupt.clone(),
            slot: None,
            composite_paused: false,
        }
    }

    /// Adopts `to_adopt` with at most `--parallel` in flight; progress lines on `ui`, one result
    /// line per item on `out` as each finishes.
    pub async fn run_all(
        &self,
        to_adopt: Vec<Item>,
        ui: &mut Ui,
        out: &mut dyn Write,
        tally: &mut Tally,
    ) -> Result<(), AdoptError> {
        let total = to_adopt.len();
        let (tx, mut rx) = mpsc::unbounded_channel::<String>();
        let mut stream = futures::stream::iter(to_adopt)
            .map(|item| {
                let tee = Tee { prefix: style::sanitize(&item.target.display()), to: tx.clone() };
                async move {
                    let end = self.run_one(&item, tee).await;
                    (item, end)
                }
            })
            // Items in their final verification hold no slot, so more of them may be under way.
            .buffer_unordered(self.parallel.slots * VERIFYING_PER_SLOT);
        let mut done = 0;
        loop {
            tokio::select! {
                biased;
                Some(line) = rx.recv() => ui.say(line),
                next = stream.next() => {
                    let Some((item, end)) = next else { break };
                    while let Ok(line) = rx.try_recv() {
                        ui.say(line);
                    }
                    done += 1;
                    let line = item_line(&item, end, tally);
                    ui.say(format!("done {done}/{total}: {}", line.lines().next().unwrap_or_default()));
                    writeln!(out, "{line}")?;
                    out.flush()?;
                }
            }
        }
        while let Ok(line) = rx.try_recv() {
            ui.say(line);
        }
        Ok(())
    }

    /// One item: its starting candidate, then (with `--probe`) the next after each miss.
    async fn run_one(&self, item: &Item, tee: Tee) -> End {
        let ranked = item.plan.ranked();
        let last = if self.parallel.probe { ranked.len() } else { item.start + 1 };
        let mut obj = item.obj.clone();
        let mut missed = Vec::new();
        let mut error = String::new();
        for id in ranked.iter().take(last).skip(item.start) {
            if self.interrupt.is_set() {
                return End::Interrupted { missed };
            }
            let dups = self.by_name.get(*id).cloned().unwrap_or_default();
            let Ok(slot) = self.slots.clone().acquire_owned().await else {
                return End::Interrupted { missed };
            };
            // Ctrl-C while this item waited for a slot: it never starts.
            if self.interrupt.is_set() {
                return End::Interrupted { missed };
            }
            let mut job = self.job(item, Some(tee.clone()));
            job.slot = Some(slot);
            let result = job.adopt(obj.clone(), id, &dups, &mut std::io::sink()).await;
            let Sink::Recorder(rec) = job.sink else { unreachable!("plan jobs record") };
            let e = match result {
                Ok(Outcome::Adopted { note }) => {
                    return End::Adopted { id: id.to_string(), note, backup: rec.backup, missed };
                }
                Ok(Outcome::NothingToDo(_) | Outcome::DryRun) => return End::Skipped { id: id.to_string() },
                Err(e) => e,
            };
            if !rec.not_found {
                return classify(e, rec);
            }
            error = message(e);
            missed.push(id.to_string());
            if missed.len() < last - item.start {
                match self.put_back_checked(item, &obj).await {
                    Ok(now) => obj = now,
                    Err(why) => return End::Failed { error: format!("{error}; {why}"), lines: Vec::new() },
                }
            }
        }
        End::NotFound { missed, error }
    }

    /// After a miss: the MR as stored now, if it is exactly as it was before the attempt.
    async fn put_back_checked(&self, item: &Item, before: &serde_json::Value) -> Result<serde_json::Value, String> {
        let now = write::read(self.conn, &item.target).await.map_err(|e| format!("could not re-read it: {e}"))?;
        if probe::back_as_before(before, &now) {
            Ok(now)
        } else {
            Err("it is not exactly as it was after the miss, so no further candidate is tried".into())
        }
    }
}

/// A failure other than "not found", from its error and what the job recorded.
fn classify(e: AdoptError, rec: Recorder) -> End {
    match e {
        AdoptError::Refused(r) => End::Refused(style::sanitize(&r.to_string())),
        e if rec.conflict => End::Conflict(message(e)),
        e => End::Failed { error: message(e), lines: rec.lines },
    }
}

/// An error as one line (its chain), safe for the terminal.
fn message(e: AdoptError) -> String {
    style::sanitize(&format!("{:#}", e.into_anyhow()))
}

/// The line that reports one item of the plan (more lines under a failure: what it recorded).
fn item_line(item: &Item, end: End, tally: &mut Tally) -> String {
    let who = style::sanitize(&item.target.display());
    let listed =
        |ids: &[String]| ids.iter().map(|i| quoted(&style::sanitize(i)).into_owned()).collect::<Vec<_>>().join(", ");
    match end {
        End::Adopted { id, note, backup, missed } => {
            tally.adopted += 1;
            let backup = backup.map(|b| format!(" (backup {b})")).unwrap_or_default();
            let extra = note.map(|n| format!(" (warning: {})", style::sanitize(&timed_out(&n)))).unwrap_or_default();
            let probed =
                if missed.is_empty() { String::new() } else { format!(" (not found first: {})", listed(&missed)) };
            format!("{:<8} {who} as {}{backup}{extra}{probed}", "adopted", quoted(&style::sanitize(&id)))
        }
        End::Skipped { id } => {
            tally.skipped += 1;
            format!("{:<8} {who} already has external-name {}", "skipped", quoted(&style::sanitize(&id)))
        }
        End::Interrupted { missed } => {
            tally.not_started += 1;
            let tried = if missed.is_empty() { String::new() } else { format!("; not found: {}", listed(&missed)) };
            format!("{:<8} {who} (interrupted before it started{tried})", "skipped")
        }
        End::NotFound { missed, error } => {
            tally.failed += 1;
            tally.not_found += 1;
            match missed.len() {
                0 | 1 => format!("{:<8} {who}: {error}", "failed"),
                n => format!("{:<8} {who}: none of {n} candidates was found ({}); {error}", "failed", listed(&missed)),
            }
        }
        End::Refused(why) => {
            tally.refused += 1;
            format!("{:<8} {who} {why}", "refused")
        }
        End::Conflict(error) => {
            tally.failed += 1;
            tally.conflicts += 1;
            format!("{:<8} {who}: {error}", "failed")
        }
        End::Failed { error, lines } => {
            tally.failed += 1;
            let mut l = format!("{:<8} {who}: {error}", "failed");
            for d in &lines {
                l.push_str(&format!("\n           {d}"));
            }
            l
        }
    }
}
