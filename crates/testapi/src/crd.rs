//! CustomResourceDefinition parsing and the resource registry that discovery and
//! routing are built from.

use crate::store::Store;
use serde::Deserialize;
use serde_json::{Value, json};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The part of a CRD the fake server needs (the schema is skipped on purpose).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CrdDoc {
    #[serde(default)]
    pub api_version: Option<String>,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub metadata: CrdMeta,
    pub spec: Option<CrdSpec>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CrdMeta {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub labels: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub annotations: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CrdSpec {
    pub group: String,
    pub names: CrdNames,
    pub scope: String,
    pub versions: Vec<CrdVersion>,
}

#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CrdNames {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_kind: Option<String>,
    pub plural: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub singular: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CrdVersion {
    pub name: String,
    #[serde(default)]
    pub served: bool,
    #[serde(default)]
    pub storage: bool,
    #[serde(default)]
    pub deprecated: bool,
    #[serde(default)]
    pub deprecation_warning: Option<String>,
    #[serde(default)]
    pub subresources: Option<CrdSubresources>,
    #[serde(default)]
    pub additional_printer_columns: Vec<PrinterColumn>,
    #[serde(default)]
    pub selectable_fields: Vec<SelectableField>,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct CrdSubresources {
    #[serde(default)]
    pub status: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    pub scale: Option<serde::de::IgnoredAny>,
}

/// One `additionalPrinterColumns` entry (used for `as=Table` responses).
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PrinterColumn {
    pub name: String,
    #[serde(rename = "type", default)]
    pub type_: String,
    #[serde(default)]
    pub json_path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default)]
    pub priority: i64,
}

#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SelectableField {
    pub json_path: String,
}

/// Removes `schema:` / `openAPIV3Schema:` blocks from block-style YAML text.
///
/// CRD schemas are ~95% of the bytes of provider CRDs and the server never needs
/// them; dropping them textually makes loading 2,000 CRDs ~10x faster.
pub(crate) fn strip_schemas(s: &str) -> std::borrow::Cow<'_, str> {
    const SPACES: &[u8] = &[b' '; 256];
    let b = s.as_bytes();
    if memchr::memmem::find(b, b"chema:").is_none() {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() / 8);
    let (mut i, mut copy_from) = (0usize, 0usize);
    while i < b.len() {
        let nl = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |p| i + p + 1);
        let mut j = i;
        while j < nl && b[j] == b' ' {
            j += 1;
        }
        let rest = &b[j..nl];
        let (key, extra) = match rest.strip_prefix(b"- ") {
            Some(k) => (k, 2),
            None => (rest, 0),
        };
        let key = key.trim_ascii_end();
        let indent = j - i + extra;
        if (key == b"schema:" || key == b"openAPIV3Schema:") && indent < 250 {
            out.push_str(&s[copy_from..i]);
            if extra == 2 {
                // keep the list item alive: "- schema:" becomes "- {}"-less marker line
                out.push_str(&s[i..j]);
                out.push_str("- _schema: null\n");
            }
            let mut k = nl;
            while k < b.len() {
                let nl2 = memchr::memchr(b'\n', &b[k..]).map_or(b.len(), |p| k + p + 1);
                let line = &b[k..nl2];
                if line.get(..=indent) != Some(&SPACES[..=indent]) && !line.trim_ascii().is_empty() {
                    break;
                }
                k = nl2;
            }
            copy_from = k;
            i = k;
            continue;
        }
        i = nl;
    }
    out.push_str(&s[copy_from..]);
    std::borrow::Cow::Owned(out)
}

/// Parses one or several YAML documents, keeping only CustomResourceDefinitions.
pub(crate) fn parse_crds(yaml: &str) -> anyhow::Result<Vec<CrdDoc>> {
    let stripped = strip_schemas(yaml);
    let docs: Vec<CrdDoc> =
        serde_saphyr::from_multiple(&stripped).map_err(|e| anyhow::anyhow!("parsing CRD YAML: {e}"))?;
    Ok(docs.into_iter().filter(|d| d.kind.as_deref() == Some("CustomResourceDefinition") && d.spec.is_some()).collect())
}

