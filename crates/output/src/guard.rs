//! `kubectl upjet guard`'s output: every object of a `domain::guard::GuardSet` as one `v1 List`
//! for `kubectl apply -f -`, as `rbac` prints its roles. The objects are borrowed, not copied:
//! a lock of tens of thousands of IDs is written straight from its shards.

use serde::Serialize;
use std::io::{self, Write};
use upjet_core::guard::GuardSet;

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardFormat {
    /// YAML.
    Yaml,
    /// JSON.
    Json,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct List<'a> {
    api_version: &'static str,
    kind: &'static str,
    items: Vec<&'a serde_json::Value>,
}

/// Writes `set` as a `List`, its objects in the order to apply them.
pub fn write(out: &mut dyn Write, set: &GuardSet, format: GuardFormat) -> io::Result<()> {
    let list = List { api_version: "v1", kind: "List", items: set.objects() };
    match format {
        GuardFormat::Yaml => super::structured::write_yaml(out, &list),
        GuardFormat::Json => super::structured::write_json(out, &list),
    }
}
