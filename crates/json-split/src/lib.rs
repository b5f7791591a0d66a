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
//! reader turns the [`Piece`]s into its own counters and notes. What a wrapping object says
//! beside its records (a paging token after `lookup-events`' `Events`) is handed on when the
//! object ends, for the keys a reader listens for ([`Splitter::listen`], [`members`]). A reader
//! may have each top-level value told apart ([`Splitter::each_value`], [`values`]) and the bytes
//! between records held to JSON's grammar ([`Splitter::strict`], [`grammar`]).
//!
//! Every JSON reader of the tool takes its records from here: the cloud-audit reader (a stream
//! of records), the Kubernetes audit reader's documents (the CloudWatch `events` key, stop at a
//! break), the cloud inventory reader (AWS pages, Resource Graph answers and arrays back to
//! back, each value told apart, strict), the provider-log scanner's documents met between log
//! lines ([`document`]: a JSON array or a pretty-printed object that ends, or is left, in the
//! middle of the stream), and the list bodies of `cluster/scan` and of snapshots
//! ([`list_items`]: a body in memory, its items as ranges, uncopied). It sits beside `error.rs`
//! as a layer of its own, importing nothing, so that both `cluster/` and `evidence/` may use it.
mod document;
mod grammar;
mod members;
mod skim;
mod values;

