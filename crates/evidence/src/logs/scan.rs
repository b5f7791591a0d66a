//! Streaming scanner: reads a whole log stream with bounded memory.
//!
//! Text lines are read with `read_until` (capped at [`MAX_LINE_BYTES`]) into one reused
//! buffer (`buffered.rs`). JSON arrays and pretty-printed JSON documents (Cloud Logging /
//! Loki exports) are split byte by byte into elements, each capped the same way
//! (the one JSON splitter's embedded-document mode, `json_split`; `doc_start.rs` says
//! where a document starts), so a single-line 50 MB export array is still processed element by element.
//!
//! Speed: most lines say nothing about IDs. A line is fully decoded only when a
//! `memmem` pre-filter finds one of the few key names/messages that can carry evidence;
//! every other line is only recognised (timestamp + level) by cheap byte checks.

use std::io::{self, BufRead};
use std::sync::OnceLock;

use memchr::memmem::Finder;

use super::buffered::{BOM, LineRead, consume_buffered, read_line_capped};
use super::decode::{
    Decoded, Outer, console_head, decode_console, decode_map, merge_time, parse_map, sniff_zap_json, strip_prefix,
    trim_ascii,
};
use super::doc_start::{array_open, array_start, json_open_at_end};
use super::extract::{evidence_from_event, extract_pending};
use super::{Envelope, Evidence, LogRecord, LogScan, MAX_LINE_BYTES, RecordFormat};
use json_split::{Opened, Piece, Splitter};

/// Substrings at least one of which every evidence-bearing line contains. They are
/// escape-insensitive (no quotes), so they also match inside wrapped payloads.
const NEEDLES: &[&str] = &[
    "external-name",
    "trackerUID",
    "workspace",
    "Instance state not found",
    "Critical annotations",
    "callback failed",
    "Missing Resource Identity diagnostic",
    "Starting EventSource",
    "Starting Controller",
    "Starting workers",
];

fn finders() -> &'static [Finder<'static>] {
    static F: OnceLock<Vec<Finder<'static>>> = OnceLock::new();
    F.get_or_init(|| NEEDLES.iter().map(|n| Finder::new(n.as_bytes())).collect())
}

#[inline]
fn interesting(b: &[u8]) -> bool {
    finders().iter().any(|f| f.find(b).is_some())
}

/// What became of one record, for the counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Recognised (counted in `parsed`).
    Parsed,
    /// In no known format.
    Unknown,
    /// Longer than [`MAX_LINE_BYTES`].
    TooLong,
    /// A bare line opened a JSON object that continues on the next lines.
    Incomplete,
}

/// What line mode does after one line.
enum LineAction {
    /// The line was a whole record (or blank).
    Done,
    /// Object opened on this line at this byte offset.
    StartObject(usize),
    /// Array opened on this line; payload starts at this byte offset.
    StartArray(usize),
}

/// Per-stream reading state around the [`LogScan`] being filled.
struct Scanner<'a> {
    scan: &'a mut LogScan,
    stream: &'a str,
    /// Newlines consumed so far in this stream (= number of the current line - 1 while
    /// inside a line, = number of the last line read in line mode).
    newlines: u64,
    /// Line number reported as the origin of the record being processed.
    record_line: u64,
    /// Joined CRI partial (`P`) lines waiting for their final (`F`) line.
    cri: Vec<u8>,
    cri_overflow: bool,
}

