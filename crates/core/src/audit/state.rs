//! The identity fields of an MR as one audit body shows them: a whole object (create, update, any
//! response) or a patch (a patch request at Request level is only the patch), and how a patch
//! moves a known state.
//!
//! Exists so the history can say exactly what is known before and after each write, and no more:
//! a patch that does not touch `crossplane.io/external-name` says nothing about it.

use serde::Serialize;
use std::collections::BTreeMap;

/// The `spec.managementPolicies` field, as named in the history.
pub const MANAGEMENT_POLICIES: &str = "spec.managementPolicies";
/// The `spec.deletionPolicy` field, as named in the history.
pub const DELETION_POLICY: &str = "spec.deletionPolicy";

/// The identity fields of a whole object: every `crossplane.io/*` annotation, the management
/// and deletion policies, the UID and whether deletion was requested.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// `metadata.uid`.
    pub uid: Option<String>,
    /// The `crossplane.io/*` annotations, sorted by key (a handful: a list costs a fraction of a
    /// map, and thousands of these are kept while a large log streams).
    pub annotations: Vec<(String, String)>,
    /// `spec.managementPolicies`, rendered as a JSON list.
    pub management_policies: Option<String>,
    /// `spec.deletionPolicy`.
    pub deletion_policy: Option<String>,
    /// `metadata.deletionTimestamp` is set.
    pub deleting: bool,
}

impl Snapshot {
    /// Field → value; absent fields are absent.
    pub fn fields(&self) -> BTreeMap<String, String> {
        let mut out: BTreeMap<String, String> = self.annotations.iter().cloned().collect();
        out.extend(self.management_policies.clone().map(|v| (MANAGEMENT_POLICIES.to_string(), v)));
        out.extend(self.deletion_policy.clone().map(|v| (DELETION_POLICY.to_string(), v)));
        out
    }
}

/// What a patch does to the identity fields: a field it does not name is untouched; `None`
/// removes it (a merge patch's `null`, a JSON patch's `remove`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Patch {
    /// Field → new value (`None`: removed).
    pub fields: BTreeMap<String, Option<String>>,
}

/// A request body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// A whole object (create, update).
    Object(Snapshot),
    /// A patch (merge, strategic merge or JSON patch).
    Patch(Patch),
}

/// One side of a change, as far as the audit log knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "state", content = "value")]
pub enum Value {
    /// Not recorded (a Metadata-level event, or a patch after an unknown state).
    Unknown,
    /// Not set.
    Absent,
    /// Set to this.
    Set(String),
}

impl Value {
    /// For a human: the value quoted, `<none>`, or `<unknown>`.
    pub fn shown(&self) -> String {
        match self {
            Value::Unknown => "<unknown>".into(),
            Value::Absent => "<none>".into(),
            Value::Set(v) if v.starts_with('[') => v.clone(),
            Value::Set(v) => format!("{v:?}"),
        }
    }

    /// The value, when set.
    pub fn set(&self) -> Option<&str> {
        match self {
            Value::Set(v) => Some(v),
            _ => None,
        }
    }
}

/// What is known of an object's identity fields at one point of its history.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    /// Field → value of the fields known.
    pub fields: BTreeMap<String, Option<String>>,
    /// Whether every field is known (a whole object was seen): then a field not listed is absent.
    pub complete: bool,
}

impl Known {
    /// The state a whole object shows.
    pub fn of(s: &Snapshot) -> Known {
        Known { fields: s.fields().into_iter().map(|(k, v)| (k, Some(v))).collect(), complete: true }
    }

    /// One field.
    pub fn get(&self, field: &str) -> Value {
        match self.fields.get(field) {
            Some(Some(v)) => Value::Set(v.clone()),
            Some(None) => Value::Absent,
            None if self.complete => Value::Absent,
            None => Value::Unknown,
        }
    }

    /// The state after `patch`, from this one (the fields the patch names become known).
    pub fn patched(&self, patch: &Patch) -> Known {
        let mut next = self.clone();
        for (k, v) in &patch.fields {
            next.fields.insert(k.clone(), v.clone());
        }
        next
    }
}
