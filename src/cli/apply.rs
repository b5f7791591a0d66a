//! The flags of the commands that carry a plan file out MR by MR with adopt's guarantees
//! (`promote`, `migrate apply`): one set of flags, declared once. Each command words the four
//! that name its own plan and what it does to an MR ([`Wording`]), so that its help reads as
//! before.

use clap::Args;
use std::path::PathBuf;

/// Where `--timeout` and `--backup-dir` sort in a command's help: after the command's own flags
/// about how far to go (`migrate apply --keep-legacy`, `--observe-only`), before
/// [`AFTER_WAITS`]. clap numbers the flags of a command in declaration order, from 0.
const WAITS: usize = 20;

/// Where a command's flag sorts that comes after `--timeout` and `--backup-dir` in its help
/// (`promote --source-released`).
pub(crate) const AFTER_WAITS: usize = WAITS + 2;

/// How a plan file is carried out: which plan, whether anything is written, how many MRs at
/// once, how long each wait may take and where the backups go.
#[derive(Debug, Clone, Args)]
#[command(
    mut_arg("timeout", |a| a.help(TIMEOUT).display_order(WAITS)),
    mut_arg("backup_dir", |a| a.display_order(WAITS + 1))
)]
pub struct ApplyArgs {
    /// The plan file (its help names the command that writes it: [`Wording::plan`]).
    #[arg(short = 'f', long = "filename", value_name = "PLAN", help_heading = super::INPUTS)]
    pub filename: PathBuf,
    /// Send every write with server-side dryRun=All ([`Wording::dry_run`]).
    #[command(flatten)]
    pub dry_run: super::shared::DryRunArgs,
    /// `-y/--yes`.
    #[command(flatten)]
    pub yes: super::shared::YesArgs,
    /// How many MRs at the same time, 1-64 ([`Wording::parallel`]).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub parallel: u16,
    /// `--timeout` ([`TIMEOUT`]), sorted at [`WAITS`].
    #[command(flatten)]
    pub wait: super::shared::WaitArgs,
    /// Where the backups go ([`Wording::backup_dir`]), sorted after `--timeout`.
    #[command(flatten)]
    pub backup_dir: super::shared::BackupDirArgs,
}

/// `--timeout`, as promote and migrate apply word it.
const TIMEOUT: &str = "How long to wait for the provider at each wait: `5m`, `90s`; a bare number is seconds";

/// The help of the flags whose words depend on the command: its plan, what a dry run shows, what
/// happens to each MR and which MR is backed up.
pub(crate) struct Wording {
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
