//! The flags of the commands that carry a plan file out MR by MR with adopt's guarantees
//! (`promote`, `migrate apply`): one set of flags, declared once. Each command words the four
//! that name its own plan and what it does to an MR ([`Wording`]), so that its help reads as
//! before.

use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Where `--timeout` and `--backup-dir` sort in a command's help: after the command's own flags
/// about how far to go (`migrate apply --keep-legacy`, `--observe-only`), before
/// [`AFTER_WAITS`]. clap numbers the flags of a command in declaration order, from 0.
const WAITS: usize = 20;

/// Where a command's flag sorts that comes after `--timeout` and `--backup-dir` in its help
/// (`promote --source-released`).
pub const AFTER_WAITS: usize = WAITS + 2;

/// How a plan file is carried out: which plan, whether anything is written, how many MRs at
/// once, how long each wait may take and where the backups go.
#[derive(Debug, Clone, Args)]
pub struct ApplyArgs {
    /// The plan file (its help names the command that writes it: [`Wording::plan`]).
    #[arg(short = 'f', long = "filename", value_name = "PLAN", help_heading = super::INPUTS)]
    pub filename: PathBuf,
    /// Send every write with server-side dryRun=All ([`Wording::dry_run`]).
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation (required when there is no terminal).
    #[arg(short = 'y', long)]
    pub yes: bool,
    /// How many MRs at the same time, 1-64 ([`Wording::parallel`]).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub parallel: u16,
    /// How long to wait for the provider at each wait: `5m`, `90s`; a bare number is seconds.
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = super::duration::timeout, display_order = WAITS)]
    pub timeout: Duration,
    /// Where the backups go ([`Wording::backup_dir`]).
    #[arg(long, value_name = "DIR", display_order = WAITS + 1)]
    pub backup_dir: Option<PathBuf>,
}

/// The help of the flags whose words depend on the command: its plan, what a dry run shows, what
/// happens to each MR and which MR is backed up.
pub struct Wording {
    /// `-f`.
    pub plan: &'static str,
    /// `--dry-run`.
    pub dry_run: &'static str,
    /// `--parallel`.
    pub parallel: &'static str,
    /// `--backup-dir`.
    pub backup_dir: &'static str,
}

impl Wording {
    /// `arg` with this command's help when it is one of the worded flags (a command applies it
    /// to each of its flags: `#[command(mut_args(|a| WORDS.word(a)))]`).
    pub fn word(&self, arg: clap::Arg) -> clap::Arg {
        let help = match arg.get_id().as_str() {
            "filename" => self.plan,
            "dry_run" => self.dry_run,
            "parallel" => self.parallel,
            "backup_dir" => self.backup_dir,
            _ => return arg,
        };
        arg.help(help)
    }
}
