//! `kubectl upjet migrate apply -f PLAN`: each item carried out with adopt's guarantees. The
//! next step is always decided from the two objects as read now ([`apply::stage`]), so a re-run
//! after a kill at any step resumes, and every write is conditional on what was read:
//! a. back up the legacy MR, then hold it (paused, `deletionPolicy: Orphan`, no `Delete` in
//!    explicit policies) in one conditional write;
//! b. create the namespaced MR observing only, with the external-name;
//! c. ask it for a fresh Observe and wait until the provider shows the Observe found the object;
//! d. give it its final policies in one conditional write (`--observe-only` stops before);
//! e. delete the legacy MR (uid precondition) and lift its pause so its provider removes the
//!    finalizer, leaving the cloud object (`--keep-legacy` leaves it held);
//! f. when the Observe found nothing: delete the namespaced MR (observing only, so the cloud is
//!    untouched) and put the legacy MR back as planned.
//!
//! The kill-test hooks (`UPJET_TEST_STOP_AFTER_STEP`, `UPJET_TEST_HANG_AFTER_STEP`) are numbered:
//! 0 after a, 1 after b, 6 after c's reconcile request (before its wait), 2 after d, 3 after e's
//! delete, 4 after e's release, 5 after f's delete of the namespaced MR.

use crate::commands::adopt::{AdoptEnv, Interrupt, Ui, environment, test_hook};
use crate::commands::resolve::MigrateApply;
use crate::settings::Settings;
use futures::StreamExt;
use serde_json::Value;
use std::io::Write;
use upjet_cluster::connect::{self, Connection};
use upjet_cluster::write::{self, Target, WriteError};
use upjet_core::adopt::machine::{MAX_BENIGN_CONFLICTS, POLL};
use upjet_core::adopt::{self, Baseline, Observed, Progress, Wait, conflicting_changes};
use upjet_core::error::Exit;
use upjet_core::migrate::Item;
use upjet_core::migrate::apply::{self, Stage};
use upjet_core::patch;
use upjet_core::shell::quoted;
use upjet_local::backup::{self, BackupDir};
use upjet_output::style::sanitize;

/// How often step c reads the namespaced MR while its Observe is awaited: a fifth of adopt's
/// poll. The wait is what an item's time is made of (the provider answers in seconds), and at
/// adopt's 500 ms each item overshot its answer by a quarter second on average, 16 items at a
/// time (`benches/migrate.rs`); 16 items at this interval are 80 GETs a second.
const WAIT_POLL: std::time::Duration = std::time::Duration::from_millis(200);

/// How one item ended.
enum End {
    Migrated { backup: Option<String>, kept: bool },
    Observing,
    DryRun(&'static str),
    Already,
    RolledBack(String),
    Refused(String),
    Failed(String),
}

/// What every item shares.
struct Run<'a> {
    conn: &'a Connection,
    args: &'a MigrateApply,
    env: &'a AdoptEnv,
    dir: Option<BackupDir>,
    interrupt: Interrupt,
}

/// Runs `migrate apply`.
pub async fn run(settings: &Settings, args: &MigrateApply, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let env = environment(settings);
    let mut ui = Ui::terminal(&env);
    ui.interrupt.listen_for_ctrl_c();
    let plan = super::read_plan(&args.apply.plan)?;
    if plan.items.is_empty() {
        writeln!(out, "the plan is empty; nothing to migrate")?;
        return Ok(Exit::Ok);
    }
    let conn = connect::connect(&settings.connect).await?;
    let targets = super::locate_all(&conn, &plan).await?;
    if !args.apply.yes && !args.apply.dry_run {
        let q = format!("Migrate the {} MRs of {}?", plan.items.len(), args.apply.plan.display());
        ui.confirm_change(&q, format!("migrate {} MRs", plan.items.len()), "writes")
            .map_err(crate::commands::adopt::AdoptError::into_anyhow)?;
    }
    let dir = crate::commands::adopt::plan_backups(&args.apply, &env)?;
    let run = Run { conn: &conn, args, env: &env, dir, interrupt: ui.interrupt.clone() };
    let mut tally = [0usize; 4];
    let mut ends = futures::stream::iter(plan.items.iter().zip(&targets))
        .map(|(item, (legacy, new))| {
            let run = &run;
            async move { (item, run.one(item, legacy, new).await) }
        })
        .buffer_unordered(args.apply.parallel);
    while let Some((item, end)) = ends.next().await {
        writeln!(out, "{}", line(item, &end, &mut tally))?;
        out.flush()?;
    }
    let [done, left, refused, failed] = tally;
    writeln!(
        out,
        "{done} migrated, {left} left observing, {refused} refused or rolled back, {failed} failed, of {} in the plan",
        plan.items.len()
    )?;
    Ok(if left + refused + failed == 0 { Exit::Ok } else { Exit::Failed })
}

