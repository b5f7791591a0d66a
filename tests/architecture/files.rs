//! Import circles between files: the file each path a file names leads to, re-exports followed,
//! and the groups of files that reach each other.

use super::{code_only, leading_ident, matching_brace, rust_files, split_top_level, without_test_modules};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A file's module path: `domain/adopt/steps.rs` → `[domain, adopt, steps]`, `x/mod.rs` → `[x]`,
/// `lib.rs` and `main.rs` → `[]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// Every path named after `prefix::` at the start of `s`, braces expanded:
/// `a::{b::C, d}` → `[[a, b, C], [a, d]]`.
fn paths_at(s: &str, prefix: Vec<String>) -> Vec<Vec<String>> {
    let mut path = prefix;
    let mut rest = s.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let end = matching_brace(group);
            return split_top_level(&group[..end]).into_iter().flat_map(|item| paths_at(item, path.clone())).collect();
        }
        let Some(ident) = leading_ident(rest) else { return vec![path] };
        path.push(ident.clone());
        rest = &rest[ident.len()..];
        match rest.strip_prefix("::") {
            Some(more) => rest = more.trim_start(),
            None => return vec![path],
        }
    }
}

/// The module paths a file names through `crate::`, `super::` and `self::`, made absolute.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let code = without_test_modules(&code_only(text));
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let boundary = code[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '$'));
        if boundary {
            out.extend(paths_at(&code[i + "crate::".len()..], Vec::new()));
        }
    }
    for (i, _) in code.match_indices("super::") {
        // `super::super::x` is taken once, from its first `super`.
        if code[..i].ends_with("super::") || code[..i].chars().next_back().is_some_and(|c| c.is_alphanumeric()) {
            continue;
        }
        let mut base = module.to_vec();
        let mut rest = &code[i..];
        while let Some(more) = rest.strip_prefix("super::") {
            base.pop();
            rest = more;
        }
        out.extend(paths_at(rest, base));
    }
    for (i, _) in code.match_indices("self::") {
        if code[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
            out.extend(paths_at(&code[i + "self::".len()..], module.to_vec()));
        }
    }
    out
}

/// Each `.rs` file under `root` (its path relative to `root`, `/`-separated) and its text.
fn sources(root: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(root).expect("under root").to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(f).expect("readable source"))
        })
        .collect()
}

/// File → files it imports, for every `.rs` file under `root`.
pub fn file_graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    graph_of(&sources(root))
}

/// File → files it imports, over `(path, text)` pairs. A path a file names leads to the file its
/// longest prefix is and, when that file re-exports the next name (`pub use`), on to the file the
/// re-export names, however many re-exports deep: `use super::rules::same_id` depends on the file
/// that defines `same_id`, not only on `rules/mod.rs`. A module root (`mod.rs`, `lib.rs`)
/// declaring and re-exporting its own children is no import of theirs.
pub fn graph_of(sources: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let has_lib = sources.iter().any(|(rel, _)| rel == "lib.rs");
    let modules: BTreeMap<Vec<String>, String> = sources
        .iter()
        .filter(|(rel, _)| !rel.ends_with("main.rs") || !has_lib)
        .map(|(rel, _)| (module_path(Path::new(rel)), rel.clone()))
        .collect();
    let reexported: Reexports = sources
        .iter()
        .flat_map(|(rel, text)| {
            let module = module_path(Path::new(rel));
            reexports(text, &module).into_iter().map(move |(name, path)| ((module.clone(), name), path))
        })
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, text) in sources {
        let module = module_path(Path::new(from));
        let is_root = from.ends_with("mod.rs") || from.ends_with("lib.rs") || from.ends_with("main.rs");
        let edges = graph.entry(from.clone()).or_default();
        for path in named_paths(text, &module) {
            for target in files_named(&path, &modules, &reexported) {
                let descendant = is_root && modules.iter().any(|(m, f)| f == target && m.starts_with(&module));
                if target != from && !descendant {
                    edges.insert(target.clone());
                }
            }
        }
    }
    graph
}

/// (module, name it re-exports) → the absolute path the name stands for.
type Reexports = BTreeMap<(Vec<String>, String), Vec<String>>;

/// The files `path` leads to: the file its longest prefix is, then, while the name after that
/// prefix is one the prefix's module re-exports, the file the re-export's path leads to.
fn files_named<'m>(
    path: &[String],
    modules: &'m BTreeMap<Vec<String>, String>,
    reexported: &Reexports,
) -> Vec<&'m String> {
    let mut out = Vec::new();
    let mut path = path.to_vec();
    // A re-export of a re-export…; no chain in the tree is this deep, and a cycle of
    // re-exports (which rustc refuses anyway) cannot loop.
    for _ in 0..16 {
        let Some(n) = (0..=path.len()).rev().find(|n| modules.contains_key(&path[..*n])) else { break };
        out.push(&modules[&path[..n]]);
        let Some(next) = path.get(n).and_then(|name| reexported.get(&(path[..n].to_vec(), name.clone()))) else {
            break;
        };
        path = next.iter().chain(&path[n + 1..]).cloned().collect();
    }
    out
}

