//! Strict splitting: the bytes outside records held to JSON's grammar. The splitter is lenient
//! by design — it only delimits, and a record's own bytes are checked when its reader decodes
//! it — so a comma, colon or bracket out of place between records passes unnoticed. Where the
//! reader must not take a damaged export for a whole one (`doctor --inventory` reports objects
//! as gone from what it did not read), a byte out of place there would lose records or a paging
//! token without a word: `{"ResourceTagMappingList":[{…}]{…}]}` closes the array before the
//! second record, `"PaginationToken", "t"` reads the token as a key. A strict splitter
//! ([`Splitter::strict`]) walks a small stack of the arrays and objects open outside records,
//! sees each record (and each container inside an object that may itself be the record) as one
//! value, and hands on a [`Piece::Broken`] at the first byte that cannot continue the JSON,
//! then reads no further. A value where a record stands must be one: an object or an array, or
//! a string that may hold one — a bare number or `null` there breaks the JSON too. Not checked:
//! the letters of a bare value beside the records (`tru` passes for `true`) and what a string
//! holds (its escapes): neither moves a record's bounds, and the records are decoded anyway.
//!
//! The walk costs a few steps per record, none inside one: a record's bytes are skimmed as
//! always ([`super::skim`]).

use super::{Piece, Splitter};

/// Deepest nesting outside records (serde_json's own recursion limit).
const MAX_DEPTH: usize = 128;

/// Where the walk stands in one open array or object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// Just opened: a value (or key), or the closing bracket.
    Open,
    /// After a comma: a value (or key).
    Comma,
    /// After an object's key: its colon.
    Key,
    /// After an object's colon: the value.
    Colon,
    /// After a value: a comma, or the closing bracket.
    Value,
}

/// One array or object open outside records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    Array(At),
    Object(At),
}

/// The grammar's state between bytes.
#[derive(Debug, Default)]
pub(super) struct Grammar {
    stack: Vec<Frame>,
    /// Inside a bare value (a number, `true`, `false`, `null`): its first byte was the value.
    scalar: bool,
    /// The line of the first byte out of place, until the splitter hands it on.
    broke: Option<u64>,
}

impl Grammar {
    /// A value: a string that is no key, a bare value's first byte, a record.
    fn value(&mut self) -> bool {
        match self.stack.last_mut() {
            None => true,
            Some(Frame::Array(at @ (At::Open | At::Comma)) | Frame::Object(at @ At::Colon)) => {
                *at = At::Value;
                true
            }
            Some(_) => false,
        }
    }

    /// A string: an object's key where one is due, else a value.
    fn string(&mut self) -> bool {
        match self.stack.last_mut() {
            Some(Frame::Object(at @ (At::Open | At::Comma))) => {
                *at = At::Key;
                true
            }
            _ => self.value(),
        }
    }

    fn open(&mut self, c: u8) -> bool {
        let frame = if c == b'[' { Frame::Array(At::Open) } else { Frame::Object(At::Open) };
        let ok = self.stack.len() < MAX_DEPTH && self.value();
        self.stack.push(frame);
        ok
    }

    fn close(&mut self, c: u8) -> bool {
        match self.stack.pop() {
            Some(Frame::Array(At::Open | At::Value)) => c == b']',
            Some(Frame::Object(At::Open | At::Value)) => c == b'}',
            _ => false,
        }
    }

    fn punctuation(&mut self, c: u8) -> bool {
        match (self.stack.last_mut(), c) {
            (Some(Frame::Array(at @ At::Value) | Frame::Object(at @ At::Value)), b',') => {
                *at = At::Comma;
                true
            }
            (Some(Frame::Object(at @ At::Key)), b':') => {
                *at = At::Colon;
                true
            }
            _ => false,
        }
    }
}

impl Splitter {
    /// The splitter, holding the bytes outside records to JSON's grammar ([`grammar`](self)): the
    /// first byte out of place is handed on as a [`Piece::Broken`], and nothing after it.
    pub fn strict(mut self) -> Splitter {
        self.grammar = Some(Grammar::default());
        self
    }

    /// Whether the current depth lies inside a record being read (or, for a top-level object
    /// that may be the record itself, inside one of its values): its reader checks those bytes.
    fn in_record(&self) -> bool {
        self.capturing && self.depth > self.elem_depth.max(1)
    }

    /// A byte outside strings and brackets, before the splitter handles it.
    pub(super) fn grammar_byte(&mut self, c: u8) {
        if self.grammar.is_none() || self.in_record() {
            return;
        }
        let (depth, record) = (self.depth, Some(self.depth) == self.record_depth);
        let Some(g) = self.grammar.as_mut() else { return };
        let ok = match c {
            b',' | b':' => {
                g.scalar = false;
                g.punctuation(c)
            }
            b' ' | b'\t' | b'\r' | b'\n' => {
                g.scalar = false;
                true
            }
            // At the top level: the splitter's own (a line that is not JSON, a byte-order mark).
            _ if depth == 0 || g.scalar => true,
            _ => {
                g.scalar = true;
                !record && g.value()
            }
        };
        self.grammar_step(ok);
    }

    /// A string opens.
    pub(super) fn grammar_string(&mut self) {
        if self.in_record() {
            return;
        }
        let Some(g) = self.grammar.as_mut() else { return };
        g.scalar = false;
        let ok = g.string();
        self.grammar_step(ok);
    }

    /// A bracket opens, once the splitter knows whether it opens the records' array; before a
    /// record starts.
    pub(super) fn grammar_open(&mut self, c: u8) {
        if self.grammar.is_none() || self.in_record() {
            return;
        }
        let starts_record = !self.capturing && self.depth > 0 && Some(self.depth) == self.record_depth;
        // A container inside a top-level object that is being read as the record: one value.
        let whole_value = starts_record || self.capturing;
        let Some(g) = self.grammar.as_mut() else { return };
        g.scalar = false;
        let ok = if whole_value { g.value() } else { g.open(c) };
        self.grammar_step(ok);
    }

    /// A bracket closes, before the splitter handles it.
    pub(super) fn grammar_close(&mut self, c: u8) {
        if self.in_record() {
            return;
        }
        let Some(g) = self.grammar.as_mut() else { return };
        g.scalar = false;
        let ok = g.close(c);
        self.grammar_step(ok);
    }

    fn grammar_step(&mut self, ok: bool) {
        if let Some(g) = self.grammar.as_mut().filter(|g| !ok && g.broke.is_none()) {
            g.broke = Some(self.line);
        }
    }

    /// Whether the grammar broke: then the break is handed on, and the splitter stops before
    /// it acts on the byte out of place.
    pub(super) fn grammar_broke(&mut self, emit: &mut dyn FnMut(Piece)) -> bool {
        let Some(line) = self.grammar.as_mut().and_then(|g| g.broke.take()) else { return false };
        emit(Piece::Broken(line));
        self.reset();
        self.stopped = true;
        true
    }

    /// A break: the walk starts over.
    pub(super) fn grammar_reset(&mut self) {
        if let Some(g) = self.grammar.as_mut() {
            *g = Grammar::default();
        }
    }
}
