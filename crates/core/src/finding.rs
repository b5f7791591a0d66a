//! Findings: the doctor's public contract (the report shape; each code's properties, its
//! severity included, live in its row of `codes.rs`).

use serde::Serialize;
use std::collections::BTreeMap;

pub use super::codes::{Code, Severity};

/// Which object a finding is about, in the shape `kubectl` users and scripts recognise.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRef {
    /// `group/version`.
    pub api_version: String,
    /// Kind.
    pub kind: String,
    /// Namespace, absent for cluster-scoped MRs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
    /// UID.
    pub uid: String,
    /// The cluster (kubeconfig context, or snapshot name) the MR lives in; only set when one
    /// report covers several clusters, so single-cluster reports read as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// Where the MR's manifest is, when a lint read it from a file (`-` for stdin): what SARIF,
    /// JUnit and the workflow annotations point at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceLocation>,
}

/// A place in a file: a manifest's file (relative to the working folder when it lies below it)
/// and the 1-based line its object starts on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SourceLocation {
    /// The file as given, `-` for stdin.
    pub file: String,
    /// The 1-based line.
    pub line: usize,
}

/// One inconsistency found on one MR.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable code.
    pub code: Code,
    /// Severity (the code's default).
    pub severity: Severity,
    /// One line saying what is wrong.
    pub message: String,
    /// What was seen, by name (annotation values, condition messages, log lines).
    pub evidence: BTreeMap<String, String>,
    /// The next command to run.
    pub next: String,
    /// The cloud ID an adoption would use, when the evidence points at one.
    #[serde(rename = "suggestedId", skip_serializing_if = "Option::is_none")]
    pub suggested_id: Option<String>,
}

impl Finding {
    /// A finding with the code's default severity and no evidence yet.
    pub fn new(code: Code, message: impl Into<String>, next: impl Into<String>) -> Finding {
        Finding {
            code,
            severity: code.severity(),
            message: message.into(),
            evidence: BTreeMap::new(),
            next: next.into(),
            suggested_id: None,
        }
    }

    /// Adds one piece of evidence.
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Finding {
        self.evidence.insert(key.to_string(), value.into());
        self
    }

    /// Adds evidence only when there is a value.
    pub(crate) fn with_opt(self, key: &str, value: Option<impl Into<String>>) -> Finding {
        match value {
            Some(v) => self.with(key, v),
            None => self,
        }
    }

    /// Records the ID an adoption would use; a provider's placeholder is never one.
    pub fn suggest(mut self, id: Option<&str>) -> Finding {
        self.suggested_id = id.filter(|id| !crate::placeholder::is_placeholder(id)).map(str::to_owned);
        self
    }
}
