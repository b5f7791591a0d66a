//! Migration of legacy cluster-scoped upjet MRs to their namespaced Crossplane v2 twins (the
//! same kind in the `.m.` group of the same provider), identity kept, as a pure plan and the
//! pure decisions of its execution.
//!
//! What the real CRD pairs differ in, and what the plan does about it (`schema`, `build`):
//! namespaced kinds have no `spec.deletionPolicy` (mapped onto management policies without
//! `Delete`), `providerConfigRef` is `{kind, name}` (`ClusterProviderConfig` by default) without
//! `policy`, `writeConnectionSecretToRef` has no namespace, `publishConnectionDetailsTo` is gone,
//! every `*Ref`, `*Refs` and `*Selector` gains a `namespace`, and the storage version may differ
//! (the legacy kind's `v1beta2` against the namespaced `v1beta1`), so every `forProvider` and
//! `initProvider` field is checked against the target's own schema.
//!
//! Execution (`apply`) reuses adopt's safety argument: the legacy MR is paused and made unable
//! to delete its cloud object in one conditional write before the namespaced MR exists; the
//! namespaced MR starts observing only, so it can neither create nor change nor delete; it gets
//! its final policies only after its Observe found the object. Each state in between is
//! recognised from the two objects alone ([`apply::stage`]), so a re-run resumes after a kill at
//! any step.

pub mod apply;
mod build;
mod policies;
pub mod rbac;
mod refs;
pub mod schema;

pub use build::{NamespaceRule, Options, build_plan, build_plan_from_json, expected_group, not_served};
pub use policies::{final_policies, hold_policies};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Annotation on a legacy MR held by a migration: the namespaced MR (`NAMESPACE/NAME`) it is
/// being moved to. Outside `crossplane.io/` so that no controller reads it.
pub(crate) const HELD_FOR: &str = "kubectl-upjet.io/migrating-to";
/// Annotation on a namespaced MR a migration created: the legacy MR (`kind.group/name`) it
/// replaces. It stays after the migration, so doctor can tie the twins together.
pub const MIGRATED_FROM: &str = "kubectl-upjet.io/migrated-from";
/// Annotation step d puts on the namespaced MR: its Observe found the object. It tells a twin
/// whose final policies are `["Observe"]` (an observe-only legacy MR) that step c is behind it:
/// such a twin is never switched on trust, it must show it sees the object before the legacy MR
/// is deleted.
pub(crate) const CONFIRMED: &str = "kubectl-upjet.io/observe-confirmed";

/// The plan file `migrate plan` writes and `migrate apply` and `migrate status` read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrationPlan {
    /// Always `upjet.doctor/v1`.
    pub api_version: String,
    /// Always `MigrationPlan`.
    pub kind: String,
    /// One item per legacy MR to migrate.
    pub items: Vec<Item>,
    /// The legacy MRs asked for and not migrated, each with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<Refusal>,
}

/// A legacy MR left out of the plan, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// `kind.group/name`.
    pub resource: String,
    /// Why it is not migrated, with what to do.
    pub reason: String,
}

/// The legacy MR as the plan read it: where it is, and what its hold changes and a rollback
/// puts back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Legacy {
    /// `kind.group/name`.
    pub resource: String,
    /// `metadata.generation` when planned: a spec changed since refuses the item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// `crossplane.io/external-name` when planned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_name: Option<String>,
    /// `crossplane.io/paused` when planned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<String>,
    /// `spec.deletionPolicy` when planned (`None`: absent, the default `Delete`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_policy: Option<String>,
    /// `spec.managementPolicies` when planned (`None`: absent, the default `["*"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub management_policies: Option<Vec<String>>,
}

/// The namespaced MR a legacy MR becomes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    /// `kind.group/name` of the namespaced kind.
    pub resource: String,
    /// The namespace it is created in.
    pub namespace: String,
}

/// One legacy MR's migration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    /// The legacy MR.
    pub legacy: Legacy,
    /// The namespaced MR.
    pub target: Target,
    /// The ID both track.
    pub external_name: String,
    /// Where the ID comes from: `crossplane.io/external-name`, or the finding that suggested it.
    pub id_source: String,
    /// Further candidate IDs, in rank order, for a person checking a suggested one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
    /// Step a's merge patch on the legacy MR: paused, `deletionPolicy: Orphan`, no `Delete` in
    /// explicit policies, and the [`HELD_FOR`] mark.
    pub hold: Value,
    /// Step b's object: the namespaced MR, observing only, with the external-name.
    pub manifest: Value,
    /// Step d's `spec.managementPolicies` (`None`: absent, the default `["*"]`).
    #[serde(default)]
    pub final_policies: Option<Vec<String>>,
    /// The namespaced MR existed when planned, tracking the same external-name (a migration
    /// finished by hand, or stopped after its create): `apply` holds the legacy MR, leaves the
    /// twin as it is (its policies are the plan's final ones) and deletes the legacy MR.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub twin_exists: bool,
    /// `forProvider`/`initProvider` fields dropped by `--drop-field`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// The legacy MR carried Crossplane's `crossplane.io/in-use` label when planned: a Usage
    /// names it, and Crossplane's webhook refuses the last step's delete while one does.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_use: bool,
}

impl Item {
    /// The legacy MR's `kind.group/name`.
    pub fn display(&self) -> String {
        self.legacy.resource.clone()
    }

    /// The namespaced MR's `kind.group/name -n NS`.
    pub fn target_display(&self) -> String {
        format!("{} -n {}", self.target.resource, self.target.namespace)
    }

    /// The namespaced MR's name.
    pub fn name(&self) -> &str {
        self.target.resource.rsplit_once('/').map_or("", |(_, n)| n)
    }
}

/// Why a plan file was rejected.
pub fn parse(text: &str) -> Result<MigrationPlan, String> {
    let plan: MigrationPlan = serde_json::from_str(text).map_err(|e| format!("not a migration plan: {e}"))?;
    if plan.kind != "MigrationPlan" || plan.api_version != "upjet.doctor/v1" {
        return Err(format!("not a migration plan: apiVersion {:?}, kind {:?}", plan.api_version, plan.kind));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, item) in plan.items.iter().enumerate() {
        if !seen.insert(&item.legacy.resource) {
            return Err(format!("item {i} ({}) is listed twice", item.legacy.resource));
        }
        for r in [&item.legacy.resource, &item.target.resource] {
            if r.split_once('/').is_none_or(|(k, n)| k.is_empty() || n.is_empty()) {
                return Err(format!("item {i}: {r:?} is not kind.group/name"));
            }
        }
        if item.target.namespace.is_empty() {
            return Err(format!("item {i} ({}): no target namespace", item.legacy.resource));
        }
    }
    Ok(plan)
}

#[cfg(test)]
mod tests;
