//! An inventory file's records as the exports read them ([`Fields`]: the keys some export reads,
//! the rest skipped), and the shape that tells documents apart: a wrapping object of one of the
//! exports ([`Envelope`]), a bare array, or something else — from what the splitter said when the
//! document ended ([`ended`]), or, for a document that is one value of its own (an object that
//! wraps no records' array, a string), from the document read whole ([`Doc`]). Every key here
//! comes from the exports ([`keys`]); none is named.

use super::EXPORTS;
use json_split::Member;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::sync::OnceLock;
use upjet_core::inventory::CrossplaneTags;

/// The keys the exports declare, gathered once in the order of [`EXPORTS`].
pub(super) struct Keys {
    /// Every envelope's key: the splitter's wrapper keys.
    pub wrappers: Vec<&'static [u8]>,
    /// Each wrapper key's export (its index in [`EXPORTS`]) and envelope.
    pub envelopes: Vec<(usize, &'static Envelope)>,
    /// Every paging token, each key once.
    pub tokens: Vec<&'static Token>,
    /// What the splitter listens for in a wrapping object: the wrapper keys (the one that held
    /// the records names the page's format), then the tokens.
    pub listen: Vec<&'static [u8]>,
    /// Every top-level key of a record some export reads, each once.
    pub record: Vec<&'static str>,
}

/// The exports' keys ([`Keys`]).
pub(super) fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let envelopes: Vec<(usize, &'static Envelope)> =
            EXPORTS.iter().enumerate().flat_map(|(i, e)| e.envelopes().iter().map(move |env| (i, env))).collect();
        let mut tokens: Vec<&'static Token> = Vec::new();
        for t in EXPORTS.iter().flat_map(|e| e.tokens()) {
            if !tokens.iter().any(|known| known.key == t.key) {
                tokens.push(t);
            }
        }
        let mut record: Vec<&'static str> = Vec::new();
        for k in EXPORTS.iter().flat_map(|e| e.keys()) {
            if !record.contains(k) {
                record.push(k);
            }
        }
        let wrappers: Vec<&'static [u8]> = envelopes.iter().map(|(_, e)| e.key.as_bytes()).collect();
        let listen = wrappers.iter().copied().chain(tokens.iter().map(|t| t.key.as_bytes())).collect();
        Keys { wrappers, envelopes, tokens, listen, record }
    })
}

/// A key of a wrapping object whose array holds one export's records (an AWS page's
/// `ResourceTagMappingList`), streamed one by one.
pub(crate) struct Envelope {
    /// The key.
    pub key: &'static str,
    /// What a document wrapped so is called in the file's note (`AWS get-resources`).
    pub name: &'static str,
    /// When the key may hold a table instead of an array (`{"columns": [...], "rows": [[...]]}`,
    /// read whole, each row through `Export::table_row`): what the value is called in the error
    /// about one that is neither.
    pub table: Option<&'static str>,
}

/// A key of a wrapping object whose non-empty string says the export was cut short. A key several
/// exports declare (the AWS CLI's `NextToken`) means one thing: the first one's hint is given.
pub(crate) struct Token {
    /// The key (`NextToken`).
    pub key: &'static str,
    /// What it means and what to do, for the warning that names it.
    pub hint: &'static str,
}

/// One record's fields that some export reads (`Export::keys`),
/// each as its JSON text, borrowed from the record; every other field is skipped unread, so a
/// record costs no more than its IDs and tags however much else it holds.
#[derive(Debug, Default)]
pub(crate) struct Fields<'a> {
    found: Vec<(&'static str, &'a RawValue)>,
    /// The bytes the record was read from: where a field's error is told from.
    within: &'a [u8],
}

impl<'a> Fields<'a> {
    /// The record in `bytes`.
    pub(super) fn of(bytes: &'a [u8]) -> Result<Fields<'a>, serde_json::Error> {
        let fields: Fields = serde_json::from_slice(bytes)?;
        Ok(Fields { within: bytes, ..fields })
    }

    /// A field as `T`; `None` when the record lacks it.
    pub(crate) fn get<T: Deserialize<'a>>(&self, key: &str) -> Result<Option<T>, serde_json::Error> {
        self.with(key, |de| T::deserialize(de))
    }

