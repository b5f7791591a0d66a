//! One audit file's documents as they arrive, whichever layout carried them (a line, an array
//! element, a CloudWatch message): the byte prefilter, decoding, folding into runs, and the
//! counts the file's note is made of.

use super::decode::decode;
use super::{Groups, Skip, Wrapper};
use serde::Serialize;
use std::collections::BTreeSet;
use upjet_core::audit::runs::Folder;
use upjet_core::audit::{AuditLevel, AuditWrite};

/// What reading one audit file found, for notes and the "another cluster" check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditRead {
    /// The file (`stdin` for `-`).
    pub name: String,
    /// Bytes read (after gzip).
    pub bytes: u64,
    /// Lines or document elements examined.
    pub documents: u64,
    /// Documents that named no wanted group at a completed stage with a write verb: skipped
    /// without decoding.
    pub prefiltered: u64,
    /// Writes kept.
    pub writes: u64,
    /// Writes that continued a run (same object, actor and action, no identity field changed),
    /// folded into its first write.
    pub folded: u64,
    /// Writes recorded at Metadata level (who and when only).
    pub metadata_level: u64,
    /// Events at another stage (`RequestReceived`, `ResponseStarted`, `Panic`).
    pub other_stage: u64,
    /// Reads, and requests without a named object.
    pub not_write: u64,
    /// Events of groups not examined.
    pub other_group: u64,
    /// Events at level None or an unknown level.
    pub level_none: u64,
    /// Valid JSON that is no audit event.
    pub not_audit: u64,
    /// Invalid JSON: truncated lines, binary, non-UTF-8.
    pub malformed: u64,
    /// Events longer than [`MAX_EVENT_BYTES`], skipped unread.
    pub too_long: u64,
    /// CloudWatch events cut at the service's size limit.
    pub truncated: u64,
    /// Events per wrapper: plain, GKE, CloudWatch.
    pub plain: u64,
    /// GKE Cloud Logging entries decoded.
    pub gke: u64,
    /// CloudWatch events decoded.
    pub cloudwatch: u64,
    /// Lines with an S3 export timestamp prefix.
    pub s3_prefixed: u64,
    /// Why the stream ended before its end, if it did (a gzip cut short, a truncated export).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_early: Option<String>,
    /// UIDs the kept writes name.
    #[serde(skip)]
    pub uids: BTreeSet<String>,
    /// Of the first [`SNIFFED`] documents, those that name an `auditID` or a `protoPayload`: none
    /// means the file is something else (a provider log given by mistake).
    #[serde(skip)]
    pub audit_like: u64,
}

impl AuditRead {
    fn skipped(&mut self, s: Skip) {
        match s {
            Skip::NotAudit => self.not_audit += 1,
            Skip::Malformed => self.malformed += 1,
            Skip::OtherStage => self.other_stage += 1,
            Skip::NotWrite => self.not_write += 1,
            Skip::OtherGroup => self.other_group += 1,
            Skip::LevelNone => self.level_none += 1,
            Skip::Truncated => self.truncated += 1,
        }
    }

    /// One line for a human: what was read and what was skipped, and why.
    pub fn note(&self) -> String {
        let mut parts = vec![format!(
            "{} events examined, {} writes to MR groups kept, {} skipped by byte checks (other groups, reads or stages)",
            self.documents, self.writes, self.prefiltered
        )];
        if self.folded > 0 {
            parts.push(format!(
                "{} repeated writes that changed no identity field folded into the run they continue",
                self.folded
            ));
        }
        let wrappers: Vec<String> =
            [("audit.k8s.io", self.plain), ("GKE Cloud Logging", self.gke), ("CloudWatch", self.cloudwatch)]
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(w, n)| format!("{n} {w}"))
                .collect();
        if !wrappers.is_empty() {
            parts.push(format!("decoded {}", wrappers.join(", ")));
        }
        let skipped = [
            (self.other_stage, "at another stage than ResponseComplete (not counted twice)"),
            (self.metadata_level, "at Metadata level (no objects recorded)"),
            (self.malformed, "not valid JSON (truncated, binary or not UTF-8)"),
            (self.not_audit, "JSON but not audit events"),
            (self.too_long, "longer than 4 MiB (skipped unread)"),
            (self.truncated, "cut by CloudWatch ([Truncated...])"),
            (self.level_none, "at level None"),
        ];
        parts.extend(skipped.iter().filter(|(n, _)| *n > 0).map(|(n, what)| format!("{n} {what}")));
        if let Some(why) = &self.ended_early {
            parts.push(format!("ended early: {why}"));
        }
        if self.documents > 0 && self.audit_like == 0 {
            parts.push(format!(
                "none of its first {} documents is an audit event: is this the API server's audit log (--audit-log-path), a GKE or a CloudWatch export?",
                self.documents.min(SNIFFED)
            ));
        }
        format!("audit log {}: {}", self.name, parts.join("; "))
    }

    fn keep(&mut self, w: AuditWrite, writes: &mut Vec<AuditWrite>, folder: &mut Folder) {
        if w.level == AuditLevel::Metadata {
            self.metadata_level += 1;
        }
        if let Some(u) = w.uid.as_ref().filter(|u| !self.uids.contains(*u)) {
            self.uids.insert(u.clone());
        }
        if folder.push(w, writes) {
            self.writes += 1;
        } else {
            self.folded += 1;
        }
    }
}

