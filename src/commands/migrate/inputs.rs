//! What `migrate plan` reads: the legacy MRs asked for and the namespaced kinds' CRDs, from
//! snapshot files and CRD files given with `--from`, or from the cluster.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::request;
use upjet_cluster::snapshot;
use upjet_cluster::target::Kinds;
use upjet_core::error::Error;
use upjet_core::managed::legacy_group;
use upjet_core::migrate::schema::TargetKind;

/// Which legacy MRs the user asked for.
pub(crate) struct Selection<'a> {
    /// `KIND/NAME` arguments.
    pub targets: &'a [String],
    /// `--all`.
    pub all: bool,
    /// `-l`: `key=value` pairs, all required.
    pub labels: Vec<(String, String)>,
}

impl Selection<'_> {
    /// Whether the legacy MR `obj` (of `kind` in `group`) is asked for.
    fn wants(&self, obj: &Value, kind: &str, group: &str) -> bool {
        let name = obj.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
        let labelled = self.labels.iter().all(|(k, v)| {
            obj.pointer("/metadata/labels").and_then(|l| l.get(k)).and_then(Value::as_str) == Some(v.as_str())
        });
        let named = self.targets.iter().any(|t| {
            t.split_once('/').is_some_and(|(k, n)| {
                let k = k.to_lowercase();
                n == name && (k == kind.to_lowercase() || k == format!("{}.{group}", kind.to_lowercase()))
            })
        });
        named || ((self.all || !self.labels.is_empty()) && labelled)
    }
}

fn group_of(obj: &Value) -> String {
    let api = obj.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    api.rsplit_once('/').map(|(g, _)| g.to_string()).unwrap_or_default()
}

/// The legacy MRs (as JSON text: the plan builder decodes each when it needs it) and the
/// namespaced kinds from `--from` paths. CRD files are told apart by their kind; only the CRDs
/// of twins of the legacy MRs' kinds are decoded in full.
pub fn offline(paths: &[PathBuf], sel: &Selection) -> Result<(Vec<String>, Vec<TargetKind>), Error> {
    let mut crd_files = Vec::new();
    let mut items = Vec::new();
    for path in paths {
        for file in snapshot::files(path)?.0 {
            let head = read_head(&file);
            if head.contains("CustomResourceDefinition") {
                crd_files.push(file);
            } else {
                snapshot::read_file(&file, &mut items)?;
            }
        }
    }
    let mut legacy = Vec::new();
    let mut groups = BTreeSet::new();
    for item in items {
        let obj: Value = serde_json::from_str(&item.json)
            .map_err(|e| Error::usage(format!("{}: an object is not JSON: {e}", item.source.display())))?;
        let kind = obj.get("kind").and_then(Value::as_str).unwrap_or_default().to_string();
        let group = group_of(&obj);
        if obj.pointer("/metadata/namespace").is_none() && sel.wants(&obj, &kind, &group) {
            groups.insert((group, kind));
            legacy.push(item.json);
        }
    }
    let mut targets = Vec::new();
    for file in crd_files {
        if let Some(t) = target_from_file(&file, &groups)? {
            targets.push(t);
        }
    }
    Ok((legacy, targets))
}

fn read_head(file: &Path) -> String {
    use std::io::Read;
    let mut buf = vec![0u8; 512];
    let n = std::fs::File::open(file).and_then(|mut f| f.read(&mut buf)).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// A CRD file's namespaced kind, when it is the twin of one of the legacy `kinds` (group,
/// kind): decoded only then. Its text is first scanned for its group and its `kind:` lines, so
/// that the other kinds of a provider (most of 2,000 files) are never decoded.
fn target_from_file(file: &Path, kinds: &BTreeSet<(String, String)>) -> Result<Option<TargetKind>, Error> {
    let text =
        std::fs::read_to_string(file).map_err(|e| Error::usage(format!("cannot read {}: {e}", file.display())))?;
    // The group and the names come before the schemas (`kubectl get crd -o yaml`, controller-gen).
    let head = &text[..text.find("openAPIV3Schema").unwrap_or(text.len())];
    let field = |name: &'static str| {
        head.lines().filter_map(move |l| l.trim().strip_prefix(name).map(|v| v.trim().trim_matches('"').to_string()))
    };
    let twin_of = |g: &str, k: &str| legacy_group(g).is_some_and(|l| kinds.contains(&(l, k.to_string())));
    if let Some(group) = field("group:").next()
        && !field("kind:").any(|k| twin_of(&group, &k))
    {
        return Ok(None);
    }
    let is_yaml = matches!(file.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    let crd: Value = if is_yaml {
        serde_saphyr::from_str(&text).map_err(|e| Error::usage(format!("{} is not valid YAML: {e}", file.display())))?
    } else {
        serde_json::from_str(&text).map_err(|e| Error::usage(format!("{} is not valid JSON: {e}", file.display())))?
    };
    let at = |p: &str| crd.pointer(p).and_then(Value::as_str).unwrap_or_default();
    if !twin_of(at("/spec/group"), at("/spec/names/kind")) {
        return Ok(None);
    }
    Ok(TargetKind::from_crd(&crd).ok())
}

/// The legacy MRs asked for, and the namespaced twins the cluster serves (their CRDs read by
/// name), from the cluster.
pub async fn live(
    conn: &Connection,
    sel: &Selection<'_>,
    selector: Option<&str>,
) -> anyhow::Result<(Vec<Value>, Vec<TargetKind>)> {
    let kinds = Kinds::discover(conn).await?;
    let legacy_kinds: Vec<&ApiKind> = kinds.managed.iter().filter(|k| !k.namespaced).collect();
    let mut legacy = Vec::new();
    for kind in &legacy_kinds {
        let asked = sel.all
            || selector.is_some()
            || sel.targets.iter().any(|t| t.split_once('/').is_some_and(|(k, _)| kind.matches(k)));
        if !asked {
            continue;
        }
        let mut path = kind.collection_path(None);
        if let Some(s) = selector {
            path.push_str(&format!("?labelSelector={}", encode(s)));
        }
        let body = request::text(conn, request::get(&path, "application/json"))
            .await
            .map_err(|e| e.explain(conn, &format!("listing {}", kind.resource_name())))?;
        let list: Value = serde_json::from_str(&body)?;
        for mut obj in list["items"].as_array().cloned().unwrap_or_default() {
            obj["apiVersion"] = Value::String(kind.api_version());
            obj["kind"] = Value::String(kind.kind.clone());
            if selector.is_some() || sel.wants(&obj, &kind.kind, &kind.group) {
                legacy.push(obj);
            }
        }
    }
    let mut targets = Vec::new();
    for twin in kinds.managed.iter().filter(|k| k.namespaced) {
        let Some(lg) = legacy_group(&twin.group) else { continue };
        if !legacy.iter().any(|o| group_of(o) == lg && o["kind"] == twin.kind.as_str()) {
            continue;
        }
        let path = format!("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{}", twin.resource_name());
        let body = request::text(conn, request::get(&path, "application/json"))
            .await
            .map_err(|e| e.explain(conn, &format!("reading the CRD {}", twin.resource_name())))?;
        // A CRD without a readable schema is no target: its MRs are refused, named.
        if let Ok(t) = TargetKind::from_crd(&serde_json::from_str(&body)?) {
            targets.push(t);
        }
    }
    Ok((legacy, targets))
}

/// Percent-encodes a label selector for a query string.
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
