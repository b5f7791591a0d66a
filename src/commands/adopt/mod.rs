//! `kubectl upjet adopt` and `kubectl upjet restore`: the shell around [`crate::domain::adopt`].
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
mod restore;
mod single;
mod target;
mod ui;

pub use error::{AdoptError, Unchanged};
pub use interrupt::Interrupt;
pub use ui::Ui;

use crate::cli::Cli;
use crate::cli::adopt::{AdoptArgs, RestoreArgs};
use crate::domain::adopt::Options;
use crate::error::{Error, Exit};
use crate::output::style;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Test hook: the process exits abruptly (no clean-up) right after this step number completes
/// (0 = after the backup is written), to prove the MR is safe at every step boundary.
pub const STOP_AFTER_STEP_ENV: &str = "UPJET_TEST_STOP_AFTER_STEP";
/// Test hook: after this step the process announces itself and hangs, so a test can `kill -9` it
/// at that exact boundary (nothing in the process gets a chance to react).
pub const HANG_AFTER_STEP_ENV: &str = "UPJET_TEST_HANG_AFTER_STEP";

/// Everything adopt takes from its environment (terminal, colour, home folder, clock, test
/// hooks), read in one place so that the rest of adopt is given it and reads nothing itself.
#[derive(Clone, Debug)]
pub struct AdoptEnv {
    /// stdin and stderr are terminals: questions can be asked.
    pub interactive: bool,
    /// Prompts use colour.
    pub color: bool,
    /// The default backup folder, or why there is none (no home folder).
    pub backup_dir: Result<PathBuf, String>,
    /// Test hook: exit abruptly after this step.
    pub stop_after_step: Option<usize>,
    /// Test hook: hang after this step.
    pub hang_after_step: Option<usize>,
    /// The clock: the current time (RFC3339 tokens, backup file names).
    pub now: fn() -> chrono::DateTime<chrono::Utc>,
    /// The monotonic clock waits measure their time with.
    pub instant: fn() -> std::time::Instant,
}

/// Reads the environment adopt depends on.
pub fn environment(cli: &Cli) -> AdoptEnv {
    let step = |var: &str| std::env::var(var).ok().and_then(|v| v.parse::<usize>().ok());
    AdoptEnv {
        interactive: std::io::stdin().is_terminal() && std::io::stderr().is_terminal(),
        color: style::use_color(cli.ui.color, std::io::stderr().is_terminal()),
        backup_dir: crate::backup::default_dir().map_err(|e| e.to_string()),
        stop_after_step: step(STOP_AFTER_STEP_ENV),
        hang_after_step: step(HANG_AFTER_STEP_ENV),
        now: chrono::Utc::now,
        instant: std::time::Instant::now,
    }
}

/// Runs `adopt` on the terminal, with Ctrl-C handling.
pub async fn run(cli: &Cli, args: &AdoptArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let env = environment(cli);
    let mut ui = Ui::terminal(&env);
    ui.interrupt.listen_for_ctrl_c();
    adopt(cli, args, out, &mut ui, &env).await.map_err(AdoptError::into_anyhow)
}

/// Runs `adopt` with the given UI (the testable entry point).
pub async fn run_with(cli: &Cli, args: &AdoptArgs, out: &mut dyn Write, ui: &mut Ui) -> anyhow::Result<Exit> {
    let env = environment(cli);
    adopt(cli, args, out, ui, &env).await.map_err(AdoptError::into_anyhow)
}

async fn adopt(
    cli: &Cli,
    args: &AdoptArgs,
    out: &mut dyn Write,
    ui: &mut Ui,
    env: &AdoptEnv,
) -> Result<Exit, AdoptError> {
    match (&args.filename, &args.target) {
        (Some(path), _) => bulk::bulk(cli, args, path, out, ui, env).await,
        (None, Some(target)) => single::single(cli, args, target, out, ui, env).await,
        (None, None) => Err(Error::Usage("name the MR (KIND/NAME) or a plan file (-f)".into()).into()),
    }
}

/// Runs `restore` on the terminal, with Ctrl-C handling.
pub async fn run_restore(cli: &Cli, args: &RestoreArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let env = environment(cli);
    let mut ui = Ui::terminal(&env);
    ui.interrupt.listen_for_ctrl_c();
    restore_with(cli, args, out, &mut ui).await
}

/// Runs `restore` with the given UI (the testable entry point).
pub async fn restore_with(cli: &Cli, args: &RestoreArgs, out: &mut dyn Write, ui: &mut Ui) -> anyhow::Result<Exit> {
    restore::restore(cli, args, out, ui).await
}

/// The adoption options from the flags and the clock.
fn options(args: &AdoptArgs, env: &AdoptEnv) -> Options {
    Options {
        import: args.import,
        force: args.force,
        add_late_initialize: args.add_late_initialize,
        dry_run: args.dry_run,
        now: (env.now)().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    }
}
