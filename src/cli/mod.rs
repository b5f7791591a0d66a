//! What the user typed: the clap definition of every command and flag.
//!
//! kubectl passes every argument to a plugin untouched, so the plugin implements kubectl's own
//! global flags itself. Doc comments on fields become `--help` text.
//!
//! A flag one command takes is a field of that command's struct; a flag several commands take is
//! one group in [`shared`], flattened into each. Its place in `--help`: no heading for a
//! command's own flags, [`INPUTS`], [`OUTPUT`], [`SCAN`] or [`CONNECTION`] otherwise; a heading
//! is listed where its first flag is declared, so fields are declared in help order
//! (`tests/it/help.rs` snapshots every command's help). Flags are read here and resolved in
//! `commands::resolve`; what depends on the environment or the terminal, in `settings.rs`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::path::PathBuf;
use upjet_core::finding::{Code, Severity};

pub mod adopt;
pub mod apply;
mod duration;
pub mod guard;
pub mod health;
pub mod migrate;
pub mod output;
pub mod rbac;
pub mod restore;
pub mod shared;
pub mod watch;

/// Find and repair Crossplane managed resources whose cloud objects upjet lost track of.
#[derive(Debug, Parser)]
#[command(
    name = "kubectl-upjet",
    bin_name = "kubectl upjet",
    version,
    about,
    propagate_version = true,
    after_help = "Examples:\n  kubectl upjet doctor                      scan every managed resource in the cluster\n  kubectl upjet doctor --from examples/fleet  analyse a snapshot, no cluster needed\n  kubectl upjet doctor recordset.dns.gcp.upbound.io/www   one MR in depth\n\nUse \"kubectl upjet <command> --help\" for a command's own flags and examples."
)]
pub struct Cli {
    /// The command to run (declared first: the global flags' display order would otherwise
    /// number the commands after clap's own `help` command).
    #[command(subcommand)]
    pub command: Command,
    /// Presentation flags (declared before the connection flags so that, in every command's
    /// help, "Output" comes before "Cluster connection").
    #[command(flatten)]
    pub ui: UiFlags,
    /// Connection and scope flags shared with kubectl.
    #[command(flatten)]
    pub kube: KubeFlags,
}

/// Help heading of the files and streams a command reads besides the cluster.
pub(crate) const INPUTS: &str = "Inputs";
/// Help heading of what is printed or written, and how.
pub(crate) const OUTPUT: &str = "Output";
/// Help heading of doctor's knobs for reading a whole cluster (concurrency, retries, discovery).
pub const SCAN: &str = "Scan";
/// Help heading of kubectl's own connection and scope flags.
pub const CONNECTION: &str = "Cluster connection";

/// Where the global flags sort under a heading they share with a command's own flags: after
/// them. clap numbers each command's flags from 0 in declaration order, and a global flag keeps
/// the number it got at the top level, so without this `--color` would land between `-o` and
/// `--plan`.
const GLOBAL_ORDER: usize = 1000;

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List managed resources whose creation or identity tracking is broken.
    #[command(after_help = DOCTOR_EXAMPLES)]
    Doctor(Box<DoctorArgs>),
    /// Show the create history of one MR as a timeline, with the last provider-logged external ID.
    #[command(after_help = HISTORY_EXAMPLES)]
    History(HistoryArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  source <(kubectl upjet completion bash)\n  kubectl upjet completion zsh > \"${fpath[1]}/_kubectl-upjet\"\n  kubectl upjet completion kubectl-plugin --install-dir ~/.local/bin   # makes `kubectl upjet <TAB>` work"
    )]
    Completion(CompletionArgs),
    /// Make a managed resource track an existing cloud object (safely: backup, dry-run, undo).
    Adopt(adopt::AdoptArgs),
    /// Put annotations and management policies back from an adopt backup.
    Restore(adopt::RestoreArgs),
    /// Stage a Velero restore so that nothing is created twice: a resource-modifiers ConfigMap
    /// (MRs at risk restored observing only) and a promote plan.
    RestorePlan(restore::RestorePlanArgs),
    /// After a staged restore: check each MR's Observe found its object, then put its
    /// management policies back (backup first, conditional writes, resumable).
    Promote(restore::PromoteArgs),
    /// Move legacy cluster-scoped MRs to their namespaced Crossplane v2 kinds, identity kept:
    /// plan, apply (resumable, no duplicate, no deletion), status.
    Migrate(migrate::MigrateArgs),
    /// Print least-privilege ClusterRoles for the managed kinds this cluster serves (read, and
    /// patch for adopt), for `kubectl apply -f -`.
    Rbac(rbac::RbacArgs),
    /// Print the health checks Argo CD (Lua) and Flux (CEL) should run on MRs, so that a GitOps
    /// UI shows a stuck create, a lost external-name or a pause for what it is.
    Health(health::HealthArgs),
    /// Print admission policies the API server enforces so that one write cannot drop, change or
    /// forget an MR's identity (Kubernetes v1.30+); `guard lock` records every MR's ID for them.
    Guard(guard::GuardArgs),
    /// Watch every managed resource: a line when a finding appears or clears, Prometheus
    /// metrics, and a journal of every ID seen.
    Watch(watch::WatchArgs),
}

