//! Lists: one page of a resource's objects at a time, with opaque `continue` tokens,
//! `remainingItemCount` and label and field selectors, as the apiserver pages them.

use crate::Inner;
use crate::crd::ResourceDef;
use crate::resp::Resp;
use crate::selector::{FieldSelector, LabelSelector};
use crate::store::{Entry, prefix};
use crate::util;
use serde_json::{Value, json};
use std::ops::Bound;
use std::sync::Arc;

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
