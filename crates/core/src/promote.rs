//! The second phase of a staged restore (velero#9432): the plan `restore-plan` writes, and the
//! pure decisions `promote` makes on each MR it reads back from the restored cluster.
//!
//! Phase one restores every MR at risk observing only (`["Observe"]`, which can neither create,
//! update nor delete) with the best known external-name, and pauses those with no ID at all.
//! Phase two, per MR: ask for a fresh reconcile (`crossplane.io/reconcile-requested-at`, never by
//! flipping the pause), wait until the provider shows that its Observe found the object, then
//! put the original policies back in one conditional write. Each state in between is safe and
//! recognised, so a re-run resumes: restored (observing only), promoted (original policies).
//!
//! Under the guard (`kubectl upjet guard`), the restore's CREATE of an MR with its ID is declared
//! (`kubectl-upjet.io/identity-change` equal to it, in the restore's patch: the identity-locked
//! rule lets it through whatever the lock recorded), and promote's first write takes the
//! declaration away.

use crate::candidate::from_findings;
use crate::codes::{Family, Severity};
use crate::create_marks::CreateMarks;
use crate::finding::{Code, Finding};
use crate::managed::{ManagedResource, keys};
use crate::patch::{IDENTITY_CHANGE, annotation, policies_of};
use crate::placeholder::is_placeholder;
use crate::restore::modifiers::Target;
use crate::shell::ShellCommand;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// The promote plan file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromotePlan {
    /// Always `upjet.doctor/v1`.
    pub api_version: String,
    /// Always `PromotePlan`.
    pub kind: String,
    /// The Velero backup the restore is made from.
    pub backup: String,
    /// `velero/<name>`: the ConfigMap holding the resource modifiers.
    pub config_map: String,
    /// One item per MR restored observing only.
    pub items: Vec<PromoteItem>,
}

/// What the restore does to one MR, and what promoting it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromoteItem {
    /// `kind.group/name`, as every command accepts it.
    pub resource: String,
    /// Namespace of a namespaced MR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `<plural>.<group>` (the modifier rule's `groupResource`).
    pub group_resource: String,
    /// The restore verdict that put it in the plan (`RestoreCreatesDuplicate`, …).
    pub verdict: String,
    /// The ID it is restored with; `None` when none is known (restored paused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Further candidate IDs, in rank order, for a person choosing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
    /// What the backup had and promote puts back.
    pub original: Original,
    /// The merge patch the restore applies.
    pub patch: Value,
    /// The state the restore leaves it in.
    pub restored: Restored,
    /// The source-cluster MR that still manages the object (`RestoreIntoFight`): promote refuses
    /// it until told the source has let go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// What the backup had.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Original {
    /// `spec.managementPolicies` (`None`: absent, the API default `["*"]`).
    pub management_policies: Option<Vec<String>>,
    /// `crossplane.io/paused` as backed up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<String>,
}

/// What the restore leaves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Restored {
    /// `crossplane.io/external-name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_name: Option<String>,
    /// `spec.managementPolicies`: always `["Observe"]`.
    pub management_policies: Vec<String>,
    /// Whether it is paused (by the plan, when no ID is known, or as backed up).
    pub paused: bool,
}

impl PromoteItem {
    /// Whether the plan, not the user, paused it.
    pub(crate) fn plan_paused(&self) -> bool {
        self.restored.paused && self.original.paused.as_deref() != Some("true")
    }

    /// `kind.group/name [-n ns]`.
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} -n {ns}", self.resource),
            None => self.resource.clone(),
        }
    }

    /// `kubectl upjet SUBCOMMAND kind.group/name [-n ns]`, each word quoted as it needs.
    pub fn upjet_command(&self, subcommand: &'static str) -> ShellCommand {
        ShellCommand::upjet(subcommand).target(&self.resource, self.namespace.as_deref())
    }
}

