//! In-memory object storage. Objects are kept pre-serialized so list pages are
//! assembled by copying bytes, never by re-serializing the store.

use bytes::Bytes;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write as _;
use std::sync::{Arc, RwLock};

/// One stored object.
#[derive(Debug)]
pub(crate) struct Entry {
    /// JSON of the object without `apiVersion` and `kind`, starting with `{`.
    pub rest: Bytes,
    /// Sorted labels, for label selectors.
    pub labels: Vec<(String, String)>,
    /// Values of the resource's selectable fields (besides name/namespace).
    pub fields: Vec<(String, String)>,
    pub rv: u64,
}

/// Objects of one resource (all versions share it), ordered by (namespace, name).
#[derive(Debug, Default)]
pub(crate) struct Store {
    pub map: RwLock<Objects>,
}

impl Store {
    /// Forgets the event history up to `rv` (etcd compaction): older resumes get 410.
    pub(crate) fn compact(&self, rv: u64) {
        let mut objs = self.map.write().expect("store lock");
        objs.history.clear();
        objs.truncated_rv = objs.truncated_rv.max(rv);
    }
}

/// Kind of a watch event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventType {
    Added,
    Modified,
    Deleted,
}

/// One change of a store, as watchers see it.
#[derive(Debug)]
pub(crate) struct Event {
    pub rv: u64,
    pub kind: EventType,
    pub key: (String, String),
    pub entry: Arc<Entry>,
    /// The entry before a modification (to turn selector transitions into ADDED/DELETED).
    pub prev: Option<Arc<Entry>>,
}

/// How many events each store keeps for watches resuming from a resourceVersion.
const HISTORY: usize = 10_000;

/// The objects of a [`Store`] plus per-namespace counts (for `remainingItemCount`)
/// and the event feed for watches (mutated under the same lock, so a watcher that
/// snapshots and subscribes under the read lock misses nothing).
#[derive(Debug)]
pub(crate) struct Objects {
    pub items: BTreeMap<(String, String), Arc<Entry>>,
    pub ns_counts: HashMap<String, usize>,
    pub events: tokio::sync::broadcast::Sender<Arc<Event>>,
    pub history: VecDeque<Arc<Event>>,
    /// Events at or below this resourceVersion are no longer in `history`.
    pub truncated_rv: u64,
}

impl Default for Objects {
    fn default() -> Self {
        Self {
            items: BTreeMap::new(),
            ns_counts: HashMap::new(),
            events: tokio::sync::broadcast::channel(4096).0,
            history: VecDeque::new(),
            truncated_rv: 0,
        }
    }
}

impl Objects {
    fn emit(&mut self, ev: Event) {
        let ev = Arc::new(ev);
        if self.history.len() >= HISTORY
            && let Some(old) = self.history.pop_front()
        {
            self.truncated_rv = old.rv;
        }
        self.history.push_back(ev.clone());
        let _ = self.events.send(ev);
    }

    pub(crate) fn get(&self, key: &(String, String)) -> Option<&Arc<Entry>> {
        self.items.get(key)
    }

    /// Stores an entry (its `rv` is the event's resourceVersion).
    pub(crate) fn insert(&mut self, key: (String, String), e: Entry) {
        let ns = key.0.clone();
        let rv = e.rv;
        let e = Arc::new(e);
        let prev = self.items.insert(key.clone(), e.clone());
        if prev.is_none() {
            *self.ns_counts.entry(ns).or_default() += 1;
        }
        let kind = if prev.is_some() { EventType::Modified } else { EventType::Added };
        self.emit(Event { rv, kind, key, entry: e, prev });
    }

    /// Removes an entry at resourceVersion `rv`; `last` is the object's final state
    /// for the DELETED event (default: the stored one with `rv`).
    pub(crate) fn remove(&mut self, key: &(String, String), rv: u64, last: Option<Entry>) -> Option<Arc<Entry>> {
        let e = self.items.remove(key)?;
        if let Some(c) = self.ns_counts.get_mut(&key.0) {
            *c -= 1;
            if *c == 0 {
                self.ns_counts.remove(&key.0);
            }
        }
        let last = last.unwrap_or_else(|| e.with_rv(rv));
        self.emit(Event { rv, kind: EventType::Deleted, key: key.clone(), entry: Arc::new(last), prev: None });
        Some(e)
    }

