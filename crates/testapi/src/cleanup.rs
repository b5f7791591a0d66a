//! Deleting a CustomResourceDefinition as kube-apiserver's apiextensions does it: the first
//! `DELETE` adds the `customresourcecleanup.apiextensions.k8s.io` finalizer, sets
//! `deletionTimestamp` and the `Terminating` condition, and the CRD's finalizer deletes every
//! object of it — one holding finalizers is only marked deleting, as any delete does. The CRD
//! stays Terminating, still served, until its last object is gone; then the finalizer is removed
//! and the CRD with it. Creating an object of a Terminating CRD is refused (405).

use crate::Inner;
use crate::crd::ResourceDef;
use crate::resp::Resp;
use crate::store::Entry;
use crate::util;
use serde_json::{Value, json};

/// The finalizer kube-apiserver puts on a CRD being deleted.
pub(crate) const CLEANUP: &str = "customresourcecleanup.apiextensions.k8s.io";

/// Whether `def` is the CustomResourceDefinition resource itself.
pub(crate) fn is_crds(def: &ResourceDef) -> bool {
    def.group == "apiextensions.k8s.io" && def.plural == "customresourcedefinitions"
}

fn finalizers(obj: &Value) -> Vec<String> {
    obj.pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|f| f.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

/// The CRD resource's definition.
fn crds_def(inner: &Inner) -> Option<std::sync::Arc<ResourceDef>> {
    let reg = inner.registry.read().expect("registry lock");
    let key = ("apiextensions.k8s.io".to_string(), "v1".to_string(), "CustomResourceDefinition".to_string());
    reg.by_gvk.get(&key).cloned()
}

/// `DELETE` of a CRD: marks it Terminating (once) and deletes its objects; answers the CRD as
/// it stands afterwards (absent when it had no object left: then as it was last).
pub(crate) fn delete_crd(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    name: &str,
    dry_run: bool,
) -> Result<Value, Resp> {
    let key = (String::new(), name.to_string());
    let mut crd = {
        let mut objs = def.store.map.write().expect("store lock");
        let mut cur = objs.get(&key).ok_or_else(|| Resp::not_found(def, name))?.to_value(api_version, &def.kind);
        if dry_run || cur.pointer("/metadata/deletionTimestamp").is_some() {
            return Ok(cur);
        }
        let mut f = finalizers(&cur);
        if !f.iter().any(|x| x == CLEANUP) {
            f.push(CLEANUP.to_string());
        }
        let rv = inner.next_rv();
        cur["metadata"]["finalizers"] = json!(f);
        cur["metadata"]["deletionTimestamp"] = json!(util::now_rfc3339());
        cur["metadata"]["resourceVersion"] = json!(rv.to_string());
        let conditions = cur["status"]["conditions"].as_array().cloned().unwrap_or_default();
        let mut conditions: Vec<Value> = conditions.into_iter().filter(|c| c["type"] != "Terminating").collect();
        conditions.push(json!({"type": "Terminating", "status": "True", "reason": "InstanceDeletionInProgress",
            "message": "CustomResource deletion is in progress", "lastTransitionTime": util::now_rfc3339()}));
        cur["status"]["conditions"] = json!(conditions);
        objs.insert(key, Entry::new(&cur, &def.selectable, rv));
        cur
    };
    let group = crd.pointer("/spec/group").and_then(Value::as_str).unwrap_or_default().to_string();
    let plural = crd.pointer("/spec/names/plural").and_then(Value::as_str).unwrap_or_default().to_string();
    delete_objects(inner, name);
    if let Some(left) = finish(inner, &group, &plural) {
        crd = left;
    }
    Ok(crd)
}

/// Deletes every object of the CRD `name`, each as a `DELETE` would.
fn delete_objects(inner: &Inner, name: &str) {
    let served = {
        let reg = inner.registry.read().expect("registry lock");
        reg.crds.get(name).and_then(|keys| keys.first()).and_then(|k| reg.by_gvr.get(k)).cloned()
    };
    let Some(def) = served else { return };
    let mut objs = def.store.map.write().expect("store lock");
    let keys: Vec<(String, String)> = objs.items.keys().cloned().collect();
    for key in keys {
        let Some(mut obj) = objs.get(&key).map(|e| e.to_value(&def.api_version(), &def.kind)) else { continue };
        let rv = inner.next_rv();
        if finalizers(&obj).is_empty() {
            objs.remove(&key, rv, None);
            continue;
        }
        if obj.pointer("/metadata/deletionTimestamp").is_none() {
            obj["metadata"]["deletionTimestamp"] = json!(util::now_rfc3339());
            obj["metadata"]["deletionGracePeriodSeconds"] = json!(0);
            if let Some(g) = obj.pointer("/metadata/generation").and_then(Value::as_i64) {
                obj["metadata"]["generation"] = json!(g + 1);
            }
            obj["metadata"]["resourceVersion"] = json!(rv.to_string());
            objs.insert(key, Entry::new(&obj, &def.selectable, rv));
        }
    }
}

/// The CRD of `group`/`plural` when it is Terminating: its object.
fn terminating_crd(inner: &Inner, group: &str, plural: &str) -> Option<(std::sync::Arc<ResourceDef>, Value)> {
    let crds = crds_def(inner)?;
    let key = (String::new(), format!("{plural}.{group}"));
    let crd = crds.store.map.read().expect("store lock").get(&key)?.to_value(&crds.api_version(), &crds.kind);
    crd.pointer("/metadata/deletionTimestamp").is_some().then_some((crds, crd))
}

/// Whether objects of `group`/`plural` may not be created: its CRD is Terminating.
pub(crate) fn refuses_create(inner: &Inner, def: &ResourceDef) -> Option<Resp> {
    if def.builtin {
        return None;
    }
    terminating_crd(inner, &def.group, &def.plural)
        .map(|_| Resp::method_not_allowed("create not allowed while custom resource definition is terminating"))
}

/// Once the last object of a Terminating CRD is gone, its cleanup finalizer goes, and the CRD with
/// it when no other finalizer holds it. Returns the CRD when it stays. Call with no store lock
/// held, after an object of `group`/`plural` was removed.
pub(crate) fn finish(inner: &Inner, group: &str, plural: &str) -> Option<Value> {
    let (crds, mut crd) = terminating_crd(inner, group, plural)?;
    if !finalizers(&crd).iter().any(|f| f == CLEANUP) {
        return Some(crd);
    }
    let store =
        inner.registry.read().expect("registry lock").stores.get(&(group.to_string(), plural.to_string())).cloned();
    if store.is_some_and(|s| !s.map.read().expect("store lock").items.is_empty()) {
        return Some(crd);
    }
    let name = format!("{plural}.{group}");
    let key = (String::new(), name.clone());
    let left: Vec<String> = finalizers(&crd).into_iter().filter(|f| f != CLEANUP).collect();
    let rv = inner.next_rv();
    let mut objs = crds.store.map.write().expect("store lock");
    if !left.is_empty() {
        crd["metadata"]["finalizers"] = json!(left);
        crd["metadata"]["resourceVersion"] = json!(rv.to_string());
        objs.insert(key, Entry::new(&crd, &crds.selectable, rv));
        return Some(crd);
    }
    objs.remove(&key, rv, None);
    drop(objs);
    inner.registry.write().expect("registry lock").remove_crd(&name);
    inner.disco.lock().expect("disco lock").clear();
    None
}
