//! An XR or a claim, reduced while it is decoded to what the composition tree needs: who it is,
//! whether it is being deleted or paused, and the references that tie claim → XR → MRs.
//!
//! Where the references live (crossplane-runtime v2
//! `pkg/resource/unstructured/composite/composite.go`): a `LegacyCluster` XR (every XR of
//! Crossplane v1) keeps its composed resources' references at `spec.resourceRefs` and its claim's
//! at `spec.claimRef`; a v2 XR (`Namespaced` or `Cluster` scope) nests Crossplane's fields under
//! `spec.crossplane` (`spec.crossplane.resourceRefs`) and has no claim. A v1 claim points at its
//! XR with `spec.resourceRef` (crossplane-runtime `resource/unstructured/claim`).

use crate::managed::Condition;
use serde::Deserialize;
use serde::de::IgnoredAny;

/// Whether an object is an XR or a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// A composite resource.
    Xr,
    /// A v1 claim: a namespaced proxy of a `LegacyCluster` XR.
    Claim,
}

/// A reference to an object (`corev1.ObjectReference`'s fields the composite reconciler writes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjRef {
    /// `group/version`.
    #[serde(default)]
    pub api_version: String,
    /// Kind.
    #[serde(default)]
    pub kind: String,
    /// Name.
    #[serde(default)]
    pub name: String,
    /// Namespace, when the reference names one (a v2 XR's references may leave it out: its own).
    #[serde(default)]
    pub namespace: Option<String>,
}

impl ObjRef {
    /// The API group.
    pub fn group(&self) -> &str {
        self.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("")
    }
}

/// One XR or claim.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Composite {
    /// `group/version`.
    pub api_version: String,
    /// Kind.
    pub kind: String,
    /// Name.
    pub name: String,
    /// Namespace (a claim, a v2 namespaced XR).
    pub namespace: Option<String>,
    /// UID: an XR created again under its name has another, and composes every MR anew.
    pub uid: String,
    /// `metadata.creationTimestamp`.
    pub created: Option<String>,
    /// `metadata.deletionTimestamp`.
    pub deleting: Option<String>,
    /// Its resource references: an XR's composed resources (`spec.resourceRefs`, or
    /// `spec.crossplane.resourceRefs`), a claim's XR (`spec.resourceRef`).
    pub refs: Vec<ObjRef>,
    /// A legacy XR's claim (`spec.claimRef`).
    pub claim_ref: Option<ObjRef>,
    /// Whether the references are the v2 ones (`spec.crossplane`).
    pub modern: bool,
    /// `crossplane.io/composite`: the top-level XR's name (the prefix of composed names).
    pub composite_label: Option<String>,
    /// `crossplane.io/paused: "true"`: the composite reconciler composes nothing meanwhile.
    pub paused: bool,
    /// Its `Ready` and `Synced` conditions, as `crossplane resource trace` shows them.
    pub conditions: Vec<Condition>,
    /// The Composition it uses (`compositionRef.name`).
    pub composition: Option<String>,
    /// What its shape says it is (the XRDs, when read, have the last word).
    pub shape: Option<Role>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Wire {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    metadata: WireMeta,
    #[serde(default)]
    spec: Option<WireSpec>,
    #[serde(default)]
    status: Option<WireStatus>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireMeta {
    name: String,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    uid: String,
    #[serde(default)]
    creation_timestamp: Option<String>,
    #[serde(default)]
    deletion_timestamp: Option<String>,
    #[serde(default)]
    labels: Option<WireLabels>,
    #[serde(default)]
    annotations: Option<WireAnnotations>,
}

#[derive(Deserialize)]
struct WireLabels {
    #[serde(rename = "crossplane.io/composite", default)]
    composite: Option<String>,
}

#[derive(Deserialize)]
struct WireAnnotations {
    #[serde(rename = "crossplane.io/paused", default)]
    paused: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireSpec {
    #[serde(default)]
    resource_refs: Option<Vec<ObjRef>>,
    #[serde(default)]
    resource_ref: Option<ObjRef>,
    #[serde(default)]
    claim_ref: Option<ObjRef>,
    #[serde(default)]
    composition_ref: Option<Named>,
    #[serde(default)]
    composition_selector: Option<IgnoredAny>,
    #[serde(default)]
    crossplane: Option<WireCrossplane>,
    #[serde(default)]
    for_provider: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireCrossplane {
    #[serde(default)]
    resource_refs: Option<Vec<ObjRef>>,
    #[serde(default)]
    composition_ref: Option<Named>,
}

#[derive(Deserialize)]
struct Named {
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
struct WireStatus {
    #[serde(default)]
    conditions: Option<Vec<Condition>>,
}

impl Composite {
    /// Decodes one XR or claim from its JSON.
    pub fn from_json(raw: &str) -> Result<Composite, serde_json::Error> {
        serde_json::from_str::<Wire>(raw).map(Composite::from)
    }

    /// Decodes one XR or claim from a parsed object (an API answer).
    pub fn from_value(obj: &serde_json::Value) -> Result<Composite, serde_json::Error> {
        Wire::deserialize(obj).map(Composite::from)
    }

    /// The API group.
    pub fn group(&self) -> &str {
        self.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("")
    }

    /// A condition's status (`True`, `False`, `Unknown`), when it has the condition.
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        self.conditions.iter().find(|c| c.type_ == type_)
    }

    /// `kind.group/name`, as every command of this tool takes an object.
    pub fn reference(&self) -> String {
        format!("{}.{}/{}", self.kind.to_lowercase(), self.group(), self.name)
    }

    /// [`Composite::reference`] with ` -n NS` when namespaced.
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} -n {ns}", self.reference()),
            None => self.reference(),
        }
    }

    /// Whether its resource references name `(group, kind, namespace, name)`: the version is not
    /// compared (a reference keeps the version it was written with), and a reference without a
    /// namespace means the XR's own.
    pub fn lists(&self, group: &str, kind: &str, namespace: Option<&str>, name: &str) -> bool {
        self.refs.iter().any(|r| {
            let ns = r.namespace.as_deref().filter(|n| !n.is_empty()).or(self.namespace.as_deref());
            r.name == name && r.kind == kind && r.group() == group && (namespace.is_none() || ns == namespace)
        })
    }
}

