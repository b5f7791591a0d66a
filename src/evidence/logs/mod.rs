//! Provider-log evidence: which cloud IDs did an upjet provider log for a managed resource?
//!
//! When a managed resource (MR) loses its `crossplane.io/external-name`, the provider's
//! debug log is often the only place that still names the cloud object it created
//! (domain brief §3.3, §3.6). This module is the pure, I/O-free core that turns a
//! provider log stream (as saved by `kubectl logs`, Cloud Logging, Loki, CRI files…)
//! into per-MR [`Evidence`], and from that into the "last provider-logged external ID"
//! ([`last_logged_ids`]) and the list of IDs logged as *created* ([`created_ids`]),
//! which the caller compares with the live external-name to find orphan candidates.
//!
//! Layers:
//! * decoding: [`decode_line`] turns one line (any supported format) into a [`LogRecord`];
//! * extraction: [`evidence_from_record`] applies the §3.6 rules to one record;
//! * streaming: [`scan`] / [`scan_slice`] read a whole stream with bounded memory,
//!   pre-filter uninteresting lines cheaply, and accumulate [`LogScan`].
//!
//! Formats: zap console (tabs, or tabs expanded to spaces), zap JSON, epoch-float
//! timestamps, `kubectl logs --timestamps` / `--prefix`, CRI container log files
//! (partial `P` lines are joined), Loki text exports, Kibana text exports, Docker
//! `json-file` lines, Google Cloud Logging entries (`textPayload` / `jsonPayload`,
//! one per line, a JSON array, or pretty-printed), and Loki JSON exports (`line`).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

mod decode;
mod extract;
mod mask;
mod scan;
mod time;

#[doc(hidden)]
pub mod bench_support;

#[cfg(test)]
mod tests;

pub use decode::decode_line;
pub use extract::evidence_from_record;
pub use mask::mask_secrets;
pub use scan::{scan, scan_slice};

/// Longest single line (or JSON document) the scanner will hold in memory. Longer
/// lines are skipped and counted in [`LogScan::too_long`]; this is what keeps memory
/// constant on hostile input such as a 10 MB line or a binary file without newlines.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Longest `source` excerpt kept in an [`Evidence`], so that reports stay readable
/// and a huge Terraform `out` field never ends up in the output.
pub const MAX_SOURCE_CHARS: usize = 300;

/// Severity of a log record. Exists because the doctor must tell the user when the
/// provider does not log at debug level: every ID-bearing message is Debug (§3.6).
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
    /// Key/values of the record. Duplicate keys (the reconciler logs `external-name`
    /// twice after Create) keep the **last** occurrence, as domain.md requires.
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

/// What a piece of [`Evidence`] says. Exists so the doctor can build a timeline and
/// know which lines carry IDs (§3.6 extraction rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvidenceKind {
    /// no-fork `Async create starting...` (`tfID` is normally empty).
    AsyncCreateStarting,
    /// no-fork `Async create ended.`: `tfID` is the Terraform ID just created
    /// (also a partial ID on failure); absent in the plugin-framework variant.
    AsyncCreateEnded,
    /// `Async create callback failed` (no-fork) or `callback failed` (CLI): the
    /// status update after an async create failed (upjet#632 symptom).
    CallbackFailed,
    /// `Instance state not found in cache, reconstructing...`: fresh tracker
    /// (new MR or provider restart).
    StateReconstructing,
    /// plugin-framework `recovered external name from last failed async operation`.
    RecoveredExternalName,
    /// Any other managed-reconciler line (carries the external-name read at Get time).
    Reconciler,
    /// `Successfully requested creation of external resource`.
    CreateRequested,
    /// `cannot determine creation result - remove the crossplane.io/external-create-pending annotation ...`.
    CreateIncomplete,
    /// `Cannot create external resource`.
    CreateFailed,
    /// `Successfully requested deletion of external resource`.
    DeleteRequested,
    /// `Successfully deleted managed resource`.
    Deleted,
    /// CLI mode `Critical annotations have been updated.` (external-name was written).
    CriticalAnnotationsUpdated,
    /// CLI workspace `apply async ended` / `apply ended`.
    CliApply,
    /// CLI workspace `refresh ended`.
    CliRefresh,
    /// CLI workspace `import ended`.
    CliImport,
    /// CLI workspace `destroy async ended` / `destroy ended`.
    CliDestroy,
    /// A Kubernetes Event found in a Cloud Logging export; its
    /// `metadata.annotations["external-name"]` is a weak, recorder-level source.
    KubeEvent,
}

