//! Cloud inventory exports (`doctor --inventory`): what a user can export without handing the
//! plugin cloud credentials, read in one streaming pass per file into [`InventoryObject`]s (the
//! cloud ID and crossplane tags, nothing else), record by record out of the one JSON splitter
//! ([`stream`]). The format is detected per file and per document: an AWS `get-resources` page
//! envelope, an `az graph query` envelope, or an array whose records are AWS mappings
//! (`ResourceARN`), GCP assets (`name` = `//service/...`) or Azure resources (`id` =
//! `/subscriptions/...`). Several documents back to back (AWS pages concatenated) are read in
//! order; gzip is detected by its magic bytes.

mod aws;
mod azure;
mod gcp;
mod record;
mod stream;
mod tags;
#[cfg(test)]
mod tests;

use record::Record;
use std::io::Read;
use std::sync::Arc;
use upjet_core::inventory::InventoryObject;

pub use stream::MAX_RECORD_BYTES;

/// What the formats look like, for the error that names an unknown one.
pub const EXPECTED: &str = "AWS `aws resourcegroupstaggingapi get-resources` JSON ({\"ResourceTagMappingList\": [...]} pages, or that list alone), \
GCP `gcloud asset search-all-resources --format=json` (an array of assets named //SERVICE/...), \
Azure `az resource list` (an array of resources with /subscriptions/... IDs) or `az graph query` ({\"data\": ...})";

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
    #[error("inventory {file}: unknown format ({found}); expected {EXPECTED}")]
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

/// What a cut export's token means, for the message that names it.
pub fn truncation_hint(token: &str) -> &'static str {
    match token {
        "NextToken" => {
            "the AWS CLI stopped at --max-items; export again without it, or with --starting-token until no NextToken is printed"
        }
        "PaginationToken" => {
            "more pages remain; run get-resources again with --pagination-token until it is empty and give every page"
        }
        _ => {
            "the Resource Graph query returned its first page only; page with --skip-token (or --first up to 1000) and give every page"
        }
    }
}

/// Reads one inventory export; `name` names it in errors and findings.
pub fn read(reader: impl Read, name: &str) -> Result<Inventory, InventoryError> {
    let io = |source| InventoryError::Io { file: name.to_string(), source };
    stream::read_json(crate::input::open(reader).map_err(io)?, name)
}

/// One record as an object, in whichever format it is.
fn object(r: &mut Record, source: &Arc<str>) -> Option<InventoryObject> {
    aws::object(r, source).or_else(|| gcp::object(r, source)).or_else(|| azure::object(r, source))
}
