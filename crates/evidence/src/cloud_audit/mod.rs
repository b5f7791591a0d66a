//! The cloud's own audit record, read from the exports users make without giving this tool any
//! credentials: AWS CloudTrail (`lookup-events` JSON, log files as delivered to S3, CloudTrail
//! Lake and Athena JSON lines, EventBridge envelopes), GCP Cloud Audit Logs (`gcloud logging
//! read --format=json`, log-sink JSON lines) and the Azure Activity Log (`az monitor
//! activity-log list -o json`, the `{"records":[…]}` export). Detected per record, so one file
//! may mix them; gzip and stdin are accepted.
//!
//! Speed and memory: [`json_split`](json_split) walks the bytes once and holds only the record being read
//! (capped at [`MAX_RECORD_BYTES`]); [`prefilter`] rejects reads and other calls by byte checks
//! before any JSON is decoded; only creates and deletes are kept, as compact [`CloudCall`]s,
//! at most [`MAX_CALLS`] per file. Nothing in a file's content is fatal: what cannot be read is
//! counted, and its lines named, in the file's note.

mod athena;
mod azure;
mod cloudtrail;
mod columns;
pub(crate) mod dialect;
pub(crate) mod gcp;
mod lake;
mod prefilter;
mod values;

#[cfg(test)]
mod tests;

use dialect::{Claim, Dialect, Skip};
use json_split::{AfterBreak, Member, Piece, Splitter};
use std::collections::HashMap;
use std::io::{BufRead, Read};
use std::sync::Arc;
use upjet_core::cloud_audit::{self, Cloud, CloudAuditCheck, CloudCall, Interner, Options, Verb, Window};
use upjet_core::managed::ManagedResource;

/// Longest record held in memory; longer ones are skipped and counted. CloudTrail caps an event
/// at 256 KB; Cloud Logging at 256 KB per entry; Azure events are smaller.
pub(crate) const MAX_RECORD_BYTES: usize = 4 << 20;

/// Most calls kept of one file. A create is a few hundred bytes once decoded, so this bounds a
/// file's share of memory; an export with more creates and deletes than this is noted, and
/// should be narrowed (a time window, the provider's principal).
pub(crate) const MAX_CALLS: usize = 200_000;

/// Keys of a wrapping object whose array holds the records: CloudTrail's S3 files and
/// `lookup-events`, Azure's diagnostic settings and REST API, Cloud Logging's `entries`.
const WRAPPER_KEYS: &[&[u8]] = &[b"Records", b"records", b"Events", b"events", b"value", b"entries"];

/// Keys of a wrapping object whose non-empty string value says more pages remain (what each
/// means: [`paging_hint`]).
const PAGING_KEYS: &[&[u8]] = &[b"NextToken", b"nextLink", b"nextPageToken"];

/// How many records of a file are looked at to tell whether it holds audit records at all.
const SNIFFED: u64 = 1000;

/// How many unreadable lines a note names.
const NAMED_LINES: usize = 5;

/// Every cloud whose audit record is read, each in its own file: the order their byte checks
/// claim a record in (CloudTrail first: an Azure event names an `eventName` too), their counts
/// in a note, and their sniffer entries. Adding a cloud is its file and one entry here.
pub(crate) static DIALECTS: &[&dyn Dialect] = &[&cloudtrail::CloudTrail, &gcp::GcpAudit, &azure::AzureActivity];

/// What reading one file found, for its note.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CloudAuditRead {
    /// The file (`stdin` for `-`).
    pub name: String,
    /// Bytes read (after gzip).
    pub bytes: u64,
    /// Records examined.
    pub records: u64,
    /// Records no byte check found a create or delete in: skipped unread.
    pub prefiltered: u64,
    /// Creates kept.
    pub creates: u64,
    /// Deletes kept.
    pub deletes: u64,
    /// Entries merged into the operation they belong to.
    pub merged: u64,
    /// Records decoded, per cloud in the order of [`DIALECTS`] (see [`CloudAuditRead::decoded`]).
    decoded_by_cloud: Vec<u64>,
    /// Decoded, but neither a create nor a delete (or a data event).
    pub not_write: u64,
    /// Valid JSON that is no audit record.
    pub not_audit: u64,
    /// Records that are not valid JSON.
    pub malformed: u64,
    /// Records broken off by a raw newline inside a string.
    pub broken: u64,
    /// Lines at top level that are not JSON.
    pub not_json: u64,
    /// Lines skipped after a break, up to the next line that starts a document.
    pub resynced: u64,
    /// Records longer than [`MAX_RECORD_BYTES`], skipped unread.
    pub too_long: u64,
    /// Calls not kept beyond [`MAX_CALLS`].
    pub dropped: u64,
    /// The first lines that could not be read.
    pub unreadable_lines: Vec<u64>,
    /// Why the stream ended before its end, if it did.
    pub ended_early: Option<String>,
    /// Why the export is not the whole answer, though read to its end (a CloudTrail Lake page
    /// followed by a `NextToken`, a query not finished): the report built on it is partial.
    pub cut_short: Option<String>,
    /// Of the first [`SNIFFED`] whole records, those that look like an audit record of some cloud.
    audit_like: u64,
    /// Whole records looked at for that (at most [`SNIFFED`]).
    sniffed: u64,
}

