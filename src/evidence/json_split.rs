//! One bounded JSON record splitter: an export's bytes in, its records out, in one pass with
//! bounded memory, whatever the layout.
//!
//! Exists because exports come in every shape: JSON lines (a log sink, CloudTrail Lake or
//! Athena), one JSON array (`gcloud logging read --format=json`, `az monitor activity-log list`),
//! or one object wrapping an array (`{"Records":[…]}` as CloudTrail writes to S3 — a single line
//! of many megabytes — `{"Events":[…],"NextToken":…}` from `lookup-events`, `{"records":[…]}`
//! from an Azure diagnostic setting, `{"value":[…]}` from the REST API). The splitter tracks
//! strings, escapes and nesting, keeps only the bytes of the record being read (capped), and
//! hands each record on with the line it starts on. It knows nothing of what a record means.
//!
//! What differs between readers is a parameter, not a copy: which keys of a wrapping object
//! hold the records ([`Splitter::new`]'s `wrapper_keys`) and what happens after a break — a raw
//! newline inside a string, i.e. a truncated line or a hand-edited file ([`AfterBreak`]). The
//! reader turns the [`Piece`]s into its own counters and notes.
//!
//! Not on it yet, and what stands in the way of keeping their output byte-identical:
//! `logs/json_docs.rs` is entered from line mode on one line already read and leaves for line
//! mode when a column-0 byte cannot continue the document (a break policy this splitter lacks);
//! `audit/read_doc.rs` streams with serde and its notes quote serde's error text; and
//! `cluster/scan`'s `split_items` needs the `items` array's byte range and refuses any body that
//! is not one well-formed object — and `cluster/` may not import `evidence/`, so sharing it
//! means moving this module to a layer both may import.
use memchr::{memchr, memchr3};
use std::io::{self, BufRead};

/// What the splitter does after a break (a raw newline inside a string).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterBreak {
    /// Skip lines until one starts a document, counting them in [`Splitter::resynced_lines`]
    /// (JSON lines where one line was cut: the lines after it are still good records).
    Resync,
    /// Read no further record: the rest of the stream is consumed and counted as bytes only
    /// (a single document that broke cannot be trusted after the break).
    Stop,
}

/// What the splitter hands on.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// One record: an object (or a string holding one), and the line it starts on.
    Element(&'a [u8], u64),
    /// A line at top level that is not JSON (a provider log line, a header, text).
    NotJson(u64),
    /// A record that broke off (a raw newline inside a string), on this line.
    Broken(u64),
    /// A record longer than the cap, skipped unread, starting on this line.
    TooLong(u64),
}

/// What kind of top-level value is being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Top {
    None,
    Array,
    Object,
    String,
}

/// The splitter's state between chunks.
pub struct Splitter {
    cap: usize,
    wrapper_keys: &'static [&'static [u8]],
    after_break: AfterBreak,
    /// A break was met under [`AfterBreak::Stop`]: nothing more is handed on.
    stopped: bool,
    line: u64,
    depth: u32,
    in_str: bool,
    esc: bool,
    top: Top,
    /// The depth whose values are records: 0 (the top-level value), 1 (a top array's elements),
    /// 2 (the elements of a wrapper's array).
    record_depth: Option<u32>,
    /// In a top-level object: the next string at depth 1 is a key.
    expect_key: bool,
    key: Vec<u8>,
    key_open: bool,
    /// The key just read names the records' array.
    wrapper_key: bool,
    buf: Vec<u8>,
    capturing: bool,
    overflow: bool,
    elem_line: u64,
    elem_depth: u32,
    /// Skipping to the end of the line (not JSON, or resynchronising after a break).
    skip_line: bool,
    /// After a break: lines are skipped until one starts a document.
    resync: bool,
    /// Lines skipped while resynchronising.
    pub resynced_lines: u64,
    /// Something other than blanks and a byte-order mark was read.
    seen: bool,
}