const DOCTOR_EXAMPLES: &str = "Examples:
  # Scan every managed resource of every provider, in all namespaces
  kubectl upjet doctor

  # Only errors, as JSON for a script
  kubectl upjet doctor --severity error -o json

  # Only Route53 records of the namespaced (Crossplane v2) API, in one namespace
  kubectl upjet doctor --kind record.route53.aws.m.upbound.io -n team-a

  # One MR in depth: findings, crossplane annotations, conditions, create marks in time order
  kubectl upjet doctor recordset.dns.gcp.upbound.io/www

  # Analyse a snapshot taken with `kubectl get managed -A -o json > fleet.json`
  kubectl upjet doctor --from fleet.json

  # Several clusters in one report (a CLUSTER column; exit 4 if one cannot be reached)
  kubectl upjet doctor --context prod --context staging
  kubectl upjet doctor --all-contexts -o summary
  kubectl upjet doctor --from prod.json --from staging.json

  # Name the objects MRs lost from the cloud's own record (CloudTrail, GCP audit logs, Azure activity log)
  kubectl upjet doctor --from examples/cloud-audit/fleet.json --cloud-audit examples/cloud-audit/cloudtrail.jsonl --plan plan.json

  # Predict lost IDs with a kind's format, and write them into an adoption plan
  kubectl upjet doctor --plan plan.json \\
    --id-template 'recordset.dns.gcp.upbound.io=projects/my-project/managedZones/{forProvider.managedZone}/rrsets/{forProvider.name}/{forProvider.type}'";

const HISTORY_EXAMPLES: &str = "Examples:
  # Events, provider pod restarts and provider log lines about one MR, in time order
  kubectl upjet history recordset.dns.gcp.upbound.io/benchmarksix11

  # Also read the live Terraform workspace of a CLI-mode resource
  kubectl upjet history bucket.storage.gcp.upbound.io/assets --workspace

  # The cloud's calls for the MR beside its marks and conditions: which creates made which objects
  kubectl upjet history alertpolicy.monitoring.gcp.upbound.io/checkout-latency \\
    --from examples/cloud-audit/fleet.json --cloud-audit examples/cloud-audit/gcp-audit.json

  # Offline: a snapshot plus exported provider logs
  kubectl upjet history key.kms.aws.upbound.io/payments-data-key --from examples/fleet --log-file examples/logs/provider-aws-kms-debug.log";

/// `kubectl upjet history`.
#[derive(Debug, Clone, Args)]
#[command(
    mut_arg("log_files", |a| a.help(HISTORY_LOG_FILE)),
    mut_arg("inventory", |a| a.help(HISTORY_INVENTORY)),
    mut_arg("audit_logs", |a| a.help(HISTORY_AUDIT_LOG))
)]
pub struct HistoryArgs {
    /// The MR: KIND/NAME or KIND.GROUP/NAME (use -n for namespaced MRs).
    #[arg(value_name = "KIND/NAME")]
    pub target: String,
    /// The providers' reconcile timeout.
    #[command(flatten)]
    pub reconciler: shared::ReconcilerArgs,
    /// Read the MR from a snapshot instead of the cluster (see doctor --from).
    #[arg(long, value_name = "PATH", help_heading = INPUTS)]
    pub from: Option<PathBuf>,
    /// `--log-file`.
    #[command(flatten)]
    pub log_files: shared::LogFileArgs,
    /// Do not read the live provider pods' logs.
    #[arg(long, help_heading = INPUTS)]
    pub no_logs: bool,
    /// The cloud's own audit record.
    #[command(flatten)]
    pub cloud: shared::CloudAuditArgs,
    /// `--inventory`.
    #[command(flatten)]
    pub inventory: shared::InventoryArgs,
    /// Log reading limits.
    #[command(flatten)]
    pub log_opts: shared::LogOptions,
    /// `--audit-log`.
    #[command(flatten)]
    pub audit_logs: shared::AuditLogArgs,
    /// The ID journal.
    #[command(flatten)]
    pub journal: shared::JournalArgs,
    /// Read the live Terraform workspace (/tmp/<uid>/terraform.tfstate) from the provider pod via exec.
    #[arg(long, help_heading = INPUTS)]
    pub workspace: bool,
    /// Output format [default: text]; kubectl's name, jsonpath and custom-columns forms too.
    #[arg(short = 'o', long = "output", value_parser = output::OutputParser::<HistoryFormat>::new(), help_heading = OUTPUT)]
    pub output: Option<output::Output<HistoryFormat>>,
}

