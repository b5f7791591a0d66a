//! Cloud inventory exports (`doctor --inventory`): what a user can export without handing the
//! plugin cloud credentials, read in one streaming pass per file into [`InventoryObject`]s (the
//! cloud ID and crossplane tags, nothing else), record by record out of the one JSON splitter
//! ([`stream`]). The format is detected per file and per document: a wrapping object one of the
//! exports names (an AWS `get-resources` page, an `az graph query` answer), or an array whose
//! records are one export's (AWS mappings, GCP assets, Azure resources). Several documents back
//! to back (AWS pages concatenated) are read in order; gzip is detected by its magic bytes.
//!
//! Each export is one file behind the trait [`export::Export`] — its sniffer entries, its wrapper
//! keys and paging tokens, how its record names a cloud ID and tags — listed once in [`EXPORTS`],
//! which the reader ([`record`], [`stream`]), the error that names what was expected
//! ([`expected`]) and the sniffer walk. Adding an export is its file and its entry there (plus
//! its tests and its row in `docs/inventory.md`).

mod aws;
mod azure;
mod envelope;
pub(crate) mod export;
mod gcp;
mod record;
mod stream;
mod tags;
#[cfg(test)]
mod tests;

use export::Export;
use record::Fields;
use std::io::Read;
use std::sync::{Arc, OnceLock};
use upjet_core::inventory::InventoryObject;

/// Every inventory export read, each in its own file: the order their records are asked about
/// (the first that names a record's object gives it), their sniffer entries are tried in and the
/// error lists them in. Adding an export is its file and one entry here.
pub(crate) static EXPORTS: &[&dyn Export] = &[&aws::GetResources, &gcp::CloudAsset, &azure::AzureResources];

/// What the exports look like, for the error that names an unknown format: each export's own
/// words ([`Export::expected`]), in the order of [`EXPORTS`].
pub fn expected() -> &'static str {
    static EXPECTED: OnceLock<String> = OnceLock::new();
    EXPECTED.get_or_init(|| EXPORTS.iter().map(|e| e.expected()).collect::<Vec<_>>().join(", "))
}

/// Why an inventory file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum InventoryError {
    /// The file could not be opened or read.
    #[error("cannot read inventory {file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Not JSON, or cut short.
    #[error("inventory {file} is not a complete JSON export (truncated or corrupt?): {source}")]
    Malformed {
        /// The file.
        file: String,
        /// Where and why reading stopped.
        #[source]
        source: Malformation,
    },
    /// JSON, but none of the formats.
    #[error("inventory {file}: unknown format ({found}); expected {}", expected())]
    Unknown {
        /// The file.
        file: String,
        /// What it held instead.
        found: String,
    },
}

/// Where an export stops being JSON the reader can use, for [`InventoryError::Malformed`].
#[derive(Debug, thiserror::Error)]
pub enum Malformation {
    /// The file starts with no JSON value: serde's word on it.
    #[error(transparent)]
    Json(serde_json::Error),
    /// A record (or a document read whole) that is not JSON, or no record.
    #[error("the value that starts on line {line}: {error}")]
    Record {
        /// Where it starts.
        line: u64,
        /// serde's word on it (its lines counted from its start).
        error: serde_json::Error,
    },
    /// A line break inside a string, or a bracket, comma or colon out of place between records.
    #[error("the JSON breaks on line {0} (a line break inside a string, or a bracket, comma or colon out of place)")]
    Break(u64),
    /// A line that starts no JSON array or object.
    #[error("line {0} holds no JSON array or object")]
    NotJson(u64),
    /// The stream ends inside a value.
    #[error("it ends inside the value that starts on line {0}")]
    Cut(u64),
}

/// One file read: its objects and what it held.
#[derive(Debug, Default)]
pub struct Inventory {
    /// Every record with a cloud ID, tagged or not.
    pub objects: Vec<InventoryObject>,
    /// The formats seen, e.g. `AWS get-resources`.
    pub formats: Vec<&'static str>,
    /// Records read.
    pub records: usize,
    /// Records without a usable cloud ID (e.g. Resource Graph rows that do not project `id`).
    pub without_id: usize,
    /// The paging token the file ends with (`NextToken`, `PaginationToken`, `skip_token`): the
    /// export was cut short (`aws ... --max-items`, a Resource Graph query's first page) and the
    /// objects on the missing pages are unknown.
    pub truncated: Option<&'static str>,
}

impl Inventory {
    /// Objects carrying both `crossplane-kind` and `crossplane-name`.
    pub fn tagged(&self) -> usize {
        self.objects.iter().filter(|o| o.tags.names_an_mr()).count()
    }
}

/// What a cut export's token means and what to do, for the message that names it: the words of
/// the export whose token it is ([`export::Token::hint`]).
pub fn truncation_hint(token: &str) -> &'static str {
    let known = record::keys().tokens.iter().find(|t| t.key == token);
    known.map_or("more pages remain; export every page and give them all", |t| t.hint)
}

/// Reads one inventory export; `name` names it in errors and findings.
pub fn read(reader: impl Read, name: &str) -> Result<Inventory, InventoryError> {
    let io = |source| InventoryError::Io { file: name.to_string(), source };
    stream::read_json(crate::input::open(reader).map_err(io)?, name)
}

/// One record as the object of the first export that names one in it (with that export's index
/// in [`EXPORTS`]). Every export reads its own fields of every record, so a field of the wrong
/// kind breaks the record whichever export it belongs to.
fn object(r: &Fields, source: &Arc<str>) -> Result<Option<(usize, InventoryObject)>, serde_json::Error> {
    let mut first = None;
    for (i, export) in EXPORTS.iter().enumerate() {
        if let Some(o) = export.object(r, source)? {
            first.get_or_insert((i, o));
        }
    }
    Ok(first)
}
