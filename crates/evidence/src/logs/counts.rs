//! Record counters kept by a scan, per encoding/wrapper and per severity.
//!
//! Exists so a report can say what was read and recognise a stream it did not understand
//! (all counted, nothing decoded), or a provider that does not log at debug level.

/// Per-format record counters, so the doctor can report what it read and detect a
/// stream it did not understand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormatCounts {
    /// zap console records (tab separated).
    pub zap_console: u64,
    /// zap console records with spaces instead of tabs.
    pub zap_console_spaces: u64,
    /// zap JSON records.
    pub zap_json: u64,
    /// Records whose timestamp was an epoch float.
    pub epoch_time: u64,
    /// Records that came with a `kubectl logs --timestamps` prefix.
    pub kubectl_timestamps: u64,
    /// Records that came with a `kubectl logs --prefix` prefix.
    pub kubectl_prefix: u64,
    /// Records from CRI container log lines.
    pub cri: u64,
    /// CRI partial (`P`) lines that were joined into the following line.
    pub cri_partial: u64,
    /// Records from a Loki text export.
    pub loki_text: u64,
    /// Records from a Kibana text export.
    pub kibana: u64,
    /// Records from Docker json-file lines.
    pub docker_json: u64,
    /// Cloud Logging entries (any payload).
    pub cloud_logging: u64,
    /// Loki JSON entries.
    pub loki: u64,
    /// Export entries that are not provider log lines (audit logs, Kubernetes Events);
    /// counted as parsed, never as unknown.
    pub non_log_entries: u64,
    /// Records whose key/value JSON was present but broken (truncated lines). Only
    /// counted for fully decoded lines: lines without evidence keys are recognised by
    /// their timestamp and level alone.
    pub bad_fields: u64,
}

/// Per-level record counters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LevelCounts {
    /// Debug records.
    pub debug: u64,
    /// Info records.
    pub info: u64,
    /// Warn records.
    pub warn: u64,
    /// Error records.
    pub error: u64,
    /// Records without a recognised level.
    pub other: u64,
}
