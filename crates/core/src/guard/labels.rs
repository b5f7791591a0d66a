//! The labels every object `guard` prints carries: `kubectl delete … -l` with them removes the
//! guard, and each policy and binding says which rule it is.

use super::rule::GuardRule;
use serde_json::{Value, json};

/// `app.kubernetes.io/name: kubectl-upjet`, `app.kubernetes.io/component: guard`, and for a
/// rule's objects `kubectl-upjet.io/guard-rule`.
pub fn labels(rule: Option<GuardRule>) -> Value {
    let mut l = json!({"app.kubernetes.io/name": "kubectl-upjet", "app.kubernetes.io/component": "guard"});
    if let Some(r) = rule {
        l["kubectl-upjet.io/guard-rule"] = json!(r.name());
    }
    l
}
