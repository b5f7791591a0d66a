//! The command resolvers: what a command line asks for, resolved once (ripgrep's low → high
//! arguments). Each command's clap struct becomes one value — doctor's [`Doctor`] with its
//! [`Flow`] (the way a doctor run goes), the watch's [`Watch`], and one per other command — that
//! carries the collaborators its run is built from (the evidence sources, the fleet-wide files,
//! the scan, the printer, `JudgedAt`, the watch's journals and states). The flags several
//! commands share (`cli::shared`) are resolved one way for all of them (`shared.rs`), the
//! judging flag `--create-timeout` among them: `Settings` is the environment, not the flags.
//! Every refusal of a flag combination lives here, as a [`Refusal`], table-tested, so that
//! nothing below a command's entry point (`commands::<command>::run`) reads a flag or refuses one.
//!
//! A new command (a `guard`) adds its clap struct in `cli/`, a file here with its resolved value
//! and `resolve`, its refusals as [`Refusal`] variants, and an entry point that resolves and
//! runs; it flattens the groups of `cli::shared` for the flags it shares with other commands and
//! resolves them with `shared.rs`.

mod adopt;
mod doctor;
mod guard;
mod history;
mod migrate;
mod restore;
mod shared;
mod tools;
mod watch;

pub use adopt::{Adopt, AdoptOne, AdoptPlan, AdoptWhat, Adoption, Carry, IdSources, Parallel, Reach, Restore};
pub use doctor::{
    Doctor, DoctorOutput, DoctorPrinter, Document, ExitRule, Flow, Human, NamedInput, OneMr, PathKind, Scan,
    SummaryScope,
};
pub use guard::{Guard, GuardLock, GuardPrint, GuardUnlock, KindSource};
pub use history::{History, HistoryOutput};
pub(crate) use migrate::{MigrateApply, MigratePlan};
pub(crate) use restore::{Promote, RestorePlan};
pub use shared::{Apply, judged_at};
pub use tools::{Health, Rbac};
pub use watch::{Follow, LoopOptions, Target, Watch, WatchOutput};

use crate::cli::Command;
use std::path::PathBuf;

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
    /// `guard` with one rule given both actions.
    #[error("--warn {0} and --deny {0}: a rule has one action; give one of them")]
    RuleWarnAndDeny(upjet_core::guard::rule::GuardRule),
    /// `guard unlock` with something that is not KIND/NAME.
    #[error("{0:?} is not KIND/NAME (for example vpc.ec2.aws.upbound.io/main)")]
    NotKindName(String),
}

impl From<Refusal> for upjet_core::error::Error {
    fn from(r: Refusal) -> Self {
        let e = upjet_core::error::Error::usage(r.to_string());
        if matches!(r, Refusal::OutputExists(_)) { e.nothing_changed() } else { e }
    }
}

/// Commands that act on one object in one cluster refuse several `--context` or `--all-contexts`
/// (only `doctor` scans several clusters, and `watch` follows each) rather than silently use the
/// first. `restore-plan` names its clusters with `--source-context` and `--target-context`, and
/// `completion` reads none.
pub(crate) fn one_cluster_only(command: &Command, several_contexts: bool) -> Result<(), Refusal> {
    let name = match command {
        Command::History(_) => "history",
        Command::Adopt(_) => "adopt",
        Command::Restore(_) => "restore",
        Command::Rbac(_) => "rbac",
        Command::Promote(_) => "promote",
        Command::Migrate(_) => "migrate",
        Command::Health(_) => "health",
        Command::Guard(_) => "guard",
        Command::RestorePlan(_) => "restore-plan",
        Command::Completion(_) => "completion",
        Command::Doctor(_) | Command::Watch(_) => return Ok(()),
    };
    if several_contexts { Err(Refusal::SeveralClusters(name)) } else { Ok(()) }
}

#[cfg(test)]
mod tests;
