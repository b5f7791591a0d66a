//! Splitting JSON documents that span lines, and JSON arrays of documents, into records.
//!
//! Exists because log exports are not always one record per line: Cloud Logging and Loki
//! exports come as a JSON array (often a single 50 MB line) or as pretty-printed objects. The
//! splitter walks the bytes once, tracking strings and nesting, and hands each element (capped
//! at [`MAX_LINE_BYTES`]) to the scanner, so memory stays bounded whatever the layout. It gives
//! up and returns to line mode as soon as the bytes cannot continue the document (a truncated
//! export followed by ordinary log lines).

use std::io::{self, BufRead};

use super::MAX_LINE_BYTES;
use super::buffered::consume_buffered;
use super::decode::{Outer, trim_ascii};
use super::scan::{BOM, Outcome, Scanner};

/// Whether the document being split is an array of elements or a single object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DocMode {
    Array,
    Object,
}

/// How a chunk fed to the splitter left the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Still inside the document: feed the next chunk.
    More,
    /// The document (array or object) ended.
    End,
    /// The bytes cannot continue the document: go back to line mode.
    Abort,
}

/// What the splitter does after looking at the bytes from one position of a chunk.
enum Flow {
    /// Continue at this index.
    Next(usize),
    /// The rest of the chunk is inside a string: keep it and read the next chunk.
    NeedMore,
    /// Stop: this many bytes of the chunk were used, and the document ended or was abandoned.
    Done(usize, Step),
}

/// Splitter state carried from one chunk to the next.
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

