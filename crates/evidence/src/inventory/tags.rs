//! Tags and labels as every export spells them — AWS `[{"Key","Value"}]` (either key order),
//! GCP and Azure `{"key": "value"}`, `null` — reduced while streaming to the crossplane ones, so
//! that a record's other tags are skipped, not stored.

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use upjet_core::inventory::CrossplaneTags;

/// Deserializes any tag shape into [`CrossplaneTags`].
pub(super) fn crossplane_tags<'de, D: Deserializer<'de>>(d: D) -> Result<CrossplaneTags, D::Error> {
    d.deserialize_any(TagsVisitor)
}

/// A string, or nothing for any other JSON value (a number or object where a tag value or an ID
/// was expected reads as absent rather than failing the whole file).
pub(super) fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    })
}

use serde::Deserialize;

struct TagsVisitor;

/// One AWS tag, `Key` and `Value` in either order (older recordings put `Value` first).
#[derive(Deserialize)]
struct KeyValue {
    #[serde(rename = "Key", alias = "key", default, deserialize_with = "lenient_string")]
    key: Option<String>,
    #[serde(rename = "Value", alias = "value", default, deserialize_with = "lenient_string")]
    value: Option<String>,
}

impl<'de> Visitor<'de> for TagsVisitor {
    type Value = CrossplaneTags;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("tags: a map or a list of {Key, Value}")
    }
    fn visit_unit<E>(self) -> Result<CrossplaneTags, E> {
        Ok(CrossplaneTags::default())
    }
    fn visit_none<E>(self) -> Result<CrossplaneTags, E> {
        Ok(CrossplaneTags::default())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CrossplaneTags, A::Error> {
        let mut tags = CrossplaneTags::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if CrossplaneTags::is_crossplane_key(&key) {
                let value: serde_json::Value = map.next_value()?;
                if let Some(v) = value.as_str() {
                    tags.set(&key, v);
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(tags)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CrossplaneTags, A::Error> {
        let mut tags = CrossplaneTags::default();
        while let Some(kv) = seq.next_element::<KeyValue>()? {
            if let (Some(k), Some(v)) = (kv.key, kv.value) {
                tags.set(&k, &v);
            }
        }
        Ok(tags)
    }
}