impl Scanner<'_> {
    fn push(&mut self, ev: Evidence) {
        if !self.scan.wants(&ev) {
            return;
        }
        if !self.scan.try_merge(&ev) {
            self.scan.push_new(ev, self.stream, self.record_line);
        }
    }

    fn record(&mut self, r: LogRecord) {
        self.scan.account(r.time, r.level);
        self.scan.account_format(r.format, r.envelope, r.epoch_time);
        if r.bad_fields {
            self.scan.formats.bad_fields += 1;
        }
        if let Some(mut p) = extract_pending(&r)
            && self.scan.wants(&p.ev)
            && !self.scan.try_merge(&p.ev)
        {
            p.finish(&r);
            self.scan.push_new(p.ev, self.stream, self.record_line);
        }
    }

    fn decoded(&mut self, d: Decoded) -> Outcome {
        match d {
            Decoded::Record(r) => {
                self.record(*r);
                Outcome::Parsed
            }
            Decoded::NonLog(n) => {
                self.scan.parsed += 1;
                self.scan.formats.non_log_entries += 1;
                LogScan::account_envelope(&mut self.scan.formats, n.envelope);
                if let Some(ev) = n.event.as_deref().and_then(evidence_from_event) {
                    self.push(ev);
                }
                Outcome::Parsed
            }
            Decoded::Unknown => Outcome::Unknown,
        }
    }

    fn json_payload(&mut self, p: &[u8], outer: Outer, allow_incomplete: bool) -> Outcome {
        if p.starts_with(b"{\"level\":\"")
            && p.last() == Some(&b'}')
            && !interesting(p)
            && let Some((level, t, epoch)) = sniff_zap_json(p)
        {
            self.scan.account(merge_time(t, outer.time), level);
            self.scan.account_format(RecordFormat::ZapJson, outer.envelope, epoch);
            return Outcome::Parsed;
        }
        match parse_map(p) {
            Ok(m) => self.decoded(decode_map(m, outer, 0)),
            Err(e) if allow_incomplete && e.is_eof() && json_open_at_end(p) => Outcome::Incomplete,
            Err(_) => Outcome::Unknown,
        }
    }

    fn console_payload(&mut self, p: &[u8], outer: Outer) -> Outcome {
        if !interesting(p) {
            return match console_head(p) {
                Some(h) => {
                    self.scan.account(merge_time(Some(h.time), outer.time), h.level);
                    let f = if h.tabbed { RecordFormat::ZapConsole } else { RecordFormat::ZapConsoleSpaces };
                    self.scan.account_format(f, outer.envelope, h.epoch);
                    Outcome::Parsed
                }
                None => Outcome::Unknown,
            };
        }
        let s = String::from_utf8_lossy(p);
        match decode_console(&s, outer) {
            Some(r) => {
                self.record(r);
                Outcome::Parsed
            }
            None => Outcome::Unknown,
        }
    }

    fn payload(&mut self, p: &[u8], outer: Outer) -> Outcome {
        match p.first() {
            None => Outcome::Unknown,
            Some(b'{') => self.json_payload(p, outer, false),
            Some(_) => self.console_payload(p, outer),
        }
    }

    fn text_line(&mut self, b: &[u8]) -> Outcome {
        let p = strip_prefix(b);
        let outer = Outer { time: p.time, envelope: p.envelope };
        if p.envelope == Envelope::Cri {
            if p.cri_partial {
                if self.cri.len() + p.rest.len() > MAX_LINE_BYTES {
                    self.cri_overflow = true;
                    self.cri.clear();
                } else if !self.cri_overflow {
                    self.cri.extend_from_slice(p.rest);
                }
                self.scan.parsed += 1;
                self.scan.formats.cri_partial += 1;
                return Outcome::Parsed;
            }
            if !self.cri.is_empty() || self.cri_overflow {
                let overflow = self.cri_overflow || self.cri.len() + p.rest.len() > MAX_LINE_BYTES;
                self.cri_overflow = false;
                let mut joined = std::mem::take(&mut self.cri);
                if overflow {
                    joined.clear();
                    self.cri = joined;
                    return Outcome::TooLong;
                }
                joined.extend_from_slice(p.rest);
                let out = self.payload(trim_ascii(&joined), outer);
                joined.clear();
                self.cri = joined;
                return out;
            }
        }
        self.payload(trim_ascii(p.rest), outer)
    }

    fn count(&mut self, o: Outcome) {
        match o {
            Outcome::Parsed | Outcome::Incomplete => {}
            Outcome::Unknown => self.scan.unknown += 1,
            Outcome::TooLong => self.scan.too_long += 1,
        }
    }

    /// One element of a JSON document: an entry object, or a string holding a log line.
    fn doc_payload(&mut self, doc: &[u8]) -> Outcome {
        let b = trim_ascii(doc);
        match b.first() {
            Some(b'{') => self.json_payload(b, Outer::default(), false),
            Some(b'"') => match serde_json::from_slice::<String>(b) {
                Ok(s) => {
                    let t = trim_ascii(s.as_bytes());
                    if t.is_empty() { Outcome::Unknown } else { self.text_line(t) }
                }
                Err(_) => Outcome::Unknown,
            },
            _ => Outcome::Unknown,
        }
    }

    /// Counts and reads one element the document splitter handed on.
    fn doc_element(&mut self, piece: Piece) {
        let o = match piece {
            Piece::Element(doc, line) | Piece::Whole(doc, line) => {
                self.record_line = line;
                self.doc_payload(doc)
            }
            Piece::Broken(line) | Piece::NotJson(line) => {
                self.record_line = line;
                Outcome::Unknown
            }
            Piece::TooLong(line) => {
                self.record_line = line;
                Outcome::TooLong
            }
            // Only a splitter that listens for a wrapper's keys hands this on; this one does not.
            Piece::Wrapper(_) => return,
        };
        self.scan.lines += 1;
        self.count(o);
    }

    /// Reads a JSON document element by element (`initial`: the rest of the line that opened
    /// it), then hands the stream back to line mode.
    fn run_doc<R: BufRead>(&mut self, r: &mut R, opened: Opened, initial: &[u8]) -> io::Result<()> {
        let mut split = Splitter::document(MAX_LINE_BYTES, opened, self.newlines + 1);
        let mut bytes = 0;
        let result = split.run_document(r, initial, &mut bytes, &mut |piece| self.doc_element(piece));
        self.newlines = split.line() - 1;
        self.scan.bytes += bytes;
        result.map(|_| ())
    }

    fn process_line(&mut self, raw: &[u8]) -> LineAction {
        let mut b = raw;
        if b.starts_with(BOM) {
            b = &b[3..];
        }
        let b = trim_ascii(b);
        if b.is_empty() || b.iter().all(|c| matches!(c, b']' | b'}' | b',' | b' ' | b'\t')) {
            self.scan.lines += 1;
            self.scan.blank += 1;
            return LineAction::Done;
        }
        if array_open(b) {
            let off = b.as_ptr() as usize - raw.as_ptr() as usize + 1;
            return LineAction::StartArray(off);
        }
        self.scan.lines += 1;
        let o = if b[0] == b'{' { self.json_payload(b, Outer::default(), true) } else { self.text_line(b) };
        if o == Outcome::Incomplete {
            self.scan.lines -= 1; // counted when the document completes
            return LineAction::StartObject(b.as_ptr() as usize - raw.as_ptr() as usize);
        }
        self.count(o);
        LineAction::Done
    }
}

