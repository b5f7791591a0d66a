//! Azure `az resource list` (and `az group list`): an array of resources with `id`
//! (`/subscriptions/...`) and `tags`; and `az graph query`: `{"data": [...rows]}` or, with
//! `--output json` of older CLIs, `{"data": {"columns": [...], "rows": [[...]]}}`. Rows carry
//! `id` and `tags` only when the query projects them.

use super::record::Record;
use crate::domain::inventory::{Cloud, InventoryObject};
use std::sync::Arc;

/// The Resource Graph envelope's key.
pub(super) const DATA_KEY: &str = "data";

/// One resource as an object, when its `id` is a resource ID.
pub(super) fn object(r: &mut Record, source: &Arc<str>) -> Option<InventoryObject> {
    if !r.id.as_deref().is_some_and(|id| id.trim_start().starts_with("/subscriptions/")) {
        return None;
    }
    let id = r.id.take()?.trim().to_string();
    Some(InventoryObject { id, cloud: Cloud::Azure, tags: std::mem::take(&mut r.tags), source: source.clone() })
}

/// A Resource Graph table (`columns` + `rows`) as records: the `id` and `tags` columns.
pub(super) fn table_records(columns: &[String], rows: Vec<Vec<serde_json::Value>>) -> Vec<Record> {
    let at = |name: &str| columns.iter().position(|c| c == name);
    let (id, tags) = (at("id"), at("tags"));
    rows.into_iter()
        .map(|mut row| {
            let mut r = Record::default();
            if let Some(serde_json::Value::String(s)) = id.and_then(|i| row.get_mut(i)).map(std::mem::take) {
                r.id = Some(s);
            }
            if let Some(v) = tags.and_then(|i| row.get_mut(i)).map(std::mem::take) {
                r.tags = super::tags::crossplane_tags(v).unwrap_or_default();
            }
            r
        })
        .collect()
}