fn line(item: &Item, end: &End, tally: &mut [usize; 4]) -> String {
    let who = sanitize(&item.display());
    let to = sanitize(&item.target_display());
    let (slot, text) = match end {
        End::Migrated { backup, kept } => {
            let backup = backup.as_deref().map(|b| format!(" (backup {})", sanitize(b))).unwrap_or_default();
            let kept = if *kept { "; legacy kept, paused and unable to delete" } else { "" };
            (
                0,
                format!(
                    "{:<9} {who} → {to} tracking {}{kept}{backup}",
                    "migrated",
                    quoted(&sanitize(&item.external_name))
                ),
            )
        }
        End::Already => (0, format!("{:<9} {who} → {to} (already migrated)", "skipped")),
        End::DryRun(what) => (0, format!("{:<9} {who} → {to}: {what} (dryRun=All; nothing changed)", "dry-run")),
        End::Observing => (
            1,
            format!(
                "{:<9} {who} → {to}: its Observe found the object; left observing only (--observe-only)",
                "observing"
            ),
        ),
        End::RolledBack(why) => (2, format!("{:<9} {who}: {}", "rolled-back", sanitize(why))),
        End::Refused(why) => (2, format!("{:<9} {who}: {}", "refused", sanitize(why))),
        End::Failed(why) => (3, format!("{:<9} {who}: {}", "failed", sanitize(why))),
    };
    tally[slot] += 1;
    text
}

/// Reads an object; `None` when it does not exist.
async fn read_opt(conn: &Connection, target: &Target) -> Result<Option<Value>, String> {
    match write::read(conn, target).await {
        Ok(v) => Ok(Some(v)),
        Err(WriteError::NotFound { .. }) => Ok(None),
        Err(e) => Err(e.into_error(conn).to_string()),
    }
}

fn uid(obj: &Value) -> String {
    obj.pointer("/metadata/uid").and_then(Value::as_str).unwrap_or_default().to_string()
}

