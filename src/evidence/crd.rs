//! CustomResourceDefinitions, reduced to what a diagnosis needs of them: which kind they define,
//! whether Crossplane counts it as managed (the `managed` category upjet's CRD template sets),
//! and whether its schema has `status.lastHandledReconcileAt` — the field crossplane-runtime ≥
//! v2.3 acknowledges `crossplane.io/reconcile-requested-at` in, so its absence says the provider
//! runs an older runtime that records nothing.
//!
//! An upjet CRD is hundreds of kilobytes of schema; everything but those few fields is skipped
//! while decoding, never held.

use serde::Deserialize;
use serde::de::IgnoredAny;
use std::collections::HashMap;

/// What one CRD says about the kind it defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdSummary {
    /// `metadata.name` (`<plural>.<group>`).
    pub name: String,
    /// `spec.group`.
    pub group: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.names.plural`.
    pub plural: String,
    /// `spec.scope == "Namespaced"`.
    pub namespaced: bool,
    /// `spec.names.categories`.
    pub categories: Vec<String>,
    /// The names of the served versions, storage version first.
    pub versions: Vec<String>,
    /// Whether any served version's schema declares `status.lastHandledReconcileAt`.
    pub acknowledges_requests: bool,
}

impl CrdSummary {
    /// Whether kubectl's `managed` category, and so Crossplane, counts the kind as a managed
    /// resource (ProviderConfig kinds carry the provider's category but not `managed`).
    pub fn is_managed(&self) -> bool {
        self.categories.iter().any(|c| c == "managed")
    }
}

/// Why a document is not a CRD this reader understands.
#[derive(Debug, thiserror::Error)]
#[error("not a CustomResourceDefinition: {0}")]
pub struct NotACrd(String);

/// A CRD, or a Crossplane ManagedResourceDefinition (a CRD's spec plus its state: `mrd.rs` reads
/// it too), as the API server or a file holds it; its kind is absent from some documents.
#[derive(Deserialize)]
pub(super) struct Definition {
    #[serde(default)]
    pub(super) kind: Option<String>,
    pub(super) metadata: Meta,
    pub(super) spec: Spec,
}

/// A definition's `metadata`: its name alone.
#[derive(Deserialize)]
pub(super) struct Meta {
    pub(super) name: String,
}

/// A definition's `spec`, schemas skipped but for what [`Version`] keeps.
#[derive(Deserialize)]
pub(super) struct Spec {
    pub(super) group: String,
    pub(super) names: Names,
    #[serde(default)]
    scope: String,
    #[serde(default)]
    versions: Vec<Version>,
    /// An MRD's state; absent means the MRD's default, `Inactive` (a CRD has none).
    #[serde(default)]
    pub(super) state: Option<String>,
}

/// `spec.names`: a CRD needs a plural, an MRD is read without one.
#[derive(Deserialize)]
pub(super) struct Names {
    pub(super) kind: String,
    #[serde(default)]
    plural: Option<String>,
    #[serde(default)]
    categories: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Version {
    name: String,
    #[serde(default = "yes")]
    served: bool,
    #[serde(default)]
    storage: bool,
    #[serde(default)]
    schema: Option<Schema>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Schema {
    #[serde(default, rename = "openAPIV3Schema")]
    open_api_v3_schema: Option<Props<TopLevel>>,
}

#[derive(Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
struct Props<T> {
    #[serde(default)]
    properties: Option<T>,
}

#[derive(Deserialize)]
struct TopLevel {
    #[serde(default)]
    status: Option<Props<HashMap<String, IgnoredAny>>>,
}

impl Version {
    fn declares_last_handled(&self) -> bool {
        let status =
            self.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()).and_then(|s| s.properties.as_ref());
        let fields = status.and_then(|t| t.status.as_ref()).and_then(|s| s.properties.as_ref());
        fields.is_some_and(|f| f.contains_key("lastHandledReconcileAt"))
    }
}

/// Reads one CRD from its JSON (an API answer or a backup entry).
pub fn parse(json: &str) -> Result<CrdSummary, NotACrd> {
    let w: Definition = serde_json::from_str(json).map_err(|e| NotACrd(e.to_string()))?;
    from_wire(w)
}

/// Reads one CRD from an already decoded value (a YAML file, a list item).
pub fn from_value(v: &serde_json::Value) -> Result<CrdSummary, NotACrd> {
    from_wire(Definition::deserialize(v).map_err(|e| NotACrd(e.to_string()))?)
}

fn from_wire(w: Definition) -> Result<CrdSummary, NotACrd> {
    if let Some(kind) = w.kind.as_deref().filter(|k| !k.is_empty() && *k != "CustomResourceDefinition") {
        return Err(NotACrd(format!("kind {kind:?}")));
    }
    let plural = w.spec.names.plural.ok_or_else(|| NotACrd("missing field `plural` in spec.names".into()))?;
    let served: Vec<&Version> = w.spec.versions.iter().filter(|v| v.served).collect();
    let mut versions: Vec<String> = served.iter().filter(|v| v.storage).map(|v| v.name.clone()).collect();
    versions.extend(served.iter().filter(|v| !v.storage).map(|v| v.name.clone()));
    Ok(CrdSummary {
        name: w.metadata.name,
        group: w.spec.group,
        kind: w.spec.names.kind,
        plural,
        namespaced: w.spec.scope == "Namespaced",
        categories: w.spec.names.categories,
        versions,
        acknowledges_requests: served.iter().any(|v| v.declares_last_handled()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(dir: &str, file: &str) -> serde_json::Value {
        let path = format!("{}/../shared/fixtures/crds/{dir}/{file}", env!("CARGO_MANIFEST_DIR"));
        serde_saphyr::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("yaml")
    }

    /// Real CRDs: provider-upjet-gcp's are generated with crossplane-runtime ≥ v2.3 (their
    /// status schema has `lastHandledReconcileAt`), provider-upjet-aws's with an older one.
    #[test]
    fn real_crds_say_whether_their_runtime_acknowledges_reconcile_requests() {
        let gcp = from_value(&fixture("provider-upjet-gcp", "dns.gcp.upbound.io_recordsets.yaml")).unwrap();
        assert_eq!(
            (gcp.kind.as_str(), gcp.plural.as_str(), gcp.group.as_str()),
            ("RecordSet", "recordsets", "dns.gcp.upbound.io")
        );
        assert!(gcp.is_managed() && !gcp.namespaced && gcp.acknowledges_requests);
        let aws = from_value(&fixture("provider-upjet-aws", "ec2.aws.m.upbound.io_vpcs.yaml")).unwrap();
        assert!(aws.is_managed() && aws.namespaced && !aws.acknowledges_requests);
        assert_eq!(aws.versions.first().map(String::as_str), Some("v1beta1"));
    }

    #[test]
    fn other_documents_are_refused() {
        assert!(parse(r#"{"kind":"Pod","metadata":{"name":"p"},"spec":{}}"#).is_err());
        assert!(parse("[]").is_err());
        let minimal = r#"{"metadata":{"name":"xs.g"},"spec":{"group":"g","names":{"kind":"X","plural":"xs"}}}"#;
        let crd = parse(minimal).unwrap();
        assert!(!crd.is_managed() && !crd.acknowledges_requests && crd.versions.is_empty());
    }
}
