//! AWS `aws resourcegroupstaggingapi get-resources` output: `{"ResourceTagMappingList": [...],
//! "PaginationToken": "..."}` per page (the CLI prints one document per page when paginating by
//! hand, so files may hold several back to back), or the bare list (`| jq .ResourceTagMappingList`).

use super::record::Record;
use std::sync::Arc;
use upjet_core::inventory::{Cloud, InventoryObject};

/// One mapping as an object: the ARN (trimmed: the AWS CLI documentation's example has a
/// leading space) and its `Tags`.
pub(super) fn object(r: &mut Record, source: &Arc<str>) -> Option<InventoryObject> {
    let arn = r.arn.take()?;
    let id = arn.trim();
    (!id.is_empty()).then(|| InventoryObject {
        id: id.to_string(),
        cloud: Cloud::Aws,
        tags: std::mem::take(&mut r.aws_tags),
        source: source.clone(),
    })
}
