//! Field sets as server-side apply counts them, at map granularity: a path of map keys from the
//! object's root to a leaf, where a leaf is anything but a map (a scalar, or a list taken as one
//! atomic value). `fieldsV1` is read and written here.
//!
//! Upstream keeps a typed tree per schema (structured-merge-diff `fieldpath.Set`, with `k:` / `v:`
//! / `i:` members for list items and `.` for a node owned as a whole). Without schemas this crate
//! treats lists as atomic: a `k:`/`v:`/`i:` member read from a stored entry makes its list owned
//! as one value.

use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// A path of map keys from the object's root.
pub(crate) type FieldPath = Vec<String>;

/// The fields a manager owns.
pub(crate) type FieldSet = BTreeSet<FieldPath>;

/// Metadata fields the server sets itself: nobody owns them (apimachinery's
/// `managedfields/internal/stripmeta.go` strips the same list before counting).
const SERVER_META: [&str; 10] = [
    "name",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "managedFields",
    "selfLink",
];

/// Which part of an object a write may touch: the main resource (without `status` when the
/// status subresource serves it) or the status subresource (only `status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The main resource; `true` when a status subresource owns `status`.
    Main(bool),
    /// The `status` subresource.
    Status,
}

impl Scope {
    /// Whether a top-level key counts in this scope.
    pub(crate) fn counts(self, key: &str) -> bool {
        match self {
            Scope::Status => key == "status",
            Scope::Main(status_apart) => {
                let server_or_subresource = matches!(key, "apiVersion" | "kind") || (status_apart && key == "status");
                !server_or_subresource
            }
        }
    }
}

/// Every leaf path of `obj` a writer can own in `scope` (null values are no field).
pub(crate) fn leaves(obj: &Value, scope: Scope) -> FieldSet {
    let mut out = FieldSet::new();
    let Some(top) = obj.as_object() else { return out };
    for (k, v) in top.iter().filter(|(k, _)| scope.counts(k)) {
        if k == "metadata" {
            let Some(m) = v.as_object() else { continue };
            for (mk, mv) in m.iter().filter(|(mk, _)| !SERVER_META.contains(&mk.as_str())) {
                walk(mv, &mut vec![k.clone(), mk.clone()], &mut out);
            }
        } else {
            walk(v, &mut vec![k.clone()], &mut out);
        }
    }
    out
}

fn walk(v: &Value, path: &mut FieldPath, out: &mut FieldSet) {
    match v {
        Value::Null => {}
        Value::Object(m) if !m.is_empty() => {
            for (k, child) in m {
                path.push(k.clone());
                walk(child, path, out);
                path.pop();
            }
        }
        _ => {
            out.insert(path.clone());
        }
    }
}

/// The value at `path`, if any.
pub(crate) fn value_at<'a>(obj: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(obj, |v, k| v.as_object()?.get(k))
}

/// Removes the field at `path` (its parent map stays, possibly empty).
pub(crate) fn remove_at(obj: &mut Value, path: &[String]) {
    let Some((last, parents)) = path.split_last() else { return };
    let parent = parents.iter().try_fold(obj, |v, k| v.as_object_mut()?.get_mut(k));
    if let Some(m) = parent.and_then(Value::as_object_mut) {
        m.remove(last);
    }
}

/// What a write changed in `scope`: the leaves it added or modified, and the ones it removed.
pub(crate) fn diff(old: &Value, new: &Value, scope: Scope) -> (FieldSet, FieldSet) {
    let before = leaves(old, scope);
    let after = leaves(new, scope);
    let changed = after.iter().filter(|p| value_at(old, p) != value_at(new, p)).cloned().collect();
    let removed = before.difference(&after).cloned().collect();
    (changed, removed)
}

/// Reads a `fieldsV1` tree: `f:` members descend, a `.` or an empty node is a member, and a
/// list item member (`k:`, `v:`, `i:`) makes its whole list a member (lists are atomic here).
pub(crate) fn decode(fields: &Value) -> FieldSet {
    let mut out = FieldSet::new();
    decode_into(fields, &mut vec![], &mut out);
    out
}

