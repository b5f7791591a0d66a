//! doctor's flags, resolved once: the [`Flow`] a run takes (one MR, a cluster, a snapshot, a
//! backup, several clusters, a lint), every refusal of a combination checked in a fixed order,
//! and the collaborators every flow is built from ([`Doctor`]).

use super::Refusal;
use super::shared::{cloud_files, evidence_sources, judged_at, kinds};
use crate::cli::output::{FormSpec, Output};
use crate::cli::{DoctorArgs, OutputFormat};
use crate::commands::evidence::EvidenceSources;
use crate::commands::fleet_inputs::FleetFiles;
use crate::settings::Settings;
use std::path::{Path, PathBuf};
use std::time::Duration;
use upjet_cluster::discovery_cache::{self, CacheOptions};
use upjet_cluster::kinds::KindSelection;
use upjet_cluster::scan::ScanOptions;
use upjet_core::clusters::names_of_snapshots;
use upjet_core::error::Error;
use upjet_core::finding::Severity;
use upjet_core::identity::UserTemplate;
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_core::report::Filter;
use upjet_output::forms::Form;

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
    pub(crate) fn on_disk(path: &Path) -> PathKind {
        let backup = crate::commands::backup::is_backup(path);
        PathKind { backup, folder: path.is_dir(), manifests: !backup && crate::commands::lint::is_manifests(path) }
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

/// `doctor KIND/NAME`: which MR, and where it is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneMr {
    /// KIND/NAME as typed.
    pub target: String,
    /// The snapshot or backup it is looked up in; `None`: the live cluster.
    pub from: Option<PathBuf>,
    /// `--source-context`: with a backup, the live cluster it was taken from.
    pub source_context: Option<String>,
    /// `from` is a Velero backup: the MR is judged as a restore would leave it.
    pub in_backup: bool,
}

/// The one flow a doctor run takes. Each variant carries what only it needs, so that the code
/// running it never re-reads the flags to find out which case it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flow {
    /// `doctor KIND/NAME`: one MR in depth, from the cluster or from the one `--from`.
    OneMr(OneMr),
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

