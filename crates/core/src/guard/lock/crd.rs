//! The lock's CustomResourceDefinition and its objects as printed, with the fields the API
//! server defaults on a CRD (`names.singular`, `names.listKind`, `conversion.strategy`:
//! apiextensions v1 `SetDefaults_CustomResourceDefinitionSpec`) written out.

use super::shard::Shard;
use serde_json::{Value, json};

/// The lock's API group.
pub const GROUP: &str = "guard.kubectl-upjet.io";
/// Its one version.
pub const VERSION: &str = "v1alpha1";
/// `group/version`, a shard's `apiVersion` and the policies' `paramKind.apiVersion`.
pub const API_VERSION: &str = "guard.kubectl-upjet.io/v1alpha1";
/// The shards' kind.
pub const KIND: &str = "IdentityLock";
/// Its plural.
pub const PLURAL: &str = "identitylocks";

/// The label every shard carries and the bindings select shards by.
pub const SHARD_LABEL: &str = "kubectl-upjet.io/guard-lock";

/// The labels a binding's `paramRef.selector` matches.
pub fn shard_labels() -> Value {
    json!({SHARD_LABEL: "shard"})
}

/// The CRD: cluster-scoped, one map `spec.entries` from key to ID.
pub fn crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{PLURAL}.{GROUP}"), "labels": super::super::labels::labels(None)},
        "spec": {
            "group": GROUP,
            "names": {"kind": KIND, "listKind": format!("{KIND}List"), "plural": PLURAL, "singular": KIND.to_lowercase()},
            "scope": "Cluster",
            "conversion": {"strategy": "None"},
            "versions": [{
                "name": VERSION,
                "served": true,
                "storage": true,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "description": "IDs of managed resources, kept by kubectl-upjet so that an MR created again under the same group, kind, namespace and name without its ID is refused. Written by `kubectl upjet guard lock`.",
                    "properties": {"spec": {
                        "type": "object",
                        "properties": {"entries": {
                            "type": "object",
                            "description": "group/Kind/namespace/name (percent-encoded outside [A-Za-z0-9._-]; the namespace empty for a cluster-scoped MR) to the external-name.",
                            "additionalProperties": {"type": "string"},
                        }},
                    }},
                }},
            }],
        },
    })
}

/// A shard as an object, for `kubectl apply` (no resourceVersion) or for a conditional write
/// (its resourceVersion, the precondition).
pub fn shard_object(shard: &Shard, with_version: bool) -> Value {
    let mut labels = super::super::labels::labels(None);
    labels[SHARD_LABEL] = json!("shard");
    let mut obj = json!({
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": {"name": shard.name, "labels": labels},
        "spec": {"entries": shard.entries},
    });
    if let (true, Some(rv)) = (with_version, &shard.resource_version) {
        obj["metadata"]["resourceVersion"] = json!(rv);
    }
    obj
}
