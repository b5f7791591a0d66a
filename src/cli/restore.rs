//! Flags of `kubectl upjet restore-plan` and `kubectl upjet promote`: a Velero restore staged so
//! that nothing is created twice, then finished MR by MR.

use clap::Args;
use std::path::PathBuf;

/// `kubectl upjet restore-plan`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = RESTORE_PLAN_EXAMPLES,
    mut_arg("source_context", |a| a.help(SOURCE_CONTEXT)),
    mut_arg("target_context", |a| a.help(TARGET_CONTEXT)),
    mut_arg("id_templates", |a| a.help(ID_TEMPLATE)),
    mut_arg("inventory", |a| a.help(INVENTORY))
)]
pub struct RestorePlanArgs {
    /// The Velero backup: the `.tar.gz` `velero backup download` writes, or that archive unpacked.
    #[arg(value_name = "BACKUP")]
    pub backup: PathBuf,
    /// Where to write the resource modifiers (the YAML `kubectl create cm --from-file` puts into
    /// the ConfigMap Velero reads): every MR at risk is restored with managementPolicies
    /// ["Observe"] and its best known external-name, paused too when no ID is known; the others
    /// get no rule.
    #[arg(long, value_name = "FILE")]
    pub modifiers: PathBuf,
    /// Where to write the promote plan (`kubectl upjet promote -f FILE` after the restore).
    #[arg(long, value_name = "FILE")]
    pub plan: PathBuf,
    /// Overwrite --modifiers and --plan when they exist.
    #[arg(long)]
    pub force: bool,
    /// The backup's name for `velero restore create --from-backup` (default: the file name
    /// without -data.tar.gz, or the folder's name).
    #[arg(long, value_name = "NAME")]
    pub backup_name: Option<String>,
    /// The ConfigMap's name (default: upjet-restore-BACKUP_NAME).
    #[arg(long, value_name = "NAME")]
    pub config_map: Option<String>,
    /// `--source-context`, `--target-context`.
    #[command(flatten)]
    pub clusters: super::shared::BackupContextArgs,
    /// `--id-template`.
    #[command(flatten)]
    pub id_templates: super::shared::IdTemplateArgs,
    /// `--inventory`.
    #[command(flatten)]
    pub inventory: super::shared::InventoryArgs,
    /// The cloud's own audit record: the creates it ties to an MR name the ID to restore it with.
    #[command(flatten)]
    pub cloud: super::shared::CloudAuditArgs,
    /// The ID journal of the cluster the backup was taken from (default: --source-context's, else
    /// the current context's): an ID it recorded for a backed-up MR (its uid) restores it.
    #[command(flatten)]
    pub journal: super::shared::JournalArgs,
}

/// How restore-plan words the inputs it shares with doctor: what each does to a restore (clap
/// drops a doc comment's last period; these have none).
const SOURCE_CONTEXT: &str = "The live cluster the backup was taken from: MRs whose cloud object it still manages are restored observing only (RestoreIntoFight)";
const TARGET_CONTEXT: &str = "The live cluster the backup will be restored into: MRs of kinds whose ManagedResourceDefinition is inactive there are not restored at all; the command that activates each kind is printed";
const ID_TEMPLATE: &str =
    "A kind's cloud ID format for MRs restored without one (repeatable; see doctor --id-template)";
const INVENTORY: &str = "A cloud inventory export to find IDs in (repeatable; see doctor --inventory)";

/// `kubectl upjet promote`.
#[derive(Debug, Clone, Args)]
#[command(after_help = PROMOTE_EXAMPLES, mut_args(|a| PROMOTE_WORDS.word(a)))]
pub struct PromoteArgs {
    /// The plan, and how it is carried out.
    #[command(flatten)]
    pub apply: super::apply::ApplyArgs,
    /// The source cluster no longer manages the objects of RestoreIntoFight items (you paused or
    /// removed those MRs there): promote them too.
    #[arg(long, display_order = super::apply::AFTER_WAITS)]
    pub source_released: bool,
}

/// How promote words the flags it shares with `migrate apply`.
const PROMOTE_WORDS: super::apply::Wording = super::apply::Wording {
    plan: "The promote plan `restore-plan` wrote",
    dry_run: "Print every patch and send it with server-side dryRun=All: nothing is changed and no backup is written",
    parallel: "How many MRs are verified and promoted at the same time (1-64)",
    backup_dir: "Where to write the backup taken before each MR's first change (default: ~/.kube/upjet/backups)",
};

const RESTORE_PLAN_EXAMPLES: &str = "Examples:
  # Stage the restore of a downloaded backup (velero backup download nightly)
  kubectl upjet restore-plan nightly-data.tar.gz --modifiers modifiers.yaml --plan promote.json
  kubectl create cm upjet-restore-nightly --from-file=resource-modifiers.yaml=modifiers.yaml -n velero
  velero restore create --from-backup nightly --resource-modifier-configmap upjet-restore-nightly

  # Migration: the source cluster still runs; its MRs that manage the same objects are named
  kubectl upjet restore-plan nightly-data.tar.gz --modifiers m.yaml --plan p.json --source-context old";

const PROMOTE_EXAMPLES: &str = "Examples:
  # After the restore: verify each MR's Observe found its object, then give it its policies back
  kubectl upjet promote -f promote.json --yes --parallel 32

  # Every patch, sent with server-side dryRun=All; nothing changes
  kubectl upjet promote -f promote.json --dry-run";
