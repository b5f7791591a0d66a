//! GCP `gcloud asset search-all-resources --format=json`: an array of assets whose `name` is the
//! full resource name (`//dns.googleapis.com/projects/P/managedZones/Z/...`) and whose labels
//! are in `labels`. `gcloud asset list --content-type=resource` arrays are read too (labels in
//! `resource.data.labels`). gcloud pages to the end by itself and prints no token.

use super::export::Export;
use super::record::Fields;
use super::tags::crossplane_tags;
use crate::format::{Format, Reader};
use serde::Deserialize;
use std::sync::Arc;
use upjet_core::inventory::{Cloud, CrossplaneTags, InventoryObject};

/// Cloud Asset Inventory's searches and lists, as gcloud prints them.
pub(super) struct CloudAsset;

/// The sniffer's entry: an array of assets.
static FORMATS: [Format; 1] = [Format {
    what: "a GCP asset export (gcloud asset search-all-resources)",
    readers: &[Reader::Inventory],
    unread: "",
    test: |h| {
        h.is_array()
            && (h.str("name").is_some_and(|n| n.starts_with("//"))
                || h.str("assetType").is_some_and(|t| t.contains(".googleapis.com/")))
    },
}];

/// `resource` of a `gcloud asset list` asset.
#[derive(Debug, Default, Deserialize)]
struct AssetResource {
    #[serde(default)]
    data: Option<AssetData>,
}

/// `resource.data`: only its labels.
#[derive(Debug, Default, Deserialize)]
struct AssetData {
    #[serde(default, deserialize_with = "crossplane_tags")]
    labels: CrossplaneTags,
}

impl Export for CloudAsset {
    fn formats(&self) -> &'static [Format] {
        &FORMATS
    }

    fn expected(&self) -> &'static str {
        "GCP `gcloud asset search-all-resources --format=json` (an array of assets named //SERVICE/...)"
    }

    fn array(&self) -> &'static str {
        "GCP Cloud Asset"
    }

    fn id_field(&self) -> &'static str {
        "//SERVICE/ name"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["name", "labels", "resource"]
    }

    /// One asset, when its name is a full resource name: its labels, else its resource's.
    fn object(&self, r: &Fields, source: &Arc<str>) -> Result<Option<InventoryObject>, serde_json::Error> {
        let (name, mut tags) = (r.text("name")?, r.tags("labels")?);
        let resource = r.get::<Option<AssetResource>>("resource")?.flatten();
        let Some(name) = name.filter(|n| n.starts_with("//")) else { return Ok(None) };
        if !tags.names_an_mr()
            && let Some(data) = resource.and_then(|res| res.data)
        {
            tags = data.labels;
        }
        Ok(Some(InventoryObject { id: name.trim().to_string(), cloud: Cloud::Gcp, tags, source: source.clone() }))
    }
}
