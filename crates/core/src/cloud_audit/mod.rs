//! The cloud's own record of who created and deleted what (AWS CloudTrail, GCP Cloud Audit
//! Logs, the Azure Activity Log), in domain terms, and its attribution to MRs.
//!
//! Exists because the case the other sources cannot close is the one where the cloud assigned
//! the ID (`vpc-0abc…`, a zone ID, a numeric policy name), the provider never logged it and the
//! object carries no crossplane tags; or where a restart made a second object and nothing says
//! which one the MR should keep. Every cloud records each create and delete with the caller, the
//! request and the response. The evidence layer reads the exports into [`CloudCall`]s; this
//! module learns from the MRs' healthy peers who the provider is and how a call becomes an
//! external-name ([`learn`]), then ties calls to MRs ([`attribute`]). Pure: no I/O, no clock.

pub mod attribute;
pub mod learn;
mod names;
pub mod window;

#[cfg(test)]
mod tests;

pub use crate::inventory::{Cloud, CrossplaneTags};
pub use attribute::{CloudAuditCheck, Conflict, Deleted, MrCloudAudit, Observed, Options, Unattributed, check};
pub use window::{CLOCK_SKEW_SECS, Window};

use crate::gotime::GoTime;
use std::sync::Arc;

/// One copy of each string that repeats across many calls or results (principals, actions,
/// paths, states, how a create was tied, an identity's description): a record of 20,000 creates
/// repeats most of its strings thousands of times.
#[derive(Default)]
pub struct Interner(std::collections::HashSet<Arc<str>>);

impl Interner {
    /// The shared copy of `s`.
    pub fn get(&mut self, s: &str) -> Arc<str> {
        if let Some(a) = self.0.get(s) {
            return a.clone();
        }
        let a: Arc<str> = Arc::from(s);
        self.0.insert(a.clone());
        a
    }
}

/// What a call did, as far as attribution cares: only creates and deletes are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verb {
    /// `CreateVpc`, `RunInstances`, `…insert`, `…/write`, …
    Create,
    /// `DeleteVpc`, `TerminateInstances`, `…delete`, `…/delete`, …
    Delete,
}

/// How a call ended, merged over the entries a cloud writes for one operation (GCP long-running
/// operations log a first and a last entry; Azure logs Started, Accepted and Succeeded events).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The cloud says it succeeded.
    Succeeded,
    /// The cloud accepted it (GCP `operation.first`, Azure `Accepted`/`Started`) and the record
    /// holds no end: the object usually exists, but the record cannot prove it.
    Accepted,
    /// It failed.
    Failed {
        /// AWS `errorCode`, GCP `status.code`, Azure `properties.statusCode`.
        code: String,
        /// The error message, if any.
        message: String,
        /// The error says the object already exists.
        exists: bool,
    },
}

impl Outcome {
    /// Whether the call (probably) made an object.
    pub(crate) fn made_something(&self) -> bool {
        matches!(self, Outcome::Succeeded | Outcome::Accepted)
    }

    /// In words, for evidence.
    pub fn describe(&self) -> String {
        match self {
            Outcome::Succeeded => "succeeded".into(),
            Outcome::Accepted => "accepted (its end is not in the record)".into(),
            Outcome::Failed { code, message, .. } if message.is_empty() => format!("failed: {code}"),
            Outcome::Failed { code, message, .. } => format!("failed: {code}: {message}"),
        }
    }
}

/// One scalar of a request or a response, by its path (`vpc.vpcId`, `alertPolicy.displayName`,
/// `tagSpecificationSet.items[].tags[].value`: arrays read as `[]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Where it sits.
    pub path: Arc<str>,
    /// The value, as text (shared: states, regions and tag keys repeat across calls).
    pub value: Arc<str>,
}

/// The paths the segments of a call's resource path are read under, last segment first: the
/// name a PUT or insert names in its URL is part of the request (Azure's request bodies do not
/// repeat it).
const RESOURCE_SEGMENTS: [&str; 8] = [
    "resource[-1]",
    "resource[-2]",
    "resource[-3]",
    "resource[-4]",
    "resource[-5]",
    "resource[-6]",
    "resource[-7]",
    "resource[-8]",
];

/// One create or delete call the record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CloudCall {
    /// Which cloud's record.
    pub cloud: Cloud,
    /// AWS `eventSource`, GCP `serviceName`, Azure resource provider.
    pub service: Arc<str>,
    /// AWS `eventName`, GCP `methodName`, Azure `operationName`.
    pub action: Arc<str>,
    /// The action as calls of one operation share it, as its cloud derives it (GCP's API version
    /// and Azure's case do not make another operation): what lessons are kept under.
    pub action_key: Arc<str>,
    /// What the action makes, lower-case, as its cloud derives it (`CreateHostedZone` →
    /// `hostedzone`, `v1.compute.networks.insert` → `network`, `…/virtualNetworks/write` →
    /// `virtualnetwork`).
    pub action_noun: Arc<str>,
    /// Create or delete.
    pub verb: Verb,
    /// When the call was made (the first entry of a merged operation), in UTC.
    pub at: Option<GoTime>,
    /// Who made it: the role behind an assumed-role session (`sessionIssuer.arn`), the user or
    /// service-account email, the Azure caller.
    pub principal: Option<Arc<str>>,
    /// The session within the principal (AWS assumed-role ARN): a new one after a pod restart.
    pub session: Option<Arc<str>>,
    /// AWS account, GCP project, Azure subscription.
    pub account: Option<Arc<str>>,
    /// How it ended.
    pub outcome: Outcome,
    /// AWS `requestID`, GCP `operation.id` or `insertId`, Azure `correlationId`.
    pub request_id: Option<Box<str>>,
    /// The operation several entries of one call share (GCP `operation.id`, Azure `operationId`
    /// with the resource and action): entries with the same one are merged into one call.
    pub operation: Option<Box<str>>,
    /// GCP `resourceName`, Azure `resourceId`: the object the call names.
    pub resource: Option<Box<str>>,
    /// The request's scalars (bounded).
    pub request: Vec<Param>,
    /// The response's scalars (bounded), and AWS `resources[].ARN`.
    pub response: Vec<Param>,
    /// The `crossplane-*` tags or labels the request sets.
    pub tags: CrossplaneTags,
    /// The caller's user agent (AWS, GCP; Azure records none).
    pub user_agent: Option<Arc<str>>,
    /// The file it was read from.
    pub file: Arc<str>,
    /// The line its entry starts on.
    pub line: u64,
}