impl From<Wire> for Composite {
    fn from(w: Wire) -> Composite {
        let namespace = w.metadata.namespace.filter(|n| !n.is_empty());
        let spec = w.spec;
        let (mut refs, mut modern, mut composition, mut shape) = (Vec::new(), false, None, None);
        let mut claim_ref = None;
        if let Some(spec) = spec {
            let crossplane = spec.crossplane;
            modern = crossplane.is_some();
            let selected = spec.composition_ref.is_some() || spec.composition_selector.is_some();
            composition = spec.composition_ref.and_then(|n| n.name);
            shape = match (&crossplane, &spec.resource_refs, &spec.resource_ref) {
                _ if spec.for_provider.is_some() => None,
                (Some(_), _, _) => Some(Role::Xr),
                (None, Some(_), _) => Some(Role::Xr),
                _ if spec.claim_ref.is_some() => Some(Role::Xr),
                (None, None, Some(_)) => Some(Role::Claim),
                // Before binding: a legacy claim is namespaced, a legacy XR cluster-scoped.
                _ if selected && namespace.is_some() => Some(Role::Claim),
                _ if selected => Some(Role::Xr),
                _ => None,
            };
            if let Some(c) = crossplane {
                refs = c.resource_refs.unwrap_or_default();
                composition = composition.or(c.composition_ref.and_then(|n| n.name));
            } else if let Some(r) = spec.resource_refs {
                refs = r;
            } else if let Some(r) = spec.resource_ref {
                refs = vec![r];
            }
            claim_ref = spec.claim_ref;
        }
        refs.retain(|r| !r.name.is_empty());
        refs.shrink_to_fit();
        let conditions = w.status.and_then(|s| s.conditions).unwrap_or_default();
        Composite {
            api_version: w.api_version,
            kind: w.kind,
            name: w.metadata.name,
            namespace,
            uid: w.metadata.uid,
            created: w.metadata.creation_timestamp,
            deleting: w.metadata.deletion_timestamp.filter(|d| !d.is_empty()),
            refs,
            claim_ref,
            modern,
            composite_label: w.metadata.labels.and_then(|l| l.composite),
            paused: w.metadata.annotations.and_then(|a| a.paused).as_deref() == Some("true"),
            conditions: conditions.into_iter().filter(|c| c.type_ == "Ready" || c.type_ == "Synced").collect(),
            composition,
            shape,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn decode(v: serde_json::Value) -> Composite {
        Composite::from_value(&v).expect("decodes")
    }

    /// A v1 claim, its legacy XR and a v2 namespaced XR, as Crossplane writes them.
    #[test]
    fn reads_the_references_where_each_schema_keeps_them() {
        let claim = decode(json!({"apiVersion": "platform.example.org/v1alpha1", "kind": "Database",
            "metadata": {"name": "orders", "namespace": "team-a", "uid": "c1"},
            "spec": {"compositionRef": {"name": "db-aws"}, "resourceRef": {"apiVersion": "platform.example.org/v1alpha1",
                "kind": "XDatabase", "name": "orders-x7k2p"}}}));
        assert_eq!(claim.shape, Some(Role::Claim));
        assert_eq!(claim.refs[0].name, "orders-x7k2p");
        let legacy = decode(json!({"apiVersion": "platform.example.org/v1alpha1", "kind": "XDatabase",
            "metadata": {"name": "orders-x7k2p", "uid": "x1", "labels": {"crossplane.io/composite": "orders-x7k2p"},
                "annotations": {"crossplane.io/paused": "true"}},
            "spec": {"claimRef": {"apiVersion": "platform.example.org/v1alpha1", "kind": "Database", "name": "orders", "namespace": "team-a"},
                "resourceRefs": [{"apiVersion": "rds.aws.upbound.io/v1beta1", "kind": "Instance", "name": "orders-x7k2p-9f2c1"}]},
            "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "Available"}, {"type": "Responsive", "status": "True"}]}}));
        assert_eq!((legacy.shape, legacy.modern, legacy.paused), (Some(Role::Xr), false, true));
        assert!(legacy.lists("rds.aws.upbound.io", "Instance", None, "orders-x7k2p-9f2c1"));
        assert!(!legacy.lists("rds.aws.upbound.io", "Instance", None, "orders-other"));
        assert_eq!(legacy.claim_ref.as_ref().map(|c| c.name.as_str()), Some("orders"));
        assert_eq!(legacy.conditions.len(), 1, "only Ready and Synced are kept");
        let modern = decode(json!({"apiVersion": "platform.example.org/v1", "kind": "App",
            "metadata": {"name": "shop", "namespace": "team-b", "uid": "a1"},
            "spec": {"crossplane": {"compositionRef": {"name": "app"}, "resourceRefs": [
                {"apiVersion": "s3.aws.m.upbound.io/v1beta1", "kind": "Bucket", "name": "shop-4c1d2"}]}}}));
        assert_eq!((modern.shape, modern.modern, modern.composition.as_deref()), (Some(Role::Xr), true, Some("app")));
        assert!(modern.lists("s3.aws.m.upbound.io", "Bucket", Some("team-b"), "shop-4c1d2"), "its own namespace");
        assert!(!modern.lists("s3.aws.m.upbound.io", "Bucket", Some("team-c"), "shop-4c1d2"));
    }

    /// An MR is no XR, whatever else its spec holds; an object of no known shape is left to the
    /// XRDs.
    #[test]
    fn an_mr_has_no_composite_shape() {
        let mr = decode(json!({"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket", "metadata": {"name": "b"},
            "spec": {"forProvider": {}, "compositionRef": {"name": "x"}}}));
        assert_eq!(mr.shape, None);
        assert_eq!(decode(json!({"apiVersion": "a/v1", "kind": "K", "metadata": {"name": "k"}})).shape, None);
    }
}
