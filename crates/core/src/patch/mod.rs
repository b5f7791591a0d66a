//! What every repair's write is made of (adopt, restore, promote, migrate): JSON merge-patch
//! helpers on raw objects — reading fields, making a patch conditional, applying a patch the way
//! the API server does — and the declaration of a new identity to the guard (`declare`). Below
//! every repair, so that none of them reaches into another for them.

pub mod declare;

pub use declare::{Declared, IDENTITY_CHANGE, declare};

use serde_json::{Value, json};

/// An annotation of a raw object.
pub fn annotation<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    obj.pointer("/metadata/annotations").and_then(|a| a.get(key)).and_then(Value::as_str)
}

/// `spec.managementPolicies` of a raw object (`None`: absent or not a list of strings).
pub fn policies_of(obj: &Value) -> Option<Vec<String>> {
    obj.pointer("/spec/managementPolicies")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
}

/// `metadata.resourceVersion` of a raw object.
pub fn resource_version(obj: &Value) -> &str {
    obj.pointer("/metadata/resourceVersion").and_then(Value::as_str).unwrap_or("")
}

/// Puts `metadata.resourceVersion` into a merge patch, making the write conditional.
pub fn with_resource_version(mut patch: Value, rv: &str) -> Value {
    if !patch.is_object() {
        patch = json!({});
    }
    if !patch.get("metadata").is_some_and(Value::is_object) {
        patch["metadata"] = json!({});
    }
    patch["metadata"]["resourceVersion"] = json!(rv);
    patch
}

/// RFC 7386 JSON merge patch, as the API server applies `application/merge-patch+json`.
pub fn apply_merge_patch(target: &mut Value, patch: &Value) {
    let Some(p) = patch.as_object() else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = json!({});
    }
    let t = target.as_object_mut().expect("object");
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
        } else {
            apply_merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

pub(super) fn policies_differ(current: &Value, policies: &Option<Vec<String>>) -> bool {
    current.pointer("/spec/managementPolicies").cloned() != policies.as_ref().map(|l| json!(l))
}

/// `null` (remove the field) or the list.
pub(super) fn policies_value(p: &Option<Vec<String>>) -> Value {
    p.as_ref().map(|l| json!(l)).unwrap_or(Value::Null)
}
