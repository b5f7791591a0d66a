//! Provider-log evidence: which cloud IDs did an upjet provider log for a managed resource?
//!
//! When a managed resource (MR) loses its `crossplane.io/external-name`, the provider's
//! debug log is often the only place that still names the cloud object it created: upjet
//! logs the Terraform ID it just created in `Async create ended.`
//! (pkg/controller/external_async_tfpluginsdk.go, `terraformPluginSDKAsyncExternal.Create`),
//! and crossplane-runtime logs the external-name it read on every reconcile
//! (pkg/reconciler/managed/reconciler.go, `Reconciler.Reconcile`). This module is the pure,
//! I/O-free core that turns a provider log stream (as saved by `kubectl logs`, Cloud
//! Logging, Loki, CRI files…) into per-MR [`Evidence`], and from that into the "last
//! provider-logged external ID" ([`last_logged_ids`]) and the list of IDs logged as
//! *created* ([`created_ids`]), which the caller compares with the live external-name to
//! find orphan candidates.
//!
//! Layers:
//! * decoding: [`decode_line`] turns one line (any supported format) into a [`LogRecord`];
//! * extraction: [`evidence_from_record`] finds the lines that name an MR's cloud ID;
//! * streaming: [`scan`] / [`scan_slice`] read a whole stream with bounded memory,
//!   pre-filter uninteresting lines cheaply, and accumulate [`LogScan`].
//!
//! Formats: zap console (tabs, or tabs expanded to spaces), zap JSON, epoch-float
//! timestamps, `kubectl logs --timestamps` / `--prefix`, CRI container log files
//! (partial `P` lines are joined), Loki text exports, Kibana text exports, Docker
//! `json-file` lines, Google Cloud Logging entries (`textPayload` / `jsonPayload`,
//! one per line, a JSON array, or pretty-printed), and Loki JSON exports (`line`).

pub(crate) mod buffered;
mod counts;
mod decode;
mod doc_start;
mod evidence;
mod extract;
mod log_scan;
mod logged_ids;
mod mask;
mod reader;
mod record;
mod scan;
mod tf_out;
mod time;

#[cfg(test)]
mod tests;

pub(crate) use counts::{FormatCounts, LevelCounts};
pub use decode::decode_line;
pub use evidence::{Evidence, EvidenceKind, MrRef, Origin, managed_controller_kind, started_kind_of};
pub use log_scan::{LogScan, Retention};
pub use logged_ids::{LoggedId, created_ids, last_logged_ids};
pub use reader::scan_reader;
pub use record::{Envelope, Level, LogRecord, RecordFormat};
pub use scan::{scan, scan_slice};
pub use upjet_core::redacted::same_id;

/// Longest single line (or JSON document) the scanner will hold in memory. Longer
/// lines are skipped and counted in [`LogScan::too_long`]; this is what keeps memory
/// constant on hostile input such as a 10 MB line or a binary file without newlines.
pub(crate) const MAX_LINE_BYTES: usize = 1 << 20;

/// Longest `source` excerpt kept in an [`Evidence`], so that reports stay readable
/// and a huge Terraform `out` field never ends up in the output.
pub(crate) const MAX_SOURCE_CHARS: usize = 300;
