//! Object operations (insert, list, get, create, update, patch, delete) with the
//! apiserver's semantics for resourceVersion, generation, status and dry-run.

use crate::Inner;
use crate::crd::ResourceDef;
use crate::resp::Resp;
use crate::selector::{FieldSelector, LabelSelector};
use crate::store::{Entry, prefix};
use crate::util::{self, PatchError};
use serde_json::{Map, Value, json};
use std::ops::Bound;
use std::sync::Arc;

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

fn meta_mut(obj: &mut Value) -> &mut Map<String, Value> {
    if !obj.get("metadata").is_some_and(Value::is_object) {
        obj["metadata"] = json!({});
    }
    obj["metadata"].as_object_mut().expect("metadata object")
}

fn meta_str<'a>(obj: &'a Value, field: &str) -> Option<&'a str> {
    obj.get("metadata")?.get(field)?.as_str()
}

fn key_of(def: &ResourceDef, ns: Option<&str>, name: &str) -> (String, String) {
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

/// Parsed list query parameters.
#[derive(Debug, Default)]
pub(crate) struct ListQuery {
    pub limit: usize,
    pub cont: Option<String>,
    pub label: LabelSelector,
    pub field: FieldSelector,
    /// The client asked for metadata only (`as=PartialObjectMetadataList`).
    pub meta_only: bool,
}

/// The decoded position of a continue token.
struct Token {
    rv: u64,
    key: (String, String),
    consumed: usize,
}

fn encode_token(def: &ResourceDef, rv: u64, key: &(String, String), consumed: usize) -> String {
    let start = if def.namespaced { format!("{}/{}\u{0}", key.0, key.1) } else { format!("{}\u{0}", key.1) };
    util::b64_encode(json!({"v": "meta.k8s.io/v1", "rv": rv, "start": start, "n": consumed}).to_string().as_bytes())
}

fn decode_token(def: &ResourceDef, tok: &str) -> Result<Token, Resp> {
    let bad = |why: &str| Resp::bad_request(&format!("continue key is not valid: {why}"));
    let raw = util::b64_decode(tok).ok_or_else(|| bad("illegal base64 data"))?;
    let v: Value =
        util::parse_json(&raw).map_err(|_| bad("incorrect encoded start resourceVersion (version meta.k8s.io/v1)"))?;
    if v.get("v").and_then(Value::as_str) != Some("meta.k8s.io/v1") {
        return Err(bad("server does not recognize this encoded key"));
    }
    let rv = v
        .get("rv")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad("incorrect encoded start resourceVersion (version meta.k8s.io/v1)"))?;
    let start = v.get("start").and_then(Value::as_str).ok_or_else(|| bad("encoded key is empty"))?;
    let start = start.strip_suffix('\u{0}').unwrap_or(start);
    let key = if def.namespaced {
        let (ns, name) = start.split_once('/').ok_or_else(|| bad("encoded key is not valid"))?;
        (ns.to_string(), name.to_string())
    } else {
        (String::new(), start.to_string())
    };
    Ok(Token { rv, key, consumed: v.get("n").and_then(Value::as_u64).unwrap_or(0) as usize })
}

/// Answers a list request with a `<Kind>List` body built from pre-serialized items.
/// The store lock is held only while picking entries, not while writing the body.
pub(crate) fn list(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    q: &ListQuery,
) -> Result<Vec<u8>, Resp> {
    let (picked, meta) = page(inner, def, ns, q)?;
    let size: usize = picked.iter().map(|e| e.rest.len() + 64 + api_version.len() + def.kind.len()).sum();
    let mut out = Vec::with_capacity(size + 256);
    out.extend_from_slice(
        format!(
            "{{\"apiVersion\":{},\"kind\":{},\"metadata\":{meta},\"items\":[",
            json!(if q.meta_only { "meta.k8s.io/v1" } else { api_version }),
            json!(if q.meta_only { "PartialObjectMetadataList" } else { def.list_kind.as_str() })
        )
        .as_bytes(),
    );
    let pfx = prefix(api_version, &def.kind);
    for (i, e) in picked.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if q.meta_only {
            e.write_meta(&mut out);
        } else {
            e.write_json(&mut out, if def.builtin { None } else { Some(&pfx) });
        }
    }
    out.extend_from_slice(b"]}");
    Ok(out)
}