/// How history words the inputs it shares with doctor: what each tells about one MR (clap drops
/// a doc comment's last period; these have none).
const HISTORY_LOG_FILE: &str = "Also read a provider log file (repeatable; `-` for stdin; gzip accepted)";
const HISTORY_INVENTORY: &str = "A cloud inventory export (repeatable; `-` for stdin; gzip accepted; see doctor --inventory): the objects tagged for the MR, tied to it as its kind's peers teach, name what its creates made";
const HISTORY_AUDIT_LOG: &str = "Read a Kubernetes audit log: who wrote the MR and what changed (repeatable; `-` for stdin; gzip accepted; audit.k8s.io/v1 JSON lines, GKE Cloud Logging or EKS CloudWatch exports)";

/// `history -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HistoryFormat {
    /// Timeline for a human.
    Text,
    /// One JSON document (`upjet.doctor/v1` History).
    Json,
    /// One self-contained HTML page: the timeline as a picture, the evidence below it.
    Html,
}

/// kubectl's connection and scope flags, implemented by the plugin because kubectl does not
/// parse flags for plugins. Global, so they are accepted after the command as kubectl users type
/// them; listed last in every command's help, under their own heading.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = CONNECTION, next_display_order = GLOBAL_ORDER)]
pub struct KubeFlags {
    /// Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config).
    #[arg(long, global = true, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// The name of the kubeconfig context to use; doctor and watch take several.
    ///
    /// Repeatable for the commands that read a fleet (doctor, watch): they read the clusters at
    /// once and report them together. A command that acts on one cluster refuses several.
    #[arg(long = "context", global = true, value_name = "NAME")]
    pub contexts: Vec<String>,
    /// Every context of the merged kubeconfig, for doctor and watch.
    ///
    /// The commands that read a fleet (doctor, watch) read every context at once and report them
    /// together. A command that acts on one cluster refuses it.
    #[arg(long, global = true, conflicts_with = "contexts")]
    pub all_contexts: bool,
    /// The name of the kubeconfig cluster to use.
    #[arg(long, global = true)]
    pub cluster: Option<String>,
    /// The name of the kubeconfig user to use.
    #[arg(long, global = true)]
    pub user: Option<String>,
    /// The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs
    /// are always included).
    #[arg(short = 'n', long, global = true)]
    pub namespace: Option<String>,
    /// All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide).
    #[arg(short = 'A', long, global = true)]
    pub all_namespaces: bool,
    /// Label selector, e.g. `crossplane.io/claim-name=db` (kubectl's -l).
    #[arg(short = 'l', long, global = true)]
    pub selector: Option<String>,
    /// Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds.
    #[arg(long, global = true, value_name = "DURATION", value_parser = duration::request_timeout)]
    pub request_timeout: Option<std::time::Duration>,
    /// Log verbosity like kubectl's -v: 4 shows requests, 6+ shows HTTP details.
    #[arg(short = 'v', long = "v", global = true, value_name = "LEVEL", default_value_t = 0)]
    pub verbosity: u8,
    /// The API server address, overriding the kubeconfig.
    #[arg(short = 's', long, global = true, hide = true)]
    pub server: Option<String>,
    /// Bearer token, overriding the kubeconfig.
    #[arg(long, global = true, hide = true)]
    pub token: Option<String>,
    /// Do not verify the API server's certificate (insecure).
    #[arg(long, global = true, hide = true)]
    pub insecure_skip_tls_verify: bool,
    /// Impersonate this user.
    #[arg(long = "as", global = true, hide = true, value_name = "USER")]
    pub as_user: Option<String>,
    /// Impersonate this group (repeatable).
    #[arg(long = "as-group", global = true, hide = true, value_name = "GROUP")]
    pub as_group: Vec<String>,
}

/// How output looks; global, listed after each command's own output flags.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = OUTPUT, next_display_order = GLOBAL_ORDER)]
pub struct UiFlags {
    /// When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// `--color`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    /// Colour unless NO_COLOR is set.
    Always,
    /// Never colour.
    Never,
}

