//! The flags several commands share, each defined once (ripgrep's `defs.rs`): one clap group
//! per flag (or per pair that always go together), flattened into every command that takes it,
//! at the place that command lists it in its help. The definition holds the flag's name, its
//! value and parser, its heading and its help; a command whose help says more about what the
//! flag does there words it itself, next to its own flags
//! (`#[command(mut_arg(ID, |a| a.help(WORDS)))]`), so a shared flag never needs a second
//! definition. Each group is resolved once, by the command resolvers (`commands::resolve`).
//!
//! To add a flag several commands take: a field in the group they all flatten (or a new group
//! here, flattened into each of them), then its consumer reads it from the resolved value.

use super::{INPUTS, OUTPUT, duration};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use upjet_core::identity::UserTemplate;

/// `--kind`, `--provider` (doctor, guard, guard lock, rbac, health flux): which managed kinds a
/// command reads, resolved into `cluster::kinds::KindSelection`.
#[derive(Debug, Clone, Default, Args)]
pub struct KindArgs {
    /// Only these kinds: kind, plural or kind.group (repeatable).
    #[arg(long = "kind", value_name = "KIND")]
    pub kinds: Vec<String>,
    /// Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2).
    #[arg(long = "provider", value_name = "PROVIDER")]
    pub providers: Vec<String>,
}

/// `--id-template` (doctor, adopt, guard, restore-plan): the formats users give for kinds' cloud
/// IDs, winning over what healthy peers teach.
#[derive(Debug, Clone, Default, Args)]
pub struct IdTemplateArgs {
    /// A kind's cloud ID format, for predicting the IDs of MRs that lost theirs (repeatable):
    /// KIND=TEMPLATE with placeholders {name}, {namespace}, {forProvider.KEY} ({parameters.key_name}
    /// accepted) and {providerConfig.name}; wins over the format learned from healthy peers.
    /// See docs/id-templates.md.
    #[arg(id = "id_templates", long = "id-template", value_name = "KIND=TEMPLATE", help_heading = INPUTS)]
    pub templates: Vec<UserTemplate>,
}

/// `--inventory` (doctor, history, restore-plan): cloud inventory exports.
#[derive(Debug, Clone, Default, Args)]
pub struct InventoryArgs {
    /// Cross-check a cloud inventory export (repeatable; `-` for stdin; gzip accepted): AWS
    /// `resourcegroupstaggingapi get-resources`, GCP `gcloud asset search-all-resources
    /// --format=json`, Azure `az resource list` or `az graph query` JSON.
    #[arg(id = "inventory", long = "inventory", value_name = "FILE", help_heading = INPUTS)]
    pub files: Vec<PathBuf>,
}

/// `--log-file` (doctor, history): provider logs exported to files.
#[derive(Debug, Clone, Default, Args)]
pub struct LogFileArgs {
    /// Read a provider log file for evidence (repeatable; `-` for stdin; gzip accepted; zap
    /// console/JSON, `kubectl logs --timestamps`, Cloud Logging and Loki exports).
    #[arg(id = "log_files", long = "log-file", value_name = "PATH", help_heading = INPUTS)]
    pub files: Vec<PathBuf>,
}

/// `--audit-log` (doctor, history): Kubernetes audit logs.
#[derive(Debug, Clone, Default, Args)]
pub struct AuditLogArgs {
    /// Read a Kubernetes audit log for identities the MRs no longer show (repeatable; `-` for
    /// stdin; gzip accepted; audit.k8s.io/v1 JSON lines, GKE Cloud Logging or EKS CloudWatch
    /// exports).
    #[arg(id = "audit_logs", long = "audit-log", value_name = "FILE", help_heading = INPUTS)]
    pub files: Vec<PathBuf>,
}

/// `--logs` (doctor, watch): the live provider pods' logs.
#[derive(Debug, Clone, Default, Args)]
pub struct LiveLogsArgs {
    /// Read the live provider pods' logs (current and previous container) for evidence.
    #[arg(id = "logs", long = "logs", help_heading = INPUTS)]
    pub read: bool,
}

/// `--provider-namespace` (doctor, history, watch): where the provider pods run.
#[derive(Debug, Clone, Default, Args)]
pub struct ProviderNamespaceArgs {
    /// Where the provider pods run (default: found from their labels in any namespace).
    #[arg(id = "provider_namespace", long = "provider-namespace", value_name = "NAMESPACE", help_heading = INPUTS)]
    pub name: Option<String>,
}

/// How provider logs are read (doctor --logs, history): listed with the other inputs.
#[derive(Debug, Clone, Args)]
pub struct LogOptions {
    /// Only log lines newer than this (e.g. 30m, 24h; 0 = all the API server kept).
    #[arg(long, value_name = "DURATION", default_value = "0", value_parser = duration::duration, help_heading = INPUTS)]
    pub since: Duration,
    /// At most this many bytes of each container's log (the newest ones).
    #[arg(long, value_name = "BYTES", default_value_t = 256 * 1024 * 1024, help_heading = INPUTS)]
    pub limit_bytes: i64,
    /// `--provider-namespace`.
    #[command(flatten)]
    pub provider_namespace: ProviderNamespaceArgs,
}

