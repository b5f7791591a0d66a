//! adopt's and restore's flags, resolved once: one MR or a plan, how each adoption is carried
//! out, and where a missing ID is looked for.

use super::Refusal;
use crate::cli::adopt::{AdoptArgs, RestoreArgs};
use crate::commands::cloud_audit::CloudAuditFiles;
use std::path::PathBuf;
use std::time::Duration;
use upjet_core::identity::UserTemplate;

/// `kubectl upjet adopt`, resolved.
#[derive(Debug, Clone)]
pub struct Adopt {
    /// One MR, or a plan file.
    pub what: AdoptWhat,
    /// `--id`: the cloud object's ID (one MR only).
    pub id: Option<String>,
    /// `--import`: observe the ID first, restore the policies once the provider found it.
    pub import: bool,
    /// `--force`: adopt even while an operation may still be running.
    pub force: bool,
    /// `--add-late-initialize`.
    pub add_late_initialize: bool,
    /// `--dry-run`: every patch sent with dryRun=All; nothing changes.
    pub dry_run: bool,
    /// `--yes`: no confirmation asked.
    pub yes: bool,
    /// `--pause-composite`: pause the MR's XR for the adoption when its composition sets the ID.
    pub pause_composite: bool,
    /// `--backup-dir`, else the default folder under the home folder.
    pub backup_dir: Option<PathBuf>,
    /// `--timeout`: how long each wait for the provider may take.
    pub timeout: Duration,
    /// `--concurrency`: a plan's MRs changed at the same time.
    pub concurrency: usize,
    /// `--probe`: a plan item's next candidate after each miss.
    pub probe: bool,
    /// `--id-template`.
    pub id_templates: Vec<UserTemplate>,
    /// `--cloud-audit`: the cloud's record, for an ID without `--id` (one MR only).
    pub cloud: CloudAuditFiles,
    /// `--journal`: the ID journal's folder, when named.
    pub journal: Option<PathBuf>,
}

/// What adopt works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdoptWhat {
    /// KIND/NAME as typed.
    One(String),
    /// `-f`: a plan file.
    Plan(PathBuf),
}

impl Adopt {
    /// Resolves adopt's flags; a plan with `--cloud-audit`, or neither an MR nor a plan, is
    /// refused.
    pub fn resolve(args: &AdoptArgs) -> Result<Adopt, Refusal> {
        let what = match (&args.filename, &args.target) {
            (Some(_), _) if !args.cloud.cloud_audit.is_empty() => return Err(Refusal::CloudAuditWithPlan),
            (Some(path), _) => AdoptWhat::Plan(path.clone()),
            (None, Some(target)) => AdoptWhat::One(target.clone()),
            (None, None) => return Err(Refusal::NothingToAdopt),
        };
        Ok(Adopt {
            what,
            id: args.id.clone(),
            import: args.import,
            force: args.force,
            add_late_initialize: args.add_late_initialize,
            dry_run: args.dry_run,
            yes: args.yes,
            pause_composite: args.pause_composite,
            backup_dir: args.backup_dir.clone(),
            timeout: args.timeout,
            concurrency: usize::from(args.concurrency),
            probe: args.probe,
            id_templates: args.id_templates.clone(),
            cloud: super::shared::cloud_files(&args.cloud),
            journal: args.journal.journal.clone(),
        })
    }
}

/// `kubectl upjet restore`, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restore {
    /// The backup adopt wrote.
    pub backup_file: PathBuf,
    /// `--yes`.
    pub yes: bool,
    /// `--dry-run`.
    pub dry_run: bool,
}

impl Restore {
    /// Resolves restore's flags.
    pub fn resolve(args: &RestoreArgs) -> Restore {
        Restore { backup_file: args.backup_file.clone(), yes: args.yes, dry_run: args.dry_run }
    }
}
