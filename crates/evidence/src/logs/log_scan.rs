//! The running state of a log scan: counters plus deduplicated evidence.
//!
//! Exists so one [`LogScan`] can be fed several streams in turn (pods, files) and keep memory
//! bounded: repeated lines merge into earlier evidence (see `LogScan::try_merge`) and the
//! [`Retention`] decides how much of the interleaving is kept.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::extract::START_LINES;
use super::{Envelope, Evidence, EvidenceKind, FormatCounts, Level, LevelCounts, Origin, RecordFormat};

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
    /// Lines/documents longer than [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES), skipped unread.
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
    /// run with `--debug`, so no ID-bearing message can be present (they are all logged at
    /// debug level).
    pub saw_debug: bool,
    /// Earliest record time seen.
    pub earliest: Option<DateTime<Utc>>,
    /// Latest record time seen.
    pub latest: Option<DateTime<Utc>>,
    evidence: Vec<Evidence>,
    by_uid: HashMap<String, Vec<usize>>,
    /// The latest process start seen per controller, to merge the lines of one start.
    starts: HashMap<String, usize>,
    /// The sequence number of the latest start line: no run of repeats merges across it, so a
    /// create requested before a restart and one requested after stay two pieces of evidence.
    last_start_seq: u64,
    seq: u64,
    retention: Retention,
}

/// How much evidence a scan keeps: everything a timeline needs, a compact summary for a
/// fleet-wide report, or only the lines about one MR.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Retention {
    /// Every distinct fact in order (repeats of one message merged while only routine lines of
    /// other kinds come between).
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
    pub(crate) fn with_retention(retention: Retention) -> Self {
        LogScan { retention, ..Self::default() }
    }

    /// Whether this scan keeps `ev` at all.
    pub(crate) fn wants(&self, ev: &Evidence) -> bool {
        if ev.kind == EvidenceKind::ProcessStarted {
            // It names a controller, not an MR: kept whatever the retention (one per controller
            // and process), and handed to the MRs of its kind by `LogEvidence`.
            return true;
        }
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
        self.starts.clear();
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

    /// Merges `ev` into earlier evidence that says the same thing (same UID, kind, message,
    /// ID, error and created IDs) instead of storing it again. Merged evidence keeps its
    /// first/last time and a repeat count, which then belong to that one message: a paused MR's
    /// lines and the up-to-date lines after them under the same ID are two runs, not one. Rules:
    /// * into the latest evidence of the same kind for the UID, if only routine lines
    ///   (reconciler chatter, CLI refresh, events) of other kinds came after it, so a timeline
    ///   still shows every create, restart, ID change and change of message in order;
    /// * once a UID has many items, into any matching item.
    ///
    /// This keeps memory bounded on long streams: it grows with *distinct* facts (a new
    /// ID, a new error, an event between repeats), not with the number of lines.
    pub(crate) fn try_merge(&mut self, ev: &Evidence) -> bool {
        if ev.kind == EvidenceKind::ProcessStarted {
            return self.merge_start(ev);
        }
        if ev.uid.is_empty() {
            return false;
        }
        let Some(items) = self.by_uid.get(&ev.uid) else { return false };
        let evidence = &self.evidence;
        let same = |p: &Evidence| {
            p.kind == ev.kind
                && p.msg == ev.msg
                && p.id == ev.id
                && p.error == ev.error
                && p.created == ev.created
                && p.uid == ev.uid
        };
        let mut target = None;
        for &i in items.iter().rev() {
            let Some(p) = evidence.get(i) else { break };
            if p.last_seq < self.last_start_seq {
                break;
            }
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

    /// Merges a start line into the start of its controller it belongs to: controller-runtime
    /// logs each controller's sources, then the controller, then its workers, once per process
    /// (`Controller.Start`), so a line that goes on in that order within the time a start may
    /// take (its cache-sync timeout, two minutes by default) is the same start; a line that
    /// comes back to an earlier step, or repeats one other than a source, is the next process.
    fn merge_start(&mut self, ev: &Evidence) -> bool {
        let Some(controller) = ev.mr.controller.as_deref() else { return false };
        let Some(&i) = self.starts.get(controller) else { return false };
        let Some(prev) = self.evidence.get(i) else { return false };
        let phase = |e: &Evidence| START_LINES.iter().position(|l| *l == e.msg);
        let (before, now) = (phase(prev), phase(ev));
        let in_order = match (before, now) {
            (Some(b), Some(n)) => b < n || (b == 0 && n == 0),
            _ => false,
        };
        let close = match (prev.last_time.or(prev.time), ev.time) {
            (Some(a), Some(b)) => (b - a).num_seconds().abs() <= START_MERGE_SECS,
            _ => true,
        };
        if !in_order || !close {
            return false;
        }
        self.seq += 1;
        self.last_start_seq = self.seq;
        let prev = &mut self.evidence[i];
        prev.repeats = prev.repeats.saturating_add(1);
        prev.last_seq = self.seq;
        prev.last_time = max_time(prev.last_time, ev.time);
        // The excerpt and message are the latest step's: `Starting workers` says the start ended.
        prev.msg.clone_from(&ev.msg);
        prev.source.clone_from(&ev.source);
        true
    }

    /// Appends `ev` as a new piece of evidence (no merge attempt).
    pub(crate) fn push_new(&mut self, mut ev: Evidence, stream: &str, line: u64) {
        self.seq += 1;
        ev.seq = self.seq;
        ev.last_seq = self.seq;
        ev.last_time = max_time(ev.last_time, ev.time);
        let idx = self.evidence.len();
        if ev.kind == EvidenceKind::ProcessStarted
            && let Some(c) = &ev.mr.controller
        {
            self.starts.insert(c.clone(), idx);
            self.last_start_seq = self.seq;
        }
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

/// How far apart the lines of one controller's start may be: controller-runtime waits up to its
/// `CacheSyncTimeout` (two minutes unless set) for the sources before `Starting Controller`.
const START_MERGE_SECS: i64 = 120;

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
