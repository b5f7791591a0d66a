//! What a command line asks for, resolved once: the raw doctor flags become one [`Flow`] (ripgrep's
//! low → high arguments), and every refusal of a flag combination lives here, as a [`Refusal`],
//! so that a new flow (watch, migrate) adds its variant and its refusals in one place instead of
//! another `if` in the command that runs it.

use crate::cli::{Command, DoctorArgs};
use crate::domain::clusters::names_of_snapshots;
use std::path::{Path, PathBuf};

/// What a `--from` path is, as far as choosing a flow needs to know.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PathKind {
    /// A Velero backup (archive or unpacked folder), judged as a restore would leave it.
    pub backup: bool,
    /// A folder: a cluster read from it is named after the folder, not a file stem.
    pub folder: bool,
    /// GitOps manifests (desired state) rather than a snapshot: stdin, or a first file without
    /// what the API server writes (`commands::lint::is_manifests`).
    pub manifests: bool,
}

impl PathKind {
    /// Looks at the path on disk (the only I/O of resolution, kept outside so that it is
    /// table-tested without files).
    pub fn on_disk(path: &Path) -> PathKind {
        let backup = super::backup::is_backup(path);
        PathKind { backup, folder: path.is_dir(), manifests: !backup && super::lint::is_manifests(path) }
    }
}

/// One snapshot or backup of a run over several, with the cluster it is named after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedInput {
    /// The cluster's name in the report (`prod.json` → prod).
    pub name: String,
    /// The file or folder.
    pub path: PathBuf,
    /// Whether it is a Velero backup.
    pub backup: bool,
}

/// The one flow a doctor run takes. Each variant carries what only it needs, so that the code
/// running it never re-reads the flags to find out which case it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flow {
    /// `doctor KIND/NAME`: one MR in depth, from the cluster or from the one `--from`.
    OneMr {
        /// KIND/NAME as typed.
        target: String,
        /// The snapshot or backup it is looked up in; `None`: the live cluster.
        from: Option<PathBuf>,
    },
    /// The fleet of one live cluster (the current context, or the one `--context`).
    Cluster,
    /// The fleet of one snapshot (`--from FILE|FOLDER`).
    Snapshot(PathBuf),
    /// The fleet of one Velero backup (`--from BACKUP`), compared with the cluster it was taken
    /// from when `--source-context` names it.
    Backup {
        /// The archive or its unpacked folder.
        path: PathBuf,
        /// `--source-context`.
        source_context: Option<String>,
    },
    /// Several live clusters (several `--context`, or `--all-contexts`: the kubeconfig is read
    /// when the flow runs).
    Contexts,
    /// Several snapshots or backups, one per cluster, each named after its file or folder.
    Snapshots(Vec<NamedInput>),
    /// GitOps manifests (`--from DIR|FILE|-` holding desired state, once or several times):
    /// linted before merge, all of them as one set (a reference or a shared external-name
    /// spans files and folders).
    Lint(Vec<PathBuf>),
}

/// A flag combination doctor (or a command about one cluster) refuses, before anything is read.
/// Each message says what to do instead; all of them are usage errors (exit 2).
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
}

impl From<Refusal> for crate::error::Error {
    fn from(r: Refusal) -> Self {
        crate::error::Error::usage(r.to_string())
    }
}

