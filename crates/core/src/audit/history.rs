//! One MR's write history from the audit log: every write in order, the exact before/after of
//! its identity fields where the audit level recorded them, the incarnations under its name
//! (UIDs), and the highlights that explain a lost identity.
//!
//! Before = the previous known state (the prior event's response object, or the prior whole
//! request object); after = the response object, the whole request object, or the before state
//! with the patch applied. What the log does not record stays `Unknown`, never guessed.

use super::state::{Body, Known, Value};
use super::{AuditLevel, AuditWrite};
use crate::gotime::GoTime;
use crate::managed::{ManagedResource, keys};
use serde::Serialize;
use std::collections::BTreeMap;

/// One write with what it changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteView {
    /// The write.
    #[serde(flatten)]
    pub write: AuditWrite,
    /// Whether the writer is the provider.
    pub by_provider: bool,
    /// The identity fields it changed (empty when nothing changed or nothing was recorded).
    pub changes: Vec<Change>,
    /// What the log cannot say about this write, if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The UID of the object it wrote (`?` when unknown): only writes to the MR read now say
    /// anything about its identity, another object of the same name (another cluster, an
    /// earlier incarnation) does not.
    #[serde(skip)]
    pub incarnation: String,
}

/// One identity field's value before and after a write.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// `crossplane.io/external-name`, `spec.managementPolicies`, `spec.deletionPolicy`, …
    pub field: String,
    /// Before the write.
    pub before: Value,
    /// After it.
    pub after: Value,
}

/// One object that lived under the MR's name (a UID).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Incarnation {
    /// Its UID (`?` when no event of it named one).
    pub uid: String,
    /// Whether it is the MR read now.
    pub current: bool,
    /// The write that created it, when logged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<AuditWrite>,
    /// The delete request, when logged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted: Option<AuditWrite>,
    /// The last external-name the log shows it had, and the write that showed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_name: Option<String>,
    /// Where that external-name was last seen (`file:line`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_name_source: Option<String>,
}

/// An external-name value that a write replaced or removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Overwrite {
    /// The value before.
    pub old: String,
    /// The value after (`None`: removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
    /// The write that did it.
    pub write: AuditWrite,
    /// Whether the provider did it.
    pub by_provider: bool,
    /// Whether it was written to the MR read now (its UID), not to another object of its name.
    pub current: bool,
}

/// Everything the audit log says about one MR.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditHistory {
    /// Every write, oldest first.
    pub writes: Vec<WriteView>,
    /// The objects that lived under the name, oldest first.
    pub incarnations: Vec<Incarnation>,
    /// External-names replaced or removed, in order.
    pub overwrites: Vec<Overwrite>,
    /// Deletions requested while the known state said the create was incomplete.
    pub deleted_while_incomplete: Vec<AuditWrite>,
    /// What matters, in plain words.
    pub highlights: Vec<String>,
}

impl AuditHistory {
    /// Incarnations before the current one that had an external-name.
    pub(crate) fn previous_with_name(&self) -> impl Iterator<Item = &Incarnation> {
        self.incarnations.iter().filter(|i| !i.current && i.uid != "?" && i.external_name.is_some())
    }

    /// The earlier incarnations with an external-name that the log ties to the MR read now: it
    /// recorded writes to this MR (its UID), or the deletion of every other object of the name
    /// (so this one can be their successor). An object of the same name that the log shows alive
    /// is another cluster's (the same platform deployed twice), and its ID is no candidate here.
    pub(crate) fn recreated_from(&self) -> impl Iterator<Item = &Incarnation> {
        let sees_current = self.incarnations.iter().any(|i| i.current);
        let all_gone = self.incarnations.iter().filter(|i| !i.current && i.uid != "?").all(|i| i.deleted.is_some());
        self.previous_with_name().filter(move |_| sees_current || all_gone)
    }
}

/// Whether `w` writes the object itself (not its status).
fn main_resource(w: &AuditWrite) -> bool {
    w.subresource.is_none()
}

/// The state after `w`, from `before`, and a note on what is not known.
fn after_of(w: &AuditWrite, before: Option<&Known>) -> (Option<Known>, Option<String>) {
    if let Some(r) = &w.response
        && !(w.verb == "delete" && r.uid.is_none() && r.annotations.is_empty())
    {
        return (Some(Known::of(r)), None);
    }
    match (&w.request, w.level) {
        _ if w.verb == "delete" => (before.cloned(), None),
        (Some(Body::Object(o)), _) if main_resource(w) => (Some(Known::of(o)), None),
        (Some(Body::Patch(p)), _) if main_resource(w) => {
            let base = before.cloned().unwrap_or_default();
            let unknown = p.fields.keys().any(|k| base.get(k) == Value::Unknown);
            let note = unknown.then(|| {
                "Request level: only the patch is recorded and the value before it is unknown; RequestResponse would record the object after".to_string()
            });
            (Some(base.patched(p)), note)
        }
        (_, AuditLevel::Metadata) => (
            before.cloned(),
            Some("Metadata level: who and when only; Request or RequestResponse would record what changed".into()),
        ),
        _ => (before.cloned(), None),
    }
}

