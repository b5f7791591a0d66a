//! `kubectl upjet promote -f PLAN`: the second phase of a staged restore, with adopt's
//! guarantees. For each MR the restore left observing only: read it, refuse it when it changed
//! since the plan, back it up, ask for a fresh Observe (`reconcile-requested-at`), wait until the
//! provider shows that Observe found the object (`domain::adopt::progress`, the import wait), and
//! put the original policies back in one conditional write. `--parallel N` at a time; the first
//! MR whose object is not found stops the run (the others already under way finish), named.

use super::ui::Ui;
use super::{AdoptEnv, environment, test_hook};
use crate::commands::resolve::Promote;
use crate::settings::Settings;
use futures::StreamExt;
use serde_json::Value;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use upjet_cluster::connect::{self, Connection};
use upjet_cluster::target::{self, Kinds, TargetSpec};
use upjet_cluster::write::{self, Target, WriteError};
use upjet_core::adopt::machine::{MAX_BENIGN_CONFLICTS, POLL};
use upjet_core::adopt::{self, Baseline, Observed, Progress, Wait, conflicting_changes};
use upjet_core::error::{Error, Exit};
use upjet_core::patch;
use upjet_core::promote::{self, PromoteItem, Start};
use upjet_core::shell::quoted;
use upjet_local::backup::{self, BackupDir};
use upjet_output::style::sanitize;

/// How one item ended.
enum End {
    Promoted { id: String, backup: Option<String>, note: Option<String> },
    DryRun,
    Already,
    Left(String),
    Refused(String),
    NotFound(String),
    Failed(String),
    NotStarted,
}

/// What every item shares.
struct Run<'a> {
    conn: &'a Connection,
    args: &'a Promote,
    env: &'a AdoptEnv,
    dir: Option<BackupDir>,
    /// Set by the first item whose object was not found, and by Ctrl-C: no further item starts.
    stop: AtomicBool,
    interrupt: super::Interrupt,
    /// `--parallel` slots: held while an MR is verified and promoted, given back before the
    /// final Ready wait (which only reads an MR already promoted), as adopt's plans do.
    slots: tokio::sync::Semaphore,
}

/// How many items may be in their final wait (no slot held) per `--parallel` slot.
const CONFIRMING_PER_SLOT: usize = 4;

/// Runs promote on the terminal, with Ctrl-C handling.
pub(super) async fn promote(settings: &Settings, args: &Promote, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let env = environment(settings);
    let mut ui = Ui::terminal(&env);
    ui.interrupt.listen_for_ctrl_c();
    let text = std::fs::read_to_string(&args.apply.plan)
        .map_err(|e| Error::usage(format!("cannot read the plan {}: {e}", args.apply.plan.display())))?;
    let plan = promote::parse(&text).map_err(|e| Error::usage(format!("{}: {e}", args.apply.plan.display())))?;
    if plan.items.is_empty() {
        writeln!(out, "the plan is empty; nothing to promote")?;
        return Ok(Exit::Ok);
    }
    let conn = connect::connect(&settings.connect).await?;
    let targets = locate(&conn, &plan.items).await?;
    if !args.apply.yes && !args.apply.dry_run {
        let q = format!(
            "Promote the {} MRs of {} (restored from {})?",
            plan.items.len(),
            args.apply.plan.display(),
            plan.backup
        );
        ui.confirm_change(&q, format!("promote {} MRs", plan.items.len()), "patches")
            .map_err(super::AdoptError::into_anyhow)?;
    }
    let dir = super::plan_backups(&args.apply, &env)?;
    let slots = tokio::sync::Semaphore::new(args.apply.parallel);
    let run =
        Run { conn: &conn, args, env: &env, dir, stop: AtomicBool::new(false), interrupt: ui.interrupt.clone(), slots };
    let mut tally = [0usize; 6];
    let mut stopped_at = None;
    let mut ends = futures::stream::iter(plan.items.iter().zip(targets))
        .map(|(item, target)| {
            let run = &run;
            async move { (item, run.one(item, &target).await) }
        })
        .buffer_unordered(args.apply.parallel * CONFIRMING_PER_SLOT);
    while let Some((item, end)) = ends.next().await {
        if let End::NotFound(why) = &end {
            stopped_at.get_or_insert_with(|| format!("{}: {why}", item.display()));
        }
        writeln!(out, "{}", line(item, &end, &mut tally))?;
        out.flush()?;
    }
    let [promoted, already, left, refused, failed, not_started] = tally;
    writeln!(
        out,
        "{promoted} promoted, {already} skipped (already promoted), {left} left observing or paused, {refused} refused, {failed} failed, {not_started} not started, of {} in the plan",
        plan.items.len()
    )?;
    if let Some(at) = stopped_at {
        writeln!(out, "stopped at the first MR whose object was not found: {}", sanitize(&at))?;
    }
    Ok(if left + refused + failed + not_started == 0 { Exit::Ok } else { Exit::Failed })
}

