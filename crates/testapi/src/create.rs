//! `POST`: creating an object (`generateName`, namespace checks, admission), its
//! fields counted as the creating manager's.

use crate::Inner;
use crate::crd::ResourceDef;
use crate::fieldset::Scope;
use crate::managed::{self, Writer};
use crate::ops::{WriteOpts, check_kind, def_for, key_of, meta_mut, meta_str, parse_body, sync_crd};
use crate::resp::Resp;
use crate::store::Entry;
use crate::util;
use serde_json::{Value, json};

/// `POST`: creates an object (201), 409 AlreadyExists if present; its fields are the creating
/// manager's (an `Update` entry, as a create counts upstream).
pub(crate) fn create(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    body: &[u8],
    opts: &WriteOpts,
) -> Result<Value, Resp> {
    let mut obj = parse_body(body)?;
    check_kind(def, api_version, &mut obj)?;
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    create_value(inner, def, api_version, ns, obj, opts, Counted::No)
}

/// Whether an object to create already carries its managed fields (a server-side apply that
/// creates counts them itself).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counted {
    No,
    Yes,
}

/// Creates `obj` (a parsed body whose kind was checked).
pub(crate) fn create_value(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    mut obj: Value,
    opts: &WriteOpts,
    counted: Counted,
) -> Result<Value, Resp> {
    if let Some(refused) = crate::cleanup::refuses_create(inner, def) {
        return Err(refused);
    }
    let (name, ns_name) = name_and_namespace(inner, def, ns, &obj)?;
    set_server_meta(def, &mut obj, &name, ns_name.as_deref());
    if counted == Counted::No {
        let w = Writer {
            manager: &opts.manager,
            api_version,
            scope: Scope::Main(def.status_subresource),
            now: util::now_rfc3339(),
        };
        managed::track_update(&Value::Null, &mut obj, &w);
    }
    let key = key_of(def, ns_name.as_deref(), &name);
    let mut objs = def.store.map.write().expect("store lock");
    if objs.get(&key).is_some() {
        return Err(Resp::already_exists(def, &name));
    }
    crate::admission::admit(inner, def, "CREATE", ns_name.as_deref(), &obj, None)?;
    if opts.dry_run {
        return Ok(obj);
    }
    let rv = inner.next_rv();
    meta_mut(&mut obj).insert("resourceVersion".into(), json!(rv.to_string()));
    objs.insert(key, Entry::new(&obj, &def.selectable, rv));
    drop(objs);
    sync_crd(inner, def, &obj, false)?;
    Ok(obj)
}

/// The new object's name (`generateName` completed) and namespace (which must exist).
fn name_and_namespace(
    inner: &Inner,
    def: &ResourceDef,
    ns: Option<&str>,
    obj: &Value,
) -> Result<(String, Option<String>), Resp> {
    let body_ns = meta_str(obj, "namespace").map(String::from);
    if def.namespaced
        && let (Some(b), Some(u)) = (&body_ns, ns)
        && b != u
    {
        return Err(Resp::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    let name = match (meta_str(obj, "name"), meta_str(obj, "generateName")) {
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
    Ok((name, ns_name))
}

/// What the server sets on a new object: name, namespace, uid, creation time, generation; a
/// custom resource's status waits for its subresource, a namespace is Active.
fn set_server_meta(def: &ResourceDef, obj: &mut Value, name: &str, ns: Option<&str>) {
    let m = meta_mut(obj);
    m.insert("name".into(), json!(name));
    match ns {
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
    if def.status_subresource && !def.builtin {
        obj.as_object_mut().expect("object").remove("status");
    }
    if def.plural == "namespaces" && def.builtin {
        obj["status"] = json!({"phase": "Active"});
    }
}
