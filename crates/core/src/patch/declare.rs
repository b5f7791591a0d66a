//! kubectl-upjet's own identity writes under the guard (`kubectl upjet guard`): the identity rules
//! refuse a write that changes the external-name of an MR that created its object, and a create
//! that differs from the lock, unless the write says in the same breath which ID it writes — the
//! annotation [`IDENTITY_CHANGE`], equal to the new external-name. A repair sets it in the write
//! that sets the external-name and takes it away in its next write, so that no copy lingers to
//! vouch for someone else's change (a copy equal to the ID the MR has vouches for nothing but
//! that ID: a write of another ID, or one that removes it, is still refused). A write that removes
//! the external-name cannot be declared: the guard refuses it for an MR that created its object.
//!
//! The plans that know their next write declare in their own patches (`steps.rs`, promote's
//! restore patch, migrate's create); a single computed write (an undo) goes through [`declare`].

use super::{annotation, apply_merge_patch};
use crate::managed::keys;
use serde_json::{Value, json};

pub use crate::guard::vars::IDENTITY_CHANGE;

/// A write with its declaration, and the write that takes the declaration away after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The write, declaring the external-name it writes when it writes another one.
    pub patch: Value,
    /// The write that follows it: [`IDENTITY_CHANGE`] back to what the write alone would have left
    /// (absent, nearly always); `None` when nothing was declared.
    pub then: Option<Value>,
}

/// `patch` as it must go to the API server over `current`: when it writes another, non-empty
/// external-name, with [`IDENTITY_CHANGE`] set to it, and the write that removes it after.
pub fn declare(patch: Value, current: &Value) -> Declared {
    let mut after = current.clone();
    apply_merge_patch(&mut after, &patch);
    let written = annotation(&after, keys::EXTERNAL_NAME)
        .filter(|ext| !ext.is_empty() && annotation(current, keys::EXTERNAL_NAME) != Some(*ext));
    let Some(ext) = written else { return Declared { patch, then: None } };
    let left = annotation(&after, IDENTITY_CHANGE).map_or(Value::Null, |v| json!(v));
    let mut patch = patch;
    set_annotation(&mut patch, json!(ext));
    Declared { patch, then: Some(json!({"metadata": {"annotations": {IDENTITY_CHANGE: left}}})) }
}

/// Puts [`IDENTITY_CHANGE`] (a value, or `null` to remove it) into a merge patch's annotations.
pub(crate) fn set_annotation(patch: &mut Value, value: Value) {
    if !patch.is_object() {
        *patch = json!({});
    }
    if !patch["metadata"].is_object() {
        patch["metadata"] = json!({});
    }
    if !patch["metadata"]["annotations"].is_object() {
        patch["metadata"]["annotations"] = json!({});
    }
    patch["metadata"]["annotations"][IDENTITY_CHANGE] = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mr(annotations: Value) -> Value {
        json!({"metadata": {"name": "main", "resourceVersion": "7", "annotations": annotations}})
    }

    #[test]
    fn a_write_of_another_id_declares_it_and_is_followed_by_its_removal() {
        let ext = keys::EXTERNAL_NAME;
        let cases: Vec<(&str, Value, Value, Option<Value>, Option<Value>)> = vec![
            (
                "another ID",
                mr(json!({ext: "vpc-old"})),
                json!({"metadata": {"annotations": {ext: "vpc-new"}}}),
                Some(json!({"metadata": {"annotations": {ext: "vpc-new", IDENTITY_CHANGE: "vpc-new"}}})),
                Some(json!({"metadata": {"annotations": {IDENTITY_CHANGE: null}}})),
            ),
            (
                "an ID where there was none",
                mr(json!({})),
                json!({"metadata": {"annotations": {ext: "vpc-1"}, "resourceVersion": "7"}}),
                Some(
                    json!({"metadata": {"annotations": {ext: "vpc-1", IDENTITY_CHANGE: "vpc-1"}, "resourceVersion": "7"}}),
                ),
                Some(json!({"metadata": {"annotations": {IDENTITY_CHANGE: null}}})),
            ),
            (
                "the same ID",
                mr(json!({ext: "vpc-1"})),
                json!({"metadata": {"annotations": {ext: "vpc-1"}}}),
                None,
                None,
            ),
            (
                "a removal cannot be declared",
                mr(json!({ext: "vpc-1"})),
                json!({"metadata": {"annotations": {ext: null}}}),
                None,
                None,
            ),
            ("no identity at all", mr(json!({})), json!({"spec": {"managementPolicies": ["*"]}}), None, None),
            (
                "an undo back to a state that carried a declaration leaves it as it was",
                mr(json!({ext: "vpc-new"})),
                json!({"metadata": {"annotations": {ext: "vpc-old", IDENTITY_CHANGE: "vpc-old"}}}),
                Some(json!({"metadata": {"annotations": {ext: "vpc-old", IDENTITY_CHANGE: "vpc-old"}}})),
                Some(json!({"metadata": {"annotations": {IDENTITY_CHANGE: "vpc-old"}}})),
            ),
        ];
        for (name, current, patch, declared, then) in cases {
            let d = declare(patch.clone(), &current);
            assert_eq!(d.patch, declared.unwrap_or(patch), "{name}");
            assert_eq!(d.then, then, "{name}");
        }
    }
}