/// Kubernetes version priority: GA > beta > alpha > other; higher numbers first;
/// non-conforming versions sort alphabetically after all conforming ones.
pub(crate) fn version_cmp(a: &str, b: &str) -> Ordering {
    fn key(v: &str) -> Option<(u8, u64, u64)> {
        let rest = v.strip_prefix('v')?;
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let major: u64 = rest[..digits].parse().ok()?;
        if rest[..digits].starts_with('0') {
            return None;
        }
        let tail = &rest[digits..];
        if tail.is_empty() {
            return Some((0, major, 0));
        }
        let (kind, num) = if let Some(n) = tail.strip_prefix("beta") {
            (1, n)
        } else if let Some(n) = tail.strip_prefix("alpha") {
            (2, n)
        } else {
            return None;
        };
        if num.is_empty() || !num.chars().all(|c| c.is_ascii_digit()) || num.starts_with('0') {
            return None;
        }
        Some((kind, major, num.parse().ok()?))
    }
    match (key(a), key(b)) {
        (Some(x), Some(y)) => x.0.cmp(&y.0).then(y.1.cmp(&x.1)).then(y.2.cmp(&x.2)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// One served resource at one group/version: everything discovery, routing and
/// list/get responses need.
#[derive(Debug)]
pub(crate) struct ResourceDef {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub list_kind: String,
    pub plural: String,
    pub singular: String,
    pub namespaced: bool,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
    pub verbs: Vec<&'static str>,
    pub status_subresource: bool,
    /// Built-in type: list items omit apiVersion/kind, on_write hooks do not fire.
    pub builtin: bool,
    /// Extra subresources beyond status: (name, kind, verbs).
    pub extra_subresources: Vec<(&'static str, &'static str, Vec<&'static str>)>,
    /// Field selector paths besides metadata.name / metadata.namespace.
    pub selectable: Vec<String>,
    pub printer_columns: Vec<PrinterColumn>,
    /// `Warning` header text for a deprecated CRD version.
    pub warning: Option<String>,
    pub store: Arc<Store>,
}

impl ResourceDef {
    /// `group/version`, or `v1` for the core group.
    pub(crate) fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.clone() } else { format!("{}/{}", self.group, self.version) }
    }

    /// A built-in v1 resource of `(group, plural, singular)` with every verb and nothing else:
    /// callers set what their kind adds (short names, categories, a status subresource).
    pub(crate) fn builtin(names: (&str, &str, &str), kind: &str, namespaced: bool, store: Arc<Store>) -> ResourceDef {
        let (group, plural, singular) = names;
        ResourceDef {
            group: group.into(),
            version: "v1".into(),
            kind: kind.into(),
            list_kind: format!("{kind}List"),
            plural: plural.into(),
            singular: singular.into(),
            namespaced,
            short_names: vec![],
            categories: vec![],
            verbs: CORE_VERBS.to_vec(),
            status_subresource: false,
            builtin: true,
            extra_subresources: vec![],
            selectable: vec![],
            printer_columns: vec![],
            warning: None,
            store,
        }
    }

    /// `plural.group` (or `plural` for core), as used in Status messages.
    pub(crate) fn qualified(&self) -> String {
        if self.group.is_empty() { self.plural.clone() } else { format!("{}.{}", self.plural, self.group) }
    }

    /// All field paths a field selector may use on this resource.
    pub(crate) fn field_paths(&self) -> Vec<&str> {
        let mut v = vec!["metadata.name", "metadata.namespace"];
        v.extend(self.selectable.iter().map(String::as_str));
        v
    }
}

const CRD_VERBS: &[&str] = &["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"];
const CORE_VERBS: &[&str] = &["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

/// All resources the server knows, indexed for routing and discovery.
#[derive(Default)]
pub(crate) struct Registry {
    pub by_gvr: HashMap<(String, String, String), Arc<ResourceDef>>,
    pub by_gvk: HashMap<(String, String, String), Arc<ResourceDef>>,
    /// Storage shared by all versions of a resource: (group, plural).
    pub stores: HashMap<(String, String), Arc<Store>>,
    /// CRD name -> the (group, version, plural) keys it registered.
    pub crds: HashMap<String, Vec<(String, String, String)>>,
}

impl Registry {
    pub(crate) fn store_for(&mut self, group: &str, plural: &str) -> Arc<Store> {
        self.stores.entry((group.to_string(), plural.to_string())).or_insert_with(|| Arc::new(Store::default())).clone()
    }

    pub(crate) fn add(&mut self, def: ResourceDef) {
        let def = Arc::new(def);
        self.by_gvr.insert((def.group.clone(), def.version.clone(), def.plural.clone()), def.clone());
        self.by_gvk.insert((def.group.clone(), def.version.clone(), def.kind.clone()), def);
    }

    /// Registers every served version of a CRD (replacing an earlier CRD of the same name).
    /// Returns the CRD as a JSON object for the customresourcedefinitions store.
    pub(crate) fn add_crd(&mut self, crd: &CrdDoc) -> anyhow::Result<Value> {
        let spec = crd.spec.as_ref().ok_or_else(|| anyhow::anyhow!("CRD without spec"))?;
        let name = crd.metadata.name.clone().unwrap_or_else(|| format!("{}.{}", spec.names.plural, spec.group));
        if let Some(old) = self.crds.remove(&name) {
            for key in old {
                if let Some(def) = self.by_gvr.remove(&key) {
                    self.by_gvk.remove(&(def.group.clone(), def.version.clone(), def.kind.clone()));
                }
            }
        }
        let namespaced = match spec.scope.as_str() {
            "Namespaced" => true,
            "Cluster" => false,
            other => anyhow::bail!("CRD {name}: unknown scope {other:?}"),
        };
        let store = self.store_for(&spec.group, &spec.names.plural);
        let mut keys = vec![];
        for v in spec.versions.iter().filter(|v| v.served) {
            keys.push((spec.group.clone(), v.name.clone(), spec.names.plural.clone()));
            self.add(ResourceDef {
                group: spec.group.clone(),
                version: v.name.clone(),
                kind: spec.names.kind.clone(),
                list_kind: spec.names.list_kind.clone().unwrap_or_else(|| format!("{}List", spec.names.kind)),
                plural: spec.names.plural.clone(),
                singular: spec.names.singular.clone().unwrap_or_else(|| spec.names.kind.to_lowercase()),
                namespaced,
                short_names: spec.names.short_names.clone(),
                categories: spec.names.categories.clone(),
                verbs: CRD_VERBS.to_vec(),
                status_subresource: v.subresources.as_ref().is_some_and(|s| s.status.is_some()),
                builtin: false,
                extra_subresources: if v.subresources.as_ref().is_some_and(|s| s.scale.is_some()) {
                    vec![("scale", "Scale", vec!["get", "patch", "update"])]
                } else {
                    vec![]
                },
                selectable: v
                    .selectable_fields
                    .iter()
                    .map(|f| f.json_path.trim_start_matches('.').to_string())
                    .collect(),
                printer_columns: v.additional_printer_columns.clone(),
                warning: v.deprecated.then(|| {
                    v.deprecation_warning
                        .clone()
                        .unwrap_or_else(|| format!("{}/{} {} is deprecated", spec.group, v.name, spec.names.kind))
                }),
                store: store.clone(),
            });
        }
        self.crds.insert(name.clone(), keys);
        Ok(crd_object(crd, spec, &name))
    }

    /// Unregisters a CRD's resources (objects stay in storage, as etcd keeps them).
    pub(crate) fn remove_crd(&mut self, name: &str) {
        for key in self.crds.remove(name).unwrap_or_default() {
            if let Some(def) = self.by_gvr.remove(&key) {
                self.by_gvk.remove(&(def.group.clone(), def.version.clone(), def.kind.clone()));
            }
        }
    }

    /// Non-core groups, alphabetical, each with its versions in preference order.
    pub(crate) fn groups(&self) -> Vec<(String, Vec<String>)> {
        let mut g: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (group, version, _) in self.by_gvr.keys() {
            if !group.is_empty() {
                let vs = g.entry(group).or_default();
                if !vs.contains(&version.as_str()) {
                    vs.push(version);
                }
            }
        }
        g.into_iter()
            .map(|(k, mut vs)| {
                vs.sort_by(|a, b| version_cmp(a, b));
                (k.to_string(), vs.into_iter().map(String::from).collect())
            })
            .collect()
    }

    /// Resources of one group/version sorted by plural.
    pub(crate) fn resources(&self, group: &str, version: &str) -> Vec<Arc<ResourceDef>> {
        let mut v: Vec<_> =
            self.by_gvr.values().filter(|d| d.group == group && d.version == version).cloned().collect();
        v.sort_by(|a, b| a.plural.cmp(&b.plural));
        v
    }
}

/// One version of a CRD as the customresourcedefinitions store shows it (its schema an open one).
fn version_doc(v: &CrdVersion) -> Value {
    let mut o = json!({"name": v.name, "served": v.served, "storage": v.storage});
    if v.deprecated {
        o["deprecated"] = json!(true);
    }
    if !v.additional_printer_columns.is_empty() {
        o["additionalPrinterColumns"] = serde_json::to_value(&v.additional_printer_columns).unwrap_or_default();
    }
    if let Some(s) = &v.subresources {
        let mut sub = json!({});
        if s.status.is_some() {
            sub["status"] = json!({});
        }
        if s.scale.is_some() {
            sub["scale"] = json!({});
        }
        o["subresources"] = sub;
    }
    // The openAPIV3Schema is not kept (see strip_schemas); an open schema stands in.
    o["schema"] = json!({"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}});
    o
}

/// A registered CRD as the customresourcedefinitions store shows it: established, names accepted.
fn crd_object(crd: &CrdDoc, spec: &CrdSpec, name: &str) -> Value {
    let versions: Vec<Value> = spec.versions.iter().map(version_doc).collect();
    let mut meta = json!({"name": name});
    if let Some(l) = &crd.metadata.labels {
        meta["labels"] = json!(l);
    }
    if let Some(a) = &crd.metadata.annotations {
        meta["annotations"] = json!(a);
    }
    let stored: Vec<&str> = spec.versions.iter().filter(|v| v.storage).map(|v| v.name.as_str()).collect();
    json!({
        "apiVersion": crd.api_version.clone().unwrap_or_else(|| "apiextensions.k8s.io/v1".into()),
        "kind": "CustomResourceDefinition",
        "metadata": meta,
        "spec": {"group": spec.group, "names": spec.names, "scope": spec.scope, "versions": versions},
        "status": {
            "acceptedNames": spec.names,
            "conditions": [
                {"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": crate::util::now_rfc3339()},
                {"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": crate::util::now_rfc3339()},
            ],
            "storedVersions": stored,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_priority() {
        let mut v = vec![
            "v1alpha1",
            "v11alpha2",
            "foo1",
            "v10",
            "v2",
            "v1",
            "v10beta3",
            "v3beta1",
            "v12alpha1",
            "foo10",
            "v1beta2",
        ];
        v.sort_by(|a, b| version_cmp(a, b));
        assert_eq!(
            v,
            vec![
                "v10",
                "v2",
                "v1",
                "v10beta3",
                "v3beta1",
                "v1beta2",
                "v12alpha1",
                "v11alpha2",
                "v1alpha1",
                "foo1",
                "foo10"
            ]
        );
    }

    #[test]
    fn strip_keeps_structure() {
        let y = "spec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        description: |-\n          schema:\n            x\n        type: object\n\n    served: true\n  - schema:\n      a: 1\n    name: v2\n    served: false\n";
        let s = strip_schemas(y);
        assert!(!s.contains("openAPIV3Schema"), "{s}");
        let v: Value = serde_saphyr::from_str(&s).unwrap();
        assert_eq!(v["spec"]["versions"][0]["served"], json!(true));
        assert_eq!(v["spec"]["versions"][1]["name"], json!("v2"));
    }
}
