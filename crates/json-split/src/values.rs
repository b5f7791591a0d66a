//! Each top-level value told apart, for a reader whose records' layout is the document's own:
//! the cloud inventory takes AWS `get-resources` pages, `az graph query` answers and bare
//! arrays back to back, and must know where one document ends (each names its own format, and
//! only the last page's token says more remain) and whether a record stood alone at the top (an
//! object that wraps no records is no inventory record, but an export of another kind whose
//! keys the error names). A splitter asked ([`Splitter::each_value`]) hands on a top-level value
//! that is itself the record as a [`Piece::Whole`], and ends every array and every wrapping
//! object with a [`Piece::Wrapper`] (an array's says nothing). Which key held a wrapper's
//! records is said too, when the reader listens for it ([`Splitter::listen`]).

use super::{Piece, Splitter, Top};

impl Splitter {
    /// The splitter, telling each top-level value apart: a record that stands alone is a
    /// [`Piece::Whole`], and an array or a wrapping object ends with a [`Piece::Wrapper`].
    pub fn each_value(mut self) -> Splitter {
        self.each_value = true;
        self
    }

    /// The piece that hands on a record's bytes.
    pub(super) fn record_piece<'a>(&self, bytes: &'a [u8]) -> Piece<'a> {
        if self.each_value && self.elem_depth == 0 {
            Piece::Whole(bytes, self.elem_line)
        } else {
            Piece::Element(bytes, self.elem_line)
        }
    }

    /// Whether the top-level value that ends is handed on as a [`Piece::Wrapper`].
    pub(super) fn says_its_end(&self) -> bool {
        match self.top {
            Top::Object => self.wrapped && (self.each_value || !self.members.is_empty()),
            Top::Array => self.each_value,
            Top::String | Top::None => false,
        }
    }
}
