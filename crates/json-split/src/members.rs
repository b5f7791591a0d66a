//! What a wrapping object says beside its records: `{"Events":[…],"NextToken":"…"}` from
//! `lookup-events` cut at `--max-items`, `{"value":[…],"nextLink":"…"}` from a REST API. The
//! records are read as always; the string values under the keys a reader listens for are kept
//! (a bounded prefix, at most one per key, wherever in the object they sit) and handed on in one
//! [`Piece::Wrapper`] when the object ends, so that the reader knows whether the export is
//! whole. An object that held no wrapper array is a record, and what it says is its own.
//!
//! The keys are read on the splitter's full path, which already reads a wrapping object's keys
//! (the skim starts below them), so listening costs nothing inside the records.

use super::{Piece, Splitter};

/// Longest prefix of a value kept: a paging token is only looked at, never used.
pub const MEMBER_BYTES: usize = 256;

/// One string value of a wrapping object under a key listened for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The key, as its index in the keys given to [`Splitter::listen`].
    pub key: usize,
    /// The value's bytes as written between its quotes (escapes left as they are), at most
    /// [`MEMBER_BYTES`].
    pub value: Vec<u8>,
}

impl Splitter {
    /// The splitter, listening for `keys` of a wrapping object: each wrapping object that ends
    /// is handed on as a [`Piece::Wrapper`] with the string values it held under them.
    pub fn listen(mut self, keys: &'static [&'static [u8]]) -> Splitter {
        self.members = keys;
        self
    }

    /// A top-level value begins (or the reading broke off): nothing said yet.
    pub(super) fn value_begins(&mut self) {
        self.said.clear();
        self.wrapped = false;
        self.member = None;
        self.value_of = None;
    }

    /// A string of the top-level object was read into `key`: a key (which may name the
    /// records' array, or a member listened for), or the value of a member listened for.
    pub(super) fn top_string_read(&mut self) {
        match self.value_of.take() {
            Some(key) => {
                let value = std::mem::take(&mut self.key);
                self.say(key, value);
            }
            None => {
                self.wrapper_key = self.wrapper_keys.contains(&self.key.as_slice());
                self.member = self.members.iter().position(|k| *k == self.key.as_slice());
            }
        }
    }

    /// The records' array opens under the key just read: a key listened for is said, with no
    /// value, so that the reader knows which key held the records (an AWS page's
    /// `ResourceTagMappingList`, a Resource Graph answer's `data`).
    pub(super) fn wrapper_opens(&mut self) {
        self.wrapped = true;
        if let Some(key) = self.member {
            self.say(key, Vec::new());
        }
    }

    /// What the current object says under `members[key]`: the last value wins.
    fn say(&mut self, key: usize, value: Vec<u8>) {
        match self.said.iter_mut().find(|m| m.key == key) {
            Some(m) => m.value = value,
            None => self.said.push(Member { key, value }),
        }
    }

    /// The top-level value ends: a wrapping object says what it held, to a splitter listening
    /// (and an array its end, to one telling each value apart).
    pub(super) fn value_ends(&mut self, emit: &mut dyn FnMut(Piece)) {
        if self.says_its_end() {
            emit(Piece::Wrapper(&self.said));
        }
        self.value_begins();
    }
}