/// Whether the buffered stream starts (after blanks) with a JSON array of documents.
/// Returns the number of bytes up to and including `[`.
pub(super) fn array_start(avail: &[u8]) -> Option<usize> {
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
pub(super) fn array_open(b: &[u8]) -> bool {
    if b.first() != Some(&b'[') {
        return false;
    }
    let rest = trim_ascii(&b[1..]);
    matches!(rest.first(), None | Some(b'{' | b'[' | b'"' | b']'))
}

/// Whether a line that failed to parse is the start of a multi-line JSON object.
pub(super) fn json_open_at_end(b: &[u8]) -> bool {
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

/// Whether a byte at column 0 (outside any string) can continue a document at `depth`: an
/// indented line always can; otherwise only JSON punctuation can (a log line starts with a
/// digit, a letter, or `{` at column 0 while an object is still open).
fn continues_document(depth: u32, c: u8) -> bool {
    if depth == 0 { matches!(c, b'{' | b'[' | b']' | b',' | b'"') } else { matches!(c, b'}' | b']' | b'"') }
}

impl Scanner<'_> {
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
            let flow = if st.in_str {
                self.feed_string(st, chunk, i, &mut seg)
            } else {
                self.feed_structural(st, chunk, i, &mut seg)
            };
            match flow {
                Flow::Next(next) => i = next,
                Flow::NeedMore => break,
                Flow::Done(used, step) => return (used, step),
            }
        }
        if let Some(s) = seg
            && st.in_elem
        {
            self.append_doc(st, &chunk[s..]);
        }
        (chunk.len(), Step::More)
    }

    /// Inside a string: skips to the closing quote (minding escapes), where a top-level string
    /// element ends. `seg` is where the current element's bytes start in `chunk`.
    fn feed_string(&mut self, st: &mut DocState, chunk: &[u8], i: usize, seg: &mut Option<usize>) -> Flow {
        if st.esc {
            st.esc = false;
            return Flow::Next(i + 1);
        }
        let Some(j) = memchr::memchr3(b'"', b'\\', b'\n', &chunk[i..]) else { return Flow::NeedMore };
        let i = i + j;
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
                return Flow::Done(i + 1, Step::Abort);
            }
        }
        Flow::Next(i + 1)
    }

    /// Outside strings: tracks lines, nesting and element boundaries.
    fn feed_structural(&mut self, st: &mut DocState, chunk: &[u8], i: usize, seg: &mut Option<usize>) -> Flow {
        let c = chunk[i];
        if st.line_start && !matches!(c, b' ' | b'\t' | b'\r' | b'\n') && !continues_document(st.depth, c) {
            // A line at column 0 that cannot continue this document (e.g. the next
            // log line after a truncated one): abandon and let line mode read it.
            if st.in_elem {
                if let Some(s) = seg.take() {
                    self.append_doc(st, &chunk[s..i]);
                }
                self.finish_elem(st, false);
            }
            return Flow::Done(i, Step::Abort);
        }
        st.line_start = false;
        match c {
            b'\n' => {
                self.newlines += 1;
                st.line_start = true;
            }
            b'"' => {
                if st.depth == 0 {
                    if st.mode == DocMode::Object {
                        return Flow::Done(i, Step::Abort);
                    }
                    self.start_elem(st);
                    *seg = Some(i);
                }
                st.in_str = true;
            }
            b'{' | b'[' => {
                if st.depth == 0 {
                    self.start_elem(st);
                    *seg = Some(i);
                }
                st.depth += 1;
            }
            b'}' | b']' => return self.close_bracket(st, chunk, i, seg),
            b' ' | b'\t' | b'\r' | b',' | b':' => {}
            _ => {
                if st.depth == 0 {
                    return Flow::Done(i, Step::Abort);
                }
            }
        }
        Flow::Next(i + 1)
    }

    /// A closing `}` or `]` at `chunk[i]`: ends an element, the object, or the array.
    fn close_bracket(&mut self, st: &mut DocState, chunk: &[u8], i: usize, seg: &mut Option<usize>) -> Flow {
        if st.depth == 0 {
            if chunk[i] == b']' && st.mode == DocMode::Array {
                return Flow::Done(i + 1, Step::End);
            }
            return Flow::Done(i + 1, Step::Abort);
        }
        st.depth -= 1;
        if st.depth == 0 {
            if let Some(s) = seg.take() {
                self.append_doc(st, &chunk[s..=i]);
            }
            self.finish_elem(st, true);
            if st.mode == DocMode::Object {
                return Flow::Done(i + 1, Step::End);
            }
        }
        Flow::Next(i + 1)
    }

    /// After a document ended: consumes separators (`,`, blanks) up to and including the end
    /// of its line, so line mode resumes on the next line.
    fn swallow_line_rest<R: BufRead>(&mut self, r: &mut R) -> io::Result<()> {
        loop {
            let (used, line_end) = consume_buffered(r, |avail| {
                let i = avail.iter().take_while(|&&c| matches!(c, b' ' | b'\t' | b'\r' | b',')).count();
                match avail.get(i) {
                    _ if avail.is_empty() => (0, Some(false)),
                    None => (i, None),
                    Some(b'\n') => (i + 1, Some(true)),
                    Some(_) => (i, Some(false)),
                }
            })?;
            self.scan.bytes += used as u64;
            if let Some(newline) = line_end {
                if newline {
                    self.newlines += 1;
                }
                return Ok(());
            }
        }
    }

    /// Runs the document splitter. `initial` is the rest of a line already read in line
    /// mode (it belongs to the current line, number `self.newlines`).
    pub(super) fn run_doc<R: BufRead>(&mut self, r: &mut R, mode: DocMode, initial: &[u8]) -> io::Result<()> {
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
            let (used, step) = consume_buffered(r, |chunk| {
                if chunk.is_empty() {
                    return (0, None);
                }
                let (used, step) = self.feed(&mut st, chunk);
                (used, Some(step))
            })?;
            self.scan.bytes += used as u64;
            match step {
                None => {
                    if st.in_elem {
                        self.finish_elem(&mut st, false);
                    }
                    return Ok(());
                }
                Some(Step::More) => {}
                Some(Step::End) => return self.swallow_line_rest(r),
                Some(Step::Abort) => return Ok(()),
            }
        }
    }
}
