//! Velero resource modifiers (`internal/resourcemodifiers`, Velero ≥ 1.13 for `mergePatches`):
//! the rules that make a restore create nothing, and the checks Velero applies to them.
//!
//! Velero reads the ConfigMap's single data key with `yaml.UnmarshalStrict` (unknown fields are
//! errors), then `Validate`: `version` is `v1`, there is at least one rule, each rule's
//! `conditions.groupResource` is set, and each rule has exactly one of `patches`, `mergePatches`
//! and `strategicPatches`. A merge patch's `patchData` is a string of YAML or JSON applied as an
//! RFC 7386 merge patch to the object as read from the backup, before it is created. Strategic
//! merge patches need the type in Velero's scheme, which MRs are not, so only merge patches are
//! written here.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The document a resource-modifiers ConfigMap holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceModifiers {
    /// Always `v1`.
    pub version: String,
    /// The rules, each applied to every object it matches.
    pub resource_modifier_rules: Vec<ResourceModifierRule>,
}

/// One rule: which objects, and what to patch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceModifierRule {
    /// Which objects.
    pub conditions: Conditions,
    /// JSON patches (never written here; read to validate).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patches: Vec<Value>,
    /// RFC 7386 merge patches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merge_patches: Vec<MergePatch>,
    /// Strategic merge patches (never written here; read to validate).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strategic_patches: Vec<MergePatch>,
}

/// A rule's conditions: all must hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Conditions {
    /// `<plural>.<group>` (a glob in recent Velero; an exact name here).
    pub group_resource: String,
    /// The namespaces (original ones) the object must be in; only checked for namespaced objects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub namespaces: Vec<String>,
    /// A regular expression the object's name must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_name_regex: Option<String>,
    /// Other conditions Velero knows (label selectors, matches); never written here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<Value>,
    /// JSON-patch `test` conditions; never written here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<Value>,
}

/// One patch, as Velero stores it: a string of JSON or YAML.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MergePatch {
    /// The patch text.
    pub patch_data: String,
}

/// What one object of the backup should be restored with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `<plural>.<group>`.
    pub group_resource: String,
    /// Its namespace, for a namespaced MR.
    pub namespace: Option<String>,
    /// Its name.
    pub name: String,
    /// The merge patch.
    pub patch: Value,
}

/// `^name$` with every regular-expression character escaped (Go's `regexp.QuoteMeta`).
pub fn exact_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    out.push('^');
    for c in name.chars() {
        if r"\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('$');
    out
}

/// The rules for `targets`: one per kind when every MR of that kind in the backup
/// (`kind_counts`, by group resource) gets the same patch, otherwise one per MR. MRs that are not
/// targets get no rule, so they are restored exactly as backed up.
pub fn rules(targets: &[Target], kind_counts: &BTreeMap<String, usize>) -> ResourceModifiers {
    let mut by_kind: BTreeMap<&str, Vec<&Target>> = BTreeMap::new();
    for t in targets {
        by_kind.entry(t.group_resource.as_str()).or_default().push(t);
    }
    let mut rules = Vec::new();
    for (gr, ts) in by_kind {
        let shared = ts.iter().all(|t| t.patch == ts[0].patch);
        if shared && kind_counts.get(gr) == Some(&ts.len()) && ts.len() > 1 {
            let mut namespaces: Vec<String> = ts.iter().filter_map(|t| t.namespace.clone()).collect();
            namespaces.sort();
            namespaces.dedup();
            rules.push(rule(gr, namespaces, None, &ts[0].patch));
            continue;
        }
        for t in ts {
            rules.push(rule(gr, t.namespace.iter().cloned().collect(), Some(exact_name(&t.name)), &t.patch));
        }
    }
    ResourceModifiers { version: "v1".into(), resource_modifier_rules: rules }
}

fn rule(gr: &str, namespaces: Vec<String>, regex: Option<String>, patch: &Value) -> ResourceModifierRule {
    ResourceModifierRule {
        conditions: Conditions {
            group_resource: gr.to_string(),
            namespaces,
            resource_name_regex: regex,
            label_selector: None,
            matches: None,
        },
        patches: Vec::new(),
        merge_patches: vec![MergePatch { patch_data: format!("{patch}\n") }],
        strategic_patches: Vec::new(),
    }
}

/// Velero's `Validate` (`internal/resourcemodifiers/resource_modifiers.go`), plus what this tool
/// relies on: every merge patch is a JSON object.
pub fn validate(m: &ResourceModifiers) -> Result<(), String> {
    if !m.version.eq_ignore_ascii_case("v1") {
        return Err(format!("unsupported version {:?}", m.version));
    }
    if m.resource_modifier_rules.is_empty() {
        return Err("resource modifier rules cannot be empty".into());
    }
    for (i, r) in m.resource_modifier_rules.iter().enumerate() {
        if r.conditions.group_resource.is_empty() {
            return Err(format!("rule {i}: groupResource cannot be empty"));
        }
        let kinds = [!r.patches.is_empty(), !r.merge_patches.is_empty(), !r.strategic_patches.is_empty()];
        if kinds.iter().filter(|k| **k).count() != 1 {
            return Err(format!("rule {i}: exactly one of patches, mergePatches, strategicPatches must be given"));
        }
        for p in &r.merge_patches {
            match serde_json::from_str::<Value>(&p.patch_data) {
                Ok(v) if v.is_object() => {}
                _ => return Err(format!("rule {i}: patchData is not a JSON object: {}", p.patch_data.trim())),
            }
        }
    }
    Ok(())
}

/// The rules as the file `kubectl create cm NAME --from-file=resource-modifiers.yaml=FILE -n
/// velero` puts into the ConfigMap's one data key (Velero's documented way to hand them over).
pub fn to_yaml(modifiers: &ResourceModifiers) -> Result<String, String> {
    serde_saphyr::to_string(modifiers).map_err(|e| e.to_string())
}

/// The ConfigMap's one data key, as the printed `kubectl create cm --from-file` names it.
pub const DATA_KEY: &str = "resource-modifiers.yaml";

/// The rules of one data key, read as Velero reads them (strict YAML), then validated.
pub fn parse(body: &str) -> Result<ResourceModifiers, String> {
    let m: ResourceModifiers = serde_saphyr::from_str(body).map_err(|e| format!("the rules are not valid: {e}"))?;
    validate(&m)?;
    Ok(m)
}

/// The rules held by a ConfigMap manifest, read as Velero reads them (exactly one data key,
/// strict YAML), then validated.
pub fn from_config_map(text: &str) -> Result<ResourceModifiers, String> {
    let cm: Value = serde_saphyr::from_str(text).map_err(|e| format!("not YAML: {e}"))?;
    let data = cm.get("data").and_then(Value::as_object).ok_or("the ConfigMap has no data")?;
    if data.len() != 1 {
        return Err(format!(
            "illegal resource modifiers configmap: {} data keys, Velero wants exactly one",
            data.len()
        ));
    }
    parse(data.values().next().and_then(Value::as_str).ok_or("the data key is not a string")?)
}

#[cfg(test)]
#[path = "modifiers_tests.rs"]
mod tests;