impl Splitter {
    /// A splitter keeping records of at most `cap` bytes, taking the arrays under
    /// `wrapper_keys` (of a top-level object) as the records, and doing `after_break` after a
    /// break.
    pub fn new(cap: usize, wrapper_keys: &'static [&'static [u8]], after_break: AfterBreak) -> Splitter {
        Splitter {
            cap,
            wrapper_keys,
            after_break,
            stopped: false,
            line: 1,
            depth: 0,
            in_str: false,
            esc: false,
            top: Top::None,
            record_depth: None,
            expect_key: false,
            key: Vec::new(),
            key_open: false,
            wrapper_key: false,
            buf: Vec::new(),
            capturing: false,
            overflow: false,
            elem_line: 0,
            elem_depth: 0,
            skip_line: false,
            resync: false,
            resynced_lines: 0,
            seen: false,
        }
    }

    /// Reads `input` to its end, handing on every piece; returns the line of a record (or
    /// document) left open at the end, if the input stopped inside one.
    pub fn run<R: BufRead>(
        &mut self,
        input: &mut R,
        bytes: &mut u64,
        emit: &mut dyn FnMut(Piece),
    ) -> io::Result<Option<u64>> {
        loop {
            let chunk = match input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            self.feed(chunk, emit);
            let n = chunk.len();
            *bytes += n as u64;
            input.consume(n);
        }
        let open = self.capturing || self.depth > 0 || (self.in_str && self.top != Top::None);
        Ok(open.then_some(if self.capturing { self.elem_line } else { self.line }))
    }

    /// Feeds one chunk.
    fn feed(&mut self, chunk: &[u8], emit: &mut dyn FnMut(Piece)) {
        let mut seg = self.capturing.then_some(0);
        let mut key_seg = self.key_open.then_some(0);
        let mut i = 0;
        while i < chunk.len() && !self.stopped {
            if self.skip_line {
                match memchr(b'\n', &chunk[i..]) {
                    Some(j) => {
                        i += j + 1;
                        self.line += 1;
                        self.skip_line = false;
                        continue;
                    }
                    None => break,
                }
            }
            if self.in_str {
                i = self.in_string(chunk, i, &mut seg, &mut key_seg, emit);
                continue;
            }
            i = self.structural(chunk, i, &mut seg, &mut key_seg, emit);
        }
        if self.stopped {
            return;
        }
        if let Some(s) = seg.filter(|_| self.capturing) {
            self.keep(&chunk[s..]);
        }
        if let Some(s) = key_seg.filter(|_| self.key_open) {
            self.key_part(&chunk[s..]);
        }
    }

    /// Inside a string: jumps to its end, an escape or a raw newline. Returns the next index.
    fn in_string(
        &mut self,
        chunk: &[u8],
        i: usize,
        seg: &mut Option<usize>,
        key_seg: &mut Option<usize>,
        emit: &mut dyn FnMut(Piece),
    ) -> usize {
        if self.esc {
            self.esc = false;
            return i + 1;
        }
        let Some(j) = memchr3(b'"', b'\\', b'\n', &chunk[i..]) else { return chunk.len() };
        let k = i + j;
        match chunk[k] {
            b'\\' => self.esc = true,
            b'"' => {
                self.in_str = false;
                if let Some(s) = key_seg.take().filter(|_| self.key_open) {
                    self.key_part(&chunk[s..k]);
                    self.key_open = false;
                    self.wrapper_key = self.wrapper_keys.contains(&self.key.as_slice());
                }
                if self.capturing && self.depth == self.elem_depth {
                    self.finish(chunk, k, seg, emit);
                }
                if self.top == Top::String && self.depth == 0 {
                    self.top = Top::None;
                }
            }
            _ => {
                // A raw newline inside a string: this record (or document) is broken.
                emit(Piece::Broken(if self.capturing { self.elem_line } else { self.line }));
                self.reset();
                *seg = None;
                *key_seg = None;
                self.line += 1;
                match self.after_break {
                    AfterBreak::Resync => self.resync = true,
                    AfterBreak::Stop => self.stopped = true,
                }
            }
        }
        k + 1
    }

    /// Outside strings: nesting, keys, records. Returns the next index.
    fn structural(
        &mut self,
        chunk: &[u8],
        i: usize,
        seg: &mut Option<usize>,
        key_seg: &mut Option<usize>,
        emit: &mut dyn FnMut(Piece),
    ) -> usize {
        let c = chunk[i];
        let seen = self.seen;
        self.seen = seen || !c.is_ascii_whitespace();
        match c {
            b'\n' => self.line += 1,
            b' ' | b'\t' | b'\r' => {}
            // A byte-order mark before the first document.
            0xef | 0xbb | 0xbf if self.line == 1 && self.top == Top::None && !seen => self.seen = false,
            b',' if self.depth == 0 => {}
            b',' if self.depth == 1 && self.top == Top::Object => self.expect_key = true,
            b':' if self.depth == 1 && self.top == Top::Object => self.expect_key = false,
            b',' | b':' => {}
            b'"' => self.open_string(i, seg, key_seg),
            b'{' | b'[' => self.open(c, i, seg),
            b'}' | b']' => self.close(chunk, i, seg, emit),
            _ if self.depth == 0 => {
                if !self.resync {
                    emit(Piece::NotJson(self.line));
                } else {
                    self.resynced_lines += 1;
                }
                self.skip_line = true;
            }
            _ => {
                if self.depth == 1 && self.top == Top::Object {
                    self.wrapper_key = false;
                }
            }
        }
        i + 1
    }

    fn open_string(&mut self, i: usize, seg: &mut Option<usize>, key_seg: &mut Option<usize>) {
        if self.depth == 0 {
            if self.resync {
                self.resynced_lines += 1;
                self.skip_line = true;
                return;
            }
            self.top = Top::String;
            self.record_depth = Some(0);
        }
        if self.depth == 1 && self.top == Top::Object {
            if self.expect_key {
                self.key.clear();
                self.key_open = true;
                *key_seg = Some(i + 1);
            } else {
                self.wrapper_key = false;
            }
        }
        if !self.capturing && Some(self.depth) == self.record_depth {
            self.start(i, seg);
        }
        self.in_str = true;
    }

    fn open(&mut self, c: u8, i: usize, seg: &mut Option<usize>) {
        if self.depth == 0 {
            self.resync = false;
            self.top = if c == b'[' { Top::Array } else { Top::Object };
            self.record_depth = Some(if c == b'[' { 1 } else { 0 });
        }
        if self.depth == 1 && self.top == Top::Object {
            if self.wrapper_key && c == b'[' {
                // The records' array: the wrapping object itself is no record.
                self.capturing = false;
                self.overflow = false;
                self.buf.clear();
                *seg = None;
                self.record_depth = Some(2);
            }
            self.wrapper_key = false;
        }
        if !self.capturing && Some(self.depth) == self.record_depth {
            self.start(i, seg);
        }
        self.depth += 1;
        if self.depth == 1 && self.top == Top::Object {
            self.expect_key = true;
        }
    }

    fn close(&mut self, chunk: &[u8], i: usize, seg: &mut Option<usize>, emit: &mut dyn FnMut(Piece)) {
        if self.depth == 0 {
            return;
        }
        self.depth -= 1;
        if self.capturing && self.depth == self.elem_depth {
            self.finish(chunk, i, seg, emit);
        }
        if self.depth == 1 && self.record_depth == Some(2) {
            self.record_depth = None;
        }
        if self.depth == 0 {
            self.top = Top::None;
            self.record_depth = None;
        }
    }

    fn start(&mut self, i: usize, seg: &mut Option<usize>) {
        self.capturing = true;
        self.overflow = false;
        self.buf.clear();
        self.elem_line = self.line;
        self.elem_depth = self.depth;
        *seg = Some(i);
    }

    /// The record ends at `chunk[k]` (inclusive).
    fn finish(&mut self, chunk: &[u8], k: usize, seg: &mut Option<usize>, emit: &mut dyn FnMut(Piece)) {
        if let Some(s) = seg.take() {
            self.keep(&chunk[s..=k]);
        }
        self.capturing = false;
        if self.overflow {
            emit(Piece::TooLong(self.elem_line));
        } else {
            emit(Piece::Element(&self.buf, self.elem_line));
        }
        self.buf.clear();
        self.overflow = false;
    }

    fn keep(&mut self, bytes: &[u8]) {
        if self.overflow {
            return;
        }
        if self.buf.len() + bytes.len() > self.cap {
            self.overflow = true;
            self.buf = Vec::new();
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    fn key_part(&mut self, bytes: &[u8]) {
        if self.key.len() + bytes.len() <= 64 {
            self.key.extend_from_slice(bytes);
        } else {
            self.key.clear();
        }
    }

    fn reset(&mut self) {
        self.depth = 0;
        self.in_str = false;
        self.esc = false;
        self.top = Top::None;
        self.record_depth = None;
        self.expect_key = false;
        self.key_open = false;
        self.wrapper_key = false;
        self.capturing = false;
        self.overflow = false;
        self.buf.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[&[u8]] = &[b"Records", b"Events", b"value"];

    fn pieces(text: &[u8], chunk: usize, cap: usize, after: AfterBreak) -> (Vec<String>, Option<u64>) {
        let mut out = Vec::new();
        let mut s = Splitter::new(cap, KEYS, after);
        let mut r = io::BufReader::with_capacity(chunk, text);
        let mut bytes = 0;
        let open = s
            .run(&mut r, &mut bytes, &mut |p| {
                out.push(match p {
                    Piece::Element(b, l) => format!("{l}:{}", String::from_utf8_lossy(b)),
                    other => format!("{other:?}"),
                })
            })
            .unwrap();
        assert_eq!(bytes, text.len() as u64);
        (out, open)
    }

    /// (case, input, records as `line:text` or a piece's name, open at the end)
    const CASES: &[(&str, &str, &[&str], Option<u64>)] = &[
        ("json lines", "{\"a\":1}\n{\"b\":\"}\"}\n", &["1:{\"a\":1}", "2:{\"b\":\"}\"}"], None),
        ("array", "[\n {\"a\":[1,{\"x\":2}]},\n {\"b\":2}\n]\n", &["2:{\"a\":[1,{\"x\":2}]}", "3:{\"b\":2}"], None),
        (
            "Records wrapper",
            "{\"Records\":[{\"a\":1},{\"b\":\"x\\\"y\"}]}",
            &["1:{\"a\":1}", "1:{\"b\":\"x\\\"y\"}"],
            None,
        ),
        ("Events wrapper with a token before", "{\"NextToken\":\"t\",\"Events\":[{\"e\":1}]}", &["1:{\"e\":1}"], None),
        ("a wrapper key nested deeper is data", "{\"a\":{\"Records\":[1]}}", &["1:{\"a\":{\"Records\":[1]}}"], None),
        ("array of strings", "[\"{\\\"a\\\":1}\"]", &["1:\"{\\\"a\\\":1}\""], None),
        ("not JSON lines", "hello\n{\"a\":1}\n", &["NotJson(1)", "2:{\"a\":1}"], None),
        ("a truncated line breaks, the next is read", "{\"a\":\"cut\n{\"b\":1}\n", &["Broken(1)", "2:{\"b\":1}"], None),
        ("truncated at the end", "{\"a\":[1,2", &[], Some(1)),
        (
            "too long",
            "{\"a\":\"0123456789012345678901234567890123456789\"}\n{\"b\":1}",
            &["TooLong(1)", "2:{\"b\":1}"],
            None,
        ),
        ("a BOM", "\u{feff}{\"a\":1}", &["1:{\"a\":1}"], None),
    ];

    #[test]
    fn every_layout_splits_into_records_at_any_chunk_size() {
        for (name, text, want, open) in CASES {
            for chunk in [1, 2, 3, 7, 64, 4096] {
                let (got, end) = pieces(text.as_bytes(), chunk, 32, AfterBreak::Resync);
                assert_eq!(got, *want, "{name} (chunk {chunk})");
                assert_eq!(end, *open, "{name} (chunk {chunk})");
            }
        }
    }

    #[test]
    fn after_a_break_resync_reads_on_and_stop_reads_no_further() {
        let text = b"{\"a\":1}\n{\"a\":\"cut\n  tail\n{\"b\":2}\n";
        for chunk in [1, 5, 4096] {
            let (resync, _) = pieces(text, chunk, 32, AfterBreak::Resync);
            assert_eq!(resync, ["1:{\"a\":1}", "Broken(2)", "4:{\"b\":2}"], "chunk {chunk}");
            let (stop, open) = pieces(text, chunk, 32, AfterBreak::Stop);
            assert_eq!(stop, ["1:{\"a\":1}", "Broken(2)"], "chunk {chunk}");
            assert_eq!(open, None, "chunk {chunk}");
        }
    }

    #[test]
    fn only_the_keys_asked_for_wrap_records() {
        let text = b"{\"entries\":[{\"a\":1}]}";
        let (got, _) = pieces(text, 4096, 64, AfterBreak::Resync);
        assert_eq!(got, ["1:{\"entries\":[{\"a\":1}]}"]);
    }
}