impl EvidenceKind {
    /// Every kind, in declaration order: the one list tests and docs iterate over.
    pub const ALL: &'static [EvidenceKind] = &[
        EvidenceKind::AsyncCreateStarting,
        EvidenceKind::AsyncCreateEnded,
        EvidenceKind::CallbackFailed,
        EvidenceKind::StateReconstructing,
        EvidenceKind::RecoveredExternalName,
        EvidenceKind::Reconciler,
        EvidenceKind::CreateRequested,
        EvidenceKind::CreateIncomplete,
        EvidenceKind::CreateFailed,
        EvidenceKind::DeleteRequested,
        EvidenceKind::Deleted,
        EvidenceKind::CriticalAnnotationsUpdated,
        EvidenceKind::CliApply,
        EvidenceKind::CliRefresh,
        EvidenceKind::CliImport,
        EvidenceKind::CliDestroy,
        EvidenceKind::KubeEvent,
    ];

    /// Stable short name for reports and JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::AsyncCreateStarting => "AsyncCreateStarting",
            EvidenceKind::AsyncCreateEnded => "AsyncCreateEnded",
            EvidenceKind::CallbackFailed => "CallbackFailed",
            EvidenceKind::StateReconstructing => "StateReconstructing",
            EvidenceKind::RecoveredExternalName => "RecoveredExternalName",
            EvidenceKind::Reconciler => "Reconciler",
            EvidenceKind::CreateRequested => "CreateRequested",
            EvidenceKind::CreateIncomplete => "CreateIncomplete",
            EvidenceKind::CreateFailed => "CreateFailed",
            EvidenceKind::DeleteRequested => "DeleteRequested",
            EvidenceKind::Deleted => "Deleted",
            EvidenceKind::CriticalAnnotationsUpdated => "CriticalAnnotationsUpdated",
            EvidenceKind::CliApply => "CliApply",
            EvidenceKind::CliRefresh => "CliRefresh",
            EvidenceKind::CliImport => "CliImport",
            EvidenceKind::CliDestroy => "CliDestroy",
            EvidenceKind::KubeEvent => "KubeEvent",
        }
    }

    /// Lines that repeat on every reconcile and do not break a run of repeats.
    pub(crate) fn routine(self) -> bool {
        matches!(self, EvidenceKind::Reconciler | EvidenceKind::CliRefresh | EvidenceKind::KubeEvent)
    }

    /// Whether an `id` of this kind counts for [`last_logged_ids`] (rule (a)-(c) of
    /// §3.6, plus the plugin-framework recovered external-name).
    pub fn carries_logged_id(self) -> bool {
        !matches!(
            self,
            EvidenceKind::AsyncCreateStarting
                | EvidenceKind::CallbackFailed
                | EvidenceKind::StateReconstructing
                | EvidenceKind::CriticalAnnotationsUpdated
                | EvidenceKind::KubeEvent
        )
    }
}

/// Identity of the MR a line is about, as far as the line tells. Exists so the caller
/// can match evidence by name when a line has no UID (e.g. a callback error text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MrRef {
    /// `metadata.name` (`request.name`, `name`, `resourceName`, or Terraform resource name).
    pub name: Option<String>,
    /// `metadata.namespace` for namespaced (v2) MRs.
    pub namespace: Option<String>,
    /// `gvk` value (`ec2.aws.upbound.io/v1beta1, Kind=NetworkACLRule`).
    pub gvk: Option<String>,
    /// managed reconciler `controller` value (`managed/<group>/<version>, kind=<kind>`).
    pub controller: Option<String>,
}