/// How many documents of a file are looked at to tell whether it holds audit events at all.
const SNIFFED: u64 = 1000;

/// The reading state of one file.
pub(super) struct Reader<'a> {
    pub(super) read: AuditRead,
    pub(super) writes: Vec<AuditWrite>,
    groups: &'a Groups,
    folder: Folder,
}

impl<'a> Reader<'a> {
    /// The state of a file about to be read.
    pub(super) fn new(name: &str, groups: &'a Groups) -> Reader<'a> {
        let read = AuditRead { name: name.to_string(), ..AuditRead::default() };
        Reader { read, writes: Vec::new(), groups, folder: Folder::default() }
    }

    /// One document (a line without its prefix, or an array element) at `line`.
    pub(super) fn element(&mut self, b: &[u8], line: u64) {
        self.read.documents += 1;
        if self.read.documents <= SNIFFED
            && (memchr::memmem::find(b, b"auditID").is_some() || memchr::memmem::find(b, b"protoPayload").is_some())
        {
            self.read.audit_like += 1;
        }
        if !self.groups.candidate(b) {
            self.read.prefiltered += 1;
            return;
        }
        let source = format!("{}:{line}", self.read.name);
        let (res, wrapper) = if b.first() == Some(&b'"') {
            // A bare string: a CloudWatch message (`--query 'events[].message'`).
            match serde_json::from_slice::<String>(b) {
                Ok(s) => {
                    let (r, w) = decode(s.as_bytes(), &source, self.groups);
                    (r, w.map(|_| Wrapper::CloudWatch))
                }
                Err(_) => (Err(Skip::Malformed), None),
            }
        } else {
            decode(b, &source, self.groups)
        };
        match wrapper {
            Some(Wrapper::Plain) => self.read.plain += 1,
            Some(Wrapper::Gke) => self.read.gke += 1,
            Some(Wrapper::CloudWatch) => self.read.cloudwatch += 1,
            None => {}
        }
        match res {
            Ok(w) => self.read.keep(w, &mut self.writes, &mut self.folder),
            Err(s) => self.read.skipped(s),
        }
    }

    /// One line of a file in line mode: a JSON document, a CloudWatch message string, or an S3
    /// export line (`TIMESTAMP {json}`).
    pub(super) fn line(&mut self, raw: &[u8], line: u64) {
        let b = raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw).trim_ascii();
        if b.is_empty() || b.iter().all(|c| matches!(c, b']' | b'[' | b'}' | b',')) {
            return;
        }
        if matches!(b[0], b'{' | b'"') {
            return self.element(b.strip_suffix(b",").unwrap_or(b), line);
        }
        // S3 export of CloudWatch Logs: `2024-11-30T10:00:00.000Z {json}`.
        match b.iter().take(64).position(|&c| c == b' ').filter(|&i| b.get(i + 1) == Some(&b'{')) {
            Some(i) if b[0].is_ascii_digit() => {
                self.read.s3_prefixed += 1;
                self.element(&b[i + 1..], line);
            }
            _ => {
                // Not JSON at all: a provider log, a binary, a file of something else.
                self.read.documents += 1;
                self.read.malformed += 1;
            }
        }
    }
}