/// Every item's address; an item whose kind the cluster does not serve refuses the plan.
async fn locate(conn: &Connection, items: &[PromoteItem]) -> anyhow::Result<Vec<Target>> {
    let kinds = Kinds::discover(conn).await?;
    let mut out = Vec::with_capacity(items.len());
    let mut problems = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let spec = TargetSpec::parse(&item.resource)?;
        match target::locate(conn, &kinds, &spec, item.namespace.as_deref()) {
            Ok(t) => out.push(t),
            Err(e) => problems.push(format!("  item {i} ({}): {e}", sanitize(&item.resource))),
        }
    }
    if !problems.is_empty() {
        let why = format!("the plan cannot be applied; nothing was changed:\n{}", problems.join("\n"));
        return Err(Error::usage(why).into());
    }
    Ok(out)
}

/// The result line of one item.
fn line(item: &PromoteItem, end: &End, tally: &mut [usize; 6]) -> String {
    let who = sanitize(&item.display());
    let (slot, text) = match end {
        End::Promoted { id, backup, note } => {
            let backup = backup.as_deref().map(|b| format!(" (backup {})", sanitize(b))).unwrap_or_default();
            let note = note.as_deref().map(|n| format!(" (warning: {})", sanitize(n))).unwrap_or_default();
            (0, format!("{:<9} {who} tracks {}{backup}{note}", "promoted", quoted(&sanitize(id))))
        }
        End::DryRun => (0, format!("{:<9} {who}: both patches accepted (dryRun=All; nothing changed)", "dry-run")),
        End::Already => (1, format!("{:<9} {who} already has its original policies", "skipped")),
        End::Left(why) => (2, format!("{:<9} {who}: {}", "left", sanitize(why))),
        End::Refused(why) => (3, format!("{:<9} {who}: {}", "refused", sanitize(why))),
        End::NotFound(why) | End::Failed(why) => (4, format!("{:<9} {who}: {}", "failed", sanitize(why))),
        End::NotStarted => (5, format!("{:<9} {who} (the run stopped before it)", "skipped")),
    };
    tally[slot] += 1;
    text
}

