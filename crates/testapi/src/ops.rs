//! What every object operation shares (finding the resource, an object's key and metadata, the
//! body's kind, CRD registration, the options of a write), and the operations that are no
//! request of their own: a fixture's insert, a test's in-place change, a get, the write hooks.
//! Lists, creates, updates and deletes have their own files.

use crate::Inner;
use crate::crd::ResourceDef;
use crate::resp::Resp;
use crate::store::{Entry, prefix};
use crate::util;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// How a write was asked for: `dryRun=All`, the field manager (`?fieldManager=`, else the user
/// agent up to its first `/`, as apiserver `handlers/rest.go` `managerOrUserAgent` names it) and
/// `?force=` (server-side apply only).
#[derive(Debug, Clone, Default)]
pub(crate) struct WriteOpts {
    pub dry_run: bool,
    pub manager: String,
    /// `?fieldManager=` was given (an apply needs it).
    pub manager_given: bool,
    /// `?force=` was given: `Some(true)` takes conflicting fields over.
    pub force: Option<bool>,
}

/// Outcome of a write: the object to answer with, and whether it changed.
pub(crate) struct Written {
    pub obj: Value,
    pub changed: bool,
    /// A server-side apply created the object (answered 201, as kube-apiserver does).
    pub created: bool,
}

/// The resource serving `api_version` + `kind`.
pub(crate) fn def_for(inner: &Inner, api_version: &str, kind: &str) -> Result<Arc<ResourceDef>, String> {
    let (group, version) = match api_version.rsplit_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    };
    let reg = inner.registry.read().expect("registry lock");
    reg.by_gvk.get(&(group.to_string(), version.to_string(), kind.to_string())).cloned().ok_or_else(|| {
        format!("no resource registered for apiVersion {api_version:?} kind {kind:?} (add its CRD first)")
    })
}

pub(crate) fn meta_mut(obj: &mut Value) -> &mut Map<String, Value> {
    if !obj.get("metadata").is_some_and(Value::is_object) {
        obj["metadata"] = json!({});
    }
    obj["metadata"].as_object_mut().expect("metadata object")
}

pub(crate) fn meta_str<'a>(obj: &'a Value, field: &str) -> Option<&'a str> {
    obj.get("metadata")?.get(field)?.as_str()
}

pub(crate) fn key_of(def: &ResourceDef, ns: Option<&str>, name: &str) -> (String, String) {
    (if def.namespaced { ns.unwrap_or_default().to_string() } else { String::new() }, name.to_string())
}

/// Stores a fixture object (upsert), filling uid/creationTimestamp/generation when absent.
pub(crate) fn insert(inner: &Inner, mut obj: Value) -> Result<Value, String> {
    let api_version = obj.get("apiVersion").and_then(Value::as_str).ok_or("object has no apiVersion")?.to_string();
    let kind = obj.get("kind").and_then(Value::as_str).ok_or("object has no kind")?.to_string();
    let def = def_for(inner, &api_version, &kind)?;
    let name = meta_str(&obj, "name").ok_or("object has no metadata.name")?.to_string();
    let ns = meta_str(&obj, "namespace").map(String::from);
    if def.namespaced && ns.is_none() {
        return Err(format!("{kind} {name:?} is namespaced but has no metadata.namespace"));
    }
    let key = key_of(&def, ns.as_deref(), &name);
    let mut objs = def.store.map.write().expect("store lock");
    let rv = inner.next_rv();
    {
        let m = meta_mut(&mut obj);
        if !def.namespaced {
            m.remove("namespace");
        }
        m.entry("uid").or_insert_with(|| json!(util::new_uid()));
        m.entry("creationTimestamp").or_insert_with(|| json!(util::now_rfc3339()));
        if !def.builtin || def.plural == "customresourcedefinitions" {
            m.entry("generation").or_insert(json!(1));
        }
        m.insert("resourceVersion".into(), json!(rv.to_string()));
    }
    objs.insert(key, Entry::new(&obj, &def.selectable, rv));
    Ok(obj)
}

/// Changes a stored custom resource in place under the store lock (nothing interleaves), and
/// stores it with a new resourceVersion; `None` if it does not exist.
pub(crate) fn modify(
    inner: &Inner,
    api_version: &str,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
    f: impl FnOnce(&mut Value),
) -> Option<Value> {
    let def = def_for(inner, api_version, kind).ok()?;
    let key = key_of(&def, namespace, name);
    let mut objs = def.store.map.write().expect("store lock");
    let mut obj = objs.get(&key)?.to_value(api_version, kind);
    f(&mut obj);
    let rv = inner.next_rv();
    meta_mut(&mut obj).insert("resourceVersion".into(), json!(rv.to_string()));
    objs.insert(key, Entry::new(&obj, &def.selectable, rv));
    Some(obj)
}

