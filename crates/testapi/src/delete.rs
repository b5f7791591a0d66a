//! `DELETE` of one object or a collection: finalizers keep an object with a
//! `deletionTimestamp`, preconditions are checked, a CRD's deletion waits for its objects.

use crate::Inner;
use crate::crd::ResourceDef;
use crate::list::ListQuery;
use crate::ops::{key_of, meta_mut, meta_str, sync_crd};
use crate::resp::Resp;
use crate::store::Entry;
use crate::util;
use serde_json::{Value, json};

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
        check_preconditions(def, name, &cur, p)?;
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

/// The preconditions of a delete (`resourceVersion`, `uid`): a moved or re-created object is a 409.
fn check_preconditions(def: &ResourceDef, name: &str, cur: &Value, p: &Value) -> Result<(), Resp> {
    if let Some(rv) = p.get("resourceVersion").and_then(Value::as_str)
        && Some(rv) != meta_str(cur, "resourceVersion")
    {
        return Err(Resp::status(
            409,
            "Conflict",
            &format!(
                "Operation cannot be fulfilled on {} {}: the ResourceVersion in the precondition ({rv}) does not match the ResourceVersion in record ({}). The object might have been modified",
                def.qualified(),
                json!(name),
                meta_str(cur, "resourceVersion").unwrap_or_default()
            ),
            Some((name, &def.group, &def.plural)),
            None,
        ));
    }
    if let Some(uid) = p.get("uid").and_then(Value::as_str)
        && Some(uid) != meta_str(cur, "uid")
    {
        return Err(Resp::status(
            409,
            "Conflict",
            &format!(
                "Operation cannot be fulfilled on {} {}: the UID in the precondition ({uid}) does not match the UID in record ({}). The object might have been deleted and then recreated",
                def.qualified(),
                json!(name),
                meta_str(cur, "uid").unwrap_or_default()
            ),
            Some((name, &def.group, &def.plural)),
            None,
        ));
    }
    Ok(())
}
