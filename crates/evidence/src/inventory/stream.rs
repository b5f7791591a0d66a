//! An inventory file read record by record out of the one splitter ([`json_split`]), so
//! that a page of hundreds of megabytes costs one record in memory, not the page: the splitter
//! hands on each record of an array or of a wrapping object's list (the exports' envelopes: AWS
//! `ResourceTagMappingList`, Resource Graph `data`), ends each document with what its wrapper
//! said (which key held the records, a paging token), and hands on whole a document that is one
//! value (an object that wraps no records: the older Resource Graph table, or an export of
//! another kind, whose keys the error names). It is strict: a byte out of place between records
//! breaks the read, since a cross-check over part of an export would report objects as gone.
//!
//! What is read is judged document by document as before: each names its format, and only the
//! last document's token says the export was cut. The first problem ends the read, as an error.

use super::record::{Doc, Fields, Page as Records, Shape, ended, keys, named_keys};
use super::{EXPORTS, Inventory, InventoryError, Malformation, object};
use json_split::{AfterBreak, Piece, Splitter};
use std::io::{self, BufRead};
use std::sync::Arc;
use upjet_core::inventory::InventoryObject;

/// Longest record held in memory, and longest document read whole (an `az graph query` table
/// of 1,000 rows of any size): an inventory record is a few KiB.
pub(crate) const MAX_RECORD_BYTES: usize = 64 << 20;

/// Reads every document of `input`.
pub(super) fn read_json(mut input: impl BufRead, name: &str) -> Result<Inventory, InventoryError> {
    let mut r = Reader::new(name);
    if let Some(e) = r.first_value(&mut input) {
        return Err(e);
    }
    let k = keys();
    let mut split =
        Splitter::new(MAX_RECORD_BYTES, &k.wrappers, AfterBreak::Stop).listen(&k.listen).each_value().strict();
    let end = split.run(&mut input, &mut 0, &mut |p| r.piece(p));
    r.finish(end)
}

/// The document being read.
#[derive(Default)]
struct Page {
    /// Its records.
    records: usize,
    /// The export of its first object (its index in [`EXPORTS`]).
    export: Option<usize>,
}

/// The reading state of one file.
struct Reader<'a> {
    name: &'a str,
    source: Arc<str>,
    inv: Inventory,
    page: Page,
    /// Documents ended.
    docs: usize,
    /// The first problem: nothing after it is read.
    error: Option<InventoryError>,
    /// A value over [`MAX_RECORD_BYTES`] on this line: a record if an array or a wrapper's list
    /// goes on after it, else a document of its own (the next piece tells).
    too_long: Option<u64>,
    /// The first keys of the object the file starts with, as its first bytes show them.
    first_keys: Vec<String>,
}