/// What the stream continues with, seen from the buffered bytes.
enum StreamHead {
    /// End of stream.
    End,
    /// A JSON array of documents (its `[` is consumed).
    Array,
    /// Anything else: read a line.
    Line,
}

/// Scans one log stream (any mix of the supported formats) into `scan`: counts every
/// line, recognises formats, and collects [`Evidence`]. `source` labels the stream in
/// evidence origins (file name, pod name). gzip must be decoded by the caller.
///
/// Never fails on content: unknown, binary, non-UTF-8 or truncated lines are counted;
/// lines longer than [`MAX_LINE_BYTES`] are skipped without being held in memory.
/// Memory stays bounded by `MAX_LINE_BYTES` plus the (deduplicated) evidence.
/// Only I/O errors of `reader` are returned.
pub fn scan(mut reader: impl BufRead, source: &str, scan: &mut LogScan) -> io::Result<()> {
    let mut sc = Scanner { scan, stream: source, newlines: 0, record_line: 0, cri: Vec::new(), cri_overflow: false };
    let mut line: Vec<u8> = Vec::with_capacity(16 * 1024);
    loop {
        let (skipped, head) = consume_buffered(&mut reader, |avail| match array_start(avail) {
            _ if avail.is_empty() => (0, StreamHead::End),
            Some(skip) => (skip, StreamHead::Array),
            None => (0, StreamHead::Line),
        })?;
        sc.scan.bytes += skipped as u64;
        match head {
            StreamHead::End => break,
            StreamHead::Array => {
                sc.run_doc(&mut reader, Opened::Array, &[])?;
                continue;
            }
            StreamHead::Line => {}
        }
        line.clear();
        let mut bytes = 0u64;
        let res = read_line_capped(&mut reader, &mut line, &mut bytes)?;
        sc.scan.bytes += bytes;
        match res {
            LineRead::Eof => break,
            LineRead::TooLong => {
                sc.newlines += 1;
                sc.record_line = sc.newlines;
                sc.scan.lines += 1;
                sc.scan.too_long += 1;
            }
            LineRead::Line => {
                sc.newlines += 1;
                sc.record_line = sc.newlines;
                match sc.process_line(&line) {
                    LineAction::Done => {}
                    LineAction::StartObject(off) => sc.run_doc(&mut reader, Opened::Object, &line[off..])?,
                    LineAction::StartArray(off) => sc.run_doc(&mut reader, Opened::Array, &line[off..])?,
                }
            }
        }
        if line.capacity() > 4 * MAX_LINE_BYTES {
            line = Vec::with_capacity(16 * 1024);
        }
    }
    Ok(())
}

/// [`scan`] over an in-memory buffer. Exists for benchmarks and tests (and for callers
/// that already hold a decompressed log in memory).
pub fn scan_slice(data: &[u8], source: &str, scan: &mut LogScan) {
    // Reading from a slice cannot fail.
    let _ = self::scan(data, source, scan);
}