    /// Number of objects in one namespace, or in all.
    pub(crate) fn count(&self, ns: Option<&str>) -> usize {
        match ns {
            Some(n) => self.ns_counts.get(n).copied().unwrap_or(0),
            None => self.items.len(),
        }
    }
}

/// Value at a dotted path (`involvedObject.uid`), stringified like the apiserver's field sets.
pub(crate) fn field_value(obj: &Value, path: &str) -> String {
    let mut cur = obj;
    for seg in path.split('.') {
        match cur.get(seg) {
            Some(v) => cur = v,
            None => return String::new(),
        }
    }
    match cur {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

impl Entry {
    /// Builds an entry from a full object (its apiVersion/kind are dropped: they are
    /// re-added per request so every served version answers with its own apiVersion).
    pub(crate) fn new(obj: &Value, selectable: &[String], rv: u64) -> Self {
        let labels = obj
            .pointer("/metadata/labels")
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
            .unwrap_or_default();
        let fields = selectable.iter().map(|p| (p.clone(), field_value(obj, p))).collect();
        let mut out = String::with_capacity(1024);
        out.push('{');
        if let Some(m) = obj.as_object() {
            let mut first = true;
            for (k, v) in m.iter().filter(|(k, _)| *k != "apiVersion" && *k != "kind") {
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(out, "{}:{v}", Value::String(k.clone()));
            }
        }
        out.push('}');
        let rest = Bytes::from(out);
        Self { rest, labels, fields, rv }
    }

    /// A copy whose JSON carries another resourceVersion.
    pub(crate) fn with_rv(&self, rv: u64) -> Entry {
        let mut v = crate::util::parse_json(&self.rest).expect("stored JSON");
        if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            m.insert("resourceVersion".into(), Value::String(rv.to_string()));
        }
        Entry {
            rest: Bytes::from(crate::util::to_json(&v)),
            labels: self.labels.clone(),
            fields: self.fields.clone(),
            rv,
        }
    }

    /// The object as JSON with the given apiVersion and kind.
    pub(crate) fn to_value(&self, api_version: &str, kind: &str) -> Value {
        let mut v: Value = crate::util::parse_json(&self.rest).expect("stored JSON");
        if let Some(m) = v.as_object_mut() {
            m.insert("apiVersion".into(), Value::String(api_version.into()));
            m.insert("kind".into(), Value::String(kind.into()));
        }
        v
    }

    /// Appends the object as `PartialObjectMetadata`: what a client that asked for metadata only
    /// (`Accept: ...;as=PartialObjectMetadata[List]`) gets instead of the whole object.
    pub(crate) fn write_meta(&self, out: &mut Vec<u8>) {
        let v: Value = crate::util::parse_json(&self.rest).expect("stored JSON");
        let meta = v.get("metadata").cloned().unwrap_or_else(|| Value::Object(Default::default()));
        out.extend_from_slice(br#"{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata","metadata":"#);
        out.extend_from_slice(meta.to_string().as_bytes());
        out.push(b'}');
    }

    /// Appends the object's JSON to `out`, with a `{"apiVersion":..,"kind":..,` prefix
    /// when given (the prefix must end with `,`).
    pub(crate) fn write_json(&self, out: &mut Vec<u8>, prefix: Option<&[u8]>) {
        match prefix {
            None => out.extend_from_slice(&self.rest),
            Some(p) => {
                if self.rest.len() <= 2 {
                    out.extend_from_slice(&p[..p.len() - 1]);
                    out.push(b'}');
                } else {
                    out.extend_from_slice(p);
                    out.extend_from_slice(&self.rest[1..]);
                }
            }
        }
    }

    /// Value of a field selector path for this entry.
    pub(crate) fn field(&self, key: &(String, String), path: &str) -> String {
        match path {
            "metadata.name" => key.1.clone(),
            "metadata.namespace" => key.0.clone(),
            _ => self.fields.iter().find(|(p, _)| p == path).map(|(_, v)| v.clone()).unwrap_or_default(),
        }
    }
}

/// `{"apiVersion":"..","kind":"..",` as bytes.
pub(crate) fn prefix(api_version: &str, kind: &str) -> Vec<u8> {
    format!("{{\"apiVersion\":{},\"kind\":{},", Value::String(api_version.into()), Value::String(kind.into()))
        .into_bytes()
}