impl CloudAuditRead {
    /// Records of `cloud` decoded.
    pub fn decoded(&self, cloud: Cloud) -> u64 {
        let i = DIALECTS.iter().position(|d| d.cloud() == cloud);
        i.and_then(|i| self.decoded_by_cloud.get(i)).copied().unwrap_or(0)
    }

    /// Records decoded, of every cloud.
    pub fn decoded_total(&self) -> u64 {
        self.decoded_by_cloud.iter().sum()
    }

    fn count_decoded(&mut self, dialect: usize) {
        if self.decoded_by_cloud.len() <= dialect {
            self.decoded_by_cloud.resize(dialect + 1, 0);
        }
        self.decoded_by_cloud[dialect] += 1;
    }

    fn unreadable(&mut self, line: u64) {
        if self.unreadable_lines.len() < NAMED_LINES && !self.unreadable_lines.contains(&line) {
            self.unreadable_lines.push(line);
        }
    }

    /// One line for a human: what was read and kept, what was skipped and why, which lines
    /// could not be read.
    pub fn note(&self) -> String {
        let mut parts = vec![format!(
            "{} records examined, {} creates and {} deletes kept, {} skipped by byte checks (reads and other calls)",
            self.records, self.creates, self.deletes, self.prefiltered
        )];
        let clouds: Vec<String> = DIALECTS
            .iter()
            .zip(&self.decoded_by_cloud)
            .filter(|(_, n)| **n > 0)
            .map(|(d, n)| format!("{n} {}", d.label()))
            .collect();
        if !clouds.is_empty() {
            parts.push(format!("decoded {}", clouds.join(", ")));
        }
        let lines = |n: u64| if n > 0 { self.lines() } else { String::new() };
        let skipped = [
            (self.merged, "entries merged into the operation they continue".to_string()),
            (self.not_write, "decoded but neither a create nor a delete".to_string()),
            (self.not_audit, "JSON but no audit record".to_string()),
            (self.malformed, format!("not valid JSON{}", lines(self.malformed + self.broken + self.not_json))),
            (self.broken, "broken off by a raw newline inside a string".to_string()),
            (self.resynced, "lines skipped after a break, up to the next document".to_string()),
            (self.not_json, "lines that are not JSON".to_string()),
            (self.too_long, "longer than 4 MiB (skipped unread)".to_string()),
            (self.dropped, format!("calls not kept beyond {MAX_CALLS}: narrow the export")),
        ];
        parts.extend(skipped.iter().filter(|(n, _)| *n > 0).map(|(n, what)| format!("{n} {what}")));
        if self.malformed == 0 && (self.broken + self.not_json) > 0 {
            parts.push(format!("unreadable{}", self.lines()));
        }
        if let Some(why) = &self.ended_early {
            parts.push(format!("ended early: {why}"));
        }
        if let Some(why) = &self.cut_short {
            parts.push(format!("cut short: {why}"));
        }
        if self.sniffed > 0 && self.audit_like == 0 {
            parts.push(format!(
                "none of its first {} records is a {} record: is this the cloud's audit export?",
                self.sniffed,
                any_cloud()
            ));
        }
        format!("cloud audit {}: {}", self.name, parts.join("; "))
    }

    fn lines(&self) -> String {
        let l: Vec<String> = self.unreadable_lines.iter().map(u64::to_string).collect();
        match l.len() {
            0 => String::new(),
            1 => format!(" (line {})", l[0]),
            _ => format!(" (lines {}{})", l.join(", "), if l.len() == NAMED_LINES { ", …" } else { "" }),
        }
    }
}

/// Calls in the order read, with the entries of one operation (a GCP long-running operation's
/// first and last entry, Azure's Started and Succeeded events) merged into the first.
#[derive(Default)]
struct Calls {
    calls: Vec<CloudCall>,
    operations: HashMap<Box<str>, usize>,
}

impl Calls {
    /// Merges `c` into the call of its operation and returns `None`, or gives it back: it starts
    /// an operation (or is a call of its own) and the caller decides whether to [`Calls::push`] it.
    fn merge(&mut self, c: CloudCall) -> Option<CloudCall> {
        match c.operation.as_ref().and_then(|op| self.operations.get(op)) {
            Some(&i) => {
                self.calls[i].absorb(c);
                None
            }
            None => Some(c),
        }
    }