/// Where a piece of evidence was read, so a report can point the user at the line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The `source` label given to [`scan`] (file name, pod name...).
    pub stream: String,
    /// 1-based physical line number in that stream (start of the JSON document for arrays).
    pub line: u64,
}

/// One log line (or run of identical lines) that says something about an MR's
/// cloud identity. The doctor's log findings are built only from these.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// MR `metadata.uid` the line is about; empty when the line only names the MR
    /// (then [`Evidence::mr`] has the name).
    pub uid: String,
    /// Time of the line (earliest time of a merged run).
    pub time: Option<DateTime<Utc>>,
    /// Latest time of a merged run (equals `time` when `repeats == 0`).
    pub last_time: Option<DateTime<Utc>>,
    /// How many further lines saying the same thing (same UID, kind, ID, error) were
    /// merged into this one; see `time` / `last_time` for the span.
    pub repeats: u32,
    /// What the line says.
    pub kind: EvidenceKind,
    /// The cloud/Terraform ID the line carries: `tfID`, `external-name`, hook
    /// `id_value`, ... `Some("")` when the key was logged empty, `None` when absent.
    pub id: Option<String>,
    /// IDs this line reports as just *created* (non-empty `tfID` of
    /// `Async create ended.`, CLI `apply_complete` with action `create`).
    pub created: Vec<String>,
    /// Error text carried by the line (credentials masked).
    pub error: Option<String>,
    /// The log message.
    pub msg: String,
    /// MR identity as named by the line.
    pub mr: MrRef,
    /// The log line cut to the fields that matter (≤ [`MAX_SOURCE_CHARS`], credentials masked).
    pub source: String,
    /// Where it was read.
    pub origin: Origin,
    /// Order of appearance of the (first) line across all scans into one [`LogScan`].
    pub seq: u64,
    /// Order of appearance of the last merged line.
    pub last_seq: u64,
}

impl Evidence {
    /// Whether this evidence is about the given MR: by UID when the line has one,
    /// otherwise by name (and namespace when both sides know it).
    pub fn is_about(&self, uid: &str, name: &str, namespace: Option<&str>) -> bool {
        if !self.uid.is_empty() {
            return self.uid == uid;
        }
        match self.mr.name.as_deref() {
            Some(n) if n == name => match (namespace, self.mr.namespace.as_deref()) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            },
            _ => false,
        }
    }

    fn newest_key(&self) -> (Option<DateTime<Utc>>, u64) {
        (self.last_time.or(self.time), self.last_seq)
    }
}

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

/// Running result of scanning one or more log streams: counters plus the evidence.
/// One `LogScan` may be fed several streams (pods, files) in turn.
///
/// Invariant: `lines == parsed + unknown + too_long + blank`.
#[derive(Debug, Clone, Default)]
pub struct LogScan {
    /// Records examined: one per text line, or one per JSON document / array element
    /// (the brackets of a JSON array are not records).
    pub lines: u64,
    /// Records recognised (including export entries that are not log lines).
    pub parsed: u64,
    /// Records in no known format (garbage, truncated JSON, binary).
    pub unknown: u64,
    /// Lines/documents longer than [`MAX_LINE_BYTES`], skipped unread.
    pub too_long: u64,
    /// Empty lines and bare JSON punctuation lines (`]`, `,`).
    pub blank: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Per-format counts.
    pub formats: FormatCounts,
    /// Per-level counts.
    pub levels: LevelCounts,
    /// At least one DEBUG record was seen. When false, the provider probably does not
    /// run with `--debug`, so no ID-bearing message can be present (§3.6).
    pub saw_debug: bool,
    /// Earliest record time seen.
    pub earliest: Option<DateTime<Utc>>,
    /// Latest record time seen.
    pub latest: Option<DateTime<Utc>>,
    evidence: Vec<Evidence>,
    by_uid: HashMap<String, Vec<usize>>,
    seq: u64,
    retention: Retention,
}

