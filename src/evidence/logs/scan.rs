//! Streaming scanner: reads a whole log stream with bounded memory.
//!
//! Text lines are read with `read_until` (capped at [`MAX_LINE_BYTES`]) into one reused
//! buffer. JSON arrays and pretty-printed JSON documents (Cloud Logging / Loki exports)
//! are split byte by byte into elements, each capped the same way, so a single-line
//! 50 MB export array is still processed element by element.
//!
//! Speed: most lines say nothing about IDs. A line is fully decoded only when a
//! `memmem` pre-filter finds one of the few key names/messages that can carry evidence;
//! every other line is only recognised (timestamp + level) by cheap byte checks.

use std::io::{self, BufRead, Read};
use std::sync::OnceLock;

use memchr::memmem::Finder;

use super::decode::{
    Decoded, Outer, console_head, decode_console, decode_map, merge_time, parse_map, sniff_zap_json, strip_prefix,
    trim_ascii,
};
use super::extract::{evidence_from_event, extract_pending};
use super::{Envelope, Evidence, LogRecord, LogScan, MAX_LINE_BYTES, RecordFormat};

/// Substrings at least one of which every evidence-bearing line contains. They are
/// escape-insensitive (no quotes), so they also match inside wrapped payloads.
const NEEDLES: &[&str] = &[
    "external-name",
    "trackerUID",
    "workspace",
    "Instance state not found",
    "Critical annotations",
    "callback failed",
];

fn finders() -> &'static [Finder<'static>] {
    static F: OnceLock<Vec<Finder<'static>>> = OnceLock::new();
    F.get_or_init(|| NEEDLES.iter().map(|n| Finder::new(n.as_bytes())).collect())
}

#[inline]
fn interesting(b: &[u8]) -> bool {
    finders().iter().any(|f| f.find(b).is_some())
}

const BOM: &[u8] = b"\xef\xbb\xbf";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Parsed,
    Unknown,
    TooLong,
    /// A bare line opened a JSON object that continues on the next lines.
    Incomplete,
}

enum LineAction {
    Done,
    /// Object opened on this line at this byte offset.
    StartObject(usize),
    /// Array opened on this line; payload starts at this byte offset.
    StartArray(usize),
}

enum LineRead {
    Eof,
    Line,
    TooLong,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DocMode {
    Array,
    Object,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    More,
    End,
    Abort,
}

struct DocState {
    mode: DocMode,
    depth: u32,
    in_str: bool,
    esc: bool,
    in_elem: bool,
    overflow: bool,
    line_start: bool,
    elem_line: u64,
}

struct Scanner<'a> {
    scan: &'a mut LogScan,
    stream: &'a str,
    /// Newlines consumed so far in this stream (= number of the current line - 1 while
    /// inside a line, = number of the last line read in line mode).
    newlines: u64,
    record_line: u64,
    cri: Vec<u8>,
    cri_overflow: bool,
    doc: Vec<u8>,
}

/// Reads one line of at most `cap` bytes (newline excluded) into `buf`; a longer line is
/// consumed up to its newline without being stored.
fn read_line_capped<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, bytes: &mut u64) -> io::Result<LineRead> {
    let n = r.by_ref().take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', buf)?;
    *bytes += n as u64;
    if n == 0 {
        return Ok(LineRead::Eof);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(LineRead::Line);
    }
    if buf.len() <= MAX_LINE_BYTES {
        return Ok(LineRead::Line); // last line without newline
    }
    buf.clear();
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        match memchr::memchr(b'\n', avail) {
            Some(i) => {
                r.consume(i + 1);
                *bytes += i as u64 + 1;
                break;
            }
            None => {
                let l = avail.len();
                r.consume(l);
                *bytes += l as u64;
            }
        }
    }
    Ok(LineRead::TooLong)
}

/// Whether the buffered stream starts (after blanks) with a JSON array of documents.
/// Returns the number of bytes up to and including `[`.
fn array_start(avail: &[u8]) -> Option<usize> {
    let mut i = if avail.starts_with(BOM) { 3 } else { 0 };
    while i < avail.len() && (avail[i] == b' ' || avail[i] == b'\t') {
        i += 1;
    }
    if avail.get(i) != Some(&b'[') {
        return None;
    }
    let mut j = i + 1;
    while j < avail.len() && matches!(avail[j], b' ' | b'\t' | b'\r') {
        j += 1;
    }
    match avail.get(j) {
        Some(b'{' | b'[' | b'"' | b']' | b'\n') => Some(i + 1),
        _ => None,
    }
}