/// Whether a finding is a restore verdict that puts the MR in the plan: every verdict on a
/// backup (`Family::Backup` in its code's row) more serious than `RestoreSafe`'s info.
pub fn at_risk(code: Code) -> bool {
    code.family() == Family::Backup && code.severity() > Severity::Info
}

/// The plan item of one backed-up MR, from its findings; `None` when restoring it as it is is
/// safe. The ID is the MR's own external-name when it has one, else the best of the one ranked
/// candidate list of its findings.
pub fn item(mr: &ManagedResource, group_resource: &str, findings: &[Finding]) -> Option<PromoteItem> {
    let verdict = findings.iter().find(|f| at_risk(f.code))?;
    let ranked = from_findings(findings);
    let id = mr.external_name().map(str::to_owned).or_else(|| ranked.first().map(|c| c.id.clone()));
    let candidates = ranked.iter().map(|c| c.id.clone()).filter(|c| Some(c) != id.as_ref()).collect();
    let user_paused = mr.annotation(keys::PAUSED) == Some("true");
    let no_id = id.is_none();
    let mut ann = Map::new();
    if let Some(id) = id.as_deref().filter(|id| mr.annotation(keys::EXTERNAL_NAME) != Some(id)) {
        ann.insert(keys::EXTERNAL_NAME.into(), json!(id));
    }
    if id.is_none() && !user_paused {
        ann.insert(keys::PAUSED.into(), json!("true"));
    }
    if let Some(id) = &id {
        // The gate would stop the MR before its Observe: the marks an adoption resolves go too.
        for key in crate::adopt::marks_resolved_by_identity(&CreateMarks::of(mr)) {
            ann.insert(key.to_string(), Value::Null);
        }
        ann.insert(IDENTITY_CHANGE.into(), json!(id));
    }
    let mut patch = json!({"spec": {"managementPolicies": ["Observe"]}});
    if !ann.is_empty() {
        patch["metadata"] = json!({"annotations": ann});
    }
    Some(PromoteItem {
        resource: mr.reference(),
        namespace: mr.namespace.clone(),
        group_resource: group_resource.to_string(),
        verdict: verdict.code.to_string(),
        id: id.clone(),
        candidates,
        original: Original {
            management_policies: mr.management_policies.clone(),
            paused: mr.annotation(keys::PAUSED).map(str::to_owned),
        },
        patch,
        restored: Restored {
            external_name: id,
            management_policies: vec!["Observe".into()],
            paused: user_paused || no_id,
        },
        source: verdict.evidence.get("source").cloned(),
    })
}

impl PromoteItem {
    /// The modifier target of this item.
    pub fn target(&self) -> Target {
        let name = self.resource.rsplit_once('/').map(|(_, n)| n).unwrap_or(&self.resource);
        Target {
            group_resource: self.group_resource.clone(),
            namespace: self.namespace.clone(),
            name: name.to_string(),
            patch: self.patch.clone(),
        }
    }
}

/// What promote does with one MR as it reads it now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// Its original policies are back: nothing to do.
    Promoted,
    /// It is in the restored state: verify that its Observe finds `id`, then promote.
    Verify {
        /// The ID its Observe must find.
        id: String,
    },
    /// Restored paused with no ID, and nobody has set one since: it cannot be verified.
    NeedsId,
    /// Paused as backed up (the user's pause): its Observe never runs, so nothing is verified.
    UserPaused,
    /// The source cluster still manages its cloud object, and promote was not told otherwise.
    Fight(String),
    /// It differs from what the plan restored: left as it is; what differs.
    Changed(String),
}

fn text(p: &Option<Vec<String>>) -> String {
    match p {
        Some(l) => format!("{l:?}"),
        None => "absent".into(),
    }
}

/// Policies as the API server stores them: an absent field is defaulted to `["*"]`.
fn effective(p: Option<Vec<String>>) -> Vec<String> {
    p.unwrap_or_else(|| vec!["*".into()])
}

