//! `PUT` and `PATCH` (merge, JSON, server-side apply): the update rules (resourceVersion,
//! generation, status), and who owns which field after the write (see [`crate::managed`]).

use crate::Inner;
use crate::crd::ResourceDef;
use crate::create::{Counted, create_value};
use crate::fieldset::Scope;
use crate::managed::{self, Writer};
use crate::ops::{WriteOpts, Written, check_kind, key_of, meta_mut, meta_str, parse_body, sync_crd};
use crate::resp::Resp;
use crate::store::Entry;
use crate::util::{self, PatchError};
use serde_json::{Value, json};

/// The object a `PUT` or `PATCH` is about.
pub(crate) struct Target<'a> {
    pub inner: &'a Inner,
    pub def: &'a ResourceDef,
    pub api_version: &'a str,
    pub ns: Option<&'a str>,
    pub name: &'a str,
    pub sub: Option<&'a str>,
}

impl Target<'_> {
    fn scope(&self) -> Scope {
        if self.sub == Some("status") { Scope::Status } else { Scope::Main(self.def.status_subresource) }
    }

    fn writer<'a>(&'a self, opts: &'a WriteOpts) -> Writer<'a> {
        Writer { manager: &opts.manager, api_version: self.api_version, scope: self.scope(), now: util::now_rfc3339() }
    }
}

/// How a write's fields are counted: as an Update of the writer, or as the apply that already
/// counted them (its managed fields ride in the new object).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Track {
    Update,
    Applied,
}