/// How much evidence a scan keeps: everything a timeline needs, a compact summary for a
/// fleet-wide report, or only the lines about one MR.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Retention {
    /// Every distinct fact in order (repeats merged while only routine lines come between).
    #[default]
    Full,
    /// A fleet report needs per MR only the distinct facts, not their interleaving: a repeat
    /// merges into any matching item as soon as the MR has a few. Memory then grows with the
    /// number of MRs and distinct IDs, not with the length of the log.
    Compact,
    /// Only evidence about one MR (by UID, or by name and namespace for lines without a UID).
    Focus {
        /// The MR's UID.
        uid: String,
        /// Its name.
        name: String,
        /// Its namespace.
        namespace: Option<String>,
    },
}

impl LogScan {
    /// Empty scan state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empty scan state keeping evidence as `retention` says.
    pub fn with_retention(retention: Retention) -> Self {
        LogScan { retention, ..Self::default() }
    }

    /// Whether this scan keeps `ev` at all.
    pub(crate) fn wants(&self, ev: &Evidence) -> bool {
        match &self.retention {
            Retention::Focus { uid, name, namespace } => ev.is_about(uid, name, namespace.as_deref()),
            _ => true,
        }
    }

    fn merge_any_after(&self) -> usize {
        match self.retention {
            Retention::Compact => 2,
            _ => MERGE_ANY_AFTER,
        }
    }

    /// Evidence collected so far, in order of appearance.
    pub fn evidence(&self) -> &[Evidence] {
        &self.evidence
    }

    /// Takes the evidence out (the counters stay).
    pub fn take_evidence(&mut self) -> Vec<Evidence> {
        self.by_uid.clear();
        std::mem::take(&mut self.evidence)
    }

    pub(crate) fn account(&mut self, time: Option<DateTime<Utc>>, level: Level) {
        self.parsed += 1;
        match level {
            Level::Debug => {
                self.levels.debug += 1;
                self.saw_debug = true;
            }
            Level::Info => self.levels.info += 1,
            Level::Warn => self.levels.warn += 1,
            Level::Error => self.levels.error += 1,
            Level::Other => self.levels.other += 1,
        }
        if let Some(t) = time {
            if self.earliest.is_none_or(|e| t < e) {
                self.earliest = Some(t);
            }
            if self.latest.is_none_or(|l| t > l) {
                self.latest = Some(t);
            }
        }
    }

    pub(crate) fn account_format(&mut self, format: RecordFormat, envelope: Envelope, epoch: bool) {
        let f = &mut self.formats;
        match format {
            RecordFormat::ZapConsole => f.zap_console += 1,
            RecordFormat::ZapConsoleSpaces => f.zap_console_spaces += 1,
            RecordFormat::ZapJson => f.zap_json += 1,
        }
        if epoch {
            f.epoch_time += 1;
        }
        Self::account_envelope(f, envelope);
    }

    pub(crate) fn account_envelope(f: &mut FormatCounts, envelope: Envelope) {
        match envelope {
            Envelope::None => {}
            Envelope::KubectlTimestamps => f.kubectl_timestamps += 1,
            Envelope::KubectlPrefix => f.kubectl_prefix += 1,
            Envelope::Cri => f.cri += 1,
            Envelope::LokiText => f.loki_text += 1,
            Envelope::Kibana => f.kibana += 1,
            Envelope::DockerJson => f.docker_json += 1,
            Envelope::CloudLogging => f.cloud_logging += 1,
            Envelope::Loki => f.loki += 1,
        }
    }