/// Decides what to do with the live object `obj` of `item` (`source_released`: the user says the
/// source cluster no longer manages fought-over objects).
pub fn start(item: &PromoteItem, obj: &Value, source_released: bool) -> Start {
    // A provider's placeholder names no object: such an MR has no ID to verify, and restored
    // paused it is never reconciled, so asking for an Observe would only wait out the timeout.
    let ext = annotation(obj, keys::EXTERNAL_NAME).filter(|e| !e.is_empty() && !is_placeholder(e));
    let policies = policies_of(obj);
    let paused = annotation(obj, keys::PAUSED) == Some("true");
    let was_paused = item.original.paused.as_deref() == Some("true");
    let planned = item.restored.external_name.as_deref();
    if ext == planned
        && effective(policies.clone()) == effective(item.original.management_policies.clone())
        && paused == was_paused
    {
        return Start::Promoted;
    }
    // The restored state: observing only, the planned ID (or, where the plan had none, one set
    // by hand since), paused as planned (or unpaused by an earlier run of promote).
    let observing = policies.as_deref() == Some(&["Observe".to_string()][..]);
    let id_ok = planned.is_none() || ext == planned;
    let pause_ok = paused == item.restored.paused || (item.plan_paused() && !paused && ext.is_some());
    if !(observing && id_ok && pause_ok) {
        return Start::Changed(format!(
            "changed since the plan: external-name {:?} (planned {:?}), managementPolicies {} (planned [\"Observe\"]), paused {paused} (planned {})",
            ext.unwrap_or(""),
            planned.unwrap_or(""),
            text(&policies),
            item.restored.paused
        ));
    }
    let Some(id) = ext else { return Start::NeedsId };
    if was_paused {
        return Start::UserPaused;
    }
    match &item.source {
        Some(source) if !source_released => Start::Fight(source.clone()),
        _ => Start::Verify { id: id.to_string() },
    }
}

/// The write that asks for a fresh Observe: the token, the plan's pause lifted (observing
/// only, nothing can be created), and the restore's declaration to the guard taken away.
pub fn request_patch(item: &PromoteItem, token: &str) -> Value {
    let mut ann = Map::new();
    ann.insert(keys::RECONCILE_REQUESTED_AT.into(), json!(token));
    if item.plan_paused() {
        ann.insert(keys::PAUSED.into(), Value::Null);
    }
    if item.patch.pointer("/metadata/annotations").is_some_and(|a| a.get(IDENTITY_CHANGE).is_some()) {
        ann.insert(IDENTITY_CHANGE.into(), Value::Null);
    }
    json!({"metadata": {"annotations": ann}})
}

/// The write that promotes: the original policies back (`null` when the field was absent) and
/// a fresh reconcile requested.
pub fn promote_patch(item: &PromoteItem, token: &str) -> Value {
    let policies = item.original.management_policies.as_ref().map_or(Value::Null, |p| json!(p));
    json!({
        "metadata": {"annotations": {keys::RECONCILE_REQUESTED_AT: token}},
        "spec": {"managementPolicies": policies}
    })
}

/// Why a plan file was rejected.
pub fn parse(text: &str) -> Result<PromotePlan, String> {
    let plan: PromotePlan = serde_json::from_str(text).map_err(|e| format!("not a promote plan: {e}"))?;
    if plan.kind != "PromotePlan" || plan.api_version != "upjet.doctor/v1" {
        return Err(format!("not a promote plan: apiVersion {:?}, kind {:?}", plan.api_version, plan.kind));
    }
    let mut seen = std::collections::HashSet::new();
    for (i, item) in plan.items.iter().enumerate() {
        if !seen.insert((&item.resource, &item.namespace)) {
            return Err(format!("item {i} ({}) is listed twice", item.resource));
        }
        if item.resource.split_once('/').is_none_or(|(k, n)| k.is_empty() || n.is_empty()) {
            return Err(format!("item {i}: resource must be kind.group/name"));
        }
    }
    Ok(plan)
}

#[cfg(test)]
#[path = "promote_tests.rs"]
mod tests;
