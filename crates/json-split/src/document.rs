//! A JSON document met in the middle of another stream: a provider log where one line opens a
//! JSON array (a Cloud Logging or Loki export pasted into it) or an object pretty-printed over
//! several lines. The one splitter reads it with three more rules, because the log's own lines
//! go on after it: it stops where the document ends and hands the stream back (the rest of that
//! line is separators), and it leaves the document as soon as a byte at column 0 cannot
//! continue it (a truncated export followed by ordinary log lines), or a string breaks.
//!
//! What is handed on is the same [`Piece`]s: each element, and a [`Piece::Broken`] for an
//! element cut off (or a first line that did not start a document after all).

use super::{AfterBreak, Piece, Splitter, Top, fill};
use std::io::{self, BufRead};

/// What opened the document in the line that the caller read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// A `[` already consumed: the elements follow.
    Array,
    /// A `{` that starts the initial bytes: the object is the one element.
    Object,
}

/// How an embedded document ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocEnd {
    /// Its closing bracket was read.
    Ended,
    /// It was left: a break, or a byte that cannot continue it.
    Left,
}

/// Whether a byte at column 0 (outside any string) can continue a document at `depth` (0: between
/// the elements of an array, or before an object): an indented line always can; otherwise only
/// JSON punctuation can (a log line starts with a digit, a letter, or `{` at column 0 while an
/// object is still open).
fn continues_document(depth: u32, c: u8) -> bool {
    if depth == 0 { matches!(c, b'{' | b'[' | b']' | b',' | b'"') } else { matches!(c, b'}' | b']' | b'"') }
}

impl Splitter {
    /// A splitter for a document `opened` in another stream, capping elements at `cap` bytes;
    /// `line` is the line of the next byte of the stream.
    pub fn document(cap: usize, opened: Opened, line: u64) -> Splitter {
        let mut s = Splitter::new(cap, &[], AfterBreak::Stop);
        s.embedded = Some(opened);
        s.line = line;
        if opened == Opened::Array {
            s.top = Top::Array;
            s.depth = 1;
            s.record_depth = Some(1);
            s.values = 1;
        }
        s
    }

    /// The line of the next byte (after [`Splitter::run_document`]: where the stream resumes).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Splits the document to its end or to where it is left: first `initial`, the rest of the
    /// line that opened it (on the line before [`Splitter::line`]), then `input`. Counts the bytes
    /// used from `input` in `bytes`; after an end, the separators up to the end of its line are
    /// used too, so the caller resumes on the next line.
    pub fn run_document<R: BufRead>(
        &mut self,
        input: &mut R,
        initial: &[u8],
        bytes: &mut u64,
        emit: &mut dyn FnMut(Piece),
    ) -> io::Result<DocEnd> {
        if !initial.is_empty() {
            self.line -= 1;
            let mut emitted = false;
            self.feed(initial, &mut |p| {
                emitted = true;
                emit(p)
            });
            if let Some(end) = self.ended {
                if end == DocEnd::Left && !emitted {
                    emit(Piece::Broken(self.line));
                }
                self.line += 1;
                return Ok(end);
            }
            self.line += 1;
        }
        self.line_start = true;
        loop {
            let chunk = fill(input)?;
            if chunk.is_empty() {
                if self.capturing {
                    self.cut(emit);
                }
                return Ok(DocEnd::Left);
            }
            let used = self.feed(chunk, emit);
            input.consume(used);
            *bytes += used as u64;
            match self.ended {
                None => {}
                Some(DocEnd::Ended) => {
                    self.rest_of_line(input, bytes)?;
                    return Ok(DocEnd::Ended);
                }
                Some(DocEnd::Left) => return Ok(DocEnd::Left),
            }
        }
    }

    /// What stops an embedded document at `chunk[i]`, outside strings: the next index when it
    /// stopped.
    pub(super) fn guard(
        &mut self,
        chunk: &[u8],
        i: usize,
        seg: &mut Option<usize>,
        emit: &mut dyn FnMut(Piece),
    ) -> Option<usize> {
        let c = chunk[i];
        let array = self.embedded == Some(Opened::Array);
        let depth = self.depth - u32::from(array && self.depth > 0);
        let at_start = self.line_start;
        self.line_start = c == b'\n';
        if at_start && !matches!(c, b' ' | b'\t' | b'\r' | b'\n') && !continues_document(depth, c) {
            self.leave(chunk, i, seg, emit);
            return Some(i);
        }
        if depth > 0 {
            return None;
        }
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | b',' | b':' | b'{' | b'[' => None,
            b'"' if array => None,
            b']' if array => None,
            b'}' | b']' => {
                self.stop(DocEnd::Left);
                Some(i + 1)
            }
            _ => {
                self.stop(DocEnd::Left);
                Some(i)
            }
        }
    }

    /// Leaves the document at `chunk[i]`: an element being read is cut off there.
    pub(super) fn leave(&mut self, chunk: &[u8], i: usize, seg: &mut Option<usize>, emit: &mut dyn FnMut(Piece)) {
        if self.capturing {
            if let Some(s) = seg.take().filter(|_| !self.in_str) {
                self.keep(&chunk[s..i]);
            }
            self.cut(emit);
        }
        self.in_str = false;
        self.stop(DocEnd::Left);
    }

    /// Hands on the element being read as cut off (or as too long, if it already was).
    fn cut(&mut self, emit: &mut dyn FnMut(Piece)) {
        self.capturing = false;
        emit(if self.overflow { Piece::TooLong(self.elem_line) } else { Piece::Broken(self.elem_line) });
        self.buf.clear();
        self.overflow = false;
    }

    fn stop(&mut self, end: DocEnd) {
        self.ended = Some(end);
        self.stopped = true;
    }

    /// After the document's end: the separators (`,`, blanks) up to and including the end of
    /// its line.
    fn rest_of_line<R: BufRead>(&mut self, input: &mut R, bytes: &mut u64) -> io::Result<()> {
        loop {
            let avail = fill(input)?;
            let i = avail.iter().take_while(|&&c| matches!(c, b' ' | b'\t' | b'\r' | b',')).count();
            let (used, done, newline) = match avail.get(i) {
                _ if avail.is_empty() => (0, true, false),
                None => (i, false, false),
                Some(b'\n') => (i + 1, true, true),
                Some(_) => (i, true, false),
            };
            input.consume(used);
            *bytes += used as u64;
            if newline {
                self.line += 1;
            }
            if done {
                return Ok(());
            }
        }
    }
}