pub use document::{DocEnd, Opened};
pub use members::{MEMBER_BYTES, Member};
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
    /// A top-level object that wrapped records ended: the string values it held beside them
    /// under the keys listened for ([`Splitter::listen`]). Only a splitter that listens hands
    /// this on — or one telling each value apart ([`Splitter::each_value`]), which also ends
    /// each top-level array with one, saying nothing.
    Wrapper(&'a [Member]),
    /// A record that is a top-level value of its own (an object that wraps no records, a
    /// string), and the line it starts on: only a splitter telling each value apart hands this
    /// on instead of an [`Piece::Element`].
    Whole(&'a [u8], u64),
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
    /// Keys of a wrapping object whose string values are handed on when it ends ([`members`]).
    members: &'static [&'static [u8]],
    /// The key just read is `members[i]`: its value comes next.
    member: Option<usize>,
    /// The depth-1 string being read is the value of `members[i]`, not a key.
    value_of: Option<usize>,
    /// What the current top-level object said under the keys listened for.
    said: Vec<Member>,
    /// The current top-level object holds a wrapper array.
    wrapped: bool,
    /// Each top-level value told apart ([`values`]).
    each_value: bool,
    /// The bytes outside records held to JSON's grammar ([`grammar`]).
    grammar: Option<grammar::Grammar>,
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
    /// Bytes fed before the current chunk: where a wrapper's array sits in the stream.
    offset: u64,
    /// Top-level values begun (a List body has exactly one).
    values: u64,
    /// Wrapper arrays met, and the byte range of the last (its brackets included).
    wrappers: u32,
    wrapper_span: (u64, u64),
    /// A document met inside another stream (a log): what opened it ([`document`]).
    embedded: Option<document::Opened>,
    /// At the first byte of a line, outside strings (only tracked for an embedded document).
    line_start: bool,
    /// How an embedded document ended, once it has.
    ended: Option<document::DocEnd>,
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
            members: &[],
            member: None,
            value_of: None,
            said: Vec::new(),
            wrapped: false,
            each_value: false,
            grammar: None,
            buf: Vec::new(),
            capturing: false,
            overflow: false,
            elem_line: 0,
            elem_depth: 0,
            skip_line: false,
            resync: false,
            resynced_lines: 0,
            seen: false,
            offset: 0,
            values: 0,
            wrappers: 0,
            wrapper_span: (0, 0),
            embedded: None,
            line_start: false,
            ended: None,
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
            let chunk = fill(input)?;
            if chunk.is_empty() {
                break;
            }
            self.feed(chunk, emit);
            let n = chunk.len();
            self.offset += n as u64;
            *bytes += n as u64;
            input.consume(n);
        }
        let open = self.capturing || self.depth > 0 || (self.in_str && self.top != Top::None);
        Ok(open.then_some(if self.capturing { self.elem_line } else { self.line }))
    }

    /// Feeds one chunk; returns the bytes of it used (all of them unless the splitter stopped).
    fn feed(&mut self, chunk: &[u8], emit: &mut dyn FnMut(Piece)) -> usize {
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
            if let Some(floor) = self.skim_floor() {
                i = self.skim(chunk, i, floor);
                if i == chunk.len() {
                    break;
                }
            }
            if self.in_str {
                i = self.in_string(chunk, i, &mut seg, &mut key_seg, emit);
                continue;
            }
            i = self.structural(chunk, i, &mut seg, &mut key_seg, emit);
        }
        if self.stopped {
            return i;
        }
        if let Some(s) = seg.filter(|_| self.capturing) {
            self.keep(&chunk[s..]);
        }
        if let Some(s) = key_seg.filter(|_| self.key_open) {
            self.key_part(&chunk[s..]);
        }
        chunk.len()
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
                    self.top_string_read();
                }
                if self.capturing && self.depth == self.elem_depth {
                    self.finish(chunk, k, seg, emit);
                }
                if self.top == Top::String && self.depth == 0 {
                    self.top = Top::None;
                }
            }
            _ if self.embedded.is_some() => {
                self.leave(chunk, k, seg, emit);
                self.line += 1;
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
        if self.embedded.is_some()
            && let Some(next) = self.guard(chunk, i, seg, emit)
        {
            return next;
        }
        let seen = self.seen;
        self.seen = seen || !c.is_ascii_whitespace();
        if !matches!(c, b'"' | b'{' | b'[' | b'}' | b']') {
            self.grammar_byte(c);
            if self.grammar_broke(emit) {
                return i + 1;
            }
        }
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
                    self.member = None;
                }
            }
        }
        self.grammar_broke(emit);
        i + 1
    }

    fn open_string(&mut self, i: usize, seg: &mut Option<usize>, key_seg: &mut Option<usize>) {
        self.grammar_string();
        if self.depth == 0 {
            if self.resync {
                self.resynced_lines += 1;
                self.skip_line = true;
                return;
            }
            self.top = Top::String;
            self.record_depth = Some(0);
            self.values += 1;
            self.value_begins();
        }
        if self.depth == 1 && self.top == Top::Object {
            self.wrapper_key = false;
            self.value_of = if self.expect_key { None } else { self.member.take() };
            if self.expect_key || self.value_of.is_some() {
                self.key.clear();
                self.key_open = true;
                *key_seg = Some(i + 1);
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
            self.values += 1;
            self.top = if c == b'[' { Top::Array } else { Top::Object };
            self.record_depth = Some(if c == b'[' { 1 } else { 0 });
            self.value_begins();
        }
        if self.depth == 1 && self.top == Top::Object {
            if self.wrapper_key && c == b'[' {
                // The records' array: the wrapping object itself is no record.
                self.capturing = false;
                self.overflow = false;
                self.buf.clear();
                *seg = None;
                self.record_depth = Some(2);
                self.wrappers += 1;
                self.wrapper_opens();
                self.wrapper_span.0 = self.offset + i as u64;
            }
            self.wrapper_key = false;
            self.member = None;
        }
        self.grammar_open(c);
        if !self.capturing && Some(self.depth) == self.record_depth {
            self.start(i, seg);
        }
        self.depth += 1;
        if self.depth == 1 && self.top == Top::Object {
            self.expect_key = true;
        }
    }

    fn close(&mut self, chunk: &[u8], i: usize, seg: &mut Option<usize>, emit: &mut dyn FnMut(Piece)) {
        self.grammar_close(chunk[i]);
        if self.grammar_broke(emit) || self.depth == 0 {
            return;
        }
        self.depth -= 1;
        if self.capturing && self.depth == self.elem_depth {
            self.finish(chunk, i, seg, emit);
        }
        if self.depth == 1 && self.record_depth == Some(2) {
            self.record_depth = None;
            self.wrapper_span.1 = self.offset + i as u64 + 1;
        }
        if self.depth == 0 {
            self.value_ends(emit);
            self.top = Top::None;
            self.record_depth = None;
            if self.embedded.is_some() {
                self.ended = Some(document::DocEnd::Ended);
                self.stopped = true;
            }
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

    /// The record ends at `chunk[k]` (inclusive). A record that lies within one chunk is handed
    /// on as a slice of it, uncopied (a page or a line read whole costs no copy); one that spans
    /// chunks was gathered in the buffer.
    fn finish(&mut self, chunk: &[u8], k: usize, seg: &mut Option<usize>, emit: &mut dyn FnMut(Piece)) {
        self.capturing = false;
        match seg.take() {
            Some(s) if self.buf.is_empty() && !self.overflow => {
                let record = &chunk[s..=k];
                emit(if record.len() > self.cap { Piece::TooLong(self.elem_line) } else { self.record_piece(record) });
            }
            whole => {
                if let Some(s) = whole {
                    self.keep(&chunk[s..=k]);
                }
                emit(if self.overflow { Piece::TooLong(self.elem_line) } else { self.record_piece(&self.buf) });
            }
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
        if self.value_of.is_some() {
            let room = MEMBER_BYTES.saturating_sub(self.key.len());
            self.key.extend_from_slice(&bytes[..bytes.len().min(room)]);
        } else if self.key.len() + bytes.len() <= 64 {
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
        self.value_begins();
        self.capturing = false;
        self.overflow = false;
        self.buf.clear();
        self.grammar_reset();
    }
}

/// The buffered bytes of `input`, read again after an interrupted read.
fn fill<R: BufRead>(input: &mut R) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Ok(_) => return input.fill_buf(),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Where the items of a Kubernetes list body held in memory are: each item's byte range, and the
/// range of the `items` array (brackets included), so the caller can read the small envelope
/// without them.
pub struct ListItems {
    /// Each element of the top-level `items` array, in order.
    pub items: Vec<std::ops::Range<usize>>,
    /// Where the `items` array starts and ends in the body.
    pub array: (usize, usize),
}

/// Splits a list response with the one splitter, or says it cannot: anything but one top-level
/// object holding one `items` array of records, whole, with nothing after it, is refused, so
/// the caller takes a fully validating path instead. Elements are only delimited, not
/// validated: each is parsed on its own afterwards.
pub fn list_items(body: &[u8]) -> Option<ListItems> {
    const ITEMS: &[&[u8]] = &[b"items"];
    let mut s = Splitter::new(usize::MAX, ITEMS, AfterBreak::Stop);
    let base = body.as_ptr() as usize;
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut refused = false;
    s.feed(body, &mut |p| match p {
        // One chunk: every record is a slice of `body` itself.
        Piece::Element(b, _) => spans.push((b.as_ptr() as usize - base, b.len())),
        _ => refused = true,
    });
    let whole = s.depth == 0 && !s.in_str && !s.capturing && s.values == 1 && s.wrappers == 1;
    if refused || !whole {
        return None;
    }
    let (start, end) = (s.wrapper_span.0 as usize, s.wrapper_span.1 as usize);
    // The splitter passes over separators; a list is only taken when exactly one comma stands
    // between two items and none around them (`[1]`, `[{},]` are left to the validating path).
    let mut at = start + 1;
    for (i, &(item, len)) in spans.iter().enumerate() {
        let gap = body.get(at..item)?;
        if !separates(gap, i > 0) {
            return None;
        }
        at = item + len;
    }
    if !separates(body.get(at..end - 1)?, false) {
        return None;
    }
    let items = spans.iter().map(|&(item, len)| item..item + len).collect();
    Some(ListItems { items, array: (start, end) })
}

/// Whether `gap` is blank around exactly one comma (`comma`) or blank only.
fn separates(gap: &[u8], comma: bool) -> bool {
    let blank = |b: &[u8]| b.iter().all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
    match memchr(b',', gap) {
        Some(i) => comma && blank(&gap[..i]) && blank(&gap[i + 1..]),
        None => !comma && blank(gap),
    }
}

#[cfg(test)]
mod tests;