/// doctor's `-o/--output` formats (kubectl's forms besides: `output::Output::Form`). Resolved,
/// with the form's spec, into `commands::resolve::DoctorOutput`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// kubectl-style table.
    #[default]
    Table,
    /// Table with external-name, atProvider.id and create-mark ages.
    Wide,
    /// One JSON document (`upjet.doctor/v1` Report).
    Json,
    /// One YAML document (`upjet.doctor/v1` Report).
    Yaml,
    /// Counts by code × kind × provider config, worst first, each with its next command.
    Summary,
    /// SARIF 2.1.0 for code scanning (GitHub, GitLab): one rule per finding code.
    Sarif,
    /// JUnit XML: one testsuite per kind, one testcase per MR, a failure per error finding.
    Junit,
    /// One self-contained HTML page: the summary, then a sortable, filterable findings table.
    Html,
}

/// `--fail-on`: the lowest severity that makes doctor exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any finding.
    Info,
    /// Warnings and errors.
    Warning,
    /// Errors only (default).
    Error,
    /// Never exit 1 because of findings.
    Never,
}

impl FailOn {
    /// The severity threshold, `None` for never.
    pub(crate) fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Info => Some(Severity::Info),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Error => Some(Severity::Error),
            FailOn::Never => None,
        }
    }
}

/// `kubectl upjet doctor`. Fields are declared in help order: doctor's own flags, then the
/// inputs, the output and the scan knobs (a heading is listed where its first flag is declared).
/// A backup's clusters are named only with `--from`.
#[derive(Debug, Clone, Args)]
#[command(
    mut_arg("source_context", |a| a.requires("from")),
    mut_arg("target_context", |a| a.requires("from"))
)]
pub struct DoctorArgs {
    /// One MR to show in depth: KIND/NAME or KIND.GROUP/NAME (use -n for namespaced MRs).
    #[arg(value_name = "KIND/NAME")]
    pub target: Option<String>,
    /// `--kind`, `--provider`.
    #[command(flatten)]
    pub select: shared::KindArgs,
    /// Show only findings at or above this severity.
    #[arg(long, value_enum)]
    pub severity: Option<SeverityArg>,
    /// Show only these codes (repeatable or comma-separated).
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub only: Vec<Code>,
    /// Hide these codes (repeatable or comma-separated).
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    pub ignore: Vec<Code>,
    /// Exit 1 when a finding at or above this severity is shown.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Exit 4 whenever the scan was incomplete (kinds skipped, objects unreadable), even when
    /// findings reached --fail-on: for CI that must not pass on a partial scan.
    #[arg(long)]
    pub fail_on_incomplete: bool,
    /// The providers' reconcile timeout.
    #[command(flatten)]
    pub reconciler: shared::ReconcilerArgs,
    /// Analyse a snapshot instead of a cluster: `kubectl get managed -A -o json` output (a List,
    /// or one object), a directory of such files (JSON or YAML; other inputs in it, such as
    /// inventories, are skipped and said), or a Velero backup (the `.tar.gz` `velero backup
    /// download` writes, or that archive unpacked), which adds what a restore would do to each MR.
    /// GitOps manifests (YAML files without status, or `-` for kustomize or helm output on
    /// stdin) are linted before merge instead, each finding at its file and line (docs/lint.md).
    /// Repeatable, one snapshot per cluster: the cluster is named after the file stem
    /// (`prod.json` → prod) or the folder (`staging/`); several paths of manifests are one lint.
    #[arg(long, value_name = "PATH", help_heading = INPUTS)]
    pub from: Vec<PathBuf>,
    /// `--source-context`, `--target-context`: with a backup, its live clusters.
    #[command(flatten)]
    pub clusters: shared::BackupContextArgs,
    /// `--logs`.
    #[command(flatten)]
    pub logs: shared::LiveLogsArgs,
    /// `--log-file`.
    #[command(flatten)]
    pub log_files: shared::LogFileArgs,
    /// Log reading limits.
    #[command(flatten)]
    pub log_opts: shared::LogOptions,
    /// `--inventory`.
    #[command(flatten)]
    pub inventory: shared::InventoryArgs,
    /// `--audit-log`.
    #[command(flatten)]
    pub audit_logs: shared::AuditLogArgs,
    /// `--id-template`.
    #[command(flatten)]
    pub id_templates: shared::IdTemplateArgs,
    /// The ID journal.
    #[command(flatten)]
    pub journal: shared::JournalArgs,
    /// Output format [default: table; on a terminal, the summary first when the table would
    /// not fit on the screen]; kubectl's name, jsonpath and custom-columns forms too.
    #[arg(short = 'o', long = "output", value_parser = output::OutputParser::<OutputFormat>::new(), help_heading = OUTPUT)]
    pub output: Option<output::Output<OutputFormat>>,
    /// `--no-headers`.
    #[command(flatten)]
    pub no_headers: shared::NoHeadersArgs,
    /// Write an adoption plan for `kubectl upjet adopt -f` from the findings that suggest an ID.
    #[arg(long, value_name = "FILE", help_heading = OUTPUT)]
    pub plan: Option<PathBuf>,
    /// How many requests may be in flight at once, across every cluster scanned.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=256), help_heading = SCAN)]
    pub concurrency: u16,
    /// How long doctor may wait, per kind, between retries of failed reads (backoff and
    /// Retry-After) before it skips the kind and says so; 0 turns retries off.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = duration::duration, help_heading = SCAN)]
    pub retry_budget: std::time::Duration,
    /// Ask the API server which kinds exist instead of reusing the discovery cache (and refresh it).
    #[arg(long, help_heading = SCAN)]
    pub refresh_discovery: bool,
    /// How long discovered kinds are reused from the cache in ~/.kube/cache/upjet (0 turns it off).
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = duration::duration, help_heading = SCAN)]
    pub discovery_cache_ttl: std::time::Duration,
    // Absent, `UPJET_DISCOVERY_CACHE_DIR` gives it (`settings::Environment::fill_flags`).
    /// Where the discovery cache lives (default ~/.kube/cache/upjet/discovery).
    #[arg(long, hide = true, value_name = "DIR", help_heading = SCAN)]
    pub discovery_cache_dir: Option<PathBuf>,
    /// The cloud's own audit record.
    #[command(flatten)]
    pub cloud: shared::CloudAuditArgs,
}