impl Run<'_> {
    fn token(&self, suffix: &str) -> String {
        format!("{}{suffix}", (self.env.now)().to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
    }

    /// Carries one item from wherever it stands to its end.
    async fn one(&self, item: &Item, legacy_t: &Target, new_t: &Target) -> End {
        let mut backup = None;
        let mut first = true;
        loop {
            if self.interrupt.is_set() {
                return End::Failed("interrupted; a re-run resumes".into());
            }
            let (legacy, new) = match futures::join!(read_opt(self.conn, legacy_t), read_opt(self.conn, new_t)) {
                (Ok(l), Ok(n)) => (l, n),
                (Err(e), _) | (_, Err(e)) => return End::Failed(e),
            };
            let stage = apply::stage(item, legacy.as_ref(), new.as_ref());
            if self.args.apply.dry_run {
                return self.dry_run(item, legacy_t, new_t, &stage, legacy.as_ref()).await;
            }
            let step = match (stage, legacy, new) {
                (Stage::Done, ..) if first => return End::Already,
                (Stage::Done, ..) => return End::Migrated { backup, kept: false },
                (Stage::Changed(why), ..) => return End::Refused(why),
                (Stage::Planned, Some(l), _) => self.hold(item, legacy_t, l, &mut backup).await,
                (Stage::Held, ..) => self.create(item, new_t).await,
                (Stage::Observing, l, Some(n)) => match self.observe(item, legacy_t, new_t, l, n).await {
                    Ok(true) => Ok(()),
                    Ok(false) => return End::Observing,
                    Err(end) => return end,
                },
                (Stage::Switched { .. }, _, _) if self.args.keep_legacy => return End::Migrated { backup, kept: true },
                (Stage::Switched { deleting }, Some(l), _) => self.retire(item, legacy_t, l, deleting).await,
                _ => Err("the objects changed while being read; a re-run resumes".to_string()),
            };
            if let Err(why) = step {
                return End::Failed(why);
            }
            first = false;
        }
    }

    /// Step a: the backup, then the hold in one conditional write.
    async fn hold(&self, item: &Item, t: &Target, legacy: Value, backup: &mut Option<String>) -> Result<(), String> {
        if let Some(dir) = &self.dir {
            let path = backup::write(dir, &legacy, (self.env.now)()).map_err(|e| format!("{e}; nothing changed"))?;
            eprintln!("{}: backup {}", sanitize(&item.display()), path.display());
            *backup = Some(path.display().to_string());
        }
        self.write(t, legacy, &item.hold).await?;
        test_hook(self.env, 0);
        Ok(())
    }

    /// Step b: the namespaced MR, observing only.
    async fn create(&self, item: &Item, t: &Target) -> Result<(), String> {
        match write::create(self.conn, t, &apply::manifest(item), false).await {
            Ok(_) | Err(WriteError::Conflict { .. }) => {}
            Err(e) => return Err(format!("creating {}: {}", item.target_display(), e.into_error(self.conn))),
        }
        test_hook(self.env, 1);
        Ok(())
    }

    /// Steps c and d (or f): `Ok(true)` once switched, `Ok(false)` when told to stop observing.
    async fn observe(
        &self,
        item: &Item,
        legacy_t: &Target,
        t: &Target,
        legacy: Option<Value>,
        new: Value,
    ) -> Result<bool, End> {
        let token = self.token("");
        let (before, after) = self.write(t, new, &apply::request_patch(&token)).await.map_err(End::Failed)?;
        test_hook(self.env, 6);
        let wait = Wait::Imported { id: item.external_name.clone(), token: token.clone() };
        let baseline = Baseline::after_write(&before, &Observed::new(after), &token);
        let current = match self.wait(t, &wait, &baseline).await {
            Ok(obj) => obj,
            Err((true, msg)) => return Err(self.roll_back(item, legacy_t, t, legacy, msg).await),
            Err((false, msg)) => {
                return Err(End::Failed(format!("{msg}; left observing only, the legacy MR held: a re-run resumes")));
            }
        };
        eprintln!("{}: its Observe found {}", sanitize(&item.target_display()), quoted(&sanitize(&item.external_name)));
        if self.args.observe_only {
            return Ok(false);
        }
        self.write(t, current, &apply::switch_patch(item, &self.token("+migrated"))).await.map_err(End::Failed)?;
        test_hook(self.env, 2);
        Ok(true)
    }

    /// Step f: the namespaced MR deleted (observing only: the cloud is untouched), the legacy
    /// MR put back as planned.
    async fn roll_back(&self, item: &Item, legacy_t: &Target, t: &Target, legacy: Option<Value>, msg: String) -> End {
        let new = match read_opt(self.conn, t).await {
            Ok(n) => n,
            Err(e) => return End::Failed(e),
        };
        if let Some(n) = new
            && let Err(e) = write::delete(self.conn, t, &uid(&n)).await
        {
            return End::Failed(format!(
                "the Observe found no object ({msg}), and deleting the namespaced MR failed: {e}"
            ));
        }
        test_hook(self.env, 5);
        if let Some(l) = legacy
            && let Err(e) = self.write(legacy_t, l, &apply::rollback_patch(item)).await
        {
            return End::Failed(format!("the Observe found no object ({msg}); the legacy MR is still held: {e}"));
        }
        End::RolledBack(format!(
            "its Observe found no cloud object with ID {} ({msg}): the namespaced MR is deleted and the legacy MR is back as it was",
            quoted(&item.external_name)
        ))
    }

    /// Step e: the legacy MR deleted (only this incarnation), then its pause lifted so its
    /// provider — Orphan, no Delete — removes the finalizer and leaves the cloud object.
    async fn retire(&self, item: &Item, t: &Target, legacy: Value, deleting: bool) -> Result<(), String> {
        let mut legacy = legacy;
        if !deleting {
            match write::delete(self.conn, t, &uid(&legacy)).await {
                Ok(()) | Err(WriteError::NotFound { .. }) => {}
                Err(WriteError::Denied { message, .. }) => {
                    return Err(apply::delete_refused(item, apply::in_use(&legacy), &message));
                }
                Err(e) => return Err(e.into_error(self.conn).to_string()),
            }
            test_hook(self.env, 3);
            match read_opt(self.conn, t).await? {
                Some(l) => legacy = l,
                None => return Ok(()),
            }
        }
        match self.write(t, legacy, &apply::release_patch()).await {
            Ok(_) => {}
            Err(e) if e.contains("not found") => return Ok(()),
            Err(e) => return Err(e),
        }
        test_hook(self.env, 4);
        let start = (self.env.instant)();
        while read_opt(self.conn, t).await?.is_some() {
            if start.elapsed() >= self.args.apply.timeout {
                return Err(format!(
                    "the legacy MR is still being deleted after {:?}: its provider has not removed its finalizer",
                    self.args.apply.timeout
                ));
            }
            tokio::time::sleep(POLL).await;
        }
        Ok(())
    }

    async fn dry_run(
        &self,
        item: &Item,
        legacy_t: &Target,
        new_t: &Target,
        stage: &Stage,
        legacy: Option<&Value>,
    ) -> End {
        match (stage, legacy) {
            (Stage::Planned, Some(l)) => {
                let body = patch::with_resource_version(item.hold.clone(), patch::resource_version(l));
                if let Err(e) = write::merge_patch(self.conn, legacy_t, &body, true).await {
                    return End::Failed(format!("the hold was rejected: {e}"));
                }
                if let Err(e) = write::create(self.conn, new_t, &apply::manifest(item), true).await {
                    return End::Failed(format!("the namespaced MR was rejected: {e}"));
                }
                End::DryRun("the hold and the create accepted")
            }
            (Stage::Done, _) => End::Already,
            (Stage::Changed(why), _) => End::Refused(why.clone()),
            _ => End::DryRun("under way; a run resumes it"),
        }
    }

    /// One conditional write: on a 409 a status-only change is retried on the fresh object; a
    /// change to what matters stops the item, left as the other writer made it.
    async fn write(&self, t: &Target, mut current: Value, patch: &Value) -> Result<(Value, Value), String> {
        for _ in 0..MAX_BENIGN_CONFLICTS {
            let body = patch::with_resource_version(patch.clone(), patch::resource_version(&current));
            match write::merge_patch(self.conn, t, &body, false).await {
                Ok(stored) => return Ok((current, stored)),
                Err(WriteError::Conflict { .. }) => {}
                Err(e) => return Err(e.into_error(self.conn).to_string()),
            }
            let fresh = write::read(self.conn, t).await.map_err(|e| e.to_string())?;
            if let Some(c) = conflicting_changes(&current, &fresh).first() {
                return Err(format!("{} changed meanwhile ({:?} → {:?}); left as it is", c.field, c.before, c.after));
            }
            current = fresh;
        }
        Err("its status kept changing; left as it is".into())
    }

    /// Polls until the provider confirms (`Ok`), reports the object missing (`Err((true, _))`),
    /// or the timeout passes (`Err((false, _))`).
    async fn wait(&self, t: &Target, wait: &Wait, baseline: &Baseline) -> Result<Value, (bool, String)> {
        let start = (self.env.instant)();
        loop {
            let last = match write::read(self.conn, t).await {
                Ok(obj) => {
                    let observed = Observed::new(obj);
                    match adopt::progress(wait, baseline, &observed) {
                        Progress::Done(_) => return Ok(observed.obj),
                        Progress::NotFound(m) => return Err((true, m)),
                        Progress::Waiting(m) | Progress::Unmarked(m) => m,
                    }
                }
                Err(e) => e.to_string(),
            };
            if start.elapsed() >= self.args.apply.timeout {
                return Err((
                    false,
                    format!("the provider did not confirm within {:?} ({last})", self.args.apply.timeout),
                ));
            }
            tokio::select! {
                _ = tokio::time::sleep(WAIT_POLL) => {}
                _ = self.interrupt.wait() => return Err((false, "interrupted".into())),
            }
        }
    }
}