    /// A field that should be a string: any other JSON value reads as absent.
    pub(crate) fn text(&self, key: &str) -> Result<Option<String>, serde_json::Error> {
        Ok(self.with(key, |de| super::tags::lenient_string(de))?.flatten())
    }

    /// A field of tags or labels, as every export spells them, reduced to the crossplane ones.
    pub(crate) fn tags(&self, key: &str) -> Result<CrossplaneTags, serde_json::Error> {
        Ok(self.with(key, |de| super::tags::crossplane_tags(de))?.unwrap_or_default())
    }

    fn with<T>(
        &self,
        key: &str,
        read: impl FnOnce(&mut serde_json::Deserializer<serde_json::de::StrRead<'a>>) -> Result<T, serde_json::Error>,
    ) -> Result<Option<T>, serde_json::Error> {
        let Some((_, raw)) = self.found.iter().find(|(k, _)| *k == key) else { return Ok(None) };
        let mut de = serde_json::Deserializer::from_str(raw.get());
        read(&mut de).and_then(|v| de.end().map(|()| v)).map(Some).map_err(|e| self.placed(raw, e))
    }

    /// `e`, an error about the field `raw`, placed where `raw` stands in the record (serde
    /// counts from the field's first byte): the line and column a reader of the record finds it at.
    fn placed(&self, raw: &RawValue, e: serde_json::Error) -> serde_json::Error {
        let offset = (raw.get().as_ptr() as usize).wrapping_sub(self.within.as_ptr() as usize);
        if e.line() == 0 || offset > self.within.len() {
            return e;
        }
        let before = &self.within[..offset];
        let line = 1 + memchr::memchr_iter(b'\n', before).count();
        let column = offset - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let (l, c) = match e.line() {
            1 => (line, column + e.column()),
            n => (line + n - 1, e.column()),
        };
        let text = e.to_string();
        let what = text.strip_suffix(&format!(" at line {} column {}", e.line(), e.column())).unwrap_or(&text);
        de::Error::custom(format!("{what} at line {l} column {c}"))
    }
}

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fields<'de>, D::Error> {
        d.deserialize_map(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields<'de>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an inventory record (a JSON object)")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de>, A::Error> {
        let declared = &keys().record;
        let mut found: Vec<(&'static str, &'de RawValue)> = Vec::new();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match declared.iter().find(|k| **k == key) {
                Some(k) if found.iter().any(|(f, _)| f == k) => return Err(de::Error::duplicate_field(k)),
                Some(k) => found.push((k, map.next_value()?)),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Fields { found, within: &[] })
    }
}

/// What the top level of a document looked like.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// A JSON array of records.
    Array,
    /// A wrapping object of one export: the index of its key in [`Keys::envelopes`].
    Envelope(usize),
    /// An object of another kind; its first keys, to name in the error.
    Other(Vec<String>),
    /// A scalar.
    Scalar,
}

/// What an array or a wrapping object that ended said: its shape, from the key that held its
/// records (none: an array), and its paging token when one is not empty.
pub(super) fn ended(said: &[Member]) -> (Shape, Option<&'static str>) {
    let k = keys();
    let shape = said.iter().find(|m| m.key < k.wrappers.len()).map_or(Shape::Array, |m| Shape::Envelope(m.key));
    let tokens = said.iter().filter(|m| !m.value.trim_ascii().is_empty());
    let token = tokens.filter_map(|m| k.tokens.get(m.key.checked_sub(k.wrappers.len())?)).next().map(|t| t.key);
    (shape, token)
}

/// Whether `key` is a paging token's.
fn is_token(key: &str) -> bool {
    keys().tokens.iter().any(|t| t.key == key)
}

/// Most keys the error about an object of another kind names.
const NAMED_KEYS: usize = 5;

/// The keys an error names of an object too long to read whole, from those its first bytes show
/// (`keys`, in order): paging tokens left out, as when it is read whole.
pub(super) fn named_keys<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<String> {
    keys.filter(|k| !is_token(k)).take(NAMED_KEYS).map(str::to_string).collect()
}

