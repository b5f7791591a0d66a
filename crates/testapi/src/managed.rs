//! `metadata.managedFields`: who owns which field, kept on every write as kube-apiserver keeps it
//! (apimachinery `pkg/util/managedfields`, structured-merge-diff `merge/update.go`), at map
//! granularity (see [`crate::fieldset`]).
//!
//! - An **Update** (create, `PUT`, merge or JSON patch) takes the fields it added or changed from
//!   everyone else and adds them to its manager's `Update` entry; a field it removed leaves every
//!   set (structured-merge-diff `Updater.Update`, which runs its `update` with force).
//! - An **Apply** owns exactly the fields of its body. A field another manager owns and the apply
//!   changes is a conflict: without `force` the write is refused with 409 and nothing changes;
//!   with it the other manager loses the field (`Updater.update`). A field the applier owned last
//!   time and no longer sends is removed from the object unless another applier owns it
//!   (`Updater.prune`).

use crate::fieldset::{self, FieldSet, Scope};
use crate::resp::Resp;
use serde_json::{Value, json};

/// One `managedFields` entry, its fields read.
#[derive(Clone, Debug)]
struct Managed {
    manager: String,
    operation: String,
    api_version: String,
    time: Option<String>,
    subresource: String,
    set: FieldSet,
    /// The stored `fieldsV1`, written back as it was while the set is unchanged.
    raw: Option<Value>,
}

impl Managed {
    fn key(&self) -> (&str, &str, &str) {
        (&self.manager, &self.operation, &self.subresource)
    }

    fn to_value(&self) -> Value {
        let mut v = json!({"manager": self.manager, "operation": self.operation, "apiVersion": self.api_version,
            "fieldsType": "FieldsV1", "fieldsV1": self.raw.clone().unwrap_or_else(|| fieldset::encode(&self.set))});
        if let Some(t) = &self.time {
            v["time"] = json!(t);
        }
        if !self.subresource.is_empty() {
            v["subresource"] = json!(self.subresource);
        }
        v
    }

    /// How a conflict names the manager (apimachinery `managedfields/internal/conflict.go`
    /// `printManager`): an Update says with which version and when.
    fn printed(&self) -> String {
        let mut s = json!(self.manager).to_string();
        if !self.subresource.is_empty() {
            s.push_str(&format!(" with subresource {}", json!(self.subresource)));
        }
        if self.operation == "Update" {
            s.push_str(&format!(" using {}", self.api_version));
            if let Some(t) = &self.time {
                s.push_str(&format!(" at {t}"));
            }
        }
        s
    }

    fn remove_all(&mut self, gone: &FieldSet) {
        let before = self.set.len();
        self.set.retain(|p| !gone.contains(p));
        if self.set.len() != before {
            self.raw = None;
        }
    }
}

fn read(obj: &Value) -> Vec<Managed> {
    let Some(list) = obj.pointer("/metadata/managedFields").and_then(Value::as_array) else { return vec![] };
    let s = |e: &Value, k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    list.iter()
        .filter(|e| e.as_object().is_some_and(|m| !m.is_empty()))
        .map(|e| Managed {
            manager: s(e, "manager"),
            operation: s(e, "operation"),
            api_version: s(e, "apiVersion"),
            time: e.get("time").and_then(Value::as_str).map(String::from),
            subresource: s(e, "subresource"),
            set: e.get("fieldsV1").map(fieldset::decode).unwrap_or_default(),
            raw: e.get("fieldsV1").cloned(),
        })
        .collect()
}

/// Stores the entries, empty ones dropped, Apply before Update and then by time and manager
/// (apimachinery `managedfields/internal/managedfields.go` `sortEncodedManagedFields`).
fn store(obj: &mut Value, mut entries: Vec<Managed>) {
    entries.retain(|e| !e.set.is_empty());
    entries.sort_by(|a, b| {
        (&a.operation, &a.time, &a.manager, &a.subresource).cmp(&(&b.operation, &b.time, &b.manager, &b.subresource))
    });
    let list: Vec<Value> = entries.iter().map(Managed::to_value).collect();
    if list.is_empty() {
        if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
            m.remove("managedFields");
        }
    } else if let Some(o) = obj.as_object_mut() {
        let meta = o.entry("metadata").or_insert_with(|| json!({}));
        meta["managedFields"] = Value::Array(list);
    }
}

/// Who writes, and how its write is counted.
pub(crate) struct Writer<'a> {
    pub manager: &'a str,
    pub api_version: &'a str,
    pub scope: Scope,
    pub now: String,
}

impl Writer<'_> {
    fn subresource(&self) -> &'static str {
        if self.scope == Scope::Status { "status" } else { "" }
    }

    fn entry(&self, entries: &mut Vec<Managed>, operation: &str) -> usize {
        let key = (self.manager, operation, self.subresource());
        if let Some(i) = entries.iter().position(|e| e.key() == key) {
            return i;
        }
        entries.push(Managed {
            manager: self.manager.to_string(),
            operation: operation.to_string(),
            api_version: self.api_version.to_string(),
            time: Some(self.now.clone()),
            subresource: self.subresource().to_string(),
            set: FieldSet::new(),
            raw: None,
        });
        entries.len() - 1
    }
}