impl Flow {
    /// Resolves doctor's flags into its flow. `several_contexts`: several `--context` or
    /// `--all-contexts` (`Settings::several_contexts`); `kind_of` says what each `--from` is. The
    /// refusals are checked in a fixed order, so that a command line breaking two rules always
    /// hears about the same one.
    pub(crate) fn of_doctor(
        args: &DoctorArgs,
        several_contexts: bool,
        kind_of: impl Fn(&Path) -> PathKind,
    ) -> Result<Flow, Refusal> {
        let from = &args.from;
        if args.logs.read && !from.is_empty() {
            return Err(Refusal::LogsOffline);
        }
        if args.target.is_some() && !args.inventory.files.is_empty() {
            return Err(Refusal::InventoryForOneMr);
        }
        if args.clusters.source.is_some() && from.len() != 1 {
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
            return Ok(Flow::OneMr(OneMr {
                target: target.clone(),
                from: from.first().cloned(),
                source_context: args.clusters.source.clone(),
                in_backup: from.first().is_some_and(|p| kind_of(p).backup),
            }));
        }
        let kinds: Vec<PathKind> = from.iter().map(|p| kind_of(p)).collect();
        if let Some(lint) = Self::manifests(args, &kinds) {
            return lint;
        }
        if several {
            return Self::several(args, &kinds);
        }
        let Some(path) = from.first() else { return Ok(Flow::Cluster) };
        match (kinds[0].backup, &args.clusters.source) {
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
        let first = kinds.iter().position(lints).filter(|_| args.clusters.source.is_none())?;
        if let Some(other) = kinds.iter().position(|k| !lints(k)) {
            let (manifests, snapshot) = (args.from[first].clone(), args.from[other].clone());
            return Some(Err(Refusal::ManifestsAndSnapshots { manifests, snapshot }));
        }
        Some(Self::lint(args))
    }

    /// A lint of manifests: the inputs about what a cluster did are refused.
    fn lint(args: &DoctorArgs) -> Result<Flow, Refusal> {
        let given = [
            ("--inventory", !args.inventory.files.is_empty()),
            ("--cloud-audit", !args.cloud.cloud_audit.is_empty()),
            ("--log-file", !args.log_files.files.is_empty()),
            ("--audit-log", !args.audit_logs.files.is_empty()),
            ("--target-context", args.clusters.target.is_some()),
        ];
        match given.iter().find(|(_, set)| *set) {
            Some((flag, _)) => Err(Refusal::EvidenceForManifests(flag)),
            None => Ok(Flow::Lint(args.from.clone())),
        }
    }

    /// Several clusters: the inputs that belong to one cluster are refused, and each snapshot
    /// gets its cluster's name.
    fn several(args: &DoctorArgs, kinds: &[PathKind]) -> Result<Flow, Refusal> {
        if !args.inventory.files.is_empty() {
            return Err(Refusal::InventoryForSeveralClusters);
        }
        if !args.cloud.cloud_audit.is_empty() {
            return Err(Refusal::CloudAuditForSeveralClusters);
        }
        if !args.log_files.files.is_empty() {
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
    pub(crate) fn snapshot_names(&self) -> &[NamedInput] {
        match self {
            Flow::Snapshots(named) => named,
            _ => &[],
        }
    }
}

/// doctor's flags, resolved once (ripgrep's `HiArgs`): the flow, and what every flow builds its
/// run from. The runners of `commands::doctor` read these fields, never a flag.
#[derive(Debug, Clone)]
pub struct Doctor {
    /// Which flow the run takes, with what only it needs.
    pub flow: Flow,
    /// What every MR is judged against: now, and the providers' reconcile timeout.
    pub at: JudgedAt,
    /// Which kinds, and how a live cluster is read.
    pub scan: Scan,
    /// What is read beyond the MRs (logs, audit logs, the ID journal).
    pub evidence: EvidenceSources,
    /// The fleet-wide inputs (`--inventory`, `--cloud-audit`).
    pub fleet: FleetFiles,
    /// `--id-template`.
    pub id_templates: Vec<UserTemplate>,
    /// `--target-context`: the cluster a backup will be restored into.
    pub target_context: Option<String>,
    /// Which findings are shown (`--severity`, `--only`, `--ignore`).
    pub filter: Filter,
    /// Which exit code a report makes.
    pub exit: ExitRule,
    /// How the report is printed.
    pub printer: DoctorPrinter,
    /// `--plan`: where the adoption plan is written.
    pub plan: Option<PathBuf>,
}

impl Doctor {
    /// Resolves doctor's flags: the flow (a refused combination fails here, before anything is
    /// read; `kind_of` says what each `--from` is) and the collaborators of its run.
    pub fn resolve(
        args: &DoctorArgs,
        settings: &Settings,
        kind_of: impl Fn(&Path) -> PathKind,
    ) -> Result<Doctor, Refusal> {
        let flow = Flow::of_doctor(args, settings.several_contexts(), kind_of)?;
        let scope = SummaryScope {
            from: args.from.clone(),
            log_files: args.log_files.files.clone(),
            snapshots: flow.snapshot_names().to_vec(),
        };
        let logs = args.logs.read;
        Ok(Doctor {
            at: judged_at(settings.now, Some(&args.reconciler)),
            scan: Scan::of(args, settings),
            evidence: evidence_sources(&args.log_files, &args.log_opts, logs, &args.audit_logs.files, &args.journal),
            fleet: FleetFiles { inventory: args.inventory.files.clone(), cloud: cloud_files(&args.cloud) },
            id_templates: args.id_templates.templates.clone(),
            target_context: args.clusters.target.clone(),
            filter: Filter {
                min_severity: args.severity.map(Into::into),
                only: args.only.clone(),
                ignore: args.ignore.clone(),
            },
            exit: ExitRule { fail_on: args.fail_on.threshold(), fail_on_incomplete: args.fail_on_incomplete },
            printer: DoctorPrinter {
                output: DoctorOutput::of(args.output.as_ref()),
                chosen: args.output.is_some(),
                no_headers: args.no_headers.set,
                scope,
            },
            plan: args.plan.clone(),
            flow,
        })
    }
}

/// Which kinds a run reads, and how a live cluster is read.
#[derive(Debug, Clone)]
pub struct Scan {
    /// `--kind`, `--provider`.
    pub select: KindSelection,
    /// `--concurrency`: requests in flight at once.
    pub concurrency: usize,
    /// `--retry-budget`: how long a kind's failed reads are retried.
    pub retry_budget: Duration,
    /// The discovery cache (`--discovery-cache-dir`, else under the home folder;
    /// `--discovery-cache-ttl`, `--refresh-discovery`).
    pub cache: CacheOptions,
    /// The lists: `-n` (unless `-A`), `-l`, pages of 500, `--concurrency` at once.
    pub lists: ScanOptions,
}

impl Scan {
    fn of(args: &DoctorArgs, settings: &Settings) -> Scan {
        let concurrency = usize::from(args.concurrency);
        let dir =
            args.discovery_cache_dir.clone().or_else(|| settings.home.as_deref().map(discovery_cache::default_dir));
        Scan {
            select: kinds(&args.select),
            concurrency,
            retry_budget: args.retry_budget,
            cache: CacheOptions {
                dir,
                ttl: args.discovery_cache_ttl,
                refresh: args.refresh_discovery,
                now: settings.wall_clock,
            },
            lists: ScanOptions {
                namespace: settings.namespace.clone(),
                label_selector: settings.selector.clone(),
                page_size: 500,
                concurrency,
            },
        }
    }
}

/// Which exit code a finished report makes (`--fail-on`, `--fail-on-incomplete`;
/// `commands::doctor` applies it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitRule {
    /// The lowest severity that exits 1; `None`: findings never do.
    pub fail_on: Option<Severity>,
    /// An incomplete scan exits 4 even when findings reached `fail_on`.
    pub fail_on_incomplete: bool,
}

/// How doctor prints its report (`-o`, `--no-headers`), and what its suggested commands repeat:
/// as resolved, a form as its spec (`F = FormSpec`); opened ([`DoctorPrinter::open`], before
/// anything is scanned), a form compiled, its template file read (`F = Form`).
#[derive(Debug, Clone)]
pub struct DoctorPrinter<F = FormSpec> {
    /// `-o`, else the table.
    pub output: DoctorOutput<F>,
    /// `-o` was given: a table too long for the screen is not swapped for the summary.
    pub chosen: bool,
    /// `--no-headers`.
    pub no_headers: bool,
    /// What the fleet summary's suggested commands repeat of this run.
    pub scope: SummaryScope,
}

/// How doctor prints (`-o`): for a person, or a document. A form carries its spec, so that no
/// value can name a form without one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DoctorOutput<F = FormSpec> {
    /// For a person: a fleet's table, wide table or summary; one MR in depth whichever is asked.
    Human(Human),
    /// A document: written the same way for a fleet's report and for one MR's.
    Document(Document<F>),
}

/// doctor's outputs for a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Human {
    /// kubectl-style table (the default).
    Table,
    /// The table with external-name, atProvider.id and create-mark ages.
    Wide,
    /// Counts by code × kind × provider config, each with its next command.
    Summary,
}