/// Reads one object.
pub(crate) fn get(def: &ResourceDef, api_version: &str, ns: Option<&str>, name: &str) -> Result<Vec<u8>, Resp> {
    let objs = def.store.map.read().expect("store lock");
    let e = objs.get(&key_of(def, ns, name)).ok_or_else(|| Resp::not_found(def, name))?.clone();
    drop(objs);
    let mut out = Vec::with_capacity(e.rest.len() + 128);
    e.write_json(&mut out, Some(&prefix(api_version, &def.kind)));
    Ok(out)
}

pub(crate) fn parse_body(body: &[u8]) -> Result<Value, Resp> {
    let v: Value = util::parse_json(body)
        .map_err(|e| Resp::bad_request(&format!("couldn't get version/kind; json parse error: {e}")))?;
    if !v.is_object() {
        return Err(Resp::bad_request("couldn't get version/kind; json parse error: expected an object"));
    }
    Ok(v)
}

pub(crate) fn check_kind(def: &ResourceDef, api_version: &str, obj: &mut Value) -> Result<(), Resp> {
    if let Some(k) = obj.get("kind").and_then(Value::as_str)
        && k != def.kind
    {
        return Err(Resp::bad_request(&format!(
            "the kind in the data ({k}) does not match the expected kind ({})",
            def.kind
        )));
    }
    obj["apiVersion"] = json!(api_version);
    obj["kind"] = json!(def.kind);
    Ok(())
}

/// Whether a CRD object write should (un)register its resources.
pub(crate) fn sync_crd(inner: &Inner, def: &ResourceDef, obj: &Value, deleted: bool) -> Result<(), Resp> {
    if def.plural != "customresourcedefinitions" || def.group != "apiextensions.k8s.io" {
        return Ok(());
    }
    let mut reg = inner.registry.write().expect("registry lock");
    if deleted {
        reg.remove_crd(meta_str(obj, "name").unwrap_or_default());
    } else {
        let doc: crate::crd::CrdDoc = serde_json::from_value(obj.clone())
            .map_err(|e| Resp::bad_request(&format!("invalid CustomResourceDefinition: {e}")))?;
        reg.add_crd(&doc).map_err(|e| Resp::bad_request(&e.to_string()))?;
    }
    drop(reg);
    inner.disco.lock().expect("disco lock").clear();
    Ok(())
}

/// Runs the on_write hooks on a written custom resource and stores their changes.
pub(crate) fn run_hooks(inner: &Inner, def: &ResourceDef, api_version: &str, written: &Value) {
    let hooks: Vec<_> = inner.hooks.read().expect("hooks lock").clone();
    if hooks.is_empty() {
        return;
    }
    let mut obj = written.clone();
    for h in &hooks {
        h(&mut obj);
    }
    if obj == *written {
        return;
    }
    let ns = meta_str(written, "namespace").map(String::from);
    let Some(name) = meta_str(written, "name").map(String::from) else { return };
    let key = key_of(def, ns.as_deref(), &name);
    let mut objs = def.store.map.write().expect("store lock");
    if objs.get(&key).is_none() {
        return;
    }
    // A controller that removes the last finalizer of an object being deleted deletes it.
    let finalizers_empty = obj.pointer("/metadata/finalizers").and_then(Value::as_array).is_none_or(Vec::is_empty);
    if obj.pointer("/metadata/deletionTimestamp").is_some() && finalizers_empty {
        let rv = inner.next_rv();
        objs.remove(&key, rv, None);
        drop(objs);
        crate::cleanup::finish(inner, &def.group, &def.plural);
        return;
    }
    let spec_changed = obj.get("spec") != written.get("spec");
    let rv = inner.next_rv();
    obj["apiVersion"] = json!(api_version);
    obj["kind"] = json!(def.kind);
    let m = meta_mut(&mut obj);
    m.insert("resourceVersion".into(), json!(rv.to_string()));
    if spec_changed && let Some(g) = m.get("generation").and_then(Value::as_i64) {
        m.insert("generation".into(), json!(g + 1));
    }
    objs.insert(key, Entry::new(&obj, &def.selectable, rv));
}
