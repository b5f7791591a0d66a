//! Kubernetes audit logs: who wrote what to an MR, read from the files the user hands over.
//!
//! Formats: the API server's log backend (`audit.k8s.io/v1` `Event`, one JSON object per line),
//! Google Cloud Logging exports of GKE audit logs (`protoPayload` of type
//! `google.cloud.audit.AuditLog`; JSONL from a sink, or the JSON array `gcloud logging read
//! --format=json` writes), and EKS CloudWatch Logs exports (`aws logs filter-log-events` /
//! `get-log-events` JSON with `events[].message` holding the Event as a string, the same events
//! one per line, or the S3 export's `TIMESTAMP {json}` lines). gzip and stdin are accepted.
//!
//! Speed and memory: a line is decoded only when cheap byte checks find one of the wanted MR
//! groups, a completed stage (or a GKE entry) and a write verb; decoding borrows from the line.
//! Lines are capped at [`MAX_EVENT_BYTES`]; memory stays bounded by that plus the writes kept.

mod decode;
mod groups;
mod index;
mod read;
mod read_doc;
mod reader;
mod wire;

#[cfg(test)]
mod tests;

pub use groups::Groups;
pub use index::{AuditIndex, FileSummary};
pub use read::{AuditRead, read, read_slice};

/// Longest event (line or document element) held in memory; longer ones are skipped and counted.
/// A RequestResponse event carries the object twice, and an object may approach etcd's 1.5 MiB.
pub(crate) const MAX_EVENT_BYTES: usize = 4 << 20;

/// Why a document was not kept as a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skip {
    /// Valid JSON, but no audit event in any known wrapper.
    NotAudit,
    /// Not valid JSON (truncated line, binary, non-UTF-8 string).
    Malformed,
    /// `RequestReceived`, `ResponseStarted` or `Panic`: only `ResponseComplete` counts a write.
    OtherStage,
    /// A read (get, list, watch) or a request without a named object.
    NotWrite,
    /// Another API group.
    OtherGroup,
    /// Level `None` or unknown.
    LevelNone,
    /// A CloudWatch event cut at the service's size limit (`[Truncated...]`).
    Truncated,
}

/// The wrapper an event came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wrapper {
    /// A bare `audit.k8s.io/v1` Event.
    Plain,
    /// A Cloud Logging entry (GKE).
    Gke,
    /// A CloudWatch Logs event (EKS).
    CloudWatch,
}
