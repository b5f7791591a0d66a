//! What a command line asks for, resolved once (ripgrep's low → high arguments): each command's
//! clap struct becomes one value of plain fields — doctor's [`Doctor`] with its [`Flow`], and one
//! per other command — and that value carries the collaborators its run is built from (the
//! evidence sources, the fleet-wide files, the scan, the printer, `JudgedAt`). Every refusal of
//! a flag combination lives here, as a [`Refusal`], table-tested, so that nothing below a
//! command's entry point (`commands::<command>::run`) reads a flag or refuses one.
//!
//! A new command (a `guard`) adds its clap struct in `cli/`, a file here with its resolved value
//! and `resolve`, its refusals as [`Refusal`] variants, and an entry point that resolves and
//! runs; it reuses the collaborators below ([`evidence_sources`], [`cloud_files`]) for the flags
//! it shares.

mod adopt;
mod doctor;
mod history;
mod migrate;
mod restore;
mod tools;

pub use adopt::{Adopt, AdoptWhat, Restore};
pub use doctor::{Doctor, DoctorPrinter, ExitRule, Flow, NamedInput, OneMr, PathKind, Scan, SummaryScope};
pub use history::{History, HistoryOutput};
pub use migrate::{MigrateApply, MigratePlan};
pub use restore::{Promote, RestorePlan};
pub use tools::{Health, Rbac};

use super::cloud_audit::CloudAuditFiles;
use super::evidence::{EvidenceSources, LogReading};
use crate::cli::apply::ApplyArgs;
use crate::cli::{CloudAuditArgs, Command, JournalArgs, LogOptions};
use crate::cluster::logs::LogLimits;
use crate::domain::managed::ManagedResource;
use std::path::PathBuf;
use std::time::Duration;

/// A flag combination a command refuses, before anything is read. Each message says what to do
/// instead; all of them are usage errors (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// `--logs` with `--from`.
    #[error("--logs reads a live cluster; with --from use --log-file")]
    LogsOffline,
    /// `--inventory` with KIND/NAME.
    #[error(
        "--inventory cross-checks a whole fleet (healthy peers show each kind's ID format): run doctor without KIND/NAME"
    )]
    InventoryForOneMr,
    /// `--source-context` without exactly one `--from`.
    #[error("--source-context compares one Velero backup (--from BACKUP) with the cluster it was taken from")]
    SourceContextWithoutOneBackup,
    /// `--source-context` with a `--from` that is not a backup.
    #[error("--source-context compares a Velero backup with its source cluster; {} is not a backup", .0.display())]
    SourceContextNotABackup(PathBuf),
    /// `--from` with several `--context` or `--all-contexts`.
    #[error(
        "--from reads snapshots, --context and --all-contexts read clusters: give one or the other (one --from per cluster)"
    )]
    SnapshotsAndContexts,
    /// KIND/NAME over several clusters.
    #[error("doctor KIND/NAME looks at one MR in one cluster: give one --context (or one --from)")]
    OneMrInSeveralClusters,
    /// `--inventory` over several clusters.
    #[error("--inventory cross-checks one cluster's fleet against one cloud export: run doctor once per cluster")]
    InventoryForSeveralClusters,
    /// `--cloud-audit` over several clusters.
    #[error(
        "--cloud-audit ties one cluster's MRs to the cloud's record (their healthy peers teach who the provider is): run doctor once per cluster"
    )]
    CloudAuditForSeveralClusters,
    /// `--log-file` over several clusters.
    #[error(
        "--log-file cannot tell which cluster a log came from: run doctor once per cluster (--logs reads each cluster's own provider pods)"
    )]
    LogFileForSeveralClusters,
    /// Several `--from` that cannot each name a cluster of its own.
    #[error("{0}")]
    SnapshotNames(String),
    /// Manifests and a snapshot (or backup) among the `--from` paths.
    #[error(
        "{} holds manifests (desired state) and {} a snapshot of a cluster: lint the manifests and scan the snapshot in two runs of doctor",
        .manifests.display(), .snapshot.display()
    )]
    ManifestsAndSnapshots {
        /// The first path of manifests.
        manifests: PathBuf,
        /// The first path that is not.
        snapshot: PathBuf,
    },
    /// An input about what a cluster did, given with manifests to lint.
    #[error(
        "{0} tells what a cluster and its provider did; manifests (desired state) are linted on their own: run doctor on the cluster or a snapshot for it"
    )]
    EvidenceForManifests(&'static str),
    /// A command about one cluster given several `--context` or `--all-contexts`.
    #[error("{0} acts on one cluster: give at most one --context (several clusters and --all-contexts are for doctor)")]
    SeveralClusters(&'static str),
    /// `adopt -f` with `--cloud-audit`.
    #[error(
        "--cloud-audit with -f: a plan already holds each MR's ranked IDs; give the record to `doctor --plan` instead"
    )]
    CloudAuditWithPlan,
    /// `adopt` with neither KIND/NAME nor `-f`.
    #[error("name the MR (KIND/NAME) or a plan file (-f)")]
    NothingToAdopt,
    /// `migrate plan` without `--to-namespace` or `--namespace-from`.
    #[error("say where the MRs go: --to-namespace NS or --namespace-from label=KEY")]
    NoTargetNamespace,
    /// `migrate plan` without KIND/NAME, `-l` or `--all`.
    #[error("name the legacy MRs (KIND/NAME), select them with -l, or pass --all")]
    NoLegacyMrs,
    /// `migrate plan -l` with a selector that is not `key=value` pairs.
    #[error("-l {0:?}: migrate plan reads key=value selectors only")]
    SelectorNotEquality(String),
    /// `migrate plan -o` naming a file that exists, without `--force`.
    #[error("{} exists; pass --force to overwrite it", .0.display())]
    PlanFileExists(PathBuf),
    /// A `restore-plan` output that exists, without `--force`: it says that nothing was written,
    /// since it has two outputs and a re-run must know neither was touched.
    #[error("{} exists; pass --force to overwrite it", .0.display())]
    OutputExists(PathBuf),
    /// `restore-plan` with `--modifiers` and `--plan` naming one file.
    #[error("--modifiers and --plan name the same file")]
    SameOutputs,
    /// `restore-plan` with an output that is the backup.
    #[error("{} is the backup itself; choose another output", .0.display())]
    OutputIsBackup(PathBuf),
    /// `restore-plan` over a path that is no Velero backup.
    #[error(
        "{} is not a Velero backup (the .tar.gz `velero backup download` writes, or a folder with resources/ and metadata/version)",
        .0.display()
    )]
    NotABackup(PathBuf),
}

