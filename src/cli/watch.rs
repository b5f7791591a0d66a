//! Flags of `kubectl upjet watch`: a long-running judge of every MR, with metrics and the ID
//! journal.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

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

/// `kubectl upjet watch`.
#[derive(Debug, Clone, Args)]
#[command(after_help = WATCH_EXAMPLES)]
pub struct WatchArgs {
    /// Serve /metrics (Prometheus text format), /healthz and /readyz on HOST:PORT (`:9090`: every
    /// interface).
    #[arg(long, value_name = "HOST:PORT")]
    pub metrics_addr: Option<String>,
    /// The ID journal's folder (default: ~/.kube/upjet/journal/<context>/; with several
    /// contexts, one folder per context inside DIR).
    #[arg(long, value_name = "DIR")]
    pub journal: Option<PathBuf>,
    /// Keep no ID journal.
    #[arg(long, conflicts_with = "journal")]
    pub no_journal: bool,
    /// Follow the provider pods' logs (current container, and the previous one after each
    /// restart) and journal every ID a provider logs as created (source `log`).
    #[arg(long)]
    pub logs: bool,
    /// Where the provider pods run (default: found from their labels in any namespace).
    #[arg(long, value_name = "NAMESPACE")]
    pub provider_namespace: Option<String>,
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
    pub reconciler: super::ReconcilerArgs,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = WatchFormat::Text, help_heading = super::OUTPUT)]
    pub output: WatchFormat,
    /// Do not print the header line.
    #[arg(long, help_heading = super::OUTPUT)]
    pub no_headers: bool,
}

/// `watch -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WatchFormat {
    /// One line per finding that appears or clears, for a person.
    Text,
    /// One JSON object per line.
    Json,
}