/// `kubectl upjet completion`.
#[derive(Debug, Clone, Args)]
pub struct CompletionArgs {
    /// The shell, or `kubectl-plugin` to install the `kubectl_complete-upjet` helper that makes
    /// `kubectl upjet <TAB>` work (kubectl >= 1.26).
    #[arg(value_enum)]
    pub shell: CompletionShell,
    /// With kubectl-plugin: the directory on PATH to write `kubectl_complete-upjet` into.
    #[arg(long, value_name = "DIR")]
    pub install_dir: Option<PathBuf>,
}

/// Shells with a completion script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompletionShell {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
    /// PowerShell.
    Powershell,
    /// kubectl's plugin completion (`kubectl upjet <TAB>`).
    KubectlPlugin,
}

/// `--severity`: the domain's [`Severity`] as a command-line value (the core knows no clap).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    /// Context worth knowing; nothing is broken.
    Info,
    /// Something is likely to go wrong or hides a problem.
    Warning,
    /// Tracking of a cloud object is broken or about to be.
    Error,
}

impl From<SeverityArg> for Severity {
    fn from(s: SeverityArg) -> Severity {
        match s {
            SeverityArg::Info => Severity::Info,
            SeverityArg::Warning => Severity::Warning,
            SeverityArg::Error => Severity::Error,
        }
    }
}

/// What one command line asks for: kubectl's completion protocol is a parse result of its own,
/// so `main` stays a plain dispatch.
#[derive(Debug)]
pub enum Invocation {
    /// kubectl ≥ 1.26 asks for completions (`kubectl_complete-upjet ARGS… WORD`).
    KubectlComplete(Vec<OsString>),
    /// A command to run.
    Run(Box<Cli>),
    /// `--help`, `--version` or a usage error: print it and exit.
    Exit(clap::Error),
}

/// Name prefix kubectl looks for on PATH to complete `kubectl <plugin>`.
pub(crate) const KUBECTL_COMPLETER_PREFIX: &str = "kubectl_complete-";

/// Parses the process arguments (program name first). `kubectl_complete` is whether the
/// installed completer script asked for the completion protocol.
pub fn parse(args: impl IntoIterator<Item = OsString>, kubectl_complete: bool) -> Invocation {
    let mut args = args.into_iter();
    let argv0 = args.next().unwrap_or_default();
    let name = std::path::Path::new(&argv0).file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if kubectl_complete || name.starts_with(KUBECTL_COMPLETER_PREFIX) {
        return Invocation::KubectlComplete(args.collect());
    }
    match Cli::try_parse_from(std::iter::once(argv0).chain(args)) {
        Ok(cli) => Invocation::Run(Box::new(cli)),
        Err(e) => Invocation::Exit(e),
    }
}

#[cfg(test)]
mod tests;
