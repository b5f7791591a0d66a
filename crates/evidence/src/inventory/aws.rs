//! AWS `aws resourcegroupstaggingapi get-resources` output: `{"ResourceTagMappingList": [...],
//! "PaginationToken": "..."}` per page (the CLI prints one document per page when paging by hand,
//! so files may hold several back to back), or the bare list (`| jq .ResourceTagMappingList`).

use super::envelope::{Envelope, Token};
use super::export::Export;
use super::record::Fields;
use crate::format::{Format, Reader};
use std::sync::Arc;
use upjet_core::inventory::{Cloud, InventoryObject};

/// The Resource Groups Tagging API's `get-resources`, as the AWS CLI prints it.
pub(super) struct GetResources;

/// The sniffer's entry: a page, or the bare list of mappings.
static FORMATS: [Format; 1] = [Format {
    what: "an AWS tagging export (resourcegroupstaggingapi get-resources)",
    readers: &[Reader::Inventory],
    unread: "",
    test: |h| (h.is_object() && h.has("ResourceTagMappingList")) || (h.is_array() && h.has("ResourceARN")),
}];

static ENVELOPES: [Envelope; 1] = [Envelope { key: "ResourceTagMappingList", name: "AWS get-resources", table: None }];

/// The AWS CLI prints `NextToken` when `--max-items` cut its output (awscli's
/// `PageIterator.build_full_result`), and `PaginationToken` (the API's own) when paging by hand.
static TOKENS: [Token; 2] = [
    Token {
        key: "NextToken",
        hint: "the AWS CLI stopped at --max-items; export again without it, or with --starting-token until no NextToken is printed",
    },
    Token {
        key: "PaginationToken",
        hint: "more pages remain; run get-resources again with --pagination-token until it is empty and give every page",
    },
];

impl Export for GetResources {
    fn formats(&self) -> &'static [Format] {
        &FORMATS
    }

    fn expected(&self) -> &'static str {
        "AWS `aws resourcegroupstaggingapi get-resources` JSON ({\"ResourceTagMappingList\": [...]} pages, or that list alone)"
    }

    fn array(&self) -> &'static str {
        "AWS get-resources (list only)"
    }

    fn id_field(&self) -> &'static str {
        "ResourceARN"
    }

    fn envelopes(&self) -> &'static [Envelope] {
        &ENVELOPES
    }

    fn tokens(&self) -> &'static [Token] {
        &TOKENS
    }

    fn keys(&self) -> &'static [&'static str] {
        &["ResourceARN", "Tags"]
    }

    /// One mapping: the ARN (trimmed: the AWS CLI documentation's example has a leading space)
    /// and its `Tags`.
    fn object(&self, r: &Fields, source: &Arc<str>) -> Result<Option<InventoryObject>, serde_json::Error> {
        let (arn, tags) = (r.text("ResourceARN")?, r.tags("Tags")?);
        let id = arn.as_deref().map(str::trim).filter(|id| !id.is_empty());
        Ok(id.map(|id| InventoryObject { id: id.to_string(), cloud: Cloud::Aws, tags, source: source.clone() }))
    }
}