/// Counts an Update from `old` (`Value::Null` on create) to `new` and stores the entries in `new`.
/// Managed fields the client sent that differ from the stored ones replace them, as upstream
/// lets a client do (a single empty entry clears them); none sent keeps the stored ones.
pub(crate) fn track_update(old: &Value, new: &mut Value, w: &Writer) {
    let sent = new.pointer("/metadata/managedFields").cloned();
    let stored = old.pointer("/metadata/managedFields").cloned();
    match &sent {
        Some(Value::Array(a)) if a.len() == 1 && a[0].as_object().is_some_and(|m| m.is_empty()) => {
            new["metadata"].as_object_mut().map(|m| m.remove("managedFields"));
            return;
        }
        Some(s) if !old.is_null() && Some(s) != stored.as_ref() && s.as_array().is_some_and(|a| !a.is_empty()) => {
            return;
        }
        _ => {}
    }
    let mut entries = if old.is_null() { vec![] } else { read(old) };
    let (changed, removed) = fieldset::diff(old, new, w.scope);
    let touched: FieldSet = changed.union(&removed).cloned().collect();
    for e in entries.iter_mut() {
        e.remove_all(&touched);
    }
    if !changed.is_empty() {
        let i = w.entry(&mut entries, "Update");
        let e = &mut entries[i];
        e.set.extend(changed);
        e.raw = None;
        e.time = Some(w.now.clone());
        e.api_version = w.api_version.to_string();
    }
    store(new, entries);
}

/// An apply refused for fields other managers own: the 409 kube-apiserver answers
/// (apimachinery `managedfields/internal/conflict.go` `NewConflictError`, `getConflictMessage`).
fn conflict(found: &[(String, String)]) -> Resp {
    let causes: Vec<Value> = found
        .iter()
        .map(|(m, p)| json!({"reason": "FieldManagerConflict", "message": format!("conflict with {m}"), "field": p}))
        .collect();
    let message = if let [(m, p)] = found {
        format!("Apply failed with 1 conflict: conflict with {m}: {p}")
    } else {
        let mut by_manager: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
        for (m, p) in found {
            by_manager.entry(m).or_default().push(p);
        }
        let lines: Vec<String> = by_manager
            .iter()
            .flat_map(|(m, ps)| {
                std::iter::once(format!("conflicts with {m}:")).chain(ps.iter().map(|p| format!("- {p}")))
            })
            .collect();
        format!("Apply failed with {} conflicts: {}", found.len(), lines.join("\n"))
    };
    let causes = format!("\"causes\":{}", Value::Array(causes));
    Resp::status(409, "Conflict", &message, None, Some(causes))
}

/// The part of an apply body that counts in `scope` (server-set metadata and, for the main
/// resource, a subresource's `status` are not applied).
fn applied_part(config: &Value, scope: Scope) -> Value {
    let mut out = serde_json::Map::new();
    for (k, v) in config.as_object().into_iter().flatten().filter(|(k, _)| scope.counts(k)) {
        out.insert(k.clone(), v.clone());
    }
    if let Some(m) = out.get_mut("metadata").and_then(Value::as_object_mut) {
        m.retain(|k, _| !matches!(k.as_str(), "managedFields" | "resourceVersion" | "uid" | "generation"));
    }
    Value::Object(out)
}

/// Applies `config` for `w` onto `live` (`Value::Null` when the apply creates the object): the
/// merged object with its managed fields, or the 409 a conflict without `force` gets.
pub(crate) fn apply(live: &Value, config: &Value, w: &Writer, force: bool) -> Result<Value, Resp> {
    let config = applied_part(config, w.scope);
    let applied = fieldset::leaves(&config, w.scope);
    let mut entries = if live.is_null() { vec![] } else { read(live) };
    let mut merged = if live.is_null() { json!({}) } else { live.clone() };
    crate::util::merge_patch(&mut merged, &config);
    let me = w.entry(&mut entries, "Apply");
    let last = std::mem::take(&mut entries[me].set);
    let others_applied: FieldSet =
        entries.iter().filter(|e| e.operation == "Apply").flat_map(|e| e.set.iter().cloned()).collect();
    for gone in last.difference(&applied).filter(|p| !others_applied.contains(*p)) {
        fieldset::remove_at(&mut merged, gone);
    }
    drop_empty_meta_maps(&mut merged);
    let (changed, removed) = fieldset::diff(live, &merged, w.scope);
    let found: Vec<(String, String)> = entries
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != me)
        .flat_map(|(_, e)| e.set.intersection(&changed).map(move |p| (e.printed(), fieldset::display(p))))
        .collect();
    if !found.is_empty() && !force && !upgrades_client_side_apply(live, w, &found) {
        return Err(conflict(&found));
    }
    let taken: FieldSet = changed.union(&removed).cloned().collect();
    for (i, e) in entries.iter_mut().enumerate() {
        if i != me {
            e.remove_all(&taken);
        }
    }
    let e = &mut entries[me];
    if e.set != applied || !changed.is_empty() || !removed.is_empty() || last != applied {
        e.time = Some(w.now.clone());
    }
    e.set = applied;
    e.raw = None;
    e.api_version = w.api_version.to_string();
    store(&mut merged, entries);
    Ok(merged)
}

