//! The flags several commands share (`cli::shared`, each defined once), resolved one way for all
//! of them: what the rules judge against (`--create-timeout`), the kinds asked for, how provider
//! logs are read, the evidence read beyond the MRs, the cloud's record, and how a plan file is
//! carried out.

use crate::cli::apply::ApplyArgs;
use crate::cli::shared::{CloudAuditArgs, JournalArgs, KindArgs, LogFileArgs, LogOptions, ReconcilerArgs};
use crate::commands::cloud_audit::CloudAuditFiles;
use crate::commands::evidence::{EvidenceSources, LogReading};
use std::path::PathBuf;
use std::time::Duration;
use upjet_cluster::kinds::KindSelection;
use upjet_cluster::logs::LogLimits;
use upjet_core::gotime::GoTime;
use upjet_core::reconcile_timeout::{JudgedAt, ReconcileTimeout};

/// What every MR is judged against: `now` (the environment's, `Settings::now`) and the providers'
/// reconcile timeout, `--create-timeout` for the commands that take it (`None`: upjet's, for the
/// commands that judge without the flag).
pub fn judged_at(now: GoTime, reconciler: Option<&ReconcilerArgs>) -> JudgedAt {
    JudgedAt::new(now, reconcile_timeout(reconciler))
}

/// `--create-timeout`, whole seconds, at least one; upjet's without the flag.
pub fn reconcile_timeout(reconciler: Option<&ReconcilerArgs>) -> ReconcileTimeout {
    reconciler.map(|r| ReconcileTimeout::from_secs(r.create_timeout.as_secs().max(1))).unwrap_or_default()
}

/// `--kind`, `--provider`.
pub fn kinds(args: &KindArgs) -> KindSelection {
    KindSelection::new(&args.kinds, &args.providers)
}

/// `--since`, `--limit-bytes` and `--provider-namespace` as the API server takes them.
pub(crate) fn log_reading(opts: &LogOptions) -> LogReading {
    LogReading {
        limits: LogLimits {
            since_seconds: (!opts.since.is_zero()).then(|| opts.since.as_secs().max(1) as i64),
            limit_bytes: Some(opts.limit_bytes),
        },
        provider_namespace: opts.provider_namespace.name.clone(),
    }
}

/// The evidence a command reads beyond its MRs: `--log-file`, how live logs are read, whether
/// they are (`provider_logs`), `--audit-log` (`audit_logs`) and `--journal`.
pub(crate) fn evidence_sources(
    log_files: &LogFileArgs,
    logs: &LogOptions,
    provider_logs: bool,
    audit_logs: &[PathBuf],
    journal: &JournalArgs,
) -> EvidenceSources {
    EvidenceSources {
        log_files: log_files.files.clone(),
        logs: log_reading(logs),
        provider_logs,
        audit_logs: audit_logs.to_vec(),
        journal: journal.dir.clone(),
    }
}

/// `--cloud-audit` and `--cloud-principal`.
pub(crate) fn cloud_files(args: &CloudAuditArgs) -> CloudAuditFiles {
    CloudAuditFiles { files: args.cloud_audit.clone(), principals: args.cloud_principal.clone() }
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
    pub(super) fn of(args: &ApplyArgs) -> Apply {
        Apply {
            plan: args.filename.clone(),
            dry_run: args.dry_run.given,
            yes: args.yes.given,
            parallel: usize::from(args.parallel),
            timeout: args.wait.timeout,
            backup_dir: args.backup_dir.dir.clone(),
        }
    }
}