    /// Merges `ev` into earlier evidence that says the same thing (same UID, kind, ID,
    /// error and created IDs) instead of storing it again. Merged evidence keeps its
    /// first/last time and a repeat count. Rules:
    /// * into the latest evidence of the same kind for the UID, if only routine lines
    ///   (reconciler chatter, CLI refresh, events) came after it, so a timeline still
    ///   shows every create, restart and ID change in order;
    /// * once a UID has many items, into any matching item.
    ///
    /// This keeps memory bounded on long streams: it grows with *distinct* facts (a new
    /// ID, a new error, an event between repeats), not with the number of lines.
    pub(crate) fn try_merge(&mut self, ev: &Evidence) -> bool {
        if ev.uid.is_empty() {
            return false;
        }
        let Some(items) = self.by_uid.get(&ev.uid) else { return false };
        let evidence = &self.evidence;
        let same = |p: &Evidence| {
            p.kind == ev.kind && p.id == ev.id && p.error == ev.error && p.created == ev.created && p.uid == ev.uid
        };
        let mut target = None;
        for &i in items.iter().rev() {
            let Some(p) = evidence.get(i) else { break };
            if p.kind == ev.kind {
                if same(p) {
                    target = Some(i);
                }
                break;
            }
            if !p.kind.routine() {
                break;
            }
        }
        if target.is_none() && items.len() > self.merge_any_after() {
            target = items.iter().rev().find(|&&i| evidence.get(i).is_some_and(same)).copied();
        }
        let Some(i) = target else { return false };
        self.seq += 1;
        let prev = &mut self.evidence[i];
        prev.repeats = prev.repeats.saturating_add(1);
        prev.last_seq = self.seq;
        prev.time = min_time(prev.time, ev.time);
        prev.last_time = max_time(prev.last_time, ev.time);
        true
    }

    /// Appends `ev` as a new piece of evidence (no merge attempt).
    pub(crate) fn push_new(&mut self, mut ev: Evidence, stream: &str, line: u64) {
        self.seq += 1;
        ev.seq = self.seq;
        ev.last_seq = self.seq;
        ev.last_time = max_time(ev.last_time, ev.time);
        let idx = self.evidence.len();
        if !ev.uid.is_empty() {
            match self.by_uid.get_mut(&ev.uid) {
                Some(items) => items.push(idx),
                None => {
                    self.by_uid.insert(ev.uid.clone(), vec![idx]);
                }
            }
        }
        ev.origin = Origin { stream: stream.to_string(), line };
        self.evidence.push(ev);
    }
}

/// Once a UID has this many evidence items, a repeat merges into *any* matching item
/// (bounds memory when an external-name flaps or a create loops).
const MERGE_ANY_AFTER: usize = 32;

fn min_time(a: Option<DateTime<Utc>>, b: Option<DateTime<Utc>>) -> Option<DateTime<Utc>> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

fn max_time(a: Option<DateTime<Utc>>, b: Option<DateTime<Utc>>) -> Option<DateTime<Utc>> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

/// An ID the provider logged for an MR, with where and when. Exists so the doctor
/// can show "the provider last logged ID X at T (line ...)" next to the live
/// external-name.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedId {
    /// The ID (Terraform ID / external-name / hook `id_value`). CLI-mode IDs may
    /// contain `REDACTED` in place of ProviderConfig values; compare with [`same_id`].
    pub id: String,
    /// Newest time the ID was logged (for [`created_ids`]: first time).
    pub time: Option<DateTime<Utc>>,
    /// Excerpt of the line that logged it.
    pub source: String,
    /// Kind of the line that logged it.
    pub kind: EvidenceKind,
    /// Where the line was read.
    pub origin: Origin,
}

