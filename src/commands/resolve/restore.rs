//! restore-plan's and promote's flags, resolved once: a Velero restore staged (the backup, the
//! two outputs, what it is judged with), then finished from its promote plan.

use super::Refusal;
use super::shared::Apply;
use crate::cli::restore::{PromoteArgs, RestorePlanArgs};
use crate::commands::evidence::EvidenceSources;
use crate::commands::fleet_inputs::FleetFiles;
use crate::settings::Settings;
use std::path::{Path, PathBuf};
use upjet_core::identity::UserTemplate;
use upjet_core::reconcile_timeout::JudgedAt;

/// `kubectl upjet restore-plan`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct RestorePlan {
    /// The Velero backup (an archive, or its unpacked folder).
    pub backup: PathBuf,
    /// `--modifiers`: where the resource modifiers are written.
    pub modifiers: PathBuf,
    /// `--plan`: where the promote plan is written.
    pub plan: PathBuf,
    /// `--force`: both outputs may be overwritten.
    pub force: bool,
    /// `--backup-name`.
    pub backup_name: Option<String>,
    /// `--config-map`.
    pub config_map: Option<String>,
    /// `--source-context`: the live cluster the backup was taken from.
    pub source_context: Option<String>,
    /// `--target-context`: the live cluster it will be restored into.
    pub target_context: Option<String>,
    /// `--id-template`.
    pub id_templates: Vec<UserTemplate>,
    /// `--inventory`, `--cloud-audit`.
    pub fleet: FleetFiles,
    /// What is read beyond the backup: the ID journal (`--journal`, else the source cluster's
    /// default folder); no logs.
    pub evidence: EvidenceSources,
    /// What every MR is judged against: now, and upjet's reconcile timeout.
    pub at: JudgedAt,
}

impl RestorePlan {
    /// Resolves restore-plan's flags (now from the settings); `exists` and `is_backup` look at the disk (the outputs,
    /// the backup), so that the refusals are table-tested without files. Refused before anything
    /// is read: the two outputs naming one file or the backup, an output that exists without
    /// `--force`, and a backup that is none.
    pub fn resolve(
        args: &RestorePlanArgs,
        settings: &Settings,
        exists: impl Fn(&Path) -> bool,
        is_backup: impl Fn(&Path) -> bool,
    ) -> Result<RestorePlan, Refusal> {
        if args.modifiers == args.plan {
            return Err(Refusal::SameOutputs);
        }
        for p in [&args.modifiers, &args.plan] {
            if *p == args.backup {
                return Err(Refusal::OutputIsBackup(p.clone()));
            }
            if !args.force && exists(p) {
                return Err(Refusal::OutputExists(p.clone()));
            }
        }
        if !is_backup(&args.backup) {
            return Err(Refusal::NotABackup(args.backup.clone()));
        }
        Ok(RestorePlan {
            backup: args.backup.clone(),
            modifiers: args.modifiers.clone(),
            plan: args.plan.clone(),
            force: args.force,
            backup_name: args.backup_name.clone(),
            config_map: args.config_map.clone(),
            source_context: args.clusters.source.clone(),
            target_context: args.clusters.target.clone(),
            id_templates: args.id_templates.templates.clone(),
            fleet: FleetFiles {
                inventory: args.inventory.files.clone(),
                cloud: super::shared::cloud_files(&args.cloud),
            },
            evidence: EvidenceSources { journal: args.journal.dir.clone(), ..EvidenceSources::default() },
            at: super::shared::judged_at(settings.now, None),
        })
    }
}

/// `kubectl upjet promote`, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Promote {
    /// The promote plan and how it is carried out.
    pub apply: Apply,
    /// `--source-released`: the RestoreIntoFight items are promoted too.
    pub source_released: bool,
}

impl Promote {
    /// Resolves promote's flags.
    pub fn resolve(args: &PromoteArgs) -> Promote {
        Promote { apply: Apply::of(&args.apply), source_released: args.source_released }
    }
}