    fn push(&mut self, c: CloudCall) {
        if let Some(op) = &c.operation {
            self.operations.insert(op.clone(), self.calls.len());
        }
        self.calls.push(c);
    }
}

/// The reading state of one file.
struct Reader {
    read: CloudAuditRead,
    calls: Calls,
    intern: Interner,
    file: Arc<str>,
}

impl Reader {
    fn new(name: &str) -> Reader {
        let mut intern = Interner::default();
        let file = intern.get(name);
        let read = CloudAuditRead { name: name.to_string(), ..CloudAuditRead::default() };
        Reader { read, calls: Calls::default(), intern, file }
    }

    fn piece(&mut self, p: Piece) {
        match p {
            Piece::Element(b, line) | Piece::Whole(b, line) => self.record(b, line),
            Piece::NotJson(line) => {
                self.read.not_json += 1;
                self.read.unreadable(line);
            }
            Piece::Broken(line) => {
                self.read.records += 1;
                self.read.broken += 1;
                self.read.unreadable(line);
            }
            Piece::TooLong(_) => {
                self.read.records += 1;
                self.read.too_long += 1;
            }
            // A wrapping object ended: the last one's paging token says whether more remain (a
            // page concatenated after another starts over).
            Piece::Wrapper(said) => self.read.cut_short = paging(said),
        }
    }

    /// One record (an object, or a string holding one) starting on `line`.
    fn record(&mut self, b: &[u8], line: u64) {
        self.read.records += 1;
        if self.read.sniffed < SNIFFED {
            self.read.sniffed += 1;
            self.read.audit_like += u64::from(looks_audit(b));
        }
        let Some((i, Claim::Wanted)) = dialect::claim(DIALECTS, b) else {
            self.read.prefiltered += 1;
            return;
        };
        let inner;
        let b = if b.first() == Some(&b'"') {
            match serde_json::from_slice::<String>(b) {
                Ok(s) => {
                    inner = s;
                    inner.as_bytes()
                }
                Err(_) => return self.skip(Skip::Malformed, line),
            }
        } else {
            b
        };
        match dialect::decode_call(DIALECTS[i], b, &self.file, line, &mut self.intern) {
            Ok(c) => self.keep(i, c),
            Err(s) => self.skip(s, line),
        }
    }

    fn skip(&mut self, s: Skip, line: u64) {
        match s {
            Skip::NotAudit => self.read.not_audit += 1,
            Skip::NotWrite => self.read.not_write += 1,
            Skip::Malformed => {
                self.read.malformed += 1;
                self.read.unreadable(line);
            }
        }
    }

    /// Keeps a call the dialect at index `dialect` of [`DIALECTS`] decoded.
    fn keep(&mut self, dialect: usize, c: CloudCall) {
        self.read.count_decoded(dialect);
        let Some(c) = self.calls.merge(c) else {
            self.read.merged += 1;
            return;
        };
        if self.calls.calls.len() >= MAX_CALLS {
            self.read.dropped += 1;
            return;
        }
        match c.verb {
            Verb::Create => self.read.creates += 1,
            Verb::Delete => self.read.deletes += 1,
        }
        self.calls.push(c);
    }
}

/// Why a wrapping object that ended with `said` is not the whole answer: a paging token.
fn paging(said: &[Member]) -> Option<String> {
    let token = said.iter().find(|m| !m.value.trim_ascii().is_empty())?;
    let key = String::from_utf8_lossy(PAGING_KEYS.get(token.key)?);
    Some(format!("it ends with {key}: more pages remain ({})", paging_hint(&key)))
}

/// What a paging token means and what to do: the AWS CLI prints `lookup-events`' `NextToken`
/// when `--max-items` (or `--no-paginate`) stopped it before the last page; Azure's REST API
/// ends a page of `value` with `nextLink`, the Logging API's `entries.list` a page of `entries`
/// with `nextPageToken`.
fn paging_hint(key: &str) -> &'static str {
    match key {
        "NextToken" => {
            "lookup-events stopped before its last page (--max-items or --no-paginate); run it again with --starting-token until no NextToken is printed and give every page"
        }
        "nextLink" => "the REST API answered one page; follow nextLink until none is returned and give every page",
        _ => "entries.list answered one page; call it again with pageToken until none is returned and give every page",
    }
}

/// Whether a record names a field only cloud audit records have.
fn looks_audit(b: &[u8]) -> bool {
    DIALECTS.iter().flat_map(|d| d.marks()).any(|k| memchr::memmem::find(b, k.as_bytes()).is_some())
}

