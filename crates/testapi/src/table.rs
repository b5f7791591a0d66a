//! Server-side printing (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`)
//! for custom resources, from the CRD's `additionalPrinterColumns`, as the
//! apiextensions apiserver does it (so `kubectl get` shows SYNCED/READY/AGE).

use crate::crd::{PrinterColumn, ResourceDef};
use crate::list::{self, ListQuery};
use crate::resp::Resp;
use crate::store::Entry;
use crate::{Inner, util};
use serde_json::{Value, json};
use std::sync::Arc;

/// The Table media type the request accepts (`v1` or `v1beta1`), if any.
pub(crate) fn wants_table(accept: &str) -> Option<&'static str> {
    for range in accept.split(',') {
        let params: Vec<&str> = range.split(';').map(str::trim).collect();
        if params.first() != Some(&"application/json")
            || !params.contains(&"as=Table")
            || !params.contains(&"g=meta.k8s.io")
        {
            continue;
        }
        if params.contains(&"v=v1") {
            return Some("v1");
        }
        if params.contains(&"v=v1beta1") {
            return Some("v1beta1");
        }
    }
    None
}

/// One step of a (Kubernetes-flavoured) JSONPath.
#[derive(Debug)]
enum Step {
    Field(String),
    Index(usize),
    All,
    /// `[?(@.a.b=='x')]` / `!=`
    Filter(Vec<String>, bool, Value),
}

fn parse_path(path: &str) -> Option<Vec<Step>> {
    let p = path.trim().trim_start_matches('{').trim_end_matches('}');
    let b: Vec<char> = p.chars().collect();
    let mut steps = vec![];
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            '.' => {
                i += 1;
                let mut name = String::new();
                while i < b.len() && b[i] != '.' && b[i] != '[' {
                    if b[i] == '\\' && i + 1 < b.len() {
                        i += 1;
                    }
                    name.push(b[i]);
                    i += 1;
                }
                if !name.is_empty() {
                    steps.push(Step::Field(name));
                }
            }
            '[' => {
                let close = (i..b.len())
                    .find(|&j| b[j] == ']' && b[i..j].iter().filter(|c| **c == '\'').count().is_multiple_of(2))?;
                let inner: String = b[i + 1..close].iter().collect();
                let inner = inner.trim();
                if inner == "*" {
                    steps.push(Step::All);
                } else if let Some(f) = inner.strip_prefix("?(").and_then(|f| f.strip_suffix(')')) {
                    let (lhs, eq, rhs) = if let Some((l, r)) = f.split_once("==") {
                        (l, true, r)
                    } else if let Some((l, r)) = f.split_once("!=") {
                        (l, false, r)
                    } else {
                        return None;
                    };
                    let field: Vec<String> =
                        lhs.trim().strip_prefix('@')?.split('.').filter(|s| !s.is_empty()).map(String::from).collect();
                    let rhs = rhs.trim();
                    let lit = if let Some(s) = rhs.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
                        Value::String(s.to_string())
                    } else if let Some(s) = rhs.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
                        Value::String(s.to_string())
                    } else {
                        rhs.parse::<Value>().ok()?
                    };
                    steps.push(Step::Filter(field, eq, lit));
                } else if let Some(key) = inner.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
                    steps.push(Step::Field(key.to_string()));
                } else {
                    steps.push(Step::Index(inner.parse().ok()?));
                }
                i = close + 1;
            }
            _ => {
                // a bare leading name
                let mut name = String::new();
                while i < b.len() && b[i] != '.' && b[i] != '[' {
                    name.push(b[i]);
                    i += 1;
                }
                steps.push(Step::Field(name));
            }
        }
    }
    Some(steps)
}

fn eval<'a>(v: &'a Value, steps: &[Step]) -> Vec<&'a Value> {
    let mut cur = vec![v];
    for s in steps {
        let mut next = vec![];
        for c in cur {
            match s {
                Step::Field(f) => next.extend(c.get(f.as_str())),
                Step::Index(i) => next.extend(c.get(*i)),
                Step::All => match c {
                    Value::Array(a) => next.extend(a.iter()),
                    Value::Object(m) => next.extend(m.values()),
                    _ => {}
                },
                Step::Filter(field, eq, lit) => {
                    if let Value::Array(a) = c {
                        for item in a {
                            let mut x = Some(item);
                            for f in field {
                                x = x.and_then(|x| x.get(f.as_str()));
                            }
                            if (x == Some(lit)) == *eq {
                                next.push(item);
                            }
                        }
                    }
                }
            }
        }
        cur = next;
    }
    cur
}

/// Go's `duration.HumanDuration`, as used for `date` columns.
fn human_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    if secs < 0 {
        return "0s".into();
    }
    if secs < 120 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        let s = secs % 60;
        return if s == 0 { format!("{minutes}m") } else { format!("{minutes}m{s}s") };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 { format!("{hours}h") } else { format!("{hours}h{m}m") };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 { format!("{}d", hours / 24) } else { format!("{}d{h}h", hours / 24) };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        return if dy == 0 { format!("{}y", hours / 24 / 365) } else { format!("{}y{dy}d", hours / 24 / 365) };
    }
    format!("{}y", hours / 24 / 365)
}

