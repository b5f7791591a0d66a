//! Splitting JSON documents that span lines, and JSON arrays of documents, into records.
//!
//! Exists because log exports are not always one record per line: Cloud Logging and Loki
//! exports come as a JSON array (often a single 50 MB line) or as pretty-printed objects. The
//! splitter walks the bytes once, tracking strings and nesting, and hands each element (capped
//! at [`MAX_LINE_BYTES`]) to its caller (the scanner), so memory stays bounded whatever the
//! layout. It gives up and returns to line mode as soon as the bytes cannot continue the
//! document (a truncated export followed by ordinary log lines). It knows nothing of what an
//! element means: the scanner decodes what it is handed.

use std::io::{self, BufRead};

use super::MAX_LINE_BYTES;
use super::buffered::{BOM, consume_buffered};
use super::decode::trim_ascii;

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

/// One element of the document, handed to the caller with the line it starts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Element<'a> {
    /// A whole element: an object, an array or a string, as its bytes.
    Whole(&'a [u8]),
    /// An element cut off (a raw newline inside a string, a line that cannot continue it, the
    /// end of the stream), or a first line that did not start a document after all.
    Cut,
    /// An element longer than [`MAX_LINE_BYTES`]: its bytes were not kept.
    TooLong,
}

/// The splitter, with its state carried from one chunk to the next.
pub(super) struct DocSplitter<'b> {
    mode: DocMode,
    depth: u32,
    in_str: bool,
    esc: bool,
    in_elem: bool,
    overflow: bool,
    line_start: bool,
    elem_line: u64,
    /// The element being collected (a buffer the caller reuses).
    doc: &'b mut Vec<u8>,
    /// Newlines consumed in the stream so far (the line of the next byte is `newlines + 1`).
    pub(super) newlines: u64,
    /// Bytes consumed from the stream.
    pub(super) bytes: u64,
}

/// What the caller is handed: each element and the line it starts on.
type Emit<'e> = dyn FnMut(Element, u64) + 'e;

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