/// Line-mode version of [`array_start`] on a trimmed line.
fn array_open(b: &[u8]) -> bool {
    if b.first() != Some(&b'[') {
        return false;
    }
    let rest = trim_ascii(&b[1..]);
    matches!(rest.first(), None | Some(b'{' | b'[' | b'"' | b']'))
}

/// Whether a line that failed to parse is the start of a multi-line JSON object.
fn json_open_at_end(b: &[u8]) -> bool {
    let (mut depth, mut in_str, mut esc) = (0i64, false, false);
    for &c in b {
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    !in_str && depth > 0
}

impl<'a> Scanner<'a> {
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

    // ---- JSON documents spanning lines / JSON arrays ----

    fn append_doc(&mut self, st: &mut DocState, bytes: &[u8]) {
        if st.overflow {
            return;
        }
        if self.doc.len() + bytes.len() > MAX_LINE_BYTES {
            st.overflow = true;
            self.doc.clear();
        } else {
            self.doc.extend_from_slice(bytes);
        }
    }

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

    fn finish_elem(&mut self, st: &mut DocState, complete: bool) {
        st.in_elem = false;
        self.scan.lines += 1;
        self.record_line = st.elem_line;
        let o = if st.overflow {
            Outcome::TooLong
        } else if complete {
            let doc = std::mem::take(&mut self.doc);
            let o = self.doc_payload(&doc);
            self.doc = doc;
            o
        } else {
            Outcome::Unknown
        };
        self.doc.clear();
        st.overflow = false;
        self.count(o);
    }

    fn start_elem(&mut self, st: &mut DocState) {
        st.in_elem = true;
        st.overflow = false;
        st.elem_line = self.newlines + 1;
        self.doc.clear();
    }

    /// Feeds bytes to the document splitter. Returns how many bytes were used and
    /// whether the document (array / object) ended or was abandoned.
    fn feed(&mut self, st: &mut DocState, chunk: &[u8]) -> (usize, Step) {
        let mut i = 0;
        let mut seg = if st.in_elem { Some(0) } else { None };
        while i < chunk.len() {
            if st.in_str {
                if st.esc {
                    st.esc = false;
                    i += 1;
                    continue;
                }
                match memchr::memchr3(b'"', b'\\', b'\n', &chunk[i..]) {
                    None => break,
                    Some(j) => {
                        i += j;
                        match chunk[i] {
                            b'\\' => st.esc = true,
                            b'"' => {
                                st.in_str = false;
                                if st.depth == 0 && st.in_elem {
                                    // A top-level string element ended.
                                    if let Some(s) = seg.take() {
                                        self.append_doc(st, &chunk[s..=i]);
                                    }
                                    self.finish_elem(st, true);
                                }
                            }
                            _ => {
                                // Raw newline inside a string: the document is broken
                                // (truncated export). Give up and resync on the next line.
                                self.newlines += 1;
                                st.in_str = false;
                                if st.in_elem {
                                    self.finish_elem(st, false);
                                }
                                return (i + 1, Step::Abort);
                            }
                        }
                        i += 1;
                        continue;
                    }
                }
            }
            let c = chunk[i];
            // Column 0 of a new line: an indented line always continues the document;
            // otherwise only JSON punctuation can (a log line starts with a digit, a
            // letter, or `{` at column 0 while an object is still open).
            if st.line_start && !matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
                st.line_start = false;
                let ok = if st.depth == 0 {
                    matches!(c, b'{' | b'[' | b']' | b',' | b'"')
                } else {
                    matches!(c, b'}' | b']' | b'"')
                };
                if !ok {
                    // A line at column 0 that cannot continue this document (e.g. the next
                    // log line after a truncated one): abandon and let line mode read it.
                    if st.in_elem {
                        if let Some(s) = seg.take() {
                            self.append_doc(st, &chunk[s..i]);
                        }
                        self.finish_elem(st, false);
                    }
                    return (i, Step::Abort);
                }
            }
            if st.line_start {
                st.line_start = false;
            }
            match c {
                b'\n' => {
                    self.newlines += 1;
                    st.line_start = true;
                }
                b'"' => {
                    if st.depth == 0 {
                        if st.mode == DocMode::Object {
                            return (i, Step::Abort);
                        }
                        self.start_elem(st);
                        seg = Some(i);
                    }
                    st.in_str = true;
                }
                b'{' | b'[' => {
                    if st.depth == 0 {
                        self.start_elem(st);
                        seg = Some(i);
                    }
                    st.depth += 1;
                }
                b'}' | b']' => {
                    if st.depth == 0 {
                        if c == b']' && st.mode == DocMode::Array {
                            return (i + 1, Step::End);
                        }
                        return (i + 1, Step::Abort);
                    }
                    st.depth -= 1;
                    if st.depth == 0 {
                        if let Some(s) = seg.take() {
                            self.append_doc(st, &chunk[s..=i]);
                        }
                        self.finish_elem(st, true);
                        if st.mode == DocMode::Object {
                            return (i + 1, Step::End);
                        }
                    }
                }
                b' ' | b'\t' | b'\r' | b',' | b':' => {}
                _ => {
                    if st.depth == 0 {
                        return (i, Step::Abort);
                    }
                }
            }
            i += 1;
        }
        if let Some(s) = seg
            && st.in_elem
        {
            self.append_doc(st, &chunk[s..]);
        }
        (chunk.len(), Step::More)
    }

    fn swallow_line_rest<R: BufRead>(&mut self, r: &mut R) -> io::Result<()> {
        loop {
            let avail = match r.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                return Ok(());
            }
            let mut i = 0;
            while i < avail.len() && matches!(avail[i], b' ' | b'\t' | b'\r' | b',') {
                i += 1;
            }
            if i < avail.len() {
                let nl = avail[i] == b'\n';
                let used = if nl { i + 1 } else { i };
                r.consume(used);
                self.scan.bytes += used as u64;
                if nl {
                    self.newlines += 1;
                }
                return Ok(());
            }
            r.consume(i);
            self.scan.bytes += i as u64;
        }
    }

    /// Runs the document splitter. `initial` is the rest of a line already read in line
    /// mode (it belongs to the current line, number `self.newlines`).
    fn run_doc<R: BufRead>(&mut self, r: &mut R, mode: DocMode, initial: &[u8]) -> io::Result<()> {
        let mut st = DocState {
            mode,
            depth: 0,
            in_str: false,
            esc: false,
            in_elem: false,
            overflow: false,
            line_start: false,
            elem_line: self.newlines,
        };
        if !initial.is_empty() {
            // The initial bytes are on the current line: make `newlines + 1` name it.
            self.newlines -= 1;
            let before = self.scan.lines;
            let (_, step) = self.feed(&mut st, initial);
            self.newlines += 1;
            match step {
                Step::More => {}
                Step::End => return Ok(()),
                Step::Abort => {
                    if self.scan.lines == before {
                        self.scan.lines += 1;
                        self.scan.unknown += 1;
                    }
                    return Ok(());
                }
            }
        }
        st.line_start = true;
        loop {
            let chunk = match r.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if st.in_elem {
                    self.finish_elem(&mut st, false);
                }
                return Ok(());
            }
            let (used, step) = self.feed(&mut st, chunk);
            r.consume(used);
            self.scan.bytes += used as u64;
            match step {
                Step::More => {}
                Step::End => return self.swallow_line_rest(r),
                Step::Abort => return Ok(()),
            }
        }
    }
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
    let mut sc = Scanner {
        scan,
        stream: source,
        newlines: 0,
        record_line: 0,
        cri: Vec::new(),
        cri_overflow: false,
        doc: Vec::new(),
    };
    let mut line: Vec<u8> = Vec::with_capacity(16 * 1024);
    loop {
        let avail = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        if let Some(skip) = array_start(avail) {
            reader.consume(skip);
            sc.scan.bytes += skip as u64;
            sc.run_doc(&mut reader, DocMode::Array, &[])?;
            continue;
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
                    LineAction::StartObject(off) => sc.run_doc(&mut reader, DocMode::Object, &line[off..])?,
                    LineAction::StartArray(off) => sc.run_doc(&mut reader, DocMode::Array, &line[off..])?,
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
