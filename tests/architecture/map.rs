//! What ARCHITECTURE.md and docs/development.md promise a newcomer, checked: the map is one page
//! that names only paths that exist, and the extension points docs/development.md counts stay
//! one file and one registry line each.

use super::{production_code, root};
use std::fs;

/// The map is read in one sitting: at most 15 KB, no table cell longer than a short paragraph,
/// its invariants marked as such, and every path it names present in the tree.
#[test]
fn the_map_is_one_page_and_names_only_paths_that_exist() {
    let map = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    assert!(map.len() <= 15 * 1024, "ARCHITECTURE.md is {} bytes; the map stays under 15 KB", map.len());
    let long_cells: Vec<&str> =
        map.lines().filter(|l| l.starts_with('|')).flat_map(|l| l.split('|')).filter(|c| c.len() > 400).collect();
    assert!(long_cells.is_empty(), "table cells over 400 characters: {long_cells:?}");
    assert!(map.matches("Architecture invariant:").count() >= 8, "the invariants are marked `Architecture invariant:`");
    let missing: Vec<&str> = named_paths(&map).filter(|p| !root().join(p.trim_end_matches('/')).exists()).collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
}

/// The workspace paths a text names in backticks (`crates/…`, `src/…`, `tests/…`, …).
fn named_paths(text: &str) -> impl Iterator<Item = &str> {
    const TOP: &[&str] = &["crates/", "src/", "tests/", "benches/", "docs/", "scripts/", "deploy/", "examples/"];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| TOP.iter().any(|t| s.starts_with(t)))
        .filter(|s| !s.contains([' ', '<', '*', '{']))
}

/// A registry's member: the type a file defines behind an extension trait, and the one file
/// besides its own allowed to name it (the registry that lists it), relative to `crates/evidence/src/`.
const REGISTRIES: &[(&str, &str, &str)] = &[
    ("inventory export", "impl Export for ", "inventory/mod.rs"),
    ("cloud audit dialect", "impl Dialect for ", "cloud_audit/mod.rs"),
];

/// docs/development.md says an inventory export and a cloud's audit dialect are one file plus
/// their registry line: no other production file may name one (a reader that matched on a
/// cloud's type would make adding the next one touch it too).
#[test]
fn an_export_or_a_dialect_is_named_only_by_its_file_and_its_registry() {
    // Comments and string literals are left out: a help text may name a cloud's product.
    let code = production_code("crates/evidence");
    let mut wrong = Vec::new();
    let mut members = 0;
    for (what, marker, registry) in REGISTRIES {
        for (file, text) in &code {
            for name in text.match_indices(marker).map(|(i, _)| leading_word(&text[i + marker.len()..])) {
                members += 1;
                let others = code
                    .iter()
                    .filter(|(rel, other)| rel != file && rel != registry && names(other, name))
                    .map(|(rel, _)| rel.clone());
                wrong.extend(others.map(|rel| format!("{what} {name} ({file}) is named in {rel}")));
            }
        }
    }
    assert!(members >= 6, "found {members} registry members; the markers no longer match the code");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn leading_word(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

fn names(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = text[i + name.len()..].chars().next().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        before && after
    })
}