/// The identity fields that differ between `before` and `after`.
fn diff(before: Option<&Known>, after: Option<&Known>) -> Vec<Change> {
    let (Some(a), b) = (after, before) else { return Vec::new() };
    let mut fields: Vec<&String> = a.fields.keys().collect();
    if let Some(b) = b {
        fields.extend(b.fields.keys().filter(|k| a.complete && !a.fields.contains_key(*k)));
    }
    fields.sort();
    fields.dedup();
    fields
        .into_iter()
        .filter_map(|f| {
            let before = b.map_or(Value::Unknown, |b| b.get(f));
            let after = a.get(f);
            (before != after && after != Value::Unknown).then(|| Change { field: f.clone(), before, after })
        })
        .collect()
}

/// Per-incarnation running state while the writes are replayed.
#[derive(Default)]
struct Replay {
    states: BTreeMap<String, Known>,
    incarnations: Vec<Incarnation>,
    current: Option<String>,
}

impl Replay {
    /// The incarnation `w` belongs to: its own UID, else the one the previous writes named.
    fn incarnation_of(&mut self, w: &AuditWrite, mr_uid: &str) -> String {
        let uid = match (&w.uid, w.verb.as_str()) {
            (Some(u), _) => u.clone(),
            (None, "create") => "?".into(),
            (None, _) => self.current.clone().unwrap_or_else(|| "?".into()),
        };
        if !self.incarnations.iter().any(|i| i.uid == uid) {
            self.incarnations.push(Incarnation {
                uid: uid.clone(),
                current: uid == mr_uid,
                created: None,
                deleted: None,
                external_name: None,
                external_name_source: None,
            });
        }
        self.current = Some(uid.clone());
        uid
    }

    fn record(&mut self, uid: &str, w: &AuditWrite, after: Option<Known>) {
        let Some(inc) = self.incarnations.iter_mut().find(|i| i.uid == uid) else { return };
        match w.verb.as_str() {
            "create" if main_resource(w) && inc.created.is_none() => inc.created = Some(w.clone()),
            "delete" if inc.deleted.is_none() => inc.deleted = Some(w.clone()),
            _ => {}
        }
        if let Some(a) = after {
            match a.get(keys::EXTERNAL_NAME) {
                Value::Set(n) if !n.is_empty() && inc.external_name.as_ref() != Some(&n) => {
                    inc.external_name = Some(n);
                    inc.external_name_source = Some(w.source.clone());
                }
                Value::Absent if a.complete || a.fields.contains_key(keys::EXTERNAL_NAME) => {
                    inc.external_name = None;
                    inc.external_name_source = None;
                }
                _ => {}
            }
            self.states.insert(uid.to_string(), a);
        }
    }
}

/// The history of `mr` from the audit writes matched to its name (any order, any incarnation).
pub fn analyze(writes: Vec<AuditWrite>, mr: &ManagedResource) -> AuditHistory {
    // Each folded run is replayed as its first and its last write (see `runs`); the last is shown
    // only when it changed something (a value changed back after another file's write).
    let mut writes = super::runs::unfold(writes);
    writes.sort_by_key(|(w, _)| (w.at.is_none(), w.at));
    let mut replay = Replay::default();
    let mut views = Vec::with_capacity(writes.len());
    let mut incomplete_deletes = Vec::new();
    for (w, echo) in writes {
        let uid = replay.incarnation_of(&w, &mr.uid);
        let before = if w.verb == "create" && main_resource(&w) {
            Some(Known { complete: true, ..Known::default() })
        } else {
            replay.states.get(&uid).cloned()
        };
        let (changes, note, after) = if w.succeeded() {
            let (after, note) = after_of(&w, before.as_ref());
            (diff(before.as_ref(), after.as_ref()), note, after)
        } else {
            let why = format!("refused (HTTP {}): nothing changed", w.code.unwrap_or_default());
            (Vec::new(), Some(why), None)
        };
        if w.succeeded() {
            if w.verb == "delete" && main_resource(&w) && before.as_ref().is_some_and(create_incomplete) {
                incomplete_deletes.push(w.clone());
            }
            replay.record(&uid, &w, after);
        }
        if echo && changes.is_empty() {
            continue;
        }
        views.push(WriteView { by_provider: w.by_provider(), write: w, changes, note, incarnation: uid });
    }
    let overwrites = overwrites_of(&views, &mr.uid);
    AuditHistory {
        writes: views,
        incarnations: replay.incarnations,
        overwrites,
        deleted_while_incomplete: incomplete_deletes,
        highlights: Vec::new(),
    }
}

/// Every external-name a write replaced or removed.
fn overwrites_of(views: &[WriteView], mr_uid: &str) -> Vec<Overwrite> {
    let mut out = Vec::new();
    for v in views {
        for c in v.changes.iter().filter(|c| c.field == keys::EXTERNAL_NAME) {
            let Some(old) = c.before.set().filter(|o| !o.is_empty()) else { continue };
            out.push(Overwrite {
                old: old.to_string(),
                new: c.after.set().map(str::to_owned),
                write: v.write.clone(),
                by_provider: v.by_provider,
                current: v.incarnation == mr_uid,
            });
        }
    }
    out
}

/// Whether the create marks of a state say the create is incomplete (pending newer than any
/// result), as crossplane-runtime's `ExternalCreateIncomplete` reads them.
pub(super) fn create_incomplete(state: &Known) -> bool {
    let at = |k: &str| GoTime::parse_or_zero(state.get(k).set());
    let pending = state.get(keys::CREATE_PENDING);
    pending.set().is_some()
        && at(keys::CREATE_PENDING).after(&at(keys::CREATE_SUCCEEDED))
        && at(keys::CREATE_PENDING).after(&at(keys::CREATE_FAILED))
}