impl Flow {
    /// Resolves doctor's flags into its flow. `several_contexts`: several `--context` or
    /// `--all-contexts` (`Settings::several_contexts`); `kind_of` says what each `--from` is. The
    /// refusals are checked in a fixed order, so that a command line breaking two rules always
    /// hears about the same one.
    pub fn of_doctor(
        args: &DoctorArgs,
        several_contexts: bool,
        kind_of: impl Fn(&Path) -> PathKind,
    ) -> Result<Flow, Refusal> {
        let from = &args.from;
        if args.logs && !from.is_empty() {
            return Err(Refusal::LogsOffline);
        }
        if args.target.is_some() && !args.inventory.is_empty() {
            return Err(Refusal::InventoryForOneMr);
        }
        if args.source_context.is_some() && from.len() != 1 {
            return Err(Refusal::SourceContextWithoutOneBackup);
        }
        if !from.is_empty() && several_contexts {
            return Err(Refusal::SnapshotsAndContexts);
        }
        let several = several_contexts || from.len() > 1;
        if let Some(target) = &args.target {
            if several {
                return Err(Refusal::OneMrInSeveralClusters);
            }
            return Ok(Flow::OneMr { target: target.clone(), from: from.first().cloned() });
        }
        let kinds: Vec<PathKind> = from.iter().map(|p| kind_of(p)).collect();
        if let Some(lint) = Self::manifests(args, &kinds) {
            return lint;
        }
        if several {
            return Self::several(args, &kinds);
        }
        let Some(path) = from.first() else { return Ok(Flow::Cluster) };
        match (kinds[0].backup, &args.source_context) {
            (true, source_context) => Ok(Flow::Backup { path: path.clone(), source_context: source_context.clone() }),
            (false, Some(_)) => Err(Refusal::SourceContextNotABackup(path.clone())),
            (false, None) => Ok(Flow::Snapshot(path.clone())),
        }
    }

    /// A lint, when the `--from` paths hold manifests (`kinds`, one per path): all of them, or
    /// a refusal when some are snapshots; `None` when none hold manifests (or `--source-context`
    /// asks for a backup).
    fn manifests(args: &DoctorArgs, kinds: &[PathKind]) -> Option<Result<Flow, Refusal>> {
        let lints = |k: &PathKind| k.manifests && !k.backup;
        let first = kinds.iter().position(lints).filter(|_| args.source_context.is_none())?;
        if let Some(other) = kinds.iter().position(|k| !lints(k)) {
            let (manifests, snapshot) = (args.from[first].clone(), args.from[other].clone());
            return Some(Err(Refusal::ManifestsAndSnapshots { manifests, snapshot }));
        }
        Some(Self::lint(args))
    }

    /// A lint of manifests: the inputs about what a cluster did are refused.
    fn lint(args: &DoctorArgs) -> Result<Flow, Refusal> {
        let given = [
            ("--inventory", !args.inventory.is_empty()),
            ("--cloud-audit", !args.cloud.cloud_audit.is_empty()),
            ("--log-file", !args.log_files.is_empty()),
            ("--audit-log", !args.audit_logs.is_empty()),
            ("--target-context", args.target_context.is_some()),
        ];
        match given.iter().find(|(_, set)| *set) {
            Some((flag, _)) => Err(Refusal::EvidenceForManifests(flag)),
            None => Ok(Flow::Lint(args.from.clone())),
        }
    }

    /// Several clusters: the inputs that belong to one cluster are refused, and each snapshot
    /// gets its cluster's name.
    fn several(args: &DoctorArgs, kinds: &[PathKind]) -> Result<Flow, Refusal> {
        if !args.inventory.is_empty() {
            return Err(Refusal::InventoryForSeveralClusters);
        }
        if !args.cloud.cloud_audit.is_empty() {
            return Err(Refusal::CloudAuditForSeveralClusters);
        }
        if !args.log_files.is_empty() {
            return Err(Refusal::LogFileForSeveralClusters);
        }
        if args.from.is_empty() {
            return Ok(Flow::Contexts);
        }
        let paths: Vec<(&Path, bool)> = args.from.iter().zip(kinds).map(|(p, k)| (p.as_path(), k.folder)).collect();
        let names = names_of_snapshots(&paths).map_err(Refusal::SnapshotNames)?;
        let named = names
            .into_iter()
            .zip(args.from.iter().zip(kinds.iter().copied()))
            .map(|(name, (path, kind))| NamedInput { name, path: path.clone(), backup: kind.backup })
            .collect();
        Ok(Flow::Snapshots(named))
    }

    /// The snapshots of a run over several, by cluster name (empty for any other flow): the
    /// fleet summary's suggested commands point at each cluster's own `--from`.
    pub fn snapshot_names(&self) -> &[NamedInput] {
        match self {
            Flow::Snapshots(named) => named,
            _ => &[],
        }
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

#[cfg(test)]
#[path = "flow_tests.rs"]
mod tests;
