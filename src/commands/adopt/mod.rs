//! `kubectl upjet adopt` and `kubectl upjet restore`: the shell around [`upjet_core::adopt`].
//!
//! The core decides every write and, through its state machine, what comes next; this module
//! reads the MR, asks the user, writes the backup, sends each step as a conditional merge patch,
//! waits for the provider, and reports. Its one rule: whatever happens (refusal, conflict, RBAC
//! denial, Ctrl-C, crash between steps), the MR is left as it was, paused with its backup path
//! printed, or fully adopted.

mod bulk;
mod choose;
mod duplicates;
mod error;
mod executor;
mod interrupt;
mod parallel;
mod pause;
mod promote;
mod restore;
mod single;
mod ui;

pub(crate) use error::AdoptError;
pub use interrupt::Interrupt;
pub use ui::Ui;

use crate::cli::adopt::{AdoptArgs, RestoreArgs};
use crate::cli::restore::PromoteArgs;
use crate::commands::resolve::{Adopt, Adoption, Apply, Carry, Promote, Restore};
use crate::settings::Settings;
use std::io::Write;
use upjet_core::adopt::Options;
use upjet_core::error::{Error, Exit};
use upjet_local::backup::BackupDir;

/// Everything adopt, restore, promote and migrate apply take from their environment (terminal,
/// colour, the default backup folder, clock, test hooks), read in one place so that the rest is
/// given it and reads nothing itself. Their flags are their resolved values' (`commands::resolve`).
#[derive(Clone, Debug)]
pub struct AdoptEnv {
    /// stdin and stderr are terminals: questions can be asked.
    pub interactive: bool,
    /// Prompts use colour.
    pub color: bool,
    /// The default backup folder, or why there is none (no home folder).
    pub backup_dir: Result<BackupDir, String>,
    /// Test hook: exit abruptly after this step.
    pub stop_after_step: Option<usize>,
    /// Test hook: hang after this step.
    pub hang_after_step: Option<usize>,
    /// The clock: the current time (RFC3339 tokens, backup file names).
    pub now: fn() -> chrono::DateTime<chrono::Utc>,
    /// The monotonic clock waits measure their time with.
    pub instant: fn() -> std::time::Instant,
}

/// What adopt takes from the resolved settings.
pub fn environment(settings: &Settings) -> AdoptEnv {
    AdoptEnv {
        interactive: settings.interactive,
        color: settings.color_stderr,
        backup_dir: BackupDir::default_under(settings.home.as_deref()).map_err(|e| e.to_string()),
        stop_after_step: settings.stop_after_step,
        hang_after_step: settings.hang_after_step,
        now: settings.clock,
        instant: std::time::Instant::now,
    }
}

/// Runs `adopt` on the terminal, with Ctrl-C handling: its flags resolved once ([`Adopt`]), its
/// inputs read ([`Adopt::open`]), then one MR or a plan.
pub async fn run(settings: &Settings, args: &AdoptArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let asked = Adopt::resolve(args, settings).map_err(Error::from)?;
    let env = environment(settings);
    let mut ui = Ui::terminal(&env);
    ui.interrupt.listen_for_ctrl_c();
    adopt(asked, out, &mut ui, &env).await
}

/// Runs `adopt` with the given UI (the testable entry point).
pub async fn run_with(settings: &Settings, args: &AdoptArgs, out: &mut dyn Write, ui: &mut Ui) -> anyhow::Result<Exit> {
    let asked = Adopt::resolve(args, settings).map_err(Error::from)?;
    adopt(asked, out, ui, &environment(settings)).await
}

/// Opens the run (what it reads besides the cluster, read first) and carries it out.
async fn adopt(asked: Adopt, out: &mut dyn Write, ui: &mut Ui, env: &AdoptEnv) -> anyhow::Result<Exit> {
    let done = match asked.open().await? {
        Adoption::Plan(plan) => bulk::bulk(*plan, out, ui, env).await,
        Adoption::One(one) => single::single(*one, out, ui, env).await,
    };
    done.map_err(AdoptError::into_anyhow)
}

/// Runs `restore` on the terminal, with Ctrl-C handling.
pub(crate) async fn run_restore(settings: &Settings, args: &RestoreArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let env = environment(settings);
    let mut ui = Ui::terminal(&env);
    ui.interrupt.listen_for_ctrl_c();
    restore_with(settings, args, out, &mut ui).await
}

/// Runs `restore` with the given UI (the testable entry point).
pub(crate) async fn restore_with(
    settings: &Settings,
    args: &RestoreArgs,
    out: &mut dyn Write,
    ui: &mut Ui,
) -> anyhow::Result<Exit> {
    restore::restore(&Restore::resolve(args, settings), out, ui).await
}

/// Runs `promote` on the terminal: its flags resolved once ([`Promote`]), then the plan.
pub(crate) async fn run_promote(settings: &Settings, args: &PromoteArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    promote::promote(settings, &Promote::resolve(args), out).await
}

/// Where the backups of a plan carried out with adopt's guarantees go (`promote`, `migrate
/// apply`): `--backup-dir`, else the default folder; with neither (no home folder) only a dry
/// run, which writes none, may go on.
pub(crate) fn plan_backups(apply: &Apply, env: &AdoptEnv) -> Result<Option<BackupDir>, Error> {
    let dir = match &apply.backup_dir {
        Some(d) => Some(BackupDir::chosen(d)),
        None => env.backup_dir.clone().ok(),
    };
    if dir.is_none() && !apply.dry_run {
        return Err(Error::usage("no home folder for the backups: pass --backup-dir").nothing_changed());
    }
    Ok(dir)
}

/// The test hooks (`UPJET_TEST_STOP_AFTER_STEP`, `UPJET_TEST_HANG_AFTER_STEP`): exit abruptly, or
/// announce the step and hang until killed, right after `step`, to prove every boundary is safe.
pub(crate) fn test_hook(env: &AdoptEnv, step: usize) {
    if env.stop_after_step == Some(step) {
        eprintln!("test hook: stopping abruptly after step {step}");
        std::process::exit(99);
    }
    if env.hang_after_step == Some(step) {
        eprintln!("test hook: waiting to be killed after step {step}");
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}

/// The adoption options, as the resolved flags build them, for an adoption starting now.
fn options(carry: &Carry, env: &AdoptEnv) -> Options {
    carry.options((env.now)().to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
}