/// doctor's documents: one report, in a format another program reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Document<F = FormSpec> {
    /// `upjet.doctor/v1` Report as JSON.
    Json,
    /// The same as YAML.
    Yaml,
    /// SARIF 2.1.0.
    Sarif,
    /// JUnit XML.
    Junit,
    /// One self-contained HTML page.
    Html,
    /// One of kubectl's forms over the JSON document: its spec, then compiled.
    Form(F),
}

impl DoctorPrinter {
    /// The printer the run prints with: a form's template file read and compiled now, so that a
    /// bad one is refused (exit 2) before anything is scanned.
    pub fn open(&self) -> Result<DoctorPrinter<Form>, Error> {
        let output = match &self.output {
            DoctorOutput::Human(human) => DoctorOutput::Human(*human),
            DoctorOutput::Document(doc) => DoctorOutput::Document(match doc {
                Document::Json => Document::Json,
                Document::Yaml => Document::Yaml,
                Document::Sarif => Document::Sarif,
                Document::Junit => Document::Junit,
                Document::Html => Document::Html,
                Document::Form(spec) => Document::Form(crate::commands::forms::compile(spec)?),
            }),
        };
        let DoctorPrinter { chosen, no_headers, scope, .. } = self.clone();
        Ok(DoctorPrinter { output, chosen, no_headers, scope })
    }
}

impl DoctorOutput {
    /// `-o` as parsed (`None`: the table).
    fn of(output: Option<&Output<OutputFormat>>) -> DoctorOutput {
        let format = match output {
            None => OutputFormat::default(),
            Some(Output::Format(f)) => *f,
            Some(Output::Form(spec)) => return DoctorOutput::Document(Document::Form(spec.clone())),
        };
        match format {
            OutputFormat::Table => DoctorOutput::Human(Human::Table),
            OutputFormat::Wide => DoctorOutput::Human(Human::Wide),
            OutputFormat::Summary => DoctorOutput::Human(Human::Summary),
            OutputFormat::Json => DoctorOutput::Document(Document::Json),
            OutputFormat::Yaml => DoctorOutput::Document(Document::Yaml),
            OutputFormat::Sarif => DoctorOutput::Document(Document::Sarif),
            OutputFormat::Junit => DoctorOutput::Document(Document::Junit),
            OutputFormat::Html => DoctorOutput::Document(Document::Html),
        }
    }
}

/// What a run read, repeated in the fleet summary's suggested commands.
#[derive(Debug, Clone, Default)]
pub struct SummaryScope {
    /// `--from`.
    pub from: Vec<PathBuf>,
    /// `--log-file`.
    pub log_files: Vec<PathBuf>,
    /// Several snapshots: each cluster's own `--from`, by name.
    pub snapshots: Vec<NamedInput>,
}

#[cfg(test)]
#[path = "doctor_tests.rs"]
mod tests;
