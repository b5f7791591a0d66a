//! Differences between two states of an MR, the conflicts that must stop an adoption, and the
//! patches that undo it (from the backup, from the marker) or stop it safely.

use super::managed::keys;
use super::{MARKER, Marker, TOUCHED};
use crate::patch::declare::IDENTITY_CHANGE;
use crate::patch::{annotation, policies_differ, policies_value, resource_version, with_resource_version};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// One field that differs between two states of an MR, for "what will change" and conflicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// `metadata.annotations[key]` or `spec.managementPolicies`, …
    pub field: String,
    /// Before (`None`: absent).
    pub before: Option<String>,
    /// After (`None`: absent).
    pub after: Option<String>,
}

fn annotations_map(obj: &Value) -> BTreeMap<String, String> {
    obj.pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter().map(|(k, v)| (k.clone(), v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string()))).collect()
        })
        .unwrap_or_default()
}

fn policies_text(obj: &Value) -> Option<String> {
    obj.pointer("/spec/managementPolicies").map(|v| v.to_string())
}

/// Every annotation and the management policies that differ between two states of an object.
pub fn diff(before: &Value, after: &Value) -> Vec<Change> {
    let (a, b) = (annotations_map(before), annotations_map(after));
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out: Vec<Change> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| Change {
            field: format!("metadata.annotations[{k}]"),
            before: a.get(k).cloned(),
            after: b.get(k).cloned(),
        })
        .collect();
    let (pa, pb) = (policies_text(before), policies_text(after));
    if pa != pb {
        out.push(Change { field: "spec.managementPolicies".into(), before: pa, after: pb });
    }
    out
}

/// The parts of an object whose change by someone else must stop an adoption: the
/// `crossplane.io/*` annotations and the marker, the policies, deletion and identity. Status and
/// other annotations may change freely (the provider writes status all the time).
pub fn conflicting_changes(expected: &Value, fresh: &Value) -> Vec<Change> {
    let relevant = |obj: &Value| -> Value {
        let ann: Map<String, Value> = obj
            .pointer("/metadata/annotations")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| k.starts_with("crossplane.io/") || *k == MARKER)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let mut out = json!({"metadata": {"annotations": ann}});
        if let Some(p) = obj.pointer("/spec/managementPolicies") {
            out["spec"] = json!({"managementPolicies": p});
        }
        out
    };
    let mut changes = diff(&relevant(expected), &relevant(fresh));
    for (path, name) in [
        ("/spec/deletionPolicy", "spec.deletionPolicy"),
        ("/metadata/deletionTimestamp", "metadata.deletionTimestamp"),
        ("/metadata/uid", "metadata.uid"),
    ] {
        let text = |o: &Value| o.pointer(path).map(|v| v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string()));
        if text(expected) != text(fresh) {
            changes.push(Change { field: name.into(), before: text(expected), after: text(fresh) });
        }
    }
    changes
}

/// The merge patch that puts the annotations and management policies of `current` back exactly
/// as in `backup` (annotations added since are removed), conditional on `current`'s
/// resourceVersion; `None` when they are already equal.
pub fn undo_patch(backup: &Value, current: &Value) -> Option<Value> {
    let (was, now) = (annotations_raw(backup), annotations_raw(current));
    let mut ann = Map::new();
    for k in now.keys() {
        if !was.contains_key(k) {
            ann.insert(k.clone(), Value::Null);
        }
    }
    for (k, v) in &was {
        if now.get(k) != Some(v) {
            ann.insert(k.clone(), v.clone());
        }
    }
    let mut patch = json!({"metadata": {}});
    let mut changed = false;
    if !ann.is_empty() {
        patch["metadata"]["annotations"] = Value::Object(ann);
        changed = true;
    }
    let (pw, pn) = (backup.pointer("/spec/managementPolicies"), current.pointer("/spec/managementPolicies"));
    if pw != pn {
        patch["spec"] = json!({"managementPolicies": pw.cloned().unwrap_or(Value::Null)});
        changed = true;
    }
    changed.then(|| with_resource_version(patch, resource_version(current)))
}

pub(super) fn annotations_raw(obj: &Value) -> Map<String, Value> {
    obj.pointer("/metadata/annotations").and_then(Value::as_object).cloned().unwrap_or_default()
}

/// The merge patch that undoes an in-progress adoption from its marker alone: the touched
/// annotations and the policies get their recorded original values, the marker goes.
pub fn undo_from_marker(marker: &Marker, current: &Value) -> Value {
    let mut ann = Map::new();
    for k in TOUCHED {
        let original = marker.annotations.get(*k).cloned().flatten();
        if annotation(current, k) != original.as_deref() {
            ann.insert(k.to_string(), original.map(Value::String).unwrap_or(Value::Null));
        }
    }
    ann.insert(MARKER.into(), Value::Null);
    let mut patch = json!({"metadata": {"annotations": ann}});
    if policies_differ(current, &marker.policies) {
        patch["spec"] = json!({"managementPolicies": policies_value(&marker.policies)});
    }
    with_resource_version(patch, resource_version(current))
}

/// The patch that stops an adoption safely when it cannot finish (interrupted, timed out):
/// paused again, original policies back, identity and marker kept so a re-run resumes; the
/// identity's declaration to the guard goes (back to what the marker recorded): it must not
/// outlive the run that made it.
pub fn safe_stop_patch(marker: &Marker, current: &Value) -> Value {
    let mut patch = json!({"metadata": {"annotations": {keys::PAUSED: "true"}}});
    let declared = marker.annotations.get(IDENTITY_CHANGE).cloned().flatten();
    if annotation(current, IDENTITY_CHANGE) != declared.as_deref() {
        patch["metadata"]["annotations"][IDENTITY_CHANGE] = declared.map_or(Value::Null, Value::String);
    }
    if policies_differ(current, &marker.policies) {
        patch["spec"] = json!({"managementPolicies": policies_value(&marker.policies)});
    }
    with_resource_version(patch, resource_version(current))
}
