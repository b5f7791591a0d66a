//! Flags of `kubectl upjet migrate`: legacy cluster-scoped MRs moved to their namespaced
//! Crossplane v2 kinds (the `.m.` groups), identity kept.

use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `kubectl upjet migrate`.
#[derive(Debug, Clone, Args)]
pub struct MigrateArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: MigrateCommand,
}

/// The three steps of a migration.
#[derive(Debug, Clone, Subcommand)]
pub enum MigrateCommand {
    /// Write a migration plan: each legacy MR's namespaced twin (checked against its CRD and,
    /// with a cluster, a server-side dry run), or why it is not migrated.
    #[command(after_help = PLAN_EXAMPLES)]
    Plan(MigratePlanArgs),
    /// Carry a plan out, MR by MR: hold the legacy MR, create its twin observing only, wait
    /// until its Observe found the object, give it its final policies, delete the legacy MR.
    #[command(after_help = APPLY_EXAMPLES)]
    Apply(MigrateApplyArgs),
    /// Where each MR of a plan stands.
    #[command(after_help = STATUS_HELP)]
    Status(MigrateStatusArgs),
}

/// `kubectl upjet migrate plan`.
#[derive(Debug, Clone, Args)]
pub struct MigratePlanArgs {
    /// The legacy MRs: KIND/NAME or KIND.GROUP/NAME (or -l SELECTOR, or --all).
    #[arg(value_name = "KIND/NAME")]
    pub targets: Vec<String>,
    /// Every legacy MR of every provider.
    #[arg(long)]
    pub all: bool,
    /// The namespace every migrated MR goes to.
    #[arg(long, value_name = "NS", conflicts_with = "namespace_from")]
    pub to_namespace: Option<String>,
    /// Each MR's namespace from its own label or annotation: label=KEY or annotation=KEY.
    #[arg(long, value_name = "label=KEY|annotation=KEY", value_parser = parse_namespace_from)]
    pub namespace_from: Option<(String, String)>,
    /// Leave a forProvider/initProvider field out when the namespaced kind lacks it
    /// (repeatable; spec.forProvider.a.b).
    #[arg(long = "drop-field", value_name = "PATH")]
    pub drop_fields: Vec<String>,
    /// The kind of every providerConfigRef (default: the CRD's default, ClusterProviderConfig).
    #[arg(long, value_name = "KIND")]
    pub provider_config_kind: Option<String>,
    /// Offline: snapshots of the legacy MRs (kubectl get managed -o json) and, beside them, the
    /// CRDs of the namespaced kinds (repeatable; files or folders).
    #[arg(long, value_name = "PATH", help_heading = super::INPUTS)]
    pub from: Vec<PathBuf>,
    /// Where to write the plan.
    #[arg(short = 'o', long = "output", value_name = "FILE", help_heading = super::OUTPUT)]
    pub output: PathBuf,
    /// Overwrite the plan file when it exists.
    #[arg(long, help_heading = super::OUTPUT)]
    pub force: bool,
}

/// `kubectl upjet migrate apply`.
#[derive(Debug, Clone, Args)]
#[command(mut_args(|a| APPLY_WORDS.word(a)))]
pub struct MigrateApplyArgs {
    /// The plan, and how it is carried out.
    #[command(flatten)]
    pub apply: super::apply::ApplyArgs,
    /// Leave each legacy MR in place, paused and unable to delete, instead of deleting it.
    #[arg(long)]
    pub keep_legacy: bool,
    /// Stop once each namespaced MR's Observe found its object: it stays observing only, the
    /// legacy MR stays paused. A later apply without this flag finishes.
    #[arg(long)]
    pub observe_only: bool,
}

/// How `migrate apply` words the flags it shares with `promote`.
const APPLY_WORDS: super::apply::Wording = super::apply::Wording {
    plan: "The plan `migrate plan` wrote",
    dry_run: "Send every write with server-side dryRun=All: nothing is changed and no backup is written",
    parallel: "How many MRs are migrated at the same time (1-64)",
    backup_dir: "Where to write the backup of each legacy MR before its first change (default: ~/.kube/upjet/backups)",
};

/// `kubectl upjet migrate status`.
#[derive(Debug, Clone, Args)]
pub struct MigrateStatusArgs {
    /// The plan `migrate plan` wrote.
    #[arg(short = 'f', long = "filename", value_name = "PLAN", help_heading = super::INPUTS)]
    pub filename: PathBuf,
}

/// `label=KEY` or `annotation=KEY`.
fn parse_namespace_from(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((w @ ("label" | "annotation"), key)) if !key.is_empty() => Ok((w.to_string(), key.to_string())),
        _ => Err(format!("{s:?}: expected label=KEY or annotation=KEY")),
    }
}

const PLAN_EXAMPLES: &str = "Examples:
  # Every legacy MR of the cluster into one namespace
  kubectl upjet migrate plan --all --to-namespace infra -o migration.json

  # Each MR's namespace from its team label; a field the namespaced kind lacks left out
  kubectl upjet migrate plan -l env=prod --namespace-from label=team \\
    --drop-field spec.forProvider.timeouts -o migration.json

  # Offline: a snapshot and the namespaced kinds' CRDs
  kubectl upjet migrate plan --all --to-namespace infra --from fleet.json --from crds/ -o migration.json

Exit status:
  0  every MR asked for is in the plan
  2  bad usage or input (a flag, an unreadable --from file)
  3  the cluster cannot be reached or used
  5  an MR was refused: the plan holds the others, and each refusal says why";

const APPLY_EXAMPLES: &str = "Examples:
  # Every write sent with dryRun=All first; nothing changes
  kubectl upjet migrate apply -f migration.json --dry-run

  # Sixteen at a time; a re-run resumes where a killed run stopped
  kubectl upjet migrate apply -f migration.json --yes --parallel 16
  kubectl upjet migrate status -f migration.json

Exit status:
  0  every MR of the plan migrated (or already was)
  2  bad usage or input (an unreadable plan, a kind the cluster does not serve); nothing changed
  3  the cluster cannot be reached or used
  5  not every MR migrated: left observing (--observe-only), refused, rolled back or failed";

const STATUS_HELP: &str = "Examples:
  # After an apply, or while one runs
  kubectl upjet migrate status -f migration.json

Exit status:
  0  every MR of the plan is migrated (done)
  2  bad usage or input (an unreadable plan, a kind the cluster does not serve)
  3  the cluster cannot be reached or used
  5  not every MR is migrated yet: planned, held, observing, switched or changed";