/// Refuses a new object whose resourceVersion, name or namespace contradict the request.
fn check_identity(t: &Target, current: &Value, new: &Value, require_rv: bool) -> Result<(), Resp> {
    let (def, name) = (t.def, t.name);
    if !new.is_object() {
        return Err(Resp::bad_request("couldn't get version/kind; json parse error: expected an object"));
    }
    let cur_rv = meta_str(current, "resourceVersion").unwrap_or_default();
    match meta_str(new, "resourceVersion") {
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
    if let Some(n) = meta_str(new, "name")
        && n != name
    {
        return Err(Resp::bad_request(&format!(
            "the name of the object ({n}) does not match the name on the URL ({name})"
        )));
    }
    if def.namespaced
        && let (Some(b), Some(u)) = (meta_str(new, "namespace"), t.ns)
        && b != u
    {
        return Err(Resp::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    Ok(())
}

/// `status` of `from` put into `into` (or removed from it).
fn carry_status(into: &mut Value, from: &Value) {
    match from.get("status") {
        Some(s) => into["status"] = s.clone(),
        None => {
            into.as_object_mut().expect("object").remove("status");
        }
    }
}

/// Applies the update rules to `new` (the client's intended object) given `current`: the status
/// subresource changes only `status`, the main resource keeps the server's metadata (and a
/// subresource's status), and a changed spec bumps the generation.
fn merge_update(def: &ResourceDef, sub: Option<&str>, current: &Value, mut new: Value) -> Value {
    if sub == Some("status") {
        let mut out = current.clone();
        carry_status(&mut out, &new);
        return out;
    }
    new["apiVersion"] = current["apiVersion"].clone();
    new["kind"] = current["kind"].clone();
    if def.status_subresource {
        carry_status(&mut new, current);
    }
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
            Some(v) => m.insert(f.into(), v.clone()),
            None => m.remove(f),
        };
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
    new
}

/// Shared path of PUT and PATCH: read current, compute new via `f`, apply update rules, count
/// the managed fields, store (unless dry-run or no-op). Removes the object when a pending
/// deletion has lost its last finalizer.
fn write(
    t: &Target,
    opts: &WriteOpts,
    require_rv: bool,
    track: Track,
    f: impl FnOnce(Value) -> Result<Value, Resp>,
) -> Result<Written, Resp> {
    let (inner, def) = (t.inner, t.def);
    let key = key_of(def, t.ns, t.name);
    let mut objs = def.store.map.write().expect("store lock");
    let cur = objs.get(&key).ok_or_else(|| Resp::not_found(def, t.name))?.to_value(t.api_version, &def.kind);
    let new = f(cur.clone())?;
    check_identity(t, &cur, &new, require_rv)?;
    let applied = new.pointer("/metadata/managedFields").cloned();
    let mut out = merge_update(def, t.sub, &cur, new);
    match (track, applied) {
        (Track::Update, _) => managed::track_update(&cur, &mut out, &t.writer(opts)),
        (Track::Applied, Some(mf)) => {
            meta_mut(&mut out).insert("managedFields".into(), mf);
        }
        (Track::Applied, None) => {
            meta_mut(&mut out).remove("managedFields");
        }
    }
    if t.sub.is_none() {
        crate::admission::admit(inner, def, "UPDATE", t.ns, &out, Some(&cur))?;
    }
    if out == cur {
        return Ok(Written { obj: cur, changed: false, created: false });
    }
    if opts.dry_run {
        return Ok(Written { obj: out, changed: false, created: false });
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
    Ok(Written { obj: out, changed: true, created: false })
}

/// `PUT` (main resource or status).
pub(crate) fn update(t: &Target, body: &[u8], opts: &WriteOpts) -> Result<Written, Resp> {
    let mut obj = parse_body(body)?;
    check_kind(t.def, t.api_version, &mut obj)?;
    write(t, opts, true, Track::Update, |_| Ok(obj))
}

/// The kinds of `PATCH`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Merge,
    Json,
    Apply,
}

fn patch_kind(def: &ResourceDef, ctype: &str) -> Result<Kind, Resp> {
    match ctype.split(';').next().unwrap_or_default().trim() {
        "application/merge-patch+json" => Ok(Kind::Merge),
        "application/json-patch+json" => Ok(Kind::Json),
        "application/strategic-merge-patch+json" if def.builtin => Ok(Kind::Merge),
        "application/apply-patch+yaml" | "application/apply-patch+cbor" => Ok(Kind::Apply),
        _ => Err(Resp::status(
            415,
            "UnsupportedMediaType",
            &format!(
                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml{}",
                if def.builtin { ", application/strategic-merge-patch+json" } else { "" }
            ),
            None,
            None,
        )),
    }
}

/// The patch options kube-apiserver refuses (apimachinery `apis/meta/v1/validation`
/// `ValidatePatchOptions`): an apply without a field manager, `force` on another patch.
fn check_patch_options(kind: Kind, opts: &WriteOpts) -> Result<(), Resp> {
    let (field, detail) = match kind {
        Kind::Apply if !opts.manager_given => ("fieldManager", "Required value: is required for apply patch"),
        Kind::Merge | Kind::Json if opts.force.is_some() => {
            ("force", "Forbidden: may not be specified for non-apply patch")
        }
        _ => return Ok(()),
    };
    let cause = if field == "force" { "FieldValueForbidden" } else { "FieldValueRequired" };
    let causes = format!(
        "\"causes\":[{{\"reason\":{},\"message\":{},\"field\":{}}}]",
        json!(cause),
        json!(detail),
        json!(field)
    );
    let message = format!("PatchOptions.meta.k8s.io \"\" is invalid: {field}: {detail}");
    Err(Resp::status(422, "Invalid", &message, Some(("", "meta.k8s.io", "PatchOptions")), Some(causes)))
}

/// `PATCH` with merge, JSON, strategic (built-ins only, approximated as merge) or server-side
/// apply patches.
pub(crate) fn patch(t: &Target, ctype: &str, body: &[u8], opts: &WriteOpts) -> Result<Written, Resp> {
    let kind = patch_kind(t.def, ctype)?;
    check_patch_options(kind, opts)?;
    if kind == Kind::Apply {
        return apply(t, body, opts);
    }
    let patch: Value = util::parse_json(body).map_err(|e| Resp::bad_request(&format!("error decoding patch: {e}")))?;
    write(t, opts, false, Track::Update, |mut cur| {
        match kind {
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
            _ => {
                if !patch.is_object() {
                    return Err(Resp::bad_request(
                        "json: cannot unmarshal into Go value of type map[string]interface {}",
                    ));
                }
                util::merge_patch(&mut cur, &patch);
            }
        }
        Ok(cur)
    })
}

/// Server-side apply: creates the object when it is missing, else merges the body and counts
/// its fields as the applier's (see [`crate::managed::apply`]).
fn apply(t: &Target, body: &[u8], opts: &WriteOpts) -> Result<Written, Resp> {
    let text = std::str::from_utf8(body).map_err(|_| Resp::bad_request("apply patch is not UTF-8"))?;
    let mut config: Value =
        serde_saphyr::from_str(text).map_err(|e| Resp::bad_request(&format!("error decoding YAML: {e}")))?;
    if !config.is_object() {
        return Err(Resp::bad_request("json: cannot unmarshal into Go value of type map[string]interface {}"));
    }
    check_kind(t.def, t.api_version, &mut config)?;
    let force = opts.force == Some(true);
    let w = t.writer(opts);
    let exists = t.def.store.map.read().expect("store lock").get(&key_of(t.def, t.ns, t.name)).is_some();
    if !exists && t.sub.is_none() {
        let mut obj = managed::apply(&Value::Null, &config, &w, force)?;
        obj["apiVersion"] = json!(t.api_version);
        obj["kind"] = json!(t.def.kind);
        meta_mut(&mut obj).insert("name".into(), json!(t.name));
        let v = create_value(t.inner, t.def, t.api_version, t.ns, obj, opts, Counted::Yes)?;
        return Ok(Written { obj: v, changed: !opts.dry_run, created: true });
    }
    write(t, opts, false, Track::Applied, |cur| managed::apply(&cur, &config, &w, force))
}