impl CloudCall {
    /// For tests: a successful AWS `action` on `service` by the provider's role
    /// (`arn:aws:iam::111122223333:role/provider-aws`, account 111122223333) at `at` (RFC 3339),
    /// a delete when the action's name says so, its key and noun as CloudTrail's reader derives
    /// them for a `Create…` or `Delete…` action; nothing else set.
    #[cfg(any(test, feature = "testing"))]
    pub fn aws_test(service: &str, action: &str, at: &str) -> CloudCall {
        CloudCall {
            cloud: Cloud::Aws,
            service: service.into(),
            action: action.into(),
            action_key: format!("{service}:{action}").into(),
            action_noun: action.strip_prefix("Create").unwrap_or(action).to_ascii_lowercase().into(),
            verb: if action.starts_with("Delete") { Verb::Delete } else { Verb::Create },
            at: GoTime::parse_rfc3339(at),
            principal: Some("arn:aws:iam::111122223333:role/provider-aws".into()),
            session: None,
            account: Some("111122223333".into()),
            outcome: Outcome::Succeeded,
            request_id: Some("req".into()),
            operation: None,
            resource: None,
            request: Vec::new(),
            response: Vec::new(),
            tags: CrossplaneTags::default(),
            user_agent: None,
            file: "trail.json".into(),
            line: 7,
        }
    }

    /// `file:line`, for evidence.
    pub fn source(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }

    /// Every value the request names: its scalars, then the segments of the resource path.
    pub(crate) fn request_values(&self) -> impl Iterator<Item = (&str, &str)> {
        let segments =
            self.resource.as_deref().into_iter().flat_map(|r| {
                r.trim_end_matches('/').rsplit('/').zip(RESOURCE_SEGMENTS).map(|(seg, path)| (path, seg))
            });
        self.request.iter().map(|p| (&*p.path, &*p.value)).chain(segments)
    }

    /// Every value that may be the object's ID: the response's scalars and the resource path.
    pub(crate) fn id_values(&self) -> impl Iterator<Item = (&str, &str)> {
        self.response.iter().map(|p| (&*p.path, &*p.value)).chain(self.resource.as_deref().map(|r| ("resource", r)))
    }

    /// The value at `path` among the ID values, or the request's (an ID the caller chose).
    pub(crate) fn value_at(&self, path: &str) -> Option<&str> {
        self.id_values().chain(self.request_values()).find(|(p, _)| *p == path).map(|(_, v)| v)
    }

    /// Merges another entry of the same operation into this call: the earliest time and its
    /// `file:line`, the worst outcome (failed, else succeeded, else accepted), and whatever this
    /// entry lacks (the request body is on Azure's Started event, the end on GCP's last entry).
    pub fn absorb(&mut self, other: CloudCall) {
        self.outcome = match (&self.outcome, &other.outcome) {
            (Outcome::Failed { .. }, _) => self.outcome.clone(),
            (_, Outcome::Failed { .. }) => other.outcome.clone(),
            (Outcome::Succeeded, _) | (_, Outcome::Succeeded) => Outcome::Succeeded,
            _ => Outcome::Accepted,
        };
        if other.at.is_some() && (self.at.is_none() || other.at < self.at) {
            self.at = other.at;
            self.file = other.file;
            self.line = other.line;
        }
        if self.request.is_empty() {
            self.request = other.request;
            self.tags = other.tags;
        }
        for p in other.response {
            if !self.response.contains(&p) {
                self.response.push(p);
            }
        }
        self.principal = self.principal.take().or(other.principal);
        self.account = self.account.take().or(other.account);
        self.resource = self.resource.take().or(other.resource);
        self.user_agent = self.user_agent.take().or(other.user_agent);
    }

    /// One line: what, by whom, when, how it ended, the request ID and where it was read.
    pub fn describe(&self) -> String {
        let mut s = format!("{} ({})", self.action, self.service);
        s.push_str(&format!(" by {}", self.principal.as_deref().unwrap_or("<unknown principal>")));
        if let Some(a) = &self.account {
            s.push_str(&format!(" in {a}"));
        }
        if let Some(t) = self.at {
            s.push_str(&format!(" at {t}"));
        }
        s.push_str(&format!(" → {}", self.outcome.describe()));
        if let Some(r) = &self.request_id {
            s.push_str(&format!(", request {r}"));
        }
        format!("{s} <{}>", self.source())
    }
}