/// `--journal` (doctor, history, adopt, restore-plan, guard lock, watch): the ID journal
/// `kubectl upjet watch` writes, read for the IDs an MR held before it lost them.
#[derive(Debug, Clone, Default, Args)]
pub struct JournalArgs {
    /// Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes
    /// for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the
    /// MR (its uid) is suggested to the findings that want one and ranked first.
    #[arg(id = "journal", long = "journal", value_name = "DIR", help_heading = INPUTS)]
    pub dir: Option<PathBuf>,
}

/// `--cloud-audit` and `--cloud-principal` (doctor, history, adopt, restore-plan): the cloud's
/// own record of who created and deleted what, read from the exports users make.
#[derive(Debug, Clone, Default, Args)]
pub struct CloudAuditArgs {
    /// Read the cloud's own audit record: which objects the provider created for each MR, and
    /// who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail
    /// (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP
    /// audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log
    /// (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md.
    #[arg(long = "cloud-audit", value_name = "FILE", help_heading = INPUTS)]
    pub cloud_audit: Vec<PathBuf>,
    /// The provider's cloud identity, for provider configs whose healthy MRs' creates are not in
    /// the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure
    /// caller.
    #[arg(long = "cloud-principal", value_name = "PRINCIPAL", help_heading = INPUTS)]
    pub cloud_principal: Vec<String>,
}

/// `--create-timeout` (doctor, history, adopt, watch, health argocd): what the providers'
/// reconcilers allow one reconcile, which decides when a create with no result is stuck. The
/// one judging flag: each command's resolver turns it into the `JudgedAt` its rules read.
#[derive(Debug, Clone, Default, Args)]
pub struct ReconcilerArgs {
    /// The providers' reconcile timeout: a create pending for less may still be running.
    ///
    /// crossplane-runtime's `managed.WithTimeout`: upjet's generated controllers pass 3m, a
    /// reconciler built without the option uses 1m. A create marked pending less than this plus
    /// the reconciler's 30s grace ago may still be running, and is CreateInFlight (info) rather
    /// than CreateIncomplete (error).
    #[arg(long, value_name = "DURATION", default_value = "3m", value_parser = duration::timeout)]
    pub create_timeout: Duration,
}

/// `--source-context` and `--target-context` (doctor with a backup, restore-plan): the live
/// clusters a Velero backup was taken from and will be restored into.
#[derive(Debug, Clone, Default, Args)]
pub struct BackupContextArgs {
    /// With --from BACKUP: the live cluster the backup was taken from. Its MRs that still manage
    /// a cloud object the backup's MRs track are reported (RestoreIntoFight).
    #[arg(id = "source_context", long = "source-context", value_name = "CONTEXT", help_heading = INPUTS)]
    pub source: Option<String>,
    /// With --from BACKUP: the live cluster the backup will be restored into. MRs of kinds whose
    /// ManagedResourceDefinition is inactive there are not restored at all (RestoreKindInactive).
    #[arg(id = "target_context", long = "target-context", value_name = "CONTEXT", help_heading = INPUTS)]
    pub target: Option<String>,
}

/// `--no-headers` (doctor, watch).
#[derive(Debug, Clone, Default, Args)]
pub struct NoHeadersArgs {
    /// Do not print the table header.
    #[arg(id = "no_headers", long = "no-headers", help_heading = OUTPUT)]
    pub set: bool,
}

/// `-y/--yes` (adopt, restore, promote, migrate apply).
#[derive(Debug, Clone, Default, Args)]
pub struct YesArgs {
    /// Do not ask for confirmation (required when there is no terminal).
    #[arg(id = "yes", short = 'y', long = "yes")]
    pub given: bool,
}

/// `--dry-run` (adopt, restore, promote, migrate apply): every write sent with server-side
/// dryRun=All. Each command says what it prints besides.
#[derive(Debug, Clone, Default, Args)]
pub struct DryRunArgs {
    /// Send every write with server-side dryRun=All: nothing is changed and no backup is written.
    #[arg(id = "dry_run", long = "dry-run")]
    pub given: bool,
}

/// `--backup-dir` (adopt, promote, migrate apply): where the backups taken before a change go.
#[derive(Debug, Clone, Default, Args)]
pub struct BackupDirArgs {
    /// Where to write the backup taken before any change (default: ~/.kube/upjet/backups).
    #[arg(id = "backup_dir", long = "backup-dir", value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `--timeout` (adopt, promote, migrate apply): how long each wait for the provider may take.
#[derive(Debug, Clone, Args)]
pub struct WaitArgs {
    /// How long to wait for the provider at each wait step: `5m`, `90s`; a bare number is seconds.
    #[arg(id = "timeout", long = "timeout", value_name = "DURATION", default_value = "5m", value_parser = duration::timeout)]
    pub timeout: Duration,
}