/// The §3.6 "last provider-logged external ID" per MR UID: the newest (by time, then
/// by order of appearance) non-empty ID among (a) `tfID` of `Async create ended.`,
/// (b) `external-name` of managed-reconciler lines, (c) `hook.id_value` of CLI
/// workspace lines (plus the plugin-framework recovered external-name). This is the
/// value an adopt/repair step would propose writing back.
pub fn last_logged_ids(evidence: &[Evidence]) -> HashMap<String, LoggedId> {
    let mut best: HashMap<&str, &Evidence> = HashMap::new();
    for ev in evidence {
        if ev.uid.is_empty() || !ev.kind.carries_logged_id() {
            continue;
        }
        if ev.id.as_deref().is_none_or(str::is_empty) {
            continue;
        }
        match best.get(ev.uid.as_str()) {
            Some(prev) if prev.newest_key() >= ev.newest_key() => {}
            _ => {
                best.insert(ev.uid.as_str(), ev);
            }
        }
    }
    best.into_iter()
        .map(|(uid, ev)| {
            (
                uid.to_string(),
                LoggedId {
                    id: ev.id.clone().unwrap_or_default(),
                    time: ev.last_time.or(ev.time),
                    source: ev.source.clone(),
                    kind: ev.kind,
                    origin: ev.origin.clone(),
                },
            )
        })
        .collect()
}

/// Every distinct ID logged as *created* for one MR UID, oldest first: non-empty
/// `tfID` of `Async create ended.`, CLI `apply_complete` IDs of create actions, and
/// the plugin-framework recovered external-name. More than one entry, or an entry
/// that differs from the live external-name (see [`same_id`]), marks an orphan
/// candidate: the provider created a cloud object the MR no longer points at.
pub fn created_ids(evidence: &[Evidence], uid: &str) -> Vec<LoggedId> {
    let mut out: Vec<(u64, LoggedId)> = Vec::new();
    for ev in evidence.iter().filter(|e| e.uid == uid) {
        let mut ids: Vec<&str> = ev.created.iter().map(String::as_str).collect();
        if ev.kind == EvidenceKind::RecoveredExternalName
            && let Some(id) = ev.id.as_deref()
        {
            ids.push(id);
        }
        for id in ids.into_iter().filter(|s| !s.is_empty()) {
            if let Some((seq, existing)) = out.iter_mut().find(|(_, l)| l.id == id) {
                // Keep the earliest sighting.
                if ev.time.is_some() && (existing.time.is_none() || ev.time < existing.time) {
                    existing.time = ev.time;
                    existing.source = ev.source.clone();
                    existing.kind = ev.kind;
                    existing.origin = ev.origin.clone();
                    *seq = ev.seq;
                }
                continue;
            }
            out.push((
                ev.seq,
                LoggedId {
                    id: id.to_string(),
                    time: ev.time,
                    source: ev.source.clone(),
                    kind: ev.kind,
                    origin: ev.origin.clone(),
                },
            ));
        }
    }
    out.sort_by(|(sa, a), (sb, b)| (a.time, sa).cmp(&(b.time, sb)));
    out.into_iter().map(|(_, l)| l).collect()
}

/// Whether a logged ID denotes the same cloud object as the current external-name.
/// Exists because upjet's CLI mode replaces ProviderConfig values in Terraform output
/// with `REDACTED` (store.go `filterSensitiveInformation`), so
/// `projects/REDACTED/managedZones/z/rrsets/a./A` must match
/// `projects/my-project/managedZones/z/rrsets/a./A`. Each `REDACTED` matches any
/// non-empty text; everything else must be equal.
pub fn same_id(logged: &str, current: &str) -> bool {
    if logged == current {
        return true;
    }
    if !logged.contains("REDACTED") {
        return false;
    }
    let parts: Vec<&str> = logged.split("REDACTED").collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !current.starts_with(first) || !current[first.len()..].ends_with(last) {
        return false;
    }
    if current.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &current[first.len()..current.len() - last.len()];
    // Middle literal parts must appear in order, each wildcard taking ≥ 1 char.
    for mid in &parts[1..parts.len() - 1] {
        if rest.is_empty() {
            return false;
        }
        let search = &rest[rest.char_indices().nth(1).map_or(rest.len(), |(i, _)| i)..];
        match search.find(mid) {
            Some(pos) => {
                let start = rest.len() - search.len() + pos;
                rest = &rest[start + mid.len()..];
            }
            None => return false,
        }
    }
    !rest.is_empty()
}
