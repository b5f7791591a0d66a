//! GCP `gcloud asset search-all-resources --format=json`: an array of assets whose `name` is the
//! full resource name (`//dns.googleapis.com/projects/P/managedZones/Z/...`) and whose labels
//! are in `labels`. `gcloud asset list --content-type=resource` arrays are read too (labels in
//! `resource.data.labels`).

use super::record::Record;
use std::sync::Arc;
use upjet_core::inventory::{Cloud, InventoryObject};

/// One asset as an object, when its name is a full resource name.
pub(super) fn object(r: &mut Record, source: &Arc<str>) -> Option<InventoryObject> {
    if !r.name.as_deref().is_some_and(|n| n.starts_with("//")) {
        return None;
    }
    let id = r.name.take()?.trim().to_string();
    let mut tags = std::mem::take(&mut r.labels);
    if !tags.names_an_mr()
        && let Some(data) = r.resource.as_mut().and_then(|res| res.data.as_mut())
    {
        tags = std::mem::take(&mut data.labels);
    }
    Some(InventoryObject { id, cloud: Cloud::Gcp, tags, source: source.clone() })
}