/// Picks one page of matching entries (the store lock is held only while picking)
/// and renders the list metadata (`resourceVersion`, `continue`, `remainingItemCount`).
pub(crate) fn page(
    inner: &Inner,
    def: &ResourceDef,
    ns: Option<&str>,
    q: &ListQuery,
) -> Result<(Vec<Arc<Entry>>, String), Resp> {
    let token = q.cont.as_deref().filter(|c| !c.is_empty()).map(|c| decode_token(def, c)).transpose()?;
    let ns = if def.namespaced { ns } else { None };
    let filtered = !q.label.is_empty() || !q.field.is_empty();
    let list_rv = token.as_ref().map_or_else(|| inner.current_rv(), |t| t.rv);
    let consumed_before = token.as_ref().map_or(0, |t| t.consumed);
    let mut picked: Vec<Arc<Entry>> = vec![];
    let mut last_key: Option<(String, String)> = None;
    let mut more = false;
    let remaining;
    {
        let objs = def.store.map.read().expect("store lock");
        let lower = match (&token, ns) {
            (Some(t), _) => Bound::Excluded(t.key.clone()),
            (None, Some(n)) => Bound::Included((n.to_string(), String::new())),
            (None, None) => Bound::Unbounded,
        };
        let matches = |key: &(String, String), e: &Entry| -> bool {
            q.label.matches(&e.labels) && (q.field.is_empty() || q.field.matches(|p| e.field(key, p)))
        };
        for (key, e) in objs.items.range((lower, Bound::Unbounded)) {
            if let Some(n) = ns
                && key.0 != n
            {
                break;
            }
            if !matches(key, e) {
                continue;
            }
            if q.limit > 0 && picked.len() == q.limit {
                more = true;
                break;
            }
            picked.push(e.clone());
            last_key = Some(key.clone());
        }
        remaining = objs.count(ns).saturating_sub(consumed_before + picked.len());
    }
    let mut meta = format!("{{\"resourceVersion\":\"{list_rv}\"");
    if more && let Some(k) = &last_key {
        meta.push_str(&format!(",\"continue\":\"{}\"", encode_token(def, list_rv, k, consumed_before + picked.len())));
        if !filtered {
            meta.push_str(&format!(",\"remainingItemCount\":{remaining}"));
        }
    }
    meta.push('}');
    Ok((picked, meta))
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

fn parse_body(body: &[u8]) -> Result<Value, Resp> {
    let v: Value = util::parse_json(body)
        .map_err(|e| Resp::bad_request(&format!("couldn't get version/kind; json parse error: {e}")))?;
    if !v.is_object() {
        return Err(Resp::bad_request("couldn't get version/kind; json parse error: expected an object"));
    }
    Ok(v)
}

fn check_kind(def: &ResourceDef, api_version: &str, obj: &mut Value) -> Result<(), Resp> {
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
fn sync_crd(inner: &Inner, def: &ResourceDef, obj: &Value, deleted: bool) -> Result<(), Resp> {
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

/// `POST`: creates an object (201), 409 AlreadyExists if present.
pub(crate) fn create(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    body: &[u8],
    dry_run: bool,
) -> Result<Value, Resp> {
    if let Some(refused) = crate::cleanup::refuses_create(inner, def) {
        return Err(refused);
    }
    let mut obj = parse_body(body)?;
    check_kind(def, api_version, &mut obj)?;
    let body_ns = meta_str(&obj, "namespace").map(String::from);
    if def.namespaced
        && let (Some(b), Some(u)) = (&body_ns, ns)
        && b != u
    {
        return Err(Resp::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    let name = match (meta_str(&obj, "name"), meta_str(&obj, "generateName")) {
        (Some(n), _) if !n.is_empty() => n.to_string(),
        (_, Some(g)) if !g.is_empty() => format!("{g}{}", util::random_suffix()),
        _ => {
            return Err(Resp::invalid(
                def,
                "",
                "metadata.name",
                "FieldValueRequired",
                "Required value: name or generateName is required",
            ));
        }
    };
    let ns_name = if def.namespaced { ns.map(String::from).or(body_ns) } else { None };
    if def.namespaced && ns_name.is_none() {
        return Err(Resp::bad_request("the server could not find the requested resource: a namespace is required"));
    }
    if let Some(n) = &ns_name {
        let ns_def = def_for(inner, "v1", "Namespace").map_err(|e| Resp::bad_request(&e))?;
        if ns_def.store.map.read().expect("store lock").get(&(String::new(), n.clone())).is_none() {
            return Err(Resp::not_found(&ns_def, n));
        }
    }
    {
        let m = meta_mut(&mut obj);
        m.insert("name".into(), json!(name));
        match &ns_name {
            Some(n) => {
                m.insert("namespace".into(), json!(n));
            }
            None => {
                m.remove("namespace");
            }
        }
        m.insert("uid".into(), json!(util::new_uid()));
        m.insert("creationTimestamp".into(), json!(util::now_rfc3339()));
        m.remove("deletionTimestamp");
        m.remove("deletionGracePeriodSeconds");
        m.remove("resourceVersion");
        if !def.builtin || def.plural == "customresourcedefinitions" {
            m.insert("generation".into(), json!(1));
        }
    }
    if def.status_subresource && !def.builtin {
        obj.as_object_mut().expect("object").remove("status");
    }
    if def.plural == "namespaces" && def.builtin {
        obj["status"] = json!({"phase": "Active"});
    }
    let key = key_of(def, ns_name.as_deref(), &name);
    let mut objs = def.store.map.write().expect("store lock");
    if objs.get(&key).is_some() {
        return Err(Resp::already_exists(def, &name));
    }
    crate::admission::admit(inner, def, "CREATE", ns_name.as_deref(), &obj, None)?;
    if dry_run {
        return Ok(obj);
    }
    let rv = inner.next_rv();
    meta_mut(&mut obj).insert("resourceVersion".into(), json!(rv.to_string()));
    objs.insert(key, Entry::new(&obj, &def.selectable, rv));
    drop(objs);
    sync_crd(inner, def, &obj, false)?;
    Ok(obj)
}

/// Applies the update rules to `new` (the client's intended object) given `current`.
fn merge_update(
    def: &ResourceDef,
    name: &str,
    ns: Option<&str>,
    sub: Option<&str>,
    current: &Value,
    mut new: Value,
    require_rv: bool,
) -> Result<Value, Resp> {
    if !new.is_object() {
        return Err(Resp::bad_request("couldn't get version/kind; json parse error: expected an object"));
    }
    let cur_rv = meta_str(current, "resourceVersion").unwrap_or_default();
    match meta_str(&new, "resourceVersion") {
        Some(rv) if !rv.is_empty() && rv != cur_rv => return Err(Resp::conflict(def, name)),
        Some(rv) if !rv.is_empty() => {}
        _ if require_rv && !def.builtin => {
            return Err(Resp::invalid(
                def,
                name,
                "metadata.resourceVersion",
                "FieldValueInvalid",
                "Invalid value: 0x0: must be specified for an update",
            ));
        }
        _ => {}
    }
    if let Some(n) = meta_str(&new, "name")
        && n != name
    {
        return Err(Resp::bad_request(&format!(
            "the name of the object ({n}) does not match the name on the URL ({name})"
        )));
    }
    if def.namespaced
        && let (Some(b), Some(u)) = (meta_str(&new, "namespace"), ns)
        && b != u
    {
        return Err(Resp::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    if sub == Some("status") {
        let mut out = current.clone();
        match new.get("status") {
            Some(s) => out["status"] = s.clone(),
            None => {
                out.as_object_mut().expect("object").remove("status");
            }
        }
        return Ok(out);
    }
    new["apiVersion"] = current["apiVersion"].clone();
    new["kind"] = current["kind"].clone();
    if def.status_subresource {
        match current.get("status") {
            Some(s) => new["status"] = s.clone(),
            None => {
                new.as_object_mut().expect("object").remove("status");
            }
        }
    }
    {
        let cm = current.get("metadata").and_then(Value::as_object).cloned().unwrap_or_default();
        let m = meta_mut(&mut new);
        for f in [
            "uid",
            "creationTimestamp",
            "generation",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "namespace",
            "name",
            "resourceVersion",
        ] {
            match cm.get(f) {
                Some(v) => {
                    m.insert(f.into(), v.clone());
                }
                None => {
                    m.remove(f);
                }
            }
        }
    }
    let strip = |v: &Value| -> Value {
        let mut v = v.clone();
        if let Some(m) = v.as_object_mut() {
            m.remove("metadata");
            if def.status_subresource {
                m.remove("status");
            }
        }
        v
    };
    if strip(&new) != strip(current)
        && let Some(g) = current.pointer("/metadata/generation").and_then(Value::as_i64)
    {
        meta_mut(&mut new).insert("generation".into(), json!(g + 1));
    }
    Ok(new)
}

/// Outcome of a write: the object to answer with, and whether it changed.
pub(crate) struct Written {
    pub obj: Value,
    pub changed: bool,
}

/// Shared path of PUT and PATCH: read current, compute new via `f`, apply update
/// rules, store (unless dry-run or no-op). Removes the object when a pending
/// deletion has lost its last finalizer.
#[allow(clippy::too_many_arguments)]
fn write(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    name: &str,
    sub: Option<&str>,
    dry_run: bool,
    require_rv: bool,
    f: impl FnOnce(Value) -> Result<Value, Resp>,
) -> Result<Written, Resp> {
    let key = key_of(def, ns, name);
    let mut objs = def.store.map.write().expect("store lock");
    let cur = objs.get(&key).ok_or_else(|| Resp::not_found(def, name))?.to_value(api_version, &def.kind);
    let new = f(cur.clone())?;
    let mut out = merge_update(def, name, ns, sub, &cur, new, require_rv)?;
    if sub.is_none() {
        crate::admission::admit(inner, def, "UPDATE", ns, &out, Some(&cur))?;
    }
    if out == cur {
        return Ok(Written { obj: cur, changed: false });
    }
    if dry_run {
        return Ok(Written { obj: out, changed: false });
    }
    let rv = inner.next_rv();
    meta_mut(&mut out).insert("resourceVersion".into(), json!(rv.to_string()));
    let finalizers_empty = out.pointer("/metadata/finalizers").and_then(Value::as_array).is_none_or(Vec::is_empty);
    let deleted = out.pointer("/metadata/deletionTimestamp").is_some() && finalizers_empty;
    if deleted {
        objs.remove(&key, rv, Some(Entry::new(&out, &def.selectable, rv)));
    } else {
        objs.insert(key, Entry::new(&out, &def.selectable, rv));
    }
    drop(objs);
    sync_crd(inner, def, &out, deleted)?;
    if deleted && !def.builtin {
        crate::cleanup::finish(inner, &def.group, &def.plural);
    }
    Ok(Written { obj: out, changed: true })
}

/// `PUT` (main resource or status).
#[allow(clippy::too_many_arguments)]
pub(crate) fn update(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    name: &str,
    sub: Option<&str>,
    body: &[u8],
    dry_run: bool,
) -> Result<Written, Resp> {
    let mut obj = parse_body(body)?;
    check_kind(def, api_version, &mut obj)?;
    write(inner, def, api_version, ns, name, sub, dry_run, true, |_| Ok(obj))
}

/// `PATCH` with merge, JSON, strategic (built-ins only, approximated as merge)
/// or apply (approximated as merge) patches.
#[allow(clippy::too_many_arguments)]
pub(crate) fn patch(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    name: &str,
    sub: Option<&str>,
    ctype: &str,
    body: &[u8],
    dry_run: bool,
) -> Result<Written, Resp> {
    let ct = ctype.split(';').next().unwrap_or_default().trim();
    enum Kind {
        Merge,
        Json,
        Apply,
    }
    let kind = match ct {
        "application/merge-patch+json" => Kind::Merge,
        "application/json-patch+json" => Kind::Json,
        "application/strategic-merge-patch+json" if def.builtin => Kind::Merge,
        "application/apply-patch+yaml" | "application/apply-patch+cbor" => Kind::Apply,
        _ => {
            return Err(Resp::status(
                415,
                "UnsupportedMediaType",
                &format!(
                    "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml{}",
                    if def.builtin { ", application/strategic-merge-patch+json" } else { "" }
                ),
                None,
                None,
            ));
        }
    };
    let patch: Value = match kind {
        Kind::Apply => {
            let text = std::str::from_utf8(body).map_err(|_| Resp::bad_request("apply patch is not UTF-8"))?;
            serde_saphyr::from_str(text).map_err(|e| Resp::bad_request(&format!("error decoding YAML: {e}")))?
        }
        _ => util::parse_json(body).map_err(|e| Resp::bad_request(&format!("error decoding patch: {e}")))?,
    };
    if matches!(kind, Kind::Apply) {
        let key = key_of(def, ns, name);
        let exists = def.store.map.read().expect("store lock").get(&key).is_some();
        if !exists && sub.is_none() {
            let mut obj = patch.clone();
            if let Some(m) = obj.as_object_mut() {
                let md = m.entry("metadata").or_insert(json!({}));
                md["name"] = json!(name);
            }
            let v = create(inner, def, api_version, ns, &util::to_json(&obj), dry_run)?;
            return Ok(Written { obj: v, changed: !dry_run });
        }
    }
    write(inner, def, api_version, ns, name, sub, dry_run, false, |mut cur| {
        match kind {
            Kind::Merge | Kind::Apply => {
                if !patch.is_object() {
                    return Err(Resp::bad_request(
                        "json: cannot unmarshal into Go value of type map[string]interface {}",
                    ));
                }
                util::merge_patch(&mut cur, &patch);
            }
            Kind::Json => util::json_patch(&mut cur, &patch).map_err(|e| match e {
                PatchError::Malformed(m) => Resp::bad_request(&m),
                PatchError::Apply(m) => Resp::status(
                    422,
                    "Invalid",
                    "the server rejected our request due to an error in our request",
                    None,
                    Some(format!("\"causes\":[{{\"reason\":\"UnexpectedServerResponse\",\"message\":{}}}]", json!(m))),
                ),
            })?,
        }
        Ok(cur)
    })
}

/// `DELETE`: removes the object, or marks it deleting when it has finalizers.
pub(crate) fn delete(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    name: &str,
    body: &[u8],
    dry_run: bool,
) -> Result<Value, Resp> {
    let opts: Value =
        if body.iter().all(u8::is_ascii_whitespace) { json!({}) } else { util::parse_json(body).unwrap_or(json!({})) };
    let dry_run = dry_run || opts.get("dryRun").and_then(Value::as_array).is_some_and(|a| a.iter().any(|x| x == "All"));
    if crate::cleanup::is_crds(def) && opts.get("preconditions").is_none() {
        return crate::cleanup::delete_crd(inner, def, api_version, name, dry_run);
    }
    let key = key_of(def, ns, name);
    let mut objs = def.store.map.write().expect("store lock");
    let mut cur = objs.get(&key).ok_or_else(|| Resp::not_found(def, name))?.to_value(api_version, &def.kind);
    if let Some(p) = opts.get("preconditions") {
        if let Some(rv) = p.get("resourceVersion").and_then(Value::as_str)
            && Some(rv) != meta_str(&cur, "resourceVersion")
        {
            return Err(Resp::status(
                409,
                "Conflict",
                &format!(
                    "Operation cannot be fulfilled on {} {}: the ResourceVersion in the precondition ({rv}) does not match the ResourceVersion in record ({}). The object might have been modified",
                    def.qualified(),
                    json!(name),
                    meta_str(&cur, "resourceVersion").unwrap_or_default()
                ),
                Some((name, &def.group, &def.plural)),
                None,
            ));
        }
        if let Some(uid) = p.get("uid").and_then(Value::as_str)
            && Some(uid) != meta_str(&cur, "uid")
        {
            return Err(Resp::status(
                409,
                "Conflict",
                &format!(
                    "Operation cannot be fulfilled on {} {}: the UID in the precondition ({uid}) does not match the UID in record ({}). The object might have been deleted and then recreated",
                    def.qualified(),
                    json!(name),
                    meta_str(&cur, "uid").unwrap_or_default()
                ),
                Some((name, &def.group, &def.plural)),
                None,
            ));
        }
    }
    let has_finalizers = cur.pointer("/metadata/finalizers").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
    if has_finalizers {
        if cur.pointer("/metadata/deletionTimestamp").is_none() {
            let gen_ = cur.pointer("/metadata/generation").and_then(Value::as_i64);
            let m = meta_mut(&mut cur);
            m.insert("deletionTimestamp".into(), json!(util::now_rfc3339()));
            m.insert("deletionGracePeriodSeconds".into(), json!(0));
            if let Some(g) = gen_ {
                m.insert("generation".into(), json!(g + 1));
            }
            if !dry_run {
                let rv = inner.next_rv();
                meta_mut(&mut cur).insert("resourceVersion".into(), json!(rv.to_string()));
                objs.insert(key, Entry::new(&cur, &def.selectable, rv));
            }
        }
        return Ok(cur);
    }
    if !dry_run {
        let rv = inner.next_rv();
        objs.remove(&key, rv, None);
        drop(objs);
        sync_crd(inner, def, &cur, true)?;
        if !def.builtin {
            crate::cleanup::finish(inner, &def.group, &def.plural);
        }
    }
    Ok(cur)
}

/// `DELETE` on a collection: deletes every object matching the selectors.
pub(crate) fn delete_collection(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    q: &ListQuery,
    body: &[u8],
    dry_run: bool,
) -> Result<Vec<u8>, Resp> {
    let names: Vec<(String, String)> = {
        let objs = def.store.map.read().expect("store lock");
        objs.items
            .iter()
            .filter(|(k, e)| {
                (!def.namespaced || ns.is_none_or(|n| n == k.0))
                    && q.label.matches(&e.labels)
                    && q.field.matches(|p| e.field(k, p))
            })
            .map(|(k, _)| k.clone())
            .collect()
    };
    let mut items = vec![];
    for (kns, name) in names {
        let n = if def.namespaced { Some(kns.as_str()) } else { None };
        if let Ok(v) = delete(inner, def, api_version, n, &name, body, dry_run) {
            items.push(v);
        }
    }
    let out = json!({"apiVersion": api_version, "kind": def.list_kind, "metadata": {"resourceVersion": inner.current_rv().to_string()}, "items": items});
    Ok(util::to_json(&out))
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
