//! What one cloud's inventory export is to the reader: the one trait each export's file
//! implements.
//!
//! Exists so that an export lives in one place. The reader (which wrapper keys hold records,
//! which keys are paging tokens, what a document is called, how a record becomes an object), the
//! error that names an unknown format ([`expected`](super::expected)), the hint for a cut export
//! ([`truncation_hint`](super::truncation_hint)) and the sniffer all walk
//! [`EXPORTS`](super::EXPORTS) and ask each export in turn; none of them names a cloud, so an
//! export cannot be half added (a decoder without its sniffer entry, a wrapper key without its
//! page name) and silently lose its records.

use super::record::Fields;
pub(crate) use super::record::{Envelope, Token};
use crate::format::Format;
use std::sync::Arc;
use upjet_core::inventory::InventoryObject;

/// One export, from the first bytes of a file to the object each of its records names.
pub(crate) trait Export: Sync {
    /// The sniffer's entries for this export's files, tried in the order of `EXPORTS`.
    fn formats(&self) -> &'static [Format];

    /// This export in the list the error about an unknown format ends with ("expected …").
    fn expected(&self) -> &'static str;

    /// What a bare array of its records is called in the file's note (`GCP Cloud Asset`).
    fn array(&self) -> &'static str;

    /// What names a record's cloud ID, in the error about an array of records none of which has
    /// one (`ResourceARN`).
    fn id_field(&self) -> &'static str;

    /// The wrapping objects its records come in.
    fn envelopes(&self) -> &'static [Envelope] {
        &[]
    }

    /// The paging tokens its wrapping objects end with when more pages remain.
    fn tokens(&self) -> &'static [Token] {
        &[]
    }

    /// The top-level keys of a record it reads: only these are kept while a record is read.
    fn keys(&self) -> &'static [&'static str];

    /// The record as this export's object; `None` when the record is not one of its own. An
    /// error when a field it reads holds the wrong kind of value: the record is broken, whichever
    /// export it belongs to (every export is asked about every record).
    fn object(&self, record: &Fields, source: &Arc<str>) -> Result<Option<InventoryObject>, serde_json::Error>;

    /// One row of a table under one of its envelopes ([`Envelope::table`]), its `columns` named:
    /// the row's object, or `None` when it names no cloud ID.
    fn table_row(
        &self,
        _columns: &[String],
        _row: Vec<serde_json::Value>,
        _source: &Arc<str>,
    ) -> Option<InventoryObject> {
        None
    }
}