impl From<Refusal> for crate::error::Error {
    fn from(r: Refusal) -> Self {
        let e = crate::error::Error::usage(r.to_string());
        if matches!(r, Refusal::OutputExists(_)) { e.nothing_changed() } else { e }
    }
}

/// Commands that act on one object in one cluster refuse several `--context` or `--all-contexts`
/// (only `doctor` scans several clusters) rather than silently use the first.
pub fn one_cluster_only(command: &Command, several_contexts: bool) -> Result<(), Refusal> {
    let name = match command {
        Command::History(_) => "history",
        Command::Adopt(_) => "adopt",
        Command::Restore(_) => "restore",
        Command::Rbac(_) => "rbac",
        Command::Promote(_) => "promote",
        Command::Migrate(_) => "migrate",
        Command::Health(_) => "health",
        Command::Doctor(_) | Command::Completion(_) | Command::RestorePlan(_) | Command::Watch(_) => return Ok(()),
    };
    if several_contexts { Err(Refusal::SeveralClusters(name)) } else { Ok(()) }
}

/// `--since`, `--limit-bytes` and `--provider-namespace` as the API server takes them.
pub fn log_reading(opts: &LogOptions) -> LogReading {
    LogReading {
        limits: LogLimits {
            since_seconds: (!opts.since.is_zero()).then(|| opts.since.as_secs().max(1) as i64),
            limit_bytes: Some(opts.limit_bytes),
        },
        provider_namespace: opts.provider_namespace.clone(),
    }
}

/// The evidence a command reads beyond its MRs: `--log-file` (`log_files`), how live logs are
/// read, whether they are (`provider_logs`), `--audit-log` and `--journal`.
pub fn evidence_sources(
    log_files: &[PathBuf],
    logs: &LogOptions,
    provider_logs: bool,
    audit_logs: &[PathBuf],
    journal: &JournalArgs,
) -> EvidenceSources {
    EvidenceSources {
        log_files: log_files.to_vec(),
        logs: log_reading(logs),
        provider_logs,
        audit_logs: audit_logs.to_vec(),
        journal: journal.journal.clone(),
    }
}

/// `--cloud-audit` and `--cloud-principal`.
pub fn cloud_files(args: &CloudAuditArgs) -> CloudAuditFiles {
    CloudAuditFiles { files: args.cloud_audit.clone(), principals: args.cloud_principal.clone() }
}

/// Which managed kinds a command covers (`--kind`, `--provider`; neither: every kind).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindSelection {
    /// `--kind`: kind, plural or kind.group.
    pub kinds: Vec<String>,
    /// `--provider`: a group suffix or a provider name.
    pub providers: Vec<String>,
}

impl KindSelection {
    /// The selection of these flags.
    pub fn new(kinds: &[String], providers: &[String]) -> KindSelection {
        KindSelection { kinds: kinds.to_vec(), providers: providers.to_vec() }
    }

    /// Whether an MR read from a file is of a kind asked for (`--kind`; none asked: every kind).
    pub fn keeps(&self, mr: &ManagedResource) -> bool {
        self.kinds.is_empty() || self.kinds.iter().any(|k| mr.matches_kind_spec(k))
    }
}

/// How a plan file is carried out MR by MR (`promote`, `migrate apply`), resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Apply {
    /// `-f`: the plan.
    pub plan: PathBuf,
    /// `--dry-run`: every write sent with dryRun=All; nothing changes, no backup is written.
    pub dry_run: bool,
    /// `--yes`: no confirmation asked.
    pub yes: bool,
    /// `--parallel`: MRs carried out at the same time.
    pub parallel: usize,
    /// `--timeout`: how long each wait for the provider may take.
    pub timeout: Duration,
    /// `--backup-dir`, else the default folder under the home folder.
    pub backup_dir: Option<PathBuf>,
}

impl Apply {
    /// The shared apply flags, resolved.
    fn of(args: &ApplyArgs) -> Apply {
        Apply {
            plan: args.filename.clone(),
            dry_run: args.dry_run,
            yes: args.yes,
            parallel: usize::from(args.parallel),
            timeout: args.timeout,
            backup_dir: args.backup_dir.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