/// Whether kubectl's own server-side apply may take conflicting fields that its client-side
/// apply set: kube-apiserver forces an apply of the manager `kubectl` whose conflicts all lie in
/// the object's `kubectl.kubernetes.io/last-applied-configuration` (apimachinery
/// `managedfields/internal/lastappliedmanager.go`), so `kubectl apply --server-side` after a
/// client-side apply does not conflict with `kubectl-client-side-apply`.
fn upgrades_client_side_apply(live: &Value, w: &Writer, found: &[(String, String)]) -> bool {
    let last = live.pointer("/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration");
    let Some(last) = last.and_then(Value::as_str).and_then(|t| serde_json::from_str::<Value>(t).ok()) else {
        return false;
    };
    let allowed: Vec<String> = fieldset::leaves(&last, w.scope).iter().map(|p| fieldset::display(p)).collect();
    w.manager == "kubectl" && found.iter().all(|(_, p)| allowed.contains(p))
}

/// An emptied `labels` or `annotations` map is no map (Go's ObjectMeta omits it).
fn drop_empty_meta_maps(obj: &mut Value) {
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        m.retain(|k, v| {
            !(matches!(k.as_str(), "labels" | "annotations") && v.as_object().is_some_and(|o| o.is_empty()))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(manager: &str) -> Writer<'_> {
        Writer { manager, api_version: "g/v1", scope: Scope::Main(true), now: "2026-01-01T00:00:00Z".into() }
    }

    fn owners(obj: &Value) -> Vec<(String, String)> {
        read(obj).iter().map(|e| (e.manager.clone(), e.operation.clone())).collect()
    }

    #[test]
    fn an_apply_owns_its_body_and_a_second_applier_with_another_value_conflicts() {
        let cfg = json!({"metadata": {"name": "a", "annotations": {"x": "1"}}, "spec": {"p": "a"}});
        let obj = apply(&Value::Null, &cfg, &w("one"), false).unwrap();
        assert_eq!(owners(&obj), vec![("one".into(), "Apply".into())]);
        let same = apply(&obj, &json!({"metadata": {"annotations": {"x": "1"}}}), &w("two"), false).unwrap();
        assert_eq!(owners(&same).len(), 2, "the same value is shared, no conflict");
        let refused = apply(&obj, &json!({"metadata": {"annotations": {"x": "2"}}}), &w("two"), false).unwrap_err();
        assert_eq!(refused.code, 409);
        let body: Value = serde_json::from_slice(&refused.body).unwrap();
        assert_eq!(body["message"], "Apply failed with 1 conflict: conflict with \"one\": .metadata.annotations.x");
        let forced = apply(&obj, &json!({"metadata": {"annotations": {"x": "2"}}}), &w("two"), true).unwrap();
        assert_eq!(forced["metadata"]["annotations"]["x"], "2");
        let one = read(&forced).into_iter().find(|e| e.manager == "one").unwrap();
        assert!(!one.set.contains(&vec!["metadata".into(), "annotations".into(), "x".into()]));
    }

    #[test]
    fn a_field_the_applier_stops_sending_goes_unless_another_applier_owns_it() {
        let obj = apply(&Value::Null, &json!({"spec": {"a": 1, "b": 2}}), &w("one"), false).unwrap();
        let obj = apply(&obj, &json!({"spec": {"b": 2}}), &w("two"), false).unwrap();
        let after = apply(&obj, &json!({"spec": {}}), &w("one"), false).unwrap();
        assert_eq!(after["spec"], json!({"b": 2}));
    }

    #[test]
    fn an_update_takes_what_it_changed_and_names_itself_with_version_and_time_in_conflicts() {
        let obj = apply(&Value::Null, &json!({"spec": {"a": 1, "b": 2}}), &w("one"), false).unwrap();
        let mut new = obj.clone();
        new["spec"]["a"] = json!(5);
        track_update(&obj, &mut new, &w("editor"));
        let e = read(&new);
        assert_eq!(e.iter().find(|e| e.manager == "editor").unwrap().set.len(), 1);
        let err = apply(&new, &json!({"spec": {"a": 1, "b": 2}}), &w("one"), false).unwrap_err();
        let body: Value = serde_json::from_slice(&err.body).unwrap();
        assert_eq!(
            body["message"],
            "Apply failed with 1 conflict: conflict with \"editor\" using g/v1 at 2026-01-01T00:00:00Z: .spec.a"
        );
        assert_eq!(body["details"]["causes"][0]["reason"], "FieldManagerConflict");
    }
}
