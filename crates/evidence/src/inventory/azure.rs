//! Azure `az resource list` (and `az group list`): an array of resources with `id`
//! (`/subscriptions/...`) and `tags`; and `az graph query`: `{"data": [...rows]}` or, with
//! `--output json` of older CLIs, `{"data": {"columns": [...], "rows": [[...]]}}`. Rows carry
//! `id` and `tags` only when the query projects them. `az resource list` pages to the end by
//! itself; a Resource Graph answer with more rows ends with a skip token.

use super::envelope::{Envelope, Token};
use super::export::Export;
use super::record::Fields;
use crate::format::{Format, Reader};
use std::sync::Arc;
use upjet_core::inventory::{Cloud, CrossplaneTags, InventoryObject};

/// Azure Resource Manager's resource list and Resource Graph's answers, as the az CLI prints them.
pub(super) struct AzureResources;

/// The sniffer's entries: a resource list, then a Resource Graph answer.
static FORMATS: [Format; 2] = [
    Format {
        what: "an Azure resource list (az resource list)",
        readers: &[Reader::Inventory],
        unread: "",
        test: |h| h.is_array() && h.str("id").is_some_and(|id| Cloud::Azure.id_key(id).starts_with("/subscriptions/")),
    },
    Format {
        what: "an Azure Resource Graph result (az graph query)",
        readers: &[Reader::Inventory],
        unread: "",
        test: |h| h.is_object() && h.has("data") && (h.has("count") || h.has("total_records") || h.has("skip_token")),
    },
];

/// A Resource Graph answer's rows (its older table form, `data` as an object, is read whole).
static ENVELOPES: [Envelope; 1] =
    [Envelope { key: "data", name: "Azure Resource Graph", table: Some("Resource Graph data") }];

/// The skip token of a Resource Graph answer with more rows: `az graph query` prints
/// `skip_token`, the REST answer and older CLIs `$skipToken` or `skipToken`.
const SKIP: &str = "the Resource Graph query returned its first page only; page with --skip-token (or --first up to 1000) and give every page";

static TOKENS: [Token; 3] = [
    Token { key: "skip_token", hint: SKIP },
    Token { key: "$skipToken", hint: SKIP },
    Token { key: "skipToken", hint: SKIP },
];

/// An Azure object, when `id` is a resource ID.
fn object(id: Option<String>, tags: CrossplaneTags, source: &Arc<str>) -> Option<InventoryObject> {
    let id = id.filter(|id| id.trim_start().starts_with("/subscriptions/"))?.trim().to_string();
    Some(InventoryObject { id, cloud: Cloud::Azure, tags, source: source.clone() })
}

impl Export for AzureResources {
    fn formats(&self) -> &'static [Format] {
        &FORMATS
    }

    fn expected(&self) -> &'static str {
        "Azure `az resource list` (an array of resources with /subscriptions/... IDs) or `az graph query` ({\"data\": ...})"
    }

    fn array(&self) -> &'static str {
        "Azure resource list"
    }

    fn id_field(&self) -> &'static str {
        "/subscriptions/ id"
    }

    fn envelopes(&self) -> &'static [Envelope] {
        &ENVELOPES
    }

    fn tokens(&self) -> &'static [Token] {
        &TOKENS
    }

    fn keys(&self) -> &'static [&'static str] {
        &["id", "tags"]
    }

    fn object(&self, r: &Fields, source: &Arc<str>) -> Result<Option<InventoryObject>, serde_json::Error> {
        let (id, tags) = (r.text("id")?, r.tags("tags")?);
        Ok(object(id, tags, source))
    }

    /// A row of a Resource Graph table: its `id` and `tags` columns (tags of another shape read
    /// as none).
    fn table_row(
        &self,
        columns: &[String],
        mut row: Vec<serde_json::Value>,
        source: &Arc<str>,
    ) -> Option<InventoryObject> {
        let mut column =
            |name: &str| columns.iter().position(|c| c == name).and_then(|i| row.get_mut(i)).map(std::mem::take);
        let id = match column("id") {
            Some(serde_json::Value::String(s)) => Some(s),
            _ => None,
        };
        let tags = column("tags").map(|v| super::tags::crossplane_tags(v).unwrap_or_default()).unwrap_or_default();
        object(id, tags, source)
    }
}
