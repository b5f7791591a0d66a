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
    /// `metadata.deletionTimestamp`: the CRD is being deleted, and every object of it with it.
    pub deleted_at: Option<String>,
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

/// A definition's `metadata`: its name, and whether it is being deleted.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Meta {
    pub(super) name: String,
    #[serde(default)]
    pub(super) deletion_timestamp: Option<String>,
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

/// The CRDs one file of a folder holds (`guard --from`): a YAML file's documents (a CRD each,
/// or a `List` of them, as `kubectl get crd -o yaml` writes), a JSON object or List. Other
/// documents are skipped unread; a CRD that does not read is named by its line, not dropped.
#[derive(Debug, Default)]
pub struct CrdFile {
    /// Every CRD, in file order.
    pub crds: Vec<CrdSummary>,
    /// The documents that look like CRDs but do not read: their line and why.
    pub errors: Vec<(usize, String)>,
}

/// A `List` of definitions.
#[derive(Deserialize)]
struct DefinitionList {
    #[serde(default)]
    items: Vec<Definition>,
}

/// A YAML document's top-level `kind:` (a line at column 0), read without parsing the document:
/// a provider's CRD is hundreds of kilobytes, and most documents of a repository are not CRDs.
fn top_level_kind(doc: &str) -> Option<&str> {
    doc.lines().find_map(|l| l.strip_prefix("kind:")).map(|k| k.trim().trim_matches(['"', '\'']))
}

/// Reads the CRDs of one file's text (`yaml`: YAML documents, else JSON).
pub fn read_file(text: &str, yaml: bool) -> CrdFile {
    let mut out = CrdFile::default();
    let mut take = |line: usize, read: Result<Vec<Definition>, String>| match read {
        Ok(defs) => {
            for d in defs {
                match from_wire(d) {
                    Ok(c) => out.crds.push(c),
                    Err(e) => out.errors.push((line, e.to_string())),
                }
            }
        }
        Err(e) => out.errors.push((line, format!("not a CustomResourceDefinition: {e}"))),
    };
    if !yaml {
        let read = serde_json::from_str::<serde_json::Value>(text).map_err(|e| e.to_string()).and_then(|v| {
            let items = match v.get("items").and_then(|i| i.as_array()) {
                Some(items) => items.clone(),
                None if v.get("kind").and_then(|k| k.as_str()) == Some("CustomResourceDefinition") => vec![v],
                None => Vec::new(),
            };
            items.iter().map(|i| Definition::deserialize(i).map_err(|e| e.to_string())).collect()
        });
        take(1, read);
        return out;
    }
    for doc in super::manifests::split_documents(text) {
        let read = match top_level_kind(doc.text) {
            Some("CustomResourceDefinition") => serde_saphyr::from_str::<Definition>(doc.text).map(|d| vec![d]),
            Some(k) if k.ends_with("List") && doc.text.contains("CustomResourceDefinition") => {
                serde_saphyr::from_str::<DefinitionList>(doc.text).map(|l| l.items)
            }
            _ => continue,
        };
        take(doc.line, read.map_err(|e| e.to_string()));
    }
    out
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
        deleted_at: w.metadata.deletion_timestamp.filter(|d| !d.is_empty()),
    })
}

/// `metadata.deletionTimestamp` of one object read as metadata alone (`PartialObjectMetadata`,
/// what a metadata-only GET of a CRD or MRD answers): `None` when it is not being deleted.
pub fn deleted_at(json: &str) -> Result<Option<String>, serde_json::Error> {
    #[derive(Deserialize)]
    struct Object {
        metadata: Meta,
    }
    Ok(serde_json::from_str::<Object>(json)?.metadata.deletion_timestamp.filter(|d| !d.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(dir: &str, file: &str) -> serde_json::Value {
        let path = format!("{}/../../../shared/fixtures/crds/{dir}/{file}", env!("CARGO_MANIFEST_DIR"));
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
    fn a_files_crds_are_read_from_its_documents_and_lists() {
        let path = format!(
            "{}/../../../shared/fixtures/crds/provider-upjet-aws/ec2.aws.m.upbound.io_vpcs.yaml",
            env!("CARGO_MANIFEST_DIR")
        );
        let vpc = std::fs::read_to_string(&path).unwrap();
        let text = format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: x}}\n---\n{vpc}\n---\nkind: List\nitems:\n- kind: CustomResourceDefinition\n  metadata: {{name: xs.g}}\n  spec: {{group: g, names: {{kind: X, plural: xs}}, scope: Cluster}}\n---\nkind: CustomResourceDefinition\nmetadata: {{name: broken}}\n"
        );
        let read = read_file(&text, true);
        let kinds: Vec<(&str, &str, bool)> =
            read.crds.iter().map(|c| (c.group.as_str(), c.kind.as_str(), c.is_managed())).collect();
        assert_eq!(kinds, [("ec2.aws.m.upbound.io", "VPC", true), ("g", "X", false)]);
        let lines = vpc.lines().count();
        assert_eq!(read.errors.len(), 1, "{:?}", read.errors);
        assert_eq!(read.errors[0].0, lines + 13, "the broken document's line: {:?}", read.errors);
        let json = r#"{"kind":"List","items":[{"metadata":{"name":"xs.g"},"spec":{"group":"g","names":{"kind":"X","plural":"xs"}}}]}"#;
        assert_eq!(read_file(json, false).crds.len(), 1);
        assert!(read_file(r#"{"kind":"Pod"}"#, false).crds.is_empty());
        assert_eq!(read_file("{", false).errors.len(), 1);
    }

    #[test]
    fn other_documents_are_refused() {
        assert!(parse(r#"{"kind":"Pod","metadata":{"name":"p"},"spec":{}}"#).is_err());
        assert!(parse("[]").is_err());
        let minimal = r#"{"metadata":{"name":"xs.g"},"spec":{"group":"g","names":{"kind":"X","plural":"xs"}}}"#;
        let crd = parse(minimal).unwrap();
        assert!(!crd.is_managed() && !crd.acknowledges_requests && crd.versions.is_empty());
        assert_eq!(crd.deleted_at, None);
    }

    /// A CRD being deleted says since when, read whole or as metadata alone.
    #[test]
    fn a_definition_being_deleted_says_since_when() {
        let at = "2024-11-30T11:00:00Z";
        let whole = format!(
            r#"{{"metadata":{{"name":"xs.g","deletionTimestamp":"{at}","finalizers":["customresourcecleanup.apiextensions.k8s.io"]}},"spec":{{"group":"g","names":{{"kind":"X","plural":"xs"}}}}}}"#
        );
        assert_eq!(parse(&whole).unwrap().deleted_at.as_deref(), Some(at));
        let meta = format!(
            r#"{{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{{"name":"xs.g","deletionTimestamp":"{at}"}}}}"#
        );
        assert_eq!(deleted_at(&meta).unwrap().as_deref(), Some(at));
        assert_eq!(deleted_at(r#"{"metadata":{"name":"xs.g"}}"#).unwrap(), None);
        assert!(deleted_at("{}").is_err());
    }
}
