//! CompositeResourceDefinitions (`apiextensions.crossplane.io`): which kinds are XRs and which are
//! claims, how each is scoped, and the version to list them at.
//!
//! crossplane `apis/apiextensions/v2/xrd_types.go`: `spec.group`, `spec.names` (the XR),
//! `spec.claimNames` (its claim, only for `LegacyCluster`), `spec.scope` (`Namespaced`, `Cluster`,
//! or the deprecated `LegacyCluster`; v2 defaults to `Namespaced`, v1 — Crossplane v1's only API,
//! still served by v2 — to `LegacyCluster`), and `spec.versions` (one `referenceable`, the
//! version the composite reconciler works with).

use serde::Deserialize;

/// The XRD API group.
pub const GROUP: &str = "apiextensions.crossplane.io";

/// How an XRD scopes its XRs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// v2: XRs live in a namespace and compose namespaced resources; no claims.
    Namespaced,
    /// v2: cluster-scoped XRs with `spec.crossplane`; no claims.
    Cluster,
    /// Crossplane v1's XRs: cluster-scoped, fields at the top of `spec`, claimable.
    LegacyCluster,
}

impl Scope {
    /// Whether its XRs live in a namespace.
    pub fn namespaced(self) -> bool {
        self == Scope::Namespaced
    }
}

/// One XRD, reduced to what the composition tree needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xrd {
    /// `metadata.name` (`plural.group`).
    pub name: String,
    /// The API group of its XR and claim.
    pub group: String,
    /// The version to list them at: the referenceable one, else the first served.
    pub version: String,
    /// The XR's kind.
    pub kind: String,
    /// The XR's plural.
    pub plural: String,
    /// The claim's kind and plural, when it offers one.
    pub claim: Option<(String, String)>,
    /// Its scope.
    pub scope: Scope,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Wire {
    #[serde(default)]
    api_version: String,
    metadata: Meta,
    spec: Spec,
}

#[derive(Deserialize)]
struct Meta {
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    group: String,
    names: Names,
    #[serde(default)]
    claim_names: Option<Names>,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    versions: Vec<Version>,
}

#[derive(Deserialize)]
struct Names {
    kind: String,
    #[serde(default)]
    plural: String,
}

#[derive(Deserialize)]
struct Version {
    name: String,
    #[serde(default)]
    served: bool,
    #[serde(default)]
    referenceable: bool,
}

impl Xrd {
    /// Whether an object's apiVersion and kind make it an XRD.
    pub fn is_xrd(api_version: &str, kind: &str) -> bool {
        kind == "CompositeResourceDefinition" && api_version.starts_with(&format!("{GROUP}/"))
    }

    /// Reads one XRD from its object (any served version of the XRD API).
    pub fn from_value(obj: &serde_json::Value) -> Result<Xrd, serde_json::Error> {
        let w = Wire::deserialize(obj)?;
        let modern = w.api_version.ends_with("/v2");
        let scope = match w.spec.scope.as_deref() {
            Some("Namespaced") => Scope::Namespaced,
            Some("Cluster") => Scope::Cluster,
            Some("LegacyCluster") => Scope::LegacyCluster,
            _ if modern => Scope::Namespaced,
            _ => Scope::LegacyCluster,
        };
        let served = || w.spec.versions.iter().filter(|v| v.served);
        let version = served().find(|v| v.referenceable).or_else(|| served().next()).map(|v| v.name.clone());
        Ok(Xrd {
            name: w.metadata.name,
            group: w.spec.group,
            version: version.unwrap_or_default(),
            kind: w.spec.names.kind,
            plural: w.spec.names.plural,
            claim: w.spec.claim_names.map(|c| (c.kind, c.plural)),
            scope,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scope_defaults_as_each_api_version_does() {
        let xrd = |api: &str, scope: Option<&str>| {
            let mut spec = json!({"group": "platform.example.org", "names": {"kind": "XDatabase", "plural": "xdatabases"},
                "versions": [{"name": "v1alpha1", "served": true, "referenceable": false},
                             {"name": "v1", "served": true, "referenceable": true}]});
            if let Some(s) = scope {
                spec["scope"] = json!(s);
            }
            Xrd::from_value(&json!({"apiVersion": api, "kind": "CompositeResourceDefinition",
                "metadata": {"name": "xdatabases.platform.example.org"}, "spec": spec}))
            .unwrap()
        };
        assert_eq!(xrd("apiextensions.crossplane.io/v1", None).scope, Scope::LegacyCluster);
        assert_eq!(xrd("apiextensions.crossplane.io/v2", None).scope, Scope::Namespaced);
        assert_eq!(xrd("apiextensions.crossplane.io/v1", Some("Namespaced")).scope, Scope::Namespaced);
        assert_eq!(xrd("apiextensions.crossplane.io/v2", Some("Cluster")).scope, Scope::Cluster);
        assert_eq!(xrd("apiextensions.crossplane.io/v2", None).version, "v1", "the referenceable version");
        assert!(Xrd::is_xrd("apiextensions.crossplane.io/v2", "CompositeResourceDefinition"));
        assert!(!Xrd::is_xrd("apiextensions.k8s.io/v1", "CustomResourceDefinition"));
    }
}