/// "CloudTrail, GCP audit or Azure activity": every cloud's records, for a note.
fn any_cloud() -> String {
    let labels: Vec<&str> = DIALECTS.iter().map(|d| d.label()).collect();
    match labels.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// How a file's records are laid out: each layout is a reader entry of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// JSON records, bare, in an array or under a wrapper key ([`WRAPPER_KEYS`]).
    Json,
    /// CloudTrail Lake's `get-query-results` answer: rows of columns.
    Lake,
    /// A CSV of CloudTrail's columns (Athena).
    Csv,
}

impl Layout {
    /// The layout a file's first bytes show.
    fn of(head: &[u8]) -> Layout {
        if lake::is_lake(head) {
            Layout::Lake
        } else if athena::is_athena(head) {
            Layout::Csv
        } else {
            Layout::Json
        }
    }
}

/// Reads one export (plain or gzip). Never fails: a stream that breaks off keeps what was read
/// and says why in [`CloudAuditRead::ended_early`].
pub fn read(reader: impl Read, name: &str) -> (CloudAuditRead, Vec<CloudCall>) {
    let mut r = Reader::new(name);
    let mut input = match crate::input::open(reader) {
        Ok(i) => i,
        Err(e) => {
            r.read.ended_early = Some(e.to_string());
            return (r.read, r.calls.calls);
        }
    };
    let gz = input.is_gzip();
    let mut bytes = 0u64;
    let layout = loop {
        match input.fill_buf() {
            Ok(head) => break Layout::of(head),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break Layout::Json,
        }
    };
    let result = match layout {
        Layout::Lake => lake::read(&mut input, &mut bytes, &mut r),
        Layout::Csv => athena::read(&mut input, &mut bytes, &mut r),
        Layout::Json => {
            let mut split = Splitter::new(MAX_RECORD_BYTES, WRAPPER_KEYS, AfterBreak::Resync).listen(PAGING_KEYS);
            let result = split.run(&mut input, &mut bytes, &mut |p| r.piece(p));
            r.read.resynced = split.resynced_lines;
            result
        }
    };
    r.read.bytes = bytes;
    match result {
        Ok(None) => {}
        Ok(Some(line)) => {
            r.read.malformed += 1;
            r.read.unreadable(line);
            r.read.ended_early =
                Some(format!("the JSON ends inside the record that starts on line {line} (a truncated export)"));
        }
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && gz => {
            r.read.ended_early = Some("the gzip stream ends early; what came before was read".into());
        }
        Err(e) => r.read.ended_early = Some(e.to_string()),
    }
    (r.read, r.calls.calls)
}

/// [`read`] over bytes in memory: for benchmarks and tests.
pub fn read_slice(data: &[u8], name: &str) -> (CloudAuditRead, Vec<CloudCall>) {
    read(data, name)
}

/// Every file read, their calls together (entries of one operation merged across files).
#[derive(Debug, Default)]
pub struct CloudRecord {
    /// The calls, in file order.
    pub calls: Vec<Arc<CloudCall>>,
    /// The files, in order.
    pub files: Vec<CloudAuditRead>,
    /// Entries merged across files.
    merged_across: u64,
}

impl CloudRecord {
    /// Joins what each file yielded.
    pub fn new(files: Vec<(CloudAuditRead, Vec<CloudCall>)>) -> CloudRecord {
        let mut record = CloudRecord::default();
        let mut calls = Calls::default();
        for (read, file_calls) in files {
            record.files.push(read);
            for c in file_calls {
                match calls.merge(c) {
                    Some(c) => calls.push(c),
                    None => record.merged_across += 1,
                }
            }
        }
        // Not collected in place: that would keep the calls' buffer (their full size, not an
        // `Arc`'s) for the whole run.
        record.calls = Vec::with_capacity(calls.calls.len());
        record.calls.extend(calls.calls.into_iter().map(Arc::new));
        record
    }

    /// One note per file, and one for entries merged across files.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self.files.iter().map(CloudAuditRead::note).collect();
        if self.merged_across > 0 {
            notes.push(format!(
                "cloud audit: {} entries merged into an operation begun in another file",
                self.merged_across
            ));
        }
        notes
    }

    /// The files that are not the whole answer, each as "cloud audit FILE: why": calls on the
    /// missing pages were not read, so a report built on them is partial.
    pub(crate) fn cut_short(&self) -> Vec<String> {
        let cut = self.files.iter().filter_map(|f| Some((&f.name, f.cut_short.as_ref()?)));
        cut.map(|(name, why)| {
            format!("cloud audit {name}: cut short ({why}); calls on its missing pages were not read")
        })
        .collect()
    }

    /// Ties the calls to `mrs`, each MR's window its own create window.
    pub fn check(&self, mrs: &[&ManagedResource], principals: &[String]) -> CloudAuditCheck {
        let opts = Options { principals, window: &Window::of };
        cloud_audit::check(&self.calls, mrs, &opts)
    }
}