impl Reader<'_> {
    fn new(name: &str) -> Reader<'_> {
        let source = Arc::from(name);
        let (inv, page) = (Inventory::default(), Page::default());
        Reader { name, source, inv, page, docs: 0, error: None, too_long: None, first_keys: Vec::new() }
    }

    /// A file that starts with neither an array, an object nor a string: serde's word on its first
    /// value, since the splitter only says that a line is no JSON record (a scalar is JSON, but no
    /// inventory; anything else is no JSON).
    fn first_value(&mut self, input: &mut impl BufRead) -> Option<InventoryError> {
        let head = loop {
            match input.fill_buf() {
                Ok(head) => break head,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Some(self.io(e)),
            }
        };
        let first = head.iter().find(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'))?;
        if *first == b'{' {
            self.first_keys = named_keys(crate::format::head::Head::of(head).keys());
        }
        if matches!(first, b'{' | b'[' | b'"' | 0xef) {
            return None;
        }
        let value = serde_json::Deserializer::from_slice(head).into_iter::<serde::de::IgnoredAny>().next()?;
        Some(match value {
            Ok(_) => self.unknown("a JSON scalar".into()),
            Err(e) => self.malformed(Malformation::Json(e)),
        })
    }

    fn piece(&mut self, p: Piece) {
        if let Some(line) = self.too_long.take() {
            let record = matches!(p, Piece::Element(..) | Piece::Wrapper(_));
            let e = self.too_long_error(line, record);
            self.error.get_or_insert(e);
        }
        if self.error.is_some() {
            return;
        }
        let read = match p {
            Piece::Element(b, line) => self.element(b, line),
            Piece::Whole(b, line) => self.whole(b, line),
            Piece::Wrapper(said) => {
                let (shape, token) = ended(said);
                self.end(shape, token)
            }
            Piece::Broken(line) => Err(self.malformed(Malformation::Break(line))),
            Piece::NotJson(line) => Err(self.malformed(Malformation::NotJson(line))),
            Piece::TooLong(line) => {
                self.too_long = Some(line);
                Ok(())
            }
        };
        if let Err(e) = read {
            self.error = Some(e);
        }
    }

    /// One record of an array or of a wrapper's list.
    fn element(&mut self, b: &[u8], line: u64) -> Result<(), InventoryError> {
        let malformed = |error| self.malformed(Malformation::Record { line, error });
        let found = Fields::of(b).and_then(|r| object(&r, &self.source)).map_err(malformed)?;
        self.record(found);
        Ok(())
    }

    /// A document that is one value of its own.
    fn whole(&mut self, b: &[u8], line: u64) -> Result<(), InventoryError> {
        let malformed = |error| self.malformed(Malformation::Record { line, error });
        let doc = Doc::of(b).map_err(malformed)?;
        match doc.page {
            Records::Records(records) => {
                for r in records {
                    let found = object(&r, &self.source)
                        .map_err(|error| self.malformed(Malformation::Record { line, error }))?;
                    self.record(found);
                }
            }
            Records::Table { export, columns, rows } => {
                for row in rows {
                    let found = EXPORTS[export].table_row(&columns, row, &self.source);
                    self.record(found.map(|o| (export, o)));
                }
            }
        }
        self.end(doc.shape, doc.token)
    }

    /// One record read: the object it names and the export whose it is, or none.
    fn record(&mut self, found: Option<(usize, InventoryObject)>) {
        self.inv.records += 1;
        self.page.records += 1;
        match found {
            Some((export, o)) => {
                self.page.export.get_or_insert(export);
                self.inv.objects.push(o);
            }
            None => self.inv.without_id += 1,
        }
    }

    /// A document ends: its format, or what it was instead.
    fn end(&mut self, shape: Shape, token: Option<&'static str>) -> Result<(), InventoryError> {
        self.docs += 1;
        // Pages concatenated by hand chain their tokens: only the last page's says more remain.
        self.inv.truncated = token;
        let page = std::mem::take(&mut self.page);
        let format = format(shape, &page).map_err(|found| self.unknown(found))?;
        if !self.inv.formats.contains(&format) {
            self.inv.formats.push(format);
        }
        Ok(())
    }

    /// A value over [`MAX_RECORD_BYTES`] on `line`: a `record` of an array or a wrapper's list,
    /// or a document of its own — named by its keys, as any object of another kind is, when it is
    /// the file's first and its first bytes show them.
    fn too_long_error(&self, line: u64, record: bool) -> InventoryError {
        let mib = MAX_RECORD_BYTES >> 20;
        let keys = &self.first_keys;
        let known = keys.iter().any(|k| super::record::keys().wrappers.contains(&k.as_bytes()));
        self.unknown(match () {
            _ if record => format!("a record of more than {mib} MiB, on line {line}"),
            _ if self.docs > 0 || keys.is_empty() => format!("a JSON value of more than {mib} MiB, on line {line}"),
            _ if known => format!("a JSON object of more than {mib} MiB with keys {}", keys.join(", ")),
            _ => format!("a JSON object with keys {}", keys.join(", ")),
        })
    }

    fn finish(mut self, end: io::Result<Option<u64>>) -> Result<Inventory, InventoryError> {
        if let Some(line) = self.too_long.take() {
            let e = self.too_long_error(line, false);
            self.error.get_or_insert(e);
        }
        if let Some(e) = self.error {
            return Err(e);
        }
        match end {
            Err(e) => Err(self.io(e)),
            Ok(Some(line)) => Err(self.malformed(Malformation::Cut(line))),
            Ok(None) if self.docs == 0 => Err(self.unknown("an empty file".into())),
            Ok(None) => Ok(self.inv),
        }
    }

    fn io(&self, source: io::Error) -> InventoryError {
        InventoryError::Io { file: self.name.to_string(), source }
    }

    fn malformed(&self, source: Malformation) -> InventoryError {
        InventoryError::Malformed { file: self.name.to_string(), source }
    }

    fn unknown(&self, found: String) -> InventoryError {
        InventoryError::Unknown { file: self.name.to_string(), found }
    }
}

/// A document's format, or what it was instead: the name of the envelope that wrapped it, or of
/// the export whose record its first object was.
fn format(shape: Shape, page: &Page) -> Result<&'static str, String> {
    match shape {
        Shape::Envelope(e) => Ok(keys().envelopes[e].1.name),
        Shape::Other(keys) => Err(format!("a JSON object with keys {}", keys.join(", "))),
        Shape::Scalar => Err("a JSON scalar".into()),
        Shape::Array => match page.export {
            Some(export) => Ok(EXPORTS[export].array()),
            None if page.records > 0 => Err(format!("an array of {} records with no {}", page.records, id_fields())),
            None => Ok("an empty array"),
        },
    }
}

/// "ResourceARN, //SERVICE/ name or /subscriptions/ id": what names a cloud ID, in every export.
fn id_fields() -> String {
    let fields: Vec<&str> = EXPORTS.iter().map(|e| e.id_field()).collect();
    match fields.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => fields.concat(),
    }
}