/// The records of a document read whole.
pub(super) enum Page<'a> {
    /// Records, as an array holds them.
    Records(Vec<Fields<'a>>),
    /// A table under an envelope that may hold one ([`Envelope::table`]): the envelope's export
    /// (its index in [`EXPORTS`]), which reads the rows, its columns' names and its rows.
    Table { export: usize, columns: Vec<String>, rows: Vec<Vec<serde_json::Value>> },
}

/// One document read whole: its shape and records.
pub(super) struct Doc<'a> {
    pub shape: Shape,
    pub page: Page<'a>,
    /// A paging token the document ends with (its key), when it is not empty: more pages exist.
    pub token: Option<&'static str>,
}

impl<'a> Doc<'a> {
    /// The document in `bytes`.
    pub(super) fn of(bytes: &'a [u8]) -> Result<Doc<'a>, serde_json::Error> {
        let mut doc: Doc = serde_json::from_slice(bytes)?;
        if let Page::Records(records) = &mut doc.page {
            records.iter_mut().for_each(|r| r.within = bytes);
        }
        Ok(doc)
    }

    fn of_shape(shape: Shape) -> Doc<'a> {
        Doc { shape, page: Page::Records(Vec::new()), token: None }
    }
}

impl<'de> Deserialize<'de> for Doc<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Doc<'de>, D::Error> {
        d.deserialize_any(DocVisitor)
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = Doc<'de>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an inventory export (a JSON array or object)")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Doc<'de>, A::Error> {
        Ok(Doc { page: Page::Records(records(seq)?), ..Doc::of_shape(Shape::Array) })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc<'de>, A::Error> {
        let (mut shape, mut page, mut keys_seen, mut token) = (None, Page::Records(Vec::new()), Vec::new(), None);
        let k = keys();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if let Some(i) = k.envelopes.iter().position(|(_, e)| e.key == key) {
                page = match k.envelopes[i] {
                    (export, Envelope { table: Some(what), .. }) => map.next_value_seed(TableSeed { export, what })?,
                    _ => Page::Records(map.next_value::<Option<Vec<Fields>>>()?.unwrap_or_default()),
                };
                shape = Some(Shape::Envelope(i));
            } else if let Some(t) = k.tokens.iter().find(|t| t.key == key) {
                let value: Option<String> = map.next_value::<serde_json::Value>()?.as_str().map(str::to_owned);
                token = value.is_some_and(|v| !v.trim().is_empty()).then_some(t.key);
            } else {
                if keys_seen.len() < NAMED_KEYS {
                    keys_seen.push(key.into_owned());
                }
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Doc { shape: shape.unwrap_or(Shape::Other(keys_seen)), page, token })
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Doc<'de>, E> {
        Ok(Doc::of_shape(Shape::Scalar))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Doc<'de>, E> {
        self.visit_bool(false)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Doc<'de>, E> {
        self.visit_bool(false)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Doc<'de>, E> {
        self.visit_bool(false)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Doc<'de>, E> {
        self.visit_bool(false)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Doc<'de>, E> {
        self.visit_bool(false)
    }
}

/// The records of an array.
fn records<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<Fields<'de>>, A::Error> {
    let mut records = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
    while let Some(r) = seq.next_element::<Fields>()? {
        records.push(r);
    }
    Ok(records)
}

/// What the key of an envelope that may hold a table holds in a document read whole: records,
/// none (`null`), or a table of columns and rows, which its `export` reads; `what` it is called,
/// for the error about anything else.
struct TableSeed {
    export: usize,
    what: &'static str,
}

impl<'de> DeserializeSeed<'de> for TableSeed {
    type Value = Page<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Page<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

#[derive(Deserialize)]
struct Column {
    #[serde(default)]
    name: String,
}

impl<'de> Visitor<'de> for TableSeed {
    type Value = Page<'de>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}: an array of rows, or {{columns, rows}}", self.what)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Page<'de>, A::Error> {
        records(seq).map(Page::Records)
    }
    fn visit_unit<E>(self) -> Result<Page<'de>, E> {
        Ok(Page::Records(Vec::new()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Page<'de>, A::Error> {
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
        Ok(Page::Table { export: self.export, columns, rows })
    }
}
