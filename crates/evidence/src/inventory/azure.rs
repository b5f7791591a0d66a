//! Azure `az resource list` (and `az group list`): an array of resources with `id`
//! (`/subscriptions/...`) and `tags`; and `az graph query`: `{"data": [...rows]}` or, with
//! `--output json` of older CLIs, `{"data": {"columns": [...], "rows": [[...]]}}`. Rows carry
//! `id` and `tags` only when the query projects them.

use super::record::Record;
use std::sync::Arc;
use upjet_core::inventory::{Cloud, InventoryObject};

/// One resource as an object, when its `id` is a resource ID.
pub(super) fn object(r: &mut Record, source: &Arc<str>) -> Option<InventoryObject> {
    if !r.id.as_deref().is_some_and(|id| id.trim_start().starts_with("/subscriptions/")) {
        return None;
    }
    let id = r.id.take()?.trim().to_string();
    Some(InventoryObject { id, cloud: Cloud::Azure, tags: std::mem::take(&mut r.tags), source: source.clone() })
}
