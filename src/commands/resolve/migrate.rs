//! migrate's flags, resolved once: which legacy MRs `plan` moves where (its refusals of a
//! combination here, before anything is read), and how `apply` carries a plan out.

use super::Refusal;
use super::shared::Apply;
use crate::cli::migrate::{MigrateApplyArgs, MigratePlanArgs};
use crate::settings::Settings;
use std::path::{Path, PathBuf};
use upjet_core::migrate::NamespaceRule;
use upjet_core::reconcile_timeout::JudgedAt;

/// `kubectl upjet migrate plan`, resolved.
#[derive(Debug, Clone)]
pub(crate) struct MigratePlan {
    /// The legacy MRs named (KIND/NAME).
    pub targets: Vec<String>,
    /// `--all`.
    pub all: bool,
    /// `-l` as typed, for the API server.
    pub selector: Option<String>,
    /// `-l` as `key=value` pairs, all required (how a snapshot is read).
    pub labels: Vec<(String, String)>,
    /// Where each MR goes (`--to-namespace`, `--namespace-from`).
    pub namespace: NamespaceRule,
    /// `--drop-field`.
    pub drop_fields: Vec<String>,
    /// `--provider-config-kind`.
    pub provider_config_kind: Option<String>,
    /// `--from`: snapshots and CRD files instead of the cluster.
    pub from: Vec<PathBuf>,
    /// `-o`: where the plan is written.
    pub output: PathBuf,
    /// What the MRs are judged against.
    pub at: JudgedAt,
}

impl MigratePlan {
    /// Resolves `migrate plan`'s flags (`-l` from the settings); `exists` looks at the disk for
    /// the plan file. Refused in this order: no target namespace, no legacy MR asked for, a plan
    /// file that exists without `--force`, a `-l` that is not `key=value` pairs.
    pub fn resolve(
        args: &MigratePlanArgs,
        settings: &Settings,
        exists: impl Fn(&Path) -> bool,
    ) -> Result<MigratePlan, Refusal> {
        let namespace = match (&args.to_namespace, &args.namespace_from) {
            (Some(ns), _) => NamespaceRule::To(ns.clone()),
            (None, Some((w, key))) if w == "label" => NamespaceRule::Label(key.clone()),
            (None, Some((_, key))) => NamespaceRule::Annotation(key.clone()),
            (None, None) => return Err(Refusal::NoTargetNamespace),
        };
        let selector = settings.selector.clone();
        if args.targets.is_empty() && !args.all && selector.is_none() {
            return Err(Refusal::NoLegacyMrs);
        }
        if !args.force && exists(&args.output) {
            return Err(Refusal::PlanFileExists(args.output.clone()));
        }
        Ok(MigratePlan {
            targets: args.targets.clone(),
            all: args.all,
            labels: equality_selector(selector.as_deref())?,
            selector,
            namespace,
            drop_fields: args.drop_fields.clone(),
            provider_config_kind: args.provider_config_kind.clone(),
            from: args.from.clone(),
            output: args.output.clone(),
            at: super::shared::judged_at(settings.now, None),
        })
    }
}

/// `-l a=b,c=d` as pairs (set-based selectors are not read offline).
fn equality_selector(selector: Option<&str>) -> Result<Vec<(String, String)>, Refusal> {
    let Some(s) = selector.filter(|s| !s.is_empty()) else { return Ok(vec![]) };
    s.split(',')
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim().trim_end_matches('=').to_string(), v.trim().to_string()))
                .ok_or_else(|| Refusal::SelectorNotEquality(s.to_string()))
        })
        .collect()
}

/// `kubectl upjet migrate apply`, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MigrateApply {
    /// The migration plan and how it is carried out.
    pub apply: Apply,
    /// `--keep-legacy`: each legacy MR stays, held.
    pub keep_legacy: bool,
    /// `--observe-only`: stop once each namespaced MR's Observe found its object.
    pub observe_only: bool,
}

impl MigrateApply {
    /// Resolves `migrate apply`'s flags.
    pub fn resolve(args: &MigrateApplyArgs) -> MigrateApply {
        MigrateApply { apply: Apply::of(&args.apply), keep_legacy: args.keep_legacy, observe_only: args.observe_only }
    }
}
