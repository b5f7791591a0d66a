//! The first bytes of a file made comparable: inflated when gzip, the first JSON document's
//! fields as paths (read by serde as far as the bytes go, so a document cut off by the prefix
//! still shows its leading fields), top-level YAML keys, and the complete text lines.

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::io::Read;

/// How many bytes of a gzip file's content are inflated: enough for the first records of any
/// export, and for the first entries of an archive.
const INFLATED_BYTES: u64 = 64 * 1024;
/// How deep into the first document fields are recorded (`events[].message` is depth 3).
const MAX_DEPTH: u8 = 4;
/// How much of a string value is kept: the head of an embedded event is enough.
const MAX_STRING: usize = 512;
/// How many complete text lines are kept for line formats.
const MAX_LINES: usize = 50;

/// What the first bytes of a file show, for [`Format`](super::Format) tests.
pub struct Head {
    /// The bytes, inflated when the file is gzip (without a UTF-8 byte order mark): what a
    /// format whose fields are not JSON or YAML (an archive) is told by.
    pub bytes: Vec<u8>,
    /// The first JSON document (or the YAML top-level keys), when the bytes start with one.
    doc: Option<Doc>,
}

/// The fields of the first document, as `a.b`, `a[].b` paths (`[]` is the first element of an
/// array); a top-level array is described by its first element.
#[derive(Debug, Default)]
struct Doc {
    /// The document is an array (its first element's fields are recorded, under `[]`).
    array: bool,
    /// Each field met, with its string value when it was a string read in full or in part.
    fields: Vec<(String, Option<String>)>,
}

impl Head {
    /// Reads what `prefix` (a file's first bytes) shows.
    pub fn of(prefix: &[u8]) -> Head {
        let mut bytes = Vec::new();
        if crate::input::is_gzip(prefix) {
            // A prefix ends mid-stream: what inflated before the cut is kept, the error is not.
            if let Ok(input) = crate::input::open(prefix) {
                let _ = input.take(INFLATED_BYTES).read_to_end(&mut bytes);
            }
        } else {
            bytes.extend_from_slice(prefix);
        }
        if bytes.starts_with(b"\xef\xbb\xbf") {
            bytes.drain(..3);
        }
        let doc = json_doc(&bytes).or_else(|| yaml_doc(&bytes));
        Head { bytes, doc }
    }

    /// Whether the first document is a JSON array.
    pub fn is_array(&self) -> bool {
        self.doc.as_ref().is_some_and(|d| d.array)
    }

    /// Whether the first document is a JSON object or YAML mapping.
    pub fn is_object(&self) -> bool {
        self.doc.as_ref().is_some_and(|d| !d.array)
    }

    /// The keys of the first document when it is an object, in order (a key holding a dot or a
    /// bracket left out): what an object too long to read whole was, for the error that names it.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        let object = self.doc.as_ref().filter(|d| !d.array);
        let top = |p: &str| !p.contains(['.', '[']);
        // A key is recorded when it is read (no value yet), and again with a string value.
        object.into_iter().flat_map(|d| &d.fields).filter(move |(p, v)| v.is_none() && top(p)).map(|(p, _)| p.as_str())
    }

    /// Whether the first document has the field at `path` (`a.b`, `a[].b`), counted from its
    /// first element when it is an array.
    pub fn has(&self, path: &str) -> bool {
        self.values(path).next().is_some()
    }

    /// The string at `path`, as far as it was read.
    pub fn str(&self, path: &str) -> Option<&str> {
        self.values(path).flatten().next()
    }

    fn values<'a>(&'a self, path: &str) -> impl Iterator<Item = Option<&'a str>> {
        let doc = self.doc.as_ref();
        let full = match doc {
            Some(d) if d.array => format!("[].{path}"),
            _ => path.to_string(),
        };
        doc.into_iter().flat_map(|d| &d.fields).filter(move |(p, _)| *p == full).map(|(_, v)| v.as_deref())
    }

    /// The complete lines among the first bytes (the last, cut-off one left out unless the file
    /// ended there), blank ones skipped.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> {
        let complete = match self.bytes.iter().rposition(|&b| b == b'\n') {
            Some(end) => &self.bytes[..end],
            None => &self.bytes[..],
        };
        complete.split(|&b| b == b'\n').filter(|l| !l.trim_ascii().is_empty()).take(MAX_LINES)
    }

    /// The fields of the JSON that follows a leading token on the first line (`TIMESTAMP {…}`).
    pub(crate) fn after_first_token(&self) -> Option<Head> {
        let line = self.lines().next()?;
        let start = line.iter().position(|&b| b == b'{')?;
        let token = &line[..start];
        if token.is_empty() || token.iter().filter(|b| b.is_ascii_whitespace()).count() > 1 {
            return None;
        }
        Some(Head { bytes: line[start..].to_vec(), doc: Some(json_doc(&line[start..])?) })
    }
}

/// The first JSON document's fields, when the bytes start with `{` or `[`.
fn json_doc(bytes: &[u8]) -> Option<Doc> {
    let first = *bytes.trim_ascii_start().first()?;
    if first != b'{' && first != b'[' {
        return None;
    }
    let mut doc = Doc { array: first == b'[', fields: Vec::new() };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // The prefix usually ends inside the document: the error only says where reading stopped.
    let _ = Walk { fields: &mut doc.fields, path: String::new(), depth: 0 }.deserialize(&mut de);
    (!doc.fields.is_empty()).then_some(doc)
}

/// Top-level `key: value` lines of a YAML document (`apiVersion: v1`, `kind: List`, `items:`).
fn yaml_doc(bytes: &[u8]) -> Option<Doc> {
    let text = std::str::from_utf8(bytes).ok().or_else(|| {
        let valid = std::str::from_utf8(bytes).err()?.valid_up_to();
        std::str::from_utf8(&bytes[..valid]).ok()
    })?;
    let mut fields = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#') && *l != "---") {
        if line.starts_with([' ', '-', '\t']) {
            continue;
        }
        let (key, value) = line.split_once(':')?;
        let simple = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
        if !simple || !(value.is_empty() || value.starts_with(' ')) {
            return None;
        }
        let value = value.trim().trim_matches(['"', '\'']);
        fields.push((key.to_string(), (!value.is_empty()).then(|| value.to_string())));
    }
    (!fields.is_empty()).then_some(Doc { array: false, fields })
}

/// Records the fields of a JSON value under `path` as serde reads them.
struct Walk<'r> {
    fields: &'r mut Vec<(String, Option<String>)>,
    path: String,
    depth: u8,
}

impl Walk<'_> {
    fn child(&mut self, path: String) -> Walk<'_> {
        Walk { fields: &mut *self.fields, path, depth: self.depth + 1 }
    }

    fn string<E>(self, v: &str) -> Result<(), E> {
        let mut end = v.len().min(MAX_STRING);
        while !v.is_char_boundary(end) {
            end -= 1;
        }
        self.fields.push((self.path, Some(v[..end].to_string())));
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.string(v)
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.path.is_empty() { key } else { format!("{}.{key}", self.path) };
            // The field is known as soon as its key is read, even if the prefix ends in its value.
            self.fields.push((path.clone(), None));
            if self.depth < MAX_DEPTH {
                map.next_value_seed(self.child(path))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let first = format!("{}[]", self.path);
        if self.depth < MAX_DEPTH {
            seq.next_element_seed(self.child(first))?;
        }
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }
}
