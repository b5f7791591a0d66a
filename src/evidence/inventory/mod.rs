//! Cloud inventory exports (`doctor --inventory`): what a user can export without handing the
//! plugin cloud credentials, read in one streaming pass per file into [`InventoryObject`]s (the
//! cloud ID and crossplane tags, nothing else). The format is detected per file and per
//! document: an AWS `get-resources` page envelope, an `az graph query` envelope, or an array
//! whose records are AWS mappings (`ResourceARN`), GCP assets (`name` = `//service/...`) or Azure
//! resources (`id` = `/subscriptions/...`). Several documents back to back (AWS pages
//! concatenated) are read in order; gzip is detected by its magic bytes.

mod aws;
mod azure;
mod gcp;
mod record;
mod tags;
#[cfg(test)]
mod tests;

use crate::domain::inventory::{Cloud, InventoryObject};
use record::{Doc, Record, Shape};
use std::io::{BufRead, Read};
use std::sync::Arc;

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
        /// Where and why parsing stopped.
        #[source]
        source: serde_json::Error,
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
    read_json(crate::evidence::input::open(reader).map_err(io)?, name)
}

fn read_json(reader: impl BufRead, name: &str) -> Result<Inventory, InventoryError> {
    let source: Arc<str> = Arc::from(name);
    let mut inv = Inventory::default();
    let mut docs = 0;
    for doc in serde_json::Deserializer::from_reader(reader).into_iter::<Doc>() {
        let doc = doc.map_err(|e| match e.classify() {
            serde_json::error::Category::Io => InventoryError::Io { file: name.to_string(), source: e.into() },
            _ => InventoryError::Malformed { file: name.to_string(), source: e },
        })?;
        docs += 1;
        // Pages concatenated by hand chain their tokens: only the last page's says more remain.
        inv.truncated = doc.token;
        add(&mut inv, doc, &source).map_err(|found| InventoryError::Unknown { file: name.to_string(), found })?;
    }
    if docs == 0 {
        return Err(InventoryError::Unknown { file: name.to_string(), found: "an empty file".into() });
    }
    Ok(inv)
}

/// Adds one document's records, or says what the document was instead.
fn add(inv: &mut Inventory, doc: Doc, source: &Arc<str>) -> Result<(), String> {
    let format = match &doc.shape {
        Shape::AwsPage => "AWS get-resources",
        Shape::Graph => "Azure Resource Graph",
        Shape::Array => "",
        Shape::Other(keys) => return Err(format!("a JSON object with keys {}", keys.join(", "))),
        Shape::Scalar => return Err("a JSON scalar".into()),
    };
    let total = doc.records.len();
    let before = inv.objects.len();
    for mut r in doc.records {
        match object(&mut r, source) {
            Some(o) => inv.objects.push(o),
            None => inv.without_id += 1,
        }
    }
    inv.records += total;
    let added = &inv.objects[before..];
    let format = match (format, added.first().map(|o| o.cloud)) {
        ("", None) if total > 0 => {
            return Err(format!(
                "an array of {total} records with no ResourceARN, //SERVICE/ name or /subscriptions/ id"
            ));
        }
        ("", None) => "an empty array",
        ("", Some(Cloud::Aws)) => "AWS get-resources (list only)",
        ("", Some(Cloud::Gcp)) => "GCP Cloud Asset",
        ("", Some(Cloud::Azure)) => "Azure resource list",
        (f, _) => f,
    };
    if !inv.formats.contains(&format) {
        inv.formats.push(format);
    }
    Ok(())
}

/// One record as an object, in whichever format it is.
fn object(r: &mut Record, source: &Arc<str>) -> Option<InventoryObject> {
    aws::object(r, source).or_else(|| gcp::object(r, source)).or_else(|| azure::object(r, source))
}
