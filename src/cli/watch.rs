//! Flags of `kubectl upjet watch`: a long-running judge of every MR, with metrics and the ID
//! journal.

use clap::{Args, ValueEnum};

const WATCH_EXAMPLES: &str = "Examples:
  # Every MR of every provider: one line each time a finding appears or clears
  kubectl upjet watch -A

  # Serve Prometheus metrics, /healthz and /readyz (see docs/metrics.md and deploy/prometheus/)
  kubectl upjet watch --metrics-addr 127.0.0.1:9090

  # JSON lines for a log shipper, one namespace
  kubectl upjet watch -n team-a -o json

  # Keep the guard's lock current as MRs come and go
  kubectl upjet watch --guard-lock

  # Two clusters under one watch and one metrics server (series labelled by context)
  kubectl upjet watch --context prod-eu --context prod-us --metrics-addr 127.0.0.1:9090

The ID journal (default ~/.kube/upjet/journal/<context>/) keeps every external-name and observed ID
the watch sees, so that adopt can find an ID after the MR lost it. SIGINT or SIGTERM end the watch.";

/// `kubectl upjet watch`. The inputs it shares with doctor are listed among its own flags: the
/// watch's help has no Inputs heading.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = WATCH_EXAMPLES,
    mut_arg("journal", |a| a.help(JOURNAL).help_heading(None::<&str>)),
    mut_arg("logs", |a| a.help(LOGS).help_heading(None::<&str>)),
    mut_arg("provider_namespace", |a| a.help_heading(None::<&str>)),
    mut_arg("no_headers", |a| a.help(NO_HEADERS))
)]
pub struct WatchArgs {
    /// Serve /metrics (Prometheus text format), /healthz and /readyz on HOST:PORT (`:9090`: every
    /// interface).
    #[arg(long, value_name = "HOST:PORT")]
    pub metrics_addr: Option<String>,
    /// `--journal`: where the journal is written.
    #[command(flatten)]
    pub journal: super::shared::JournalArgs,
    /// Keep no ID journal.
    #[arg(long, conflicts_with = "journal")]
    pub no_journal: bool,
    /// `--logs`: followed, and the IDs they log journaled.
    #[command(flatten)]
    pub logs: super::shared::LiveLogsArgs,
    /// `--provider-namespace`.
    #[command(flatten)]
    pub provider_namespace: super::shared::ProviderNamespaceArgs,
    /// Record a Kubernetes Event (type Warning, reason = the code) on the MR each time an error
    /// finding appears, deduplicated as client-go's recorder does (a repeat raises the Event's
    /// count); needs deploy/clusterrole-watch-events.yaml.
    #[arg(long)]
    pub events: bool,
    /// Keep the guard's lock current (`kubectl upjet guard lock`, docs/guard.md): each MR's ID
    /// recorded as it is seen, an MR's entry removed when its deletion deleted its cloud object.
    #[arg(long)]
    pub guard_lock: bool,
    /// How often every MR is judged again without an event (findings that depend on time: an
    /// async operation's deadline passing, a create pending for too long), and the provider
    /// pods (and, with --logs, their logs) are looked at.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = super::duration::interval)]
    pub resync: std::time::Duration,
    /// The providers' reconcile timeout.
    #[command(flatten)]
    pub reconciler: super::shared::ReconcilerArgs,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = WatchFormat::Text, help_heading = super::OUTPUT)]
    pub output: WatchFormat,
    /// `--no-headers`.
    #[command(flatten)]
    pub no_headers: super::shared::NoHeadersArgs,
}

/// How the watch words the flags it shares with doctor: it writes the journal, and follows the
/// logs (clap drops a doc comment's last period; these have none).
const JOURNAL: &str = "The ID journal's folder (default: ~/.kube/upjet/journal/<context>/; with several contexts, one folder per context inside DIR)";
const LOGS: &str = "Follow the provider pods' logs (current container, and the previous one after each restart) and journal every ID a provider logs as created (source `log`)";
const NO_HEADERS: &str = "Do not print the header line";

/// `watch -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WatchFormat {
    /// One line per finding that appears or clears, for a person.
    Text,
    /// One JSON object per line.
    Json,
}
