//! Kubernetes audit-log evidence in domain terms: the writes an API server recorded for an MR,
//! and what they prove about its identity.
//!
//! The evidence layer (`evidence::audit`) streams audit files (plain `audit.k8s.io/v1` events,
//! GKE Cloud Logging exports, EKS CloudWatch exports) and hands each write to an MR group over
//! as an [`AuditWrite`]; this module is pure: per-MR write history with the before/after of the
//! fields that carry identity ([`history`]), the highlights a human needs, and the facts the
//! audit rules (`ExternalNameOverwritten`, `IdentityLostOnRecreate`) read.

pub mod highlights;
pub mod history;
pub mod runs;
mod state;

#[cfg(test)]
mod tests;

pub use history::{AuditHistory, Change, Incarnation, Overwrite, WriteView, analyze};
pub use state::{Body, DELETION_POLICY, Known, MANAGEMENT_POLICIES, Patch, Snapshot, Value};

use super::gotime::GoTime;
use serde::Serialize;

/// How much of a request the API server recorded (the audit policy rule's `level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum AuditLevel {
    /// Who, what and when; no bodies.
    Metadata,
    /// Metadata plus the request body (for a patch: the patch itself).
    Request,
    /// Metadata plus request and response bodies: the object as stored after the write.
    RequestResponse,
}

impl AuditLevel {
    /// Parses the `level` field; `None` and unknown levels carry nothing worth keeping.
    pub fn parse(s: &str) -> Option<AuditLevel> {
        match s {
            "Metadata" => Some(AuditLevel::Metadata),
            "Request" => Some(AuditLevel::Request),
            "RequestResponse" => Some(AuditLevel::RequestResponse),
            _ => None,
        }
    }
}

/// The object a write was aimed at (`objectRef`), enough to match it to an MR.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct AuditTarget {
    /// API group (`ec2.aws.upbound.io`).
    pub group: String,
    /// Resource, plural and lower case (`vpcs`).
    pub resource: String,
    /// Namespace, for namespaced MRs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
}

/// One write (create, update, patch, delete) the API server completed, as the audit log says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditWrite {
    /// When the response completed (`stageTimestamp`, else `requestReceivedTimestamp`).
    #[serde(skip)]
    pub at: Option<GoTime>,
    /// `at` as RFC3339, for output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// Where the event is: `file:line` (line of the JSON document in array exports).
    pub source: String,
    /// The request's `auditID`.
    pub audit_id: String,
    /// `create`, `update`, `patch` or `delete`.
    pub verb: String,
    /// `status` for a status write; absent for the object itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subresource: Option<String>,
    /// The authenticated user.
    pub user: String,
    /// The user it acted as, when impersonating.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impersonated: Option<String>,
    /// The client's user agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    /// The client's address and any proxies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub source_ips: Vec<String>,
    /// HTTP status of the response.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<u16>,
    /// The audit level the event was recorded at.
    pub level: AuditLevel,
    /// The object written.
    pub target: AuditTarget,
    /// The object's UID, when the event names one (objectRef or either body).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    /// What the request body says about the identity fields (Request level and above).
    #[serde(skip)]
    pub request: Option<Body>,
    /// The object as stored after the write (RequestResponse level).
    #[serde(skip)]
    pub response: Option<Snapshot>,
    /// Later writes of the same run folded into this one (see [`runs`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<runs::Repeats>,
}

impl AuditWrite {
    /// Whether the API server accepted the write (2xx, or no status recorded).
    pub fn succeeded(&self) -> bool {
        self.code.is_none_or(|c| (200..300).contains(&c))
    }

    /// Whether the writer is an upjet/crossplane provider: its service account is named
    /// `provider-…` (crossplane's package manager names provider service accounts after the
    /// provider revision) or its user agent starts with `provider-`. Anyone else is a person or
    /// another tool.
    pub fn by_provider(&self) -> bool {
        let user = self.impersonated.as_deref().unwrap_or(&self.user);
        let sa = user.strip_prefix("system:serviceaccount:").and_then(|s| s.split_once(':')).map(|(_, n)| n);
        let ua = self.user_agent.as_deref().unwrap_or("");
        sa.is_some_and(|n| n.starts_with("provider-") || n.starts_with("upbound-provider-"))
            || ua.starts_with("provider-")
    }

    /// Who wrote, for a human: the user (and whom it impersonated), and the user agent.
    pub fn who(&self) -> String {
        let mut who = self.user.clone();
        if let Some(i) = &self.impersonated {
            who.push_str(&format!(" as {i}"));
        }
        who
    }

    /// The verb with its subresource (`patch status`).
    pub fn action(&self) -> String {
        match &self.subresource {
            Some(s) => format!("{} {s}", self.verb),
            None => self.verb.clone(),
        }
    }
}

/// The audit writes matched to one MR (every incarnation under its name), oldest first, and the
/// history computed from them once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MrAudit {
    /// The history.
    pub history: AuditHistory,
}

impl MrAudit {
    /// Orders the writes and computes the history of `mr` (its UID tells the incarnations apart).
    pub fn new(writes: Vec<AuditWrite>, mr: &super::managed::ManagedResource) -> MrAudit {
        let mut history = analyze(writes, mr);
        history.highlights = highlights::highlights(&history, mr);
        MrAudit { history }
    }
}

/// Whether an audit `resource` (plural, lower case) can be the resource of `kind`: offline there
/// is no discovery, so the plural is the kind lower-cased with `s`, `es`, or `y` → `ies`.
pub fn resource_matches_kind(resource: &str, kind: &str) -> bool {
    let k = kind.to_ascii_lowercase();
    let r = resource.to_ascii_lowercase();
    r == format!("{k}s")
        || r == format!("{k}es")
        || r == k
        || k.strip_suffix('y').is_some_and(|stem| r == format!("{stem}ies"))
}