fn decode_into(node: &Value, path: &mut FieldPath, out: &mut FieldSet) {
    let Some(m) = node.as_object() else { return };
    if m.is_empty() && !path.is_empty() {
        out.insert(path.clone());
        return;
    }
    for (k, child) in m {
        if k == "." || k.starts_with("k:") || k.starts_with("v:") || k.starts_with("i:") {
            if !path.is_empty() {
                out.insert(path.clone());
            }
        } else if let Some(name) = k.strip_prefix("f:") {
            path.push(name.to_string());
            decode_into(child, path, out);
            path.pop();
        }
    }
}

/// Writes a field set as a `fieldsV1` tree (`.` marks a member that also has members below it).
pub(crate) fn encode(set: &FieldSet) -> Value {
    #[derive(Default)]
    struct Node {
        member: bool,
        children: BTreeMap<String, Node>,
    }
    fn to_value(n: &Node) -> Value {
        let mut m = Map::new();
        if n.member && !n.children.is_empty() {
            m.insert(".".into(), json!({}));
        }
        for (k, c) in &n.children {
            m.insert(format!("f:{k}"), to_value(c));
        }
        Value::Object(m)
    }
    let mut root = Node::default();
    for path in set {
        let node = path.iter().fold(&mut root, |n, k| n.children.entry(k.clone()).or_default());
        node.member = true;
    }
    to_value(&root)
}

/// A path as the apiserver prints it in a conflict (`.metadata.annotations.crossplane.io/external-name`).
pub(crate) fn display(path: &[String]) -> String {
    path.iter().map(|k| format!(".{k}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> FieldPath {
        s.split('.').map(String::from).collect()
    }

    #[test]
    fn leaves_skip_what_the_server_sets_and_the_status_the_subresource_owns() {
        let obj = json!({"apiVersion": "v1", "kind": "X",
            "metadata": {"name": "a", "uid": "u", "annotations": {"k": "v"}, "finalizers": ["f"]},
            "spec": {"a": {"b": 1}, "l": [1, 2], "n": null, "e": {}}, "status": {"s": 1}});
        let main: Vec<FieldPath> = leaves(&obj, Scope::Main(true)).into_iter().collect();
        assert_eq!(
            main,
            vec![p("metadata.annotations.k"), p("metadata.finalizers"), p("spec.a.b"), p("spec.e"), p("spec.l")]
        );
        assert_eq!(leaves(&obj, Scope::Status).into_iter().collect::<Vec<_>>(), vec![p("status.s")]);
        assert!(leaves(&obj, Scope::Main(false)).contains(&p("status.s")));
    }

    #[test]
    fn fields_v1_round_trips_and_reads_list_members_as_the_whole_list() {
        let set: FieldSet = [p("metadata.annotations.a/b"), p("spec.x"), p("spec.y.z")].into_iter().collect();
        let enc = encode(&set);
        assert_eq!(
            enc,
            json!({"f:metadata": {"f:annotations": {"f:a/b": {}}}, "f:spec": {"f:x": {}, "f:y": {"f:z": {}}}})
        );
        assert_eq!(decode(&enc), set);
        let stored =
            json!({"f:metadata": {"f:finalizers": {".": {}, "v:\"x\"": {}}, "f:labels": {".": {}, "f:a": {}}}});
        let got = decode(&stored);
        assert!(got.contains(&p("metadata.finalizers")) && got.contains(&p("metadata.labels.a")));
        assert!(got.contains(&p("metadata.labels")), "a `.` member is the map itself");
    }

    #[test]
    fn diff_tells_changed_from_removed() {
        let old = json!({"spec": {"a": 1, "b": 2, "c": 3}});
        let new = json!({"spec": {"a": 1, "b": 5, "d": 4}});
        let (changed, removed) = diff(&old, &new, Scope::Main(true));
        assert_eq!(changed, [p("spec.b"), p("spec.d")].into_iter().collect());
        assert_eq!(removed, [p("spec.c")].into_iter().collect());
        assert_eq!(display(&p("metadata.annotations")), ".metadata.annotations");
    }
}
