//! The annotation an adoption in progress leaves on the MR, recording the original values of
//! everything it touches so that a re-run resumes and an undo is exact without the backup file.

use super::{MARKER, Options, TOUCHED};
use crate::patch::{annotation, policies_of};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// What an in-progress adoption records on the MR (value of the [`MARKER`] annotation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// The ID being adopted.
    pub id: String,
    /// Where the backup of the original object was written, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
    /// The original `spec.managementPolicies` (`None`: the field was absent).
    pub policies: Option<Vec<String>>,
    /// The original values of the [`TOUCHED`] annotations (`None`: absent).
    pub annotations: BTreeMap<String, Option<String>>,
    /// When the adoption started (RFC3339).
    pub started: String,
    /// Whether it verifies through an Observe-only phase.
    #[serde(default)]
    pub import: bool,
}

impl Marker {
    /// Reads the marker of an object: `Ok(None)` when absent, `Err` when present but unreadable.
    pub fn read(obj: &Value) -> Result<Option<Marker>, String> {
        match obj.pointer("/metadata/annotations").and_then(|a| a.get(MARKER)) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => serde_json::from_str(s).map(Some).map_err(|e| e.to_string()),
            Some(other) => Err(format!("expected a string, found {other}")),
        }
    }

    /// The marker a fresh adoption of `obj` writes.
    pub(super) fn fresh(obj: &Value, id: &str, opts: &Options) -> Marker {
        let annotations = TOUCHED.iter().map(|k| (k.to_string(), annotation(obj, k).map(str::to_owned))).collect();
        Marker {
            id: id.to_string(),
            backup: None,
            policies: policies_of(obj),
            annotations,
            started: opts.now.clone(),
            import: opts.import,
        }
    }

    pub(super) fn to_annotation(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
