//! One lock object: a name, the resourceVersion it was read at, and its entries.

use super::key::{KeyError, LockKey};
use serde_json::Value;
use std::collections::BTreeMap;

/// How many bytes of entries one shard takes: under the 256 KiB that `kubectl apply` (client
/// side) copies the whole object into as an annotation, and far under the 1 MiB object limit.
pub const BUDGET: usize = 200 * 1024;

/// The prefix of every shard's name; the suffix is its index, zero-padded.
pub(crate) const NAME_PREFIX: &str = "kubectl-upjet-lock-";

/// One shard.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shard {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.resourceVersion` as read; `None` for a shard not yet created.
    pub resource_version: Option<String>,
    /// Encoded key to ID.
    pub entries: BTreeMap<String, String>,
}

/// Why an object is not a readable shard.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// No `metadata.name`.
    #[error("a lock object without metadata.name")]
    NoName,
    /// `spec.entries` is not a map of strings.
    #[error("lock object {0}: spec.entries is not a map of strings")]
    Entries(String),
}

/// The name of the shard at `index`.
pub fn name(index: usize) -> String {
    format!("{NAME_PREFIX}{index:04}")
}

/// The index a shard's name carries, if it is one of ours.
pub fn index(name: &str) -> Option<usize> {
    name.strip_prefix(NAME_PREFIX)?.parse().ok()
}

/// The bytes one entry takes in the stored JSON: `"key":"id",`, escapes included.
pub(crate) fn entry_bytes(key: &str, id: &str) -> usize {
    json_len(key) + json_len(id) + 2
}

fn json_len(s: &str) -> usize {
    2 + s
        .chars()
        .map(|c| match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            c if (c as u32) < 0x20 => 6,
            c => c.len_utf8(),
        })
        .sum::<usize>()
}

impl Shard {
    /// An empty shard not yet created.
    pub fn new(name: String) -> Shard {
        Shard { name, resource_version: None, entries: BTreeMap::new() }
    }

    /// A shard read from the API server (or a file). An object with no `spec` or no entries is
    /// an empty shard: a hand-edited lock goes on working.
    pub fn from_object(obj: &Value) -> Result<Shard, ShardError> {
        let name = obj["metadata"]["name"].as_str().ok_or(ShardError::NoName)?.to_string();
        let resource_version = obj["metadata"]["resourceVersion"].as_str().map(str::to_string);
        let entries = match &obj["spec"]["entries"] {
            Value::Null => BTreeMap::new(),
            Value::Object(map) => map
                .iter()
                .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                .collect::<Option<_>>()
                .ok_or_else(|| ShardError::Entries(name.clone()))?,
            _ => return Err(ShardError::Entries(name)),
        };
        Ok(Shard { name, resource_version, entries })
    }

    /// The bytes its entries take.
    pub fn bytes(&self) -> usize {
        self.entries.iter().map(|(k, v)| entry_bytes(k, v)).sum()
    }

    /// Its entries decoded; a key that does not decode is returned as its error, not dropped.
    pub fn decoded(&self) -> impl Iterator<Item = (Result<LockKey, KeyError>, &str)> {
        self.entries.iter().map(|(k, v)| (LockKey::decode(k), v.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entry_bytes_are_the_stored_json() {
        for (k, v) in [("g/K//a", "vpc-1"), ("g/K/n/a%22", "say \"hi\"\n\u{1}é")] {
            let one = serde_json::to_string(&json!({k: v})).unwrap();
            // `{"k":"v"}` is the entry without its comma, plus the braces.
            assert_eq!(entry_bytes(k, v), one.len() - 2 + 1, "{one}");
        }
        assert_eq!((name(7), index(&name(7))), ("kubectl-upjet-lock-0007".to_string(), Some(7)));
        assert_eq!(index("someone-elses"), None);
    }

    #[test]
    fn reads_what_the_api_server_returns_and_survives_hand_edits() {
        let obj = json!({"metadata": {"name": "kubectl-upjet-lock-0000", "resourceVersion": "42"},
            "spec": {"entries": {"g/K//a": "id-a", "bad%": "id-b"}}});
        let s = Shard::from_object(&obj).unwrap();
        assert_eq!(s.resource_version.as_deref(), Some("42"));
        let decoded: Vec<_> = s.decoded().collect();
        assert!(decoded[0].0.is_err() && decoded[1].0.is_ok(), "{decoded:?}");
        assert!(Shard::from_object(&json!({"metadata": {"name": "x"}})).unwrap().entries.is_empty());
        assert!(Shard::from_object(&json!({"metadata": {"name": "x"}, "spec": {"entries": {"k": 1}}})).is_err());
        assert_eq!(Shard::from_object(&json!({})), Err(ShardError::NoName));
    }
}
