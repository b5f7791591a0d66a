//! `adopt --probe`: trying a plan item's ranked candidate IDs one after another through the
//! Observe-only import. Two pure decisions live here so they can be table-tested: which candidate
//! a (possibly resumed) run starts with, and whether a miss really left the MR as it was before
//! the next candidate may be tried — probing must never stack one attempt's leftovers on another.

use super::{MARKER, Marker, TOUCHED};
use crate::managed::keys;
use crate::patch::{annotation, policies_of};
use serde_json::Value;

/// The index in `ranked` to start probing at: the candidate the MR already tracks (a finished
/// earlier run; the preflight then reports nothing to do), the candidate an interrupted run was
/// adopting (the marker's ID; resumed), or else the first.
pub fn start_index(obj: &Value, ranked: &[&str]) -> usize {
    let position = |id: &str| ranked.iter().position(|c| *c == id);
    if let Ok(Some(marker)) = Marker::read(obj) {
        return position(&marker.id).unwrap_or(0);
    }
    annotation(obj, keys::EXTERNAL_NAME).and_then(position).unwrap_or(0)
}

/// Whether `now` is exactly what a miss must leave: with `before` unmarked, the same annotations
/// and spec; with `before` marked (a resumed attempt), no marker and every touched annotation and
/// the management policies back to the originals the marker recorded.
pub fn back_as_before(before: &Value, now: &Value) -> bool {
    if annotation(now, MARKER).is_some() {
        return false;
    }
    match Marker::read(before) {
        Ok(Some(m)) => {
            TOUCHED.iter().all(|k| annotation(now, k) == m.annotations.get(*k).and_then(|v| v.as_deref()))
                && policies_of(now) == m.policies
        }
        _ => {
            before.pointer("/metadata/annotations") == now.pointer("/metadata/annotations")
                && before.get("spec") == now.get("spec")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mr(annotations: Value, policies: Value) -> Value {
        json!({"metadata": {"name": "www", "annotations": annotations}, "spec": {"managementPolicies": policies}})
    }

    fn marker(id: &str) -> String {
        json!({"id": id, "policies": ["*"], "annotations": {"crossplane.io/external-name": null}, "started": "t"})
            .to_string()
    }

    #[test]
    fn where_a_probe_starts() {
        let ranked = ["a", "b", "c"];
        for (obj, want, why) in [
            (mr(json!({}), json!(["*"])), 0, "fresh: the first"),
            (mr(json!({"crossplane.io/external-name": "b"}), json!(["*"])), 1, "already tracks the second"),
            (mr(json!({"crossplane.io/external-name": "z"}), json!(["*"])), 0, "tracks something else"),
            (mr(json!({MARKER: marker("c"), "crossplane.io/external-name": "c"}), json!(["Observe"])), 2, "resumes c"),
            (mr(json!({MARKER: marker("z")}), json!(["*"])), 0, "marker for an unknown ID"),
            (mr(json!({MARKER: "{"}), json!(["*"])), 0, "unreadable marker"),
        ] {
            assert_eq!(start_index(&obj, &ranked), want, "{why}");
        }
    }

    #[test]
    fn what_counts_as_put_back() {
        let original = mr(json!({"x": "1"}), json!(["*"]));
        let marked = mr(json!({"x": "1", MARKER: marker("b"), "crossplane.io/paused": "true"}), json!(["Observe"]));
        for (before, now, want, why) in [
            (&original, mr(json!({"x": "1"}), json!(["*"])), true, "identical"),
            (&original, mr(json!({"x": "1", "crossplane.io/paused": "true"}), json!(["*"])), false, "still paused"),
            (&original, mr(json!({"x": "1"}), json!(["Observe"])), false, "policies not back"),
            (&original, mr(json!({"x": "2"}), json!(["*"])), false, "another annotation changed"),
            (&original, mr(json!({"x": "1", MARKER: marker("a")}), json!(["*"])), false, "marker left"),
            (&marked, mr(json!({"x": "1"}), json!(["*"])), true, "resumed: back to the marker's originals"),
            (&marked, mr(json!({"x": "1", "crossplane.io/external-name": "b"}), json!(["*"])), false, "name kept"),
            (&marked, mr(json!({"x": "1"}), json!(["Observe"])), false, "resumed: policies not back"),
        ] {
            assert_eq!(back_as_before(before, &now), want, "{why}");
        }
    }
}