/// The names a file re-exports (`pub use`, `pub(crate) use`, …), each with the absolute path it
/// stands for: in `domain/rules/mod.rs`, `pub use mr_evidence::{same_id, Facts as F};` gives
/// `same_id → domain::rules::mr_evidence::same_id` and `F → domain::rules::mr_evidence::Facts`.
/// A path that starts with none of `crate`, `super` and `self` starts in the file's own module,
/// as `use` reads it since the 2018 edition (an external crate's path then leads to no file).
/// Globs (`pub use x::*`) are not followed.
fn reexports(text: &str, module: &[String]) -> Vec<(String, Vec<String>)> {
    let code = without_test_modules(&code_only(text));
    let mut out = Vec::new();
    for (i, _) in code.match_indices("use ") {
        let at_word = code[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if !at_word || !is_pub(&code[..i]) {
            continue;
        }
        let rest = &code[i + "use ".len()..];
        let tree = rest[..rest.find(';').unwrap_or(rest.len())].trim_start();
        let (base, tree) = if let Some(t) = tree.strip_prefix("crate::") {
            (Vec::new(), t)
        } else if tree.starts_with("super::") {
            let (mut base, mut t) = (module.to_vec(), tree);
            while let Some(more) = t.strip_prefix("super::") {
                base.pop();
                t = more.trim_start();
            }
            (base, t)
        } else if tree.starts_with("::") {
            continue;
        } else {
            (module.to_vec(), tree.strip_prefix("self::").unwrap_or(tree))
        };
        out.extend(use_leaves(tree, base));
    }
    out
}

/// Whether the code before a `use` ends with a visibility: `pub`, `pub(crate)`, `pub(super)`,
/// `pub(in path)`.
fn is_pub(before: &str) -> bool {
    let before = before.trim_end();
    let before = match before.strip_suffix(')') {
        Some(b) => b.rfind('(').map_or(b, |open| b[..open].trim_end()),
        None => before,
    };
    before.strip_suffix("pub").is_some_and(|b| b.chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_')))
}

/// Every name a use tree brings in, with its path, braces expanded and `as` renames read:
/// `a::{b::C as D, self}` after `prefix` → `[(D, prefix::a::b::C), (a, prefix::a)]`.
fn use_leaves(s: &str, prefix: Vec<String>) -> Vec<(String, Vec<String>)> {
    let mut path = prefix;
    let mut rest = s.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let end = matching_brace(group);
            return split_top_level(&group[..end])
                .into_iter()
                .flat_map(|item| use_leaves(item, path.clone()))
                .collect();
        }
        let ident: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if ident.is_empty() {
            return Vec::new();
        }
        rest = rest[ident.len()..].trim_start();
        if ident != "self" {
            path.push(ident);
        }
        if let Some(more) = rest.strip_prefix("::") {
            rest = more.trim_start();
            continue;
        }
        let alias = rest.strip_prefix("as").map(|a| a.trim_start()).and_then(leading_ident);
        return match alias.or_else(|| path.last().cloned()) {
            Some(name) => vec![(name, path)],
            None => Vec::new(),
        };
    }
}

/// The files reachable from `start`.
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![start.to_string()];
    while let Some(next) = todo.pop() {
        for to in graph.get(&next).into_iter().flatten() {
            if seen.insert(to.clone()) {
                todo.push(to.clone());
            }
        }
    }
    seen
}

/// Every import circle between files: the groups of files that each reach all the others.
pub fn file_circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|f| (f, reachable(graph, f))).collect();
    let mut circles: Vec<BTreeSet<String>> = Vec::new();
    for (file, from_here) in &reach {
        if !from_here.contains(*file) || circles.iter().any(|c| c.contains(*file)) {
            continue;
        }
        circles.push(from_here.iter().filter(|other| reach[other].contains(*file)).cloned().collect());
    }
    circles
}

#[test]
fn the_file_graph_reads_relative_paths_and_ignores_tests() {
    let module: Vec<String> = ["domain", "adopt", "steps"].map(String::from).to_vec();
    let text = "use super::{verdict::final_policies, MARKER};\nuse crate::domain::{gotime::GoTime, rules};\n\
                fn f() { super::super::placeholder::x(); }\n#[cfg(test)]\nmod tests {\n use super::super::machine::M;\n}\n";
    let got: Vec<String> = named_paths(text, &module).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        got,
        [
            "domain::gotime::GoTime",
            "domain::rules",
            "domain::adopt::verdict::final_policies",
            "domain::adopt::MARKER",
            "domain::placeholder::x"
        ]
    );
}

#[test]
fn the_file_graph_follows_reexports() {
    let tree = [
        ("lib.rs", "pub mod domain;\npub use domain::rules::same_id as same;\n"),
        ("domain/mod.rs", "pub mod changelog;\npub mod rules;\n"),
        ("domain/changelog.rs", "use super::rules::same_id;\npub struct MrChangeLog;\n"),
        (
            "domain/rules/mod.rs",
            "mod facts;\nmod mr_evidence;\npub(crate) use mr_evidence::{\n    MrEvidence, same_id,\n};\n",
        ),
        ("domain/rules/mr_evidence.rs", "use crate::domain::changelog::MrChangeLog;\npub fn same_id() {}\n"),
        ("domain/rules/facts.rs", "use crate::same;\n"),
    ]
    .map(|(rel, text)| (rel.to_string(), text.to_string()));
    let graph = graph_of(&tree);
    let edges = |file: &str| graph[file].iter().map(String::as_str).collect::<Vec<_>>();
    assert_eq!(edges("domain/changelog.rs"), ["domain/rules/mod.rs", "domain/rules/mr_evidence.rs"]);
    assert_eq!(edges("domain/rules/facts.rs"), ["domain/rules/mod.rs", "domain/rules/mr_evidence.rs", "lib.rs"]);
    assert!(edges("domain/rules/mod.rs").is_empty(), "a module root re-exporting its children imports none of them");
    let circles = file_circles(&graph);
    let names: Vec<Vec<&str>> = circles.iter().map(|c| c.iter().map(String::as_str).collect()).collect();
    assert_eq!(names, [["domain/changelog.rs", "domain/rules/mr_evidence.rs"]]);
    let plain = ["crate::a::B", "x::{y, z}"];
    assert!(plain.iter().all(|p| reexports(&format!("use {p};"), &[]).is_empty()), "a private use re-exports nothing");
}