impl Run<'_> {
    async fn one(&self, item: &PromoteItem, target: &Target) -> End {
        let Ok(slot) = self.slots.acquire().await else { return End::NotStarted };
        let obj = match write::read(self.conn, target).await {
            Ok(o) => o,
            Err(WriteError::NotFound { .. }) => return End::Refused("not in the cluster: was it restored?".into()),
            Err(e) => return End::Failed(e.to_string()),
        };
        let writes = [promote::request_patch(item, ""), promote::promote_patch(item, "")];
        if let Some(hold) =
            upjet_core::adopt::composite::composite_hold_of(&obj).filter(|h| writes.iter().any(|p| h.touched_by(p)))
        {
            return End::Refused(format!("its identity belongs to its composition: {}", hold.advice()));
        }
        let id = match promote::start(item, &obj, self.args.source_released) {
            Start::Promoted => return End::Already,
            Start::Verify { id } => id,
            Start::NeedsId => {
                return End::Left(format!(
                    "restored paused with no ID: find it ({}), set it with kubectl annotate … crossplane.io/external-name=ID, then promote again",
                    item.upjet_command("history")
                ));
            }
            Start::UserPaused => {
                return End::Left(
                    "paused as it was backed up: its Observe cannot run; remove your pause, then promote again".into(),
                );
            }
            Start::Fight(source) => {
                return End::Left(format!(
                    "{source} still manages its cloud object: pause it there, then promote with --source-released"
                ));
            }
            Start::Changed(why) => return End::Refused(format!("{why}; left as it is")),
        };
        if self.stop.load(Ordering::SeqCst) || self.interrupt.is_set() {
            return End::NotStarted;
        }
        if self.args.apply.dry_run {
            return self.dry_run(item, target, &obj).await;
        }
        self.verify_and_promote(item, target, obj, id, slot).await
    }

    async fn dry_run(&self, item: &PromoteItem, target: &Target, obj: &Value) -> End {
        let token = self.token();
        for patch in [promote::request_patch(item, &token), promote::promote_patch(item, &token)] {
            eprintln!("{}: would send {patch}", sanitize(&item.display()));
            let body = patch::with_resource_version(patch, patch::resource_version(obj));
            if let Err(e) = write::merge_patch(self.conn, target, &body, true).await {
                return End::Failed(format!("rejected by the API server: {e}"));
            }
        }
        End::DryRun
    }

    fn token(&self) -> String {
        (self.env.now)().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    }

    async fn verify_and_promote(
        &self,
        item: &PromoteItem,
        target: &Target,
        obj: Value,
        id: String,
        slot: tokio::sync::SemaphorePermit<'_>,
    ) -> End {
        let who = sanitize(&item.display());
        let backup = match self.dir.as_ref().map(|d| backup::write(d, &obj, (self.env.now)())) {
            Some(Ok(path)) => Some(path.display().to_string()),
            Some(Err(e)) => return End::Failed(format!("{e}; nothing changed")),
            None => None,
        };
        test_hook(self.env, 0);
        let token = self.token();
        let (before, current) = match self.write(target, obj, promote::request_patch(item, &token)).await {
            Ok(pair) => pair,
            Err(end) => return end,
        };
        eprintln!("{who}: asked for a fresh Observe ({token})");
        test_hook(self.env, 1);
        let wait = Wait::Imported { id: id.clone(), token: token.clone() };
        let baseline = Baseline::after_write(&before, &Observed::new(current.clone()), &token);
        let current = match self.wait(target, &wait, &baseline).await {
            Ok(o) => o,
            Err(WaitEnd::NotFound(msg)) => {
                self.stop.store(true, Ordering::SeqCst);
                return End::NotFound(format!(
                    "its Observe found no cloud object with ID {id} ({msg}); left observing only",
                    id = quoted(&id)
                ));
            }
            Err(WaitEnd::Other(why)) => return End::Failed(format!("{why}; left observing only, as restored")),
        };
        eprintln!("{who}: its Observe found {id:?}");
        let token = format!("{token}+promoted");
        let (before, promoted) = match self.write(target, current, promote::promote_patch(item, &token)).await {
            Ok(pair) => pair,
            Err(end) => return end,
        };
        test_hook(self.env, 2);
        drop(slot);
        let ready = Wait::Ready { token: token.clone() };
        let baseline = Baseline::after_write(&before, &Observed::new(promoted), &token);
        let note = match self.wait(target, &ready, &baseline).await {
            Ok(_) => None,
            Err(WaitEnd::NotFound(m) | WaitEnd::Other(m)) => Some(format!("promoted, but not confirmed Ready: {m}")),
        };
        End::Promoted { id, backup, note }
    }

    /// One conditional write: on a 409, a status-only change is retried on the fresh object, a
    /// change to what matters refuses the MR (left as the other writer made it).
    async fn write(&self, target: &Target, mut current: Value, patch: Value) -> Result<(Value, Value), End> {
        for _ in 0..MAX_BENIGN_CONFLICTS {
            let body = patch::with_resource_version(patch.clone(), patch::resource_version(&current));
            match write::merge_patch(self.conn, target, &body, false).await {
                Ok(stored) => return Ok((current, stored)),
                Err(WriteError::Conflict { .. }) => {}
                Err(e) => return Err(End::Failed(e.into_error(self.conn).to_string())),
            }
            let fresh = write::read(self.conn, target).await.map_err(|e| End::Failed(e.to_string()))?;
            let changes = conflicting_changes(&current, &fresh);
            if let Some(c) = changes.first() {
                return Err(End::Refused(format!(
                    "{} changed meanwhile ({:?} → {:?}); left as it is",
                    c.field, c.before, c.after
                )));
            }
            current = fresh;
        }
        Err(End::Failed("its status kept changing; left as it is".into()))
    }

    /// Polls until the provider confirms, reports the object missing, or the timeout passes.
    async fn wait(&self, target: &Target, wait: &Wait, baseline: &Baseline) -> Result<Value, WaitEnd> {
        let start = (self.env.instant)();
        loop {
            let last = match write::read(self.conn, target).await {
                Ok(obj) => {
                    let observed = Observed::new(obj);
                    match adopt::progress(wait, baseline, &observed) {
                        Progress::Done(_) => return Ok(observed.obj),
                        Progress::NotFound(m) => return Err(WaitEnd::NotFound(m)),
                        Progress::Waiting(m) | Progress::Unmarked(m) => m,
                    }
                }
                Err(e) => e.to_string(),
            };
            if start.elapsed() >= self.args.apply.timeout {
                return Err(WaitEnd::Other(format!(
                    "the provider did not confirm within {:?} ({last})",
                    self.args.apply.timeout
                )));
            }
            tokio::select! {
                _ = tokio::time::sleep(POLL) => {}
                _ = self.interrupt.wait() => return Err(WaitEnd::Other("interrupted".into())),
            }
        }
    }
}

/// Why a wait ended without the provider's confirmation.
enum WaitEnd {
    NotFound(String),
    Other(String),
}