impl<'b> DocSplitter<'b> {
    /// A splitter of a `mode` document whose line, when it starts on one already read, is
    /// `newlines` (the count of newlines consumed before it); `doc` is the element buffer.
    pub(super) fn new(mode: DocMode, newlines: u64, doc: &'b mut Vec<u8>) -> DocSplitter<'b> {
        doc.clear();
        DocSplitter {
            mode,
            depth: 0,
            in_str: false,
            esc: false,
            in_elem: false,
            overflow: false,
            line_start: false,
            elem_line: newlines,
            doc,
            newlines,
            bytes: 0,
        }
    }

    fn append_doc(&mut self, bytes: &[u8]) {
        if self.overflow {
            return;
        }
        if self.doc.len() + bytes.len() > MAX_LINE_BYTES {
            self.overflow = true;
            self.doc.clear();
        } else {
            self.doc.extend_from_slice(bytes);
        }
    }

    fn finish_elem(&mut self, complete: bool, emit: &mut Emit) {
        self.in_elem = false;
        let e = if self.overflow {
            Element::TooLong
        } else if complete {
            Element::Whole(&self.doc[..])
        } else {
            Element::Cut
        };
        emit(e, self.elem_line);
        self.doc.clear();
        self.overflow = false;
    }

    fn start_elem(&mut self) {
        self.in_elem = true;
        self.overflow = false;
        self.elem_line = self.newlines + 1;
        self.doc.clear();
    }

    /// Feeds bytes to the document splitter. Returns how many bytes were used and
    /// whether the document (array / object) ended or was abandoned.
    fn feed(&mut self, chunk: &[u8], emit: &mut Emit) -> (usize, Step) {
        let mut i = 0;
        let mut seg = if self.in_elem { Some(0) } else { None };
        while i < chunk.len() {
            let flow = if self.in_str {
                self.feed_string(chunk, i, &mut seg, emit)
            } else {
                self.feed_structural(chunk, i, &mut seg, emit)
            };
            match flow {
                Flow::Next(next) => i = next,
                Flow::NeedMore => break,
                Flow::Done(used, step) => return (used, step),
            }
        }
        if let Some(s) = seg
            && self.in_elem
        {
            self.append_doc(&chunk[s..]);
        }
        (chunk.len(), Step::More)
    }

    /// Inside a string: skips to the closing quote (minding escapes), where a top-level string
    /// element ends. `seg` is where the current element's bytes start in `chunk`.
    fn feed_string(&mut self, chunk: &[u8], i: usize, seg: &mut Option<usize>, emit: &mut Emit) -> Flow {
        if self.esc {
            self.esc = false;
            return Flow::Next(i + 1);
        }
        let Some(j) = memchr::memchr3(b'"', b'\\', b'\n', &chunk[i..]) else { return Flow::NeedMore };
        let i = i + j;
        match chunk[i] {
            b'\\' => self.esc = true,
            b'"' => {
                self.in_str = false;
                if self.depth == 0 && self.in_elem {
                    // A top-level string element ended.
                    if let Some(s) = seg.take() {
                        self.append_doc(&chunk[s..=i]);
                    }
                    self.finish_elem(true, emit);
                }
            }
            _ => {
                // Raw newline inside a string: the document is broken
                // (truncated export). Give up and resync on the next line.
                self.newlines += 1;
                self.in_str = false;
                if self.in_elem {
                    self.finish_elem(false, emit);
                }
                return Flow::Done(i + 1, Step::Abort);
            }
        }
        Flow::Next(i + 1)
    }

    /// Outside strings: tracks lines, nesting and element boundaries.
    fn feed_structural(&mut self, chunk: &[u8], i: usize, seg: &mut Option<usize>, emit: &mut Emit) -> Flow {
        let c = chunk[i];
        if self.line_start && !matches!(c, b' ' | b'\t' | b'\r' | b'\n') && !continues_document(self.depth, c) {
            // A line at column 0 that cannot continue this document (e.g. the next
            // log line after a truncated one): abandon and let line mode read it.
            if self.in_elem {
                if let Some(s) = seg.take() {
                    self.append_doc(&chunk[s..i]);
                }
                self.finish_elem(false, emit);
            }
            return Flow::Done(i, Step::Abort);
        }
        self.line_start = false;
        match c {
            b'\n' => {
                self.newlines += 1;
                self.line_start = true;
            }
            b'"' => {
                if self.depth == 0 {
                    if self.mode == DocMode::Object {
                        return Flow::Done(i, Step::Abort);
                    }
                    self.start_elem();
                    *seg = Some(i);
                }
                self.in_str = true;
            }
            b'{' | b'[' => {
                if self.depth == 0 {
                    self.start_elem();
                    *seg = Some(i);
                }
                self.depth += 1;
            }
            b'}' | b']' => return self.close_bracket(chunk, i, seg, emit),
            b' ' | b'\t' | b'\r' | b',' | b':' => {}
            _ => {
                if self.depth == 0 {
                    return Flow::Done(i, Step::Abort);
                }
            }
        }
        Flow::Next(i + 1)
    }

    /// A closing `}` or `]` at `chunk[i]`: ends an element, the object, or the array.
    fn close_bracket(&mut self, chunk: &[u8], i: usize, seg: &mut Option<usize>, emit: &mut Emit) -> Flow {
        if self.depth == 0 {
            if chunk[i] == b']' && self.mode == DocMode::Array {
                return Flow::Done(i + 1, Step::End);
            }
            return Flow::Done(i + 1, Step::Abort);
        }
        self.depth -= 1;
        if self.depth == 0 {
            if let Some(s) = seg.take() {
                self.append_doc(&chunk[s..=i]);
            }
            self.finish_elem(true, emit);
            if self.mode == DocMode::Object {
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
            self.bytes += used as u64;
            if let Some(newline) = line_end {
                if newline {
                    self.newlines += 1;
                }
                return Ok(());
            }
        }
    }

    /// Splits the document to its end (or to where it is abandoned), handing each element to
    /// `emit`. `initial` is the rest of a line already read in line mode (it belongs to the
    /// current line, number `newlines`); a first line that does not start a document after all
    /// is handed on as one [`Element::Cut`].
    pub(super) fn run<R: BufRead>(&mut self, r: &mut R, initial: &[u8], emit: &mut Emit) -> io::Result<()> {
        if !initial.is_empty() {
            // The initial bytes are on the current line: make `newlines + 1` name it.
            self.newlines -= 1;
            let mut emitted = false;
            let (_, step) = self.feed(initial, &mut |e, line| {
                emitted = true;
                emit(e, line)
            });
            self.newlines += 1;
            match step {
                Step::More => {}
                Step::End => return Ok(()),
                Step::Abort => {
                    if !emitted {
                        emit(Element::Cut, self.newlines);
                    }
                    return Ok(());
                }
            }
        }
        self.line_start = true;
        loop {
            let (used, step) = consume_buffered(r, |chunk| {
                if chunk.is_empty() {
                    return (0, None);
                }
                let (used, step) = self.feed(chunk, emit);
                (used, Some(step))
            })?;
            self.bytes += used as u64;
            match step {
                None => {
                    if self.in_elem {
                        self.finish_elem(false, emit);
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
