//! The decoded shape of one provider log record, whatever format it arrived in.
//!
//! Exists so every extraction rule works on one type: the decoders in `decode.rs` produce a
//! [`LogRecord`] from zap console, zap JSON or any supported wrapper, and nothing downstream
//! looks at raw bytes again.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

/// Severity of a log record. Exists because the doctor must tell the user when the
/// provider does not log at debug level: every message that carries an ID is logged at debug
/// level (upjet's `Async create ended.` in pkg/controller/external_async_tfpluginsdk.go
/// `terraformPluginSDKAsyncExternal.Create`, and crossplane-runtime's managed-reconciler lines
/// in pkg/reconciler/managed/reconciler.go `Reconciler.Reconcile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Level {
    /// `DEBUG` / `debug`, and logr verbosity levels (`Level(-2)`).
    Debug,
    /// `INFO` / `info`.
    Info,
    /// `WARN` / `warning`.
    Warn,
    /// `ERROR`, `DPANIC`, `PANIC`, `FATAL`.
    Error,
    /// Anything else (or no level at all).
    #[default]
    Other,
}

impl Level {
    /// Upper-case name as zap's console encoder prints it; used in evidence excerpts.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Debug => "DEBUG",
            Level::Info => "INFO",
            Level::Warn => "WARN",
            Level::Error => "ERROR",
            Level::Other => "OTHER",
        }
    }
}

/// How the log record itself was encoded, so callers and counters can report what
/// the provider emitted (dev-mode console vs production JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// zap console encoder, tab separated (`--debug`, the common case).
    ZapConsole,
    /// zap console line whose tabs were expanded to spaces (copied from a terminal or an issue).
    ZapConsoleSpaces,
    /// zap JSON encoder (production mode, no `--debug`).
    ZapJson,
}

/// The wrapper the record arrived in, outermost first. Exists so a report can say
/// where a line came from and so wrapper timestamps can refine the record time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Envelope {
    /// Bare line as the container printed it.
    #[default]
    None,
    /// `kubectl logs --timestamps` (`2024-01-02T03:04:05.123456789Z <line>`).
    KubectlTimestamps,
    /// `kubectl logs --prefix` (`[pod/name/container] <line>`).
    KubectlPrefix,
    /// CRI container log file line (`<RFC3339> stderr F <line>`), `/var/log/pods/...`.
    Cri,
    /// Grafana/Loki text export (`2023-12-07 04:37:49.558<TAB><line>`).
    LokiText,
    /// Kibana text export (`Aug 21, 2024 @ 17:15:50.427<TAB><line>`).
    Kibana,
    /// Docker `json-file` driver line (`{"log":"...","stream":"stderr","time":"..."}`).
    DockerJson,
    /// Google Cloud Logging entry (`textPayload` or `jsonPayload`).
    CloudLogging,
    /// Loki JSON export entry (`{"line": ..., "timestamp": ...}`).
    Loki,
}

/// One decoded provider log record, whatever its on-disk format. This is the common
/// shape every extraction rule works on.
#[derive(Debug, Clone, PartialEq)]
pub struct LogRecord {
    /// Record time (the provider's own timestamp; refined by a more precise
    /// wrapper timestamp of the same second when there is one).
    pub time: Option<DateTime<Utc>>,
    /// Severity.
    pub level: Level,
    /// zap logger name (`provider-aws`, `events`, ...); empty when absent.
    pub logger: String,
    /// The log message (`Async create ended.`, ...).
    pub msg: String,
    /// Key/values of the record. Duplicate keys keep the **last** occurrence: after a
    /// successful Create, crossplane-runtime's `Reconciler.Reconcile`
    /// (pkg/reconciler/managed/reconciler.go) logs `external-name` a second time, and the
    /// second value is the one the provider just set.
    pub fields: Map<String, Value>,
    /// Encoding of the record.
    pub format: RecordFormat,
    /// Outermost wrapper the record came in.
    pub envelope: Envelope,
    /// The timestamp was an epoch float (controller-runtime < v0.14).
    pub epoch_time: bool,
    /// A key/value tail was present but was not valid JSON (truncated line);
    /// `fields` is then empty.
    pub bad_fields: bool,
}

/// The string at `key` of a record's fields (`None` when absent or not a string): how the
/// extractors and the Terraform output reader read a field.
pub(super) fn str_field<'a>(f: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    f.get(key).and_then(Value::as_str)
}

/// A value that is present and not empty: a logged empty ID is no ID.
pub(super) fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.is_empty())
}
