//! An inventory file's records, decoded one at a time into what any format needs (IDs and
//! crossplane tags), and the shape that tells the formats apart: an AWS page envelope, a Resource
//! Graph envelope, a bare array, or something else — from what the splitter said when the
//! document ended ([`ended`]), or, for a document that is one value of its own (an object that
//! wraps no records' array, a string), from the document read whole ([`Doc`]).

use super::tags::{crossplane_tags, lenient_string};
use json_split::Member;
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use upjet_core::inventory::CrossplaneTags;

/// The fields of any format's record; everything else is skipped while parsing.
#[derive(Debug, Default, Deserialize)]
pub(super) struct Record {
    /// AWS `ResourceARN`.
    #[serde(rename = "ResourceARN", default, deserialize_with = "lenient_string")]
    pub arn: Option<String>,
    /// AWS `Tags`.
    #[serde(rename = "Tags", default, deserialize_with = "crossplane_tags")]
    pub aws_tags: CrossplaneTags,
    /// GCP full resource name (also Azure's short name).
    #[serde(default, deserialize_with = "lenient_string")]
    pub name: Option<String>,
    /// GCP labels.
    #[serde(default, deserialize_with = "crossplane_tags")]
    pub labels: CrossplaneTags,
    /// GCP `gcloud asset list` resource body.
    #[serde(default)]
    pub resource: Option<AssetResource>,
    /// Azure resource ID.
    #[serde(default, deserialize_with = "lenient_string")]
    pub id: Option<String>,
    /// Azure tags.
    #[serde(default, deserialize_with = "crossplane_tags")]
    pub tags: CrossplaneTags,
}

/// `resource` of a `gcloud asset list` asset.
#[derive(Debug, Default, Deserialize)]
pub(super) struct AssetResource {
    #[serde(default)]
    pub data: Option<AssetData>,
}

/// `resource.data`: only its labels.
#[derive(Debug, Default, Deserialize)]
pub(super) struct AssetData {
    #[serde(default, deserialize_with = "crossplane_tags")]
    pub labels: CrossplaneTags,
}

/// What the top level of a document looked like.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// A JSON array of records.
    Array,
    /// `{"ResourceTagMappingList": [...]}`.
    AwsPage,
    /// `{"data": ...}` of `az graph query`.
    Graph,
    /// An object of another kind; its first keys, to name in the error.
    Other(Vec<String>),
    /// A scalar.
    Scalar,
}

/// The AWS page envelope's list key.
const AWS_LIST_KEY: &str = "ResourceTagMappingList";
/// The Resource Graph envelope's key.
const GRAPH_DATA_KEY: &str = "data";

/// The keys that carry a paging token, and whose export they belong to: the AWS CLI prints
/// `NextToken` when `--max-items` cut its output and `PaginationToken` (the API's own) when
/// paging by hand; `az graph query` prints `skip_token` (`$skipToken`/`skipToken` in the REST
/// answer and older CLIs) when more rows remain. gcloud and `az resource list` page to the end
/// by themselves and print no token.
const TOKEN_KEYS: &[&str] = &["NextToken", "PaginationToken", "skip_token", "$skipToken", "skipToken"];

/// Keys of a wrapping object whose array holds the records, streamed one by one: an AWS page's
/// list, a Resource Graph answer's rows (its older table form, `data` as an object, is read
/// whole, as a [`Doc`]).
pub(super) const WRAPPER_KEYS: &[&[u8]] = &[AWS_LIST_KEY.as_bytes(), GRAPH_DATA_KEY.as_bytes()];

/// Keys a wrapping object is listened for: the wrapper keys (the one that held the records names
/// the page's format), then [`TOKEN_KEYS`].
pub(super) const LISTEN: &[&[u8]] = &[
    AWS_LIST_KEY.as_bytes(),
    GRAPH_DATA_KEY.as_bytes(),
    TOKEN_KEYS[0].as_bytes(),
    TOKEN_KEYS[1].as_bytes(),
    TOKEN_KEYS[2].as_bytes(),
    TOKEN_KEYS[3].as_bytes(),
    TOKEN_KEYS[4].as_bytes(),
];
const _: () = assert!(LISTEN.len() == WRAPPER_KEYS.len() + TOKEN_KEYS.len());

