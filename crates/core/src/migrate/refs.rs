//! References between MRs across the move. A legacy `*Ref`/`*Refs` names a cluster-scoped MR;
//! its namespaced form names `{name, namespace}`. Each one must point at an MR this plan also
//! migrates (a reference to an MR left behind would dangle), and `*Selector`s select in the
//! MR's own target namespace. A secret key reference (`*SecretRef` with a `key`) loses its
//! namespace: a namespaced MR reads secrets from its own namespace.

use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Where the plan moves each MR, by name: what a reference (which names no kind) is resolved
/// against.
#[derive(Clone, Debug, Default)]
pub(crate) struct Moves {
    by_name: BTreeMap<String, Vec<Moved>>,
}

/// One MR the plan migrates, as a reference sees it.
#[derive(Clone, Debug)]
struct Moved {
    namespace: String,
    external_name: Option<String>,
}

impl Moves {
    /// Records that the MR `name` (tracking `external_name`) moves to `namespace`.
    pub fn add(&mut self, name: &str, namespace: &str, external_name: Option<&str>) {
        let m = Moved { namespace: namespace.to_string(), external_name: external_name.map(str::to_owned) };
        self.by_name.entry(name.to_string()).or_default().push(m);
    }

    /// The namespace the MR a reference names moves to: the one namespace all MRs of that name
    /// move to, or the one whose ID is the value the reference resolved to.
    fn namespace_of(&self, name: &str, resolved: &[&str]) -> Result<String, String> {
        let all = self.by_name.get(name).map(Vec::as_slice).unwrap_or_default();
        let first = all.first().ok_or_else(|| format!("{name:?}, which this plan does not migrate"))?;
        if all.iter().all(|m| m.namespace == first.namespace) {
            return Ok(first.namespace.clone());
        }
        let hits: Vec<&Moved> =
            all.iter().filter(|m| m.external_name.as_deref().is_some_and(|e| resolved.contains(&e))).collect();
        match hits.as_slice() {
            [one] => Ok(one.namespace.clone()),
            _ => Err(format!("{name:?}, a name several MRs of this plan share in different namespaces")),
        }
    }
}

/// The field a reference fills: `vpcIdRef` → `vpcId`, `subnetIdRefs` → `subnetIds`.
fn resolved_field(key: &str) -> Option<String> {
    if let Some(base) = key.strip_suffix("Refs") {
        return Some(format!("{base}s"));
    }
    key.strip_suffix("Ref").map(str::to_owned)
}

fn strings(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    }
}

/// Gives every reference and selector below `value` (a `forProvider` or `initProvider`) its
/// namespace; each reference the plan cannot resolve is named in `problems` (with `path`).
pub fn rewrite(value: &mut Value, path: &str, own_namespace: &str, moves: &Moves, problems: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                let here = format!("{path}.{key}");
                let resolved: Vec<String> = resolved_field(&key)
                    .map(|f| strings(map.get(&f)).into_iter().map(str::to_owned).collect())
                    .unwrap_or_default();
                let resolved: Vec<&str> = resolved.iter().map(String::as_str).collect();
                let Some(v) = map.get_mut(&key) else { continue };
                if key.ends_with("SecretRef") && v.get("key").is_some() {
                    secret(v, &here, own_namespace, problems);
                } else if key.ends_with("Selector") && v.is_object() {
                    v["namespace"] = json!(own_namespace);
                } else if key.ends_with("Ref") && v.is_object() {
                    point(v, &here, &resolved, moves, problems);
                } else if key.ends_with("Refs") && v.is_array() {
                    for r in v.as_array_mut().into_iter().flatten() {
                        point(r, &here, &resolved, moves, problems);
                    }
                } else {
                    rewrite(v, &here, own_namespace, moves, problems);
                }
            }
        }
        Value::Array(list) => list.iter_mut().for_each(|v| rewrite(v, path, own_namespace, moves, problems)),
        _ => {}
    }
}

/// A secret key reference (`{key, name, namespace}`) names a secret in the MR's own namespace
/// once namespaced (`{key, name}`): a secret elsewhere is named as a problem.
fn secret(r: &mut Value, path: &str, own_namespace: &str, problems: &mut Vec<String>) {
    let Some(map) = r.as_object_mut() else { return };
    match map.remove("namespace") {
        Some(Value::String(ns)) if ns != own_namespace => problems.push(format!(
            "{path} names a secret in namespace {ns:?}, and a namespaced MR reads secrets from its own ({own_namespace:?}): copy the secret there"
        )),
        _ => {}
    }
}

fn point(r: &mut Value, path: &str, resolved: &[&str], moves: &Moves, problems: &mut Vec<String>) {
    let Some(name) = r.get("name").and_then(Value::as_str).map(str::to_owned) else { return };
    match moves.namespace_of(&name, resolved) {
        Ok(ns) => r["namespace"] = json!(ns),
        Err(why) => problems.push(format!("{path} refers to {why}: migrate it in the same plan")),
    }
}