fn cell(col_type: &str, v: Option<&Value>) -> Value {
    let Some(v) = v else { return Value::Null };
    match (col_type, v) {
        ("string", Value::String(_)) | ("boolean", Value::Bool(_)) => v.clone(),
        ("integer", Value::Number(n)) => {
            n.as_i64().map(Value::from).or_else(|| n.as_f64().map(|f| Value::from(f as i64))).unwrap_or(Value::Null)
        }
        ("number", Value::Number(n)) => n.as_f64().map(Value::from).unwrap_or(Value::Null),
        ("date", Value::String(s)) => match util::parse_rfc3339(s) {
            Some((t, _)) => Value::String(human_duration(util::now().0 - t)),
            None => Value::String("<invalid>".into()),
        },
        _ => Value::Null,
    }
}

fn columns(def: &ResourceDef) -> Vec<PrinterColumn> {
    if !def.printer_columns.is_empty() {
        return def.printer_columns.clone();
    }
    vec![PrinterColumn {
        name: "Age".into(),
        type_: "date".into(),
        json_path: ".metadata.creationTimestamp".into(),
        description: Some(
            "CreationTimestamp is a timestamp representing the server time when this object was created.".into(),
        ),
        format: None,
        priority: 0,
    }]
}

fn render(def: &ResourceDef, api_version: &str, table_version: &str, entries: &[Arc<Entry>], meta: Value) -> Vec<u8> {
    let cols = columns(def);
    let mut defs = vec![
        json!({"name": "Name", "type": "string", "format": "name", "description": "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", "priority": 0}),
    ];
    let paths: Vec<Option<Vec<Step>>> = cols.iter().map(|c| parse_path(&c.json_path)).collect();
    for c in &cols {
        defs.push(json!({"name": c.name, "type": c.type_, "format": c.format.clone().unwrap_or_default(), "description": c.description.clone().unwrap_or_default(), "priority": c.priority}));
    }
    let rows: Vec<Value> = entries
        .iter()
        .map(|e| {
            let obj = e.to_value(api_version, &def.kind);
            let mut cells = vec![obj.pointer("/metadata/name").cloned().unwrap_or(Value::Null)];
            for (c, p) in cols.iter().zip(&paths) {
                let found = p.as_ref().map(|p| eval(&obj, p)).unwrap_or_default();
                cells.push(cell(&c.type_, found.first().copied()));
            }
            json!({"cells": cells, "object": {"kind": "PartialObjectMetadata", "apiVersion": format!("meta.k8s.io/{table_version}"), "metadata": obj.get("metadata").cloned().unwrap_or(json!({}))}})
        })
        .collect();
    util::to_json(
        &json!({"kind": "Table", "apiVersion": format!("meta.k8s.io/{table_version}"), "metadata": meta, "columnDefinitions": defs, "rows": rows}),
    )
}

fn table_resp(body: Vec<u8>, table_version: &str) -> Resp {
    let mut r = Resp::raw_json(200, body);
    r.ctype = format!("application/json;as=Table;v={table_version};g=meta.k8s.io");
    r
}

/// A list answered as a Table.
pub(crate) fn list(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    q: &ListQuery,
    table_version: &str,
) -> Result<Resp, Resp> {
    let (entries, meta) = list::page(inner, def, ns, q)?;
    let meta: Value = meta.parse().unwrap_or(json!({}));
    Ok(table_resp(render(def, api_version, table_version, &entries, meta), table_version))
}

/// A single object answered as a one-row Table.
pub(crate) fn get(
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    name: &str,
    table_version: &str,
) -> Result<Resp, Resp> {
    let key = (if def.namespaced { ns.unwrap_or_default().to_string() } else { String::new() }, name.to_string());
    let e = def.store.map.read().expect("store lock").get(&key).cloned().ok_or_else(|| Resp::not_found(def, name))?;
    let rv = e.to_value(api_version, &def.kind).pointer("/metadata/resourceVersion").cloned().unwrap_or(Value::Null);
    Ok(table_resp(render(def, api_version, table_version, &[e], json!({"resourceVersion": rv})), table_version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonpath_subset() {
        let o = json!({"metadata": {"annotations": {"crossplane.io/external-name": "ext"}}, "status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "Synced", "status": "False"}]}, "a": [1, 2]});
        let get = |p: &str| eval(&o, &parse_path(p).unwrap()).first().map(|v| (*v).clone());
        assert_eq!(get(".status.conditions[?(@.type=='Synced')].status"), Some(json!("False")));
        assert_eq!(get(".status.conditions[?(@.type==\"Ready\")].status"), Some(json!("True")));
        assert_eq!(get(".metadata.annotations.crossplane\\.io/external-name"), Some(json!("ext")));
        assert_eq!(get(".a[1]"), Some(json!(2)));
        assert_eq!(get(".a[*]"), Some(json!(1)));
        assert_eq!(get(".missing.x"), None);
    }

    #[test]
    fn durations() {
        assert_eq!(human_duration(5), "5s");
        assert_eq!(human_duration(125), "2m5s");
        assert_eq!(human_duration(600), "10m");
        assert_eq!(human_duration(3 * 3600 + 60), "3h1m");
        assert_eq!(human_duration(10 * 3600), "10h");
        assert_eq!(human_duration(3 * 86400 + 3600), "3d1h");
        assert_eq!(human_duration(30 * 86400), "30d");
    }
}