/// What an array or a wrapping object that ended said: its shape, from the key that held its
/// records (none: an array), and its paging token when one is not empty.
pub(super) fn ended(said: &[Member]) -> (Shape, Option<&'static str>) {
    let shape = match said.iter().find(|m| m.key < WRAPPER_KEYS.len()).map(|m| m.key) {
        Some(0) => Shape::AwsPage,
        Some(_) => Shape::Graph,
        None => Shape::Array,
    };
    let tokens = said.iter().filter(|m| !m.value.trim_ascii().is_empty());
    let token = tokens.filter_map(|m| TOKEN_KEYS.get(m.key.checked_sub(WRAPPER_KEYS.len())?)).next().copied();
    (shape, token)
}

/// Most keys the error about an object of another kind names.
const NAMED_KEYS: usize = 5;

/// The keys an error names of an object too long to read whole, from those its first bytes show
/// (`keys`, in order): paging tokens left out, as when it is read whole.
pub(super) fn named_keys<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<String> {
    keys.filter(|k| !TOKEN_KEYS.contains(k)).take(NAMED_KEYS).map(str::to_string).collect()
}

/// One document: its shape and records.
pub(super) struct Doc {
    pub shape: Shape,
    pub records: Vec<Record>,
    /// A paging token the document ends with (its key), when it is not empty: more pages exist.
    pub token: Option<&'static str>,
}

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Doc, D::Error> {
        d.deserialize_any(DocVisitor)
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = Doc;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an inventory export (a JSON array or object)")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Doc, A::Error> {
        let mut records = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
        while let Some(r) = seq.next_element::<Record>()? {
            records.push(r);
        }
        Ok(Doc { shape: Shape::Array, records, token: None })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc, A::Error> {
        let (mut shape, mut records, mut keys, mut token) = (None, Vec::new(), Vec::new(), None);
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                AWS_LIST_KEY => {
                    records = map.next_value::<Option<Vec<Record>>>()?.unwrap_or_default();
                    shape = Some(Shape::AwsPage);
                }
                GRAPH_DATA_KEY => {
                    records = map.next_value::<GraphData>()?.0;
                    shape = Some(Shape::Graph);
                }
                k if TOKEN_KEYS.contains(&k) => {
                    let key = TOKEN_KEYS.iter().copied().find(|t| *t == k);
                    let value: Option<String> = map.next_value::<serde_json::Value>()?.as_str().map(str::to_owned);
                    token = key.filter(|_| value.is_some_and(|v| !v.trim().is_empty()));
                }
                other => {
                    if keys.len() < NAMED_KEYS {
                        keys.push(other.to_string());
                    }
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Doc { shape: shape.unwrap_or(Shape::Other(keys)), records, token })
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Doc, E> {
        Ok(Doc { shape: Shape::Scalar, records: Vec::new(), token: None })
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Doc, E> {
        self.visit_bool(false)
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Doc, E> {
        self.visit_bool(false)
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Doc, E> {
        self.visit_bool(false)
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Doc, E> {
        self.visit_bool(false)
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Doc, E> {
        self.visit_bool(false)
    }
}

/// `data` of a Resource Graph answer: rows as objects, or a table of columns and rows.
struct GraphData(Vec<Record>);

impl<'de> Deserialize<'de> for GraphData {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GraphData, D::Error> {
        d.deserialize_any(GraphVisitor)
    }
}

struct GraphVisitor;

#[derive(Deserialize)]
struct Column {
    #[serde(default)]
    name: String,
}

impl<'de> Visitor<'de> for GraphVisitor {
    type Value = GraphData;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("Resource Graph data: an array of rows, or {columns, rows}")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<GraphData, A::Error> {
        DocVisitor.visit_seq(seq).map(|d| GraphData(d.records))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<GraphData, A::Error> {
        let (mut columns, mut rows) = (Vec::new(), Vec::new());
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "columns" => columns = map.next_value::<Vec<Column>>()?.into_iter().map(|c| c.name).collect(),
                "rows" => rows = map.next_value::<Vec<Vec<serde_json::Value>>>()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(GraphData(table_records(&columns, rows)))
    }
    fn visit_unit<E>(self) -> Result<GraphData, E> {
        Ok(GraphData(Vec::new()))
    }
}

/// A Resource Graph table (`columns` + `rows`) as records: the `id` and `tags` columns.
fn table_records(columns: &[String], rows: Vec<Vec<serde_json::Value>>) -> Vec<Record> {
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
