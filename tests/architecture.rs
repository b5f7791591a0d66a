//! The architecture of ARCHITECTURE.md, checked: which top-level module may import which, no
//! import cycles, where the environment and the clock may be read, and the size limits.
//!
//! The checks read `src/` as text (`use crate::…` paths and `crate::…` expressions), the way a
//! reviewer would, so they need no extra tooling: `cargo test --test architecture`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What each top-level module may import from the crate (besides itself). Anything not listed
/// is forbidden; `commands` is the wiring and may import every layer.
const ALLOWED: &[(&str, &[&str])] = &[
    ("domain", &[]),
    ("evidence", &["domain"]),
    ("cluster", &["domain", "error"]),
    ("output", &["domain", "evidence", "error"]),
    ("local", &["domain", "output", "error"]),
    ("cli", &["domain"]),
    ("settings", &["cli", "cluster", "domain"]),
    ("error", &[]),
    ("commands", &["cli", "settings", "cluster", "domain", "evidence", "output", "local", "error"]),
];

/// The longest function (from its `fn` line to its closing brace) and file `src/` may hold.
const MAX_FN_LINES: usize = 80;
const MAX_FILE_LINES: usize = 600;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/domain/rules/x.rs` → `domain`; `src/settings.rs` → `settings`; `main.rs`/`lib.rs` → None.
fn top_module(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(src()).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy().into_owned();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "main" && name != "lib").then_some(name)
}

/// Code without comments and string literals, so a path in a doc comment or a message is not an
/// import.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        let mut in_str = false;
        let mut escaped = false;
        for c in line.chars() {
            match (in_str, c) {
                (true, '\\') if !escaped => escaped = true,
                (true, '"') if !escaped => in_str = false,
                (true, _) => escaped = false,
                (false, '"') => in_str = true,
                (false, c) => out.push(c),
            }
        }
        out.push('\n');
    }
    out
}

/// The top-level modules a file names through `crate::` (including `use crate::{a, b::c}`).
fn imports_of(text: &str) -> BTreeSet<String> {
    let code = code_only(text);
    let mut found = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = matching_brace(group);
            for item in split_top_level(&group[..end]) {
                if let Some(name) = leading_ident(item.trim()) {
                    found.insert(name);
                }
            }
        } else if let Some(name) = leading_ident(rest) {
            found.insert(name);
        }
    }
    found
}

fn matching_brace(s: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

fn split_top_level(s: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0usize, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

fn leading_ident(s: &str) -> Option<String> {
    let ident: String = s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!ident.is_empty() && ident != "self").then_some(ident)
}

/// Module → modules it imports, over all of `src/`.
fn import_graph() -> BTreeMap<String, BTreeMap<String, Vec<PathBuf>>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut graph: BTreeMap<String, BTreeMap<String, Vec<PathBuf>>> = BTreeMap::new();
    for file in files {
        let Some(from) = top_module(&file) else { continue };
        let text = std::fs::read_to_string(&file).expect("readable source");
        let entry = graph.entry(from.clone()).or_default();
        for to in imports_of(&text).into_iter().filter(|to| *to != from) {
            entry.entry(to).or_default().push(file.clone());
        }
    }
    graph
}

#[test]
fn every_top_level_module_imports_only_what_architecture_md_allows() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut wrong = Vec::new();
    for (from, tos) in import_graph() {
        let Some(ok) = allowed.get(from.as_str()) else {
            wrong.push(format!("{from}: a new top-level module; add it to ARCHITECTURE.md and ALLOWED"));
            continue;
        };
        for (to, files) in tos {
            if !ok.contains(&to.as_str()) {
                wrong.push(format!("{from} imports {to} in {}", files[0].display()));
            }
        }
    }
    assert!(wrong.is_empty(), "imports the architecture forbids:\n{}", wrong.join("\n"));
}

#[test]
fn top_level_modules_have_no_import_cycle() {
    let graph = import_graph();
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeMap<String, Vec<PathBuf>>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            return Some(path[i..].iter().cloned().chain([node.to_string()]).collect());
        }
        if !done.insert(node.to_string()) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(|m| m.keys()) {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, &graph, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", cycle.join(" → "));
        }
    }
}

/// Lines of code that read the process environment, the wall clock or the terminal. Only the
/// settings layer (and `main.rs`, which hands them over) may: everything else is given values.
const AMBIENT: &[&str] = &[
    "env::var",
    "env::vars",
    "env::var_os",
    "is_terminal()",
    "GoTime::now",
    "Utc::now",
    "SystemTime::now",
    "Local::now",
];

#[test]
fn only_the_settings_layer_reads_the_environment_the_clock_and_the_terminal() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src()).expect("under src").to_string_lossy().replace('\\', "/");
        if rel == "main.rs" || rel.starts_with("settings") {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(&file).expect("readable"));
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            if AMBIENT.iter().any(|a| line.contains(a)) {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "ambient reads outside src/settings:\n{}", wrong.join("\n"));
}

#[test]
fn the_core_does_not_know_clap() {
    let mut files = Vec::new();
    rust_files(&src().join("domain"), &mut files);
    rust_files(&src().join("evidence"), &mut files);
    rust_files(&src().join("cluster"), &mut files);
    let users: Vec<String> = files
        .iter()
        .filter(|f| code_only(&std::fs::read_to_string(f).expect("readable")).contains("clap::"))
        .map(|f| f.display().to_string())
        .collect();
    assert!(users.is_empty(), "clap types below the command line: {users:?}");
}

/// Line count of each `fn` in `text`, from its `fn` line to its closing brace.
fn function_lengths(text: &str) -> Vec<(usize, String, usize)> {
    let code = code_only(text);
    let code = strip_char_literals(&code);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let mut depth = 0i64;
        let mut opened = false;
        for (end, l) in lines.iter().enumerate().skip(start) {
            for c in l.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth <= 0 {
                out.push((start + 1, name.clone(), end - start + 1));
                break;
            }
            if !opened && l.trim_end().ends_with(';') {
                break;
            }
        }
    }
    out
}

fn strip_char_literals(code: &str) -> String {
    code.replace("'{'", "' '").replace("'}'", "' '").replace("'\\{'", "' '")
}

fn fn_name(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "fn")?;
    let before_ok = words[..i]
        .iter()
        .all(|w| w.starts_with("pub") || matches!(*w, "async" | "const" | "unsafe" | "extern" | "\"C\""));
    let name: String = words.get(i + 1)?.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (before_ok && !name.is_empty()).then_some(name)
}

#[test]
fn functions_and_files_stay_small() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut wrong = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let is_test_file = file.file_name().is_some_and(|n| n == "tests.rs");
        if !is_test_file && text.lines().count() > MAX_FILE_LINES {
            wrong.push(format!("{}: {} lines (max {MAX_FILE_LINES})", file.display(), text.lines().count()));
        }
        for (line, name, len) in function_lengths(&text) {
            if len > MAX_FN_LINES {
                wrong.push(format!("{}:{line}: fn {name} is {len} lines (max {MAX_FN_LINES})", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "too large:\n{}", wrong.join("\n"));
}

#[test]
fn the_checker_reads_imports_and_lengths_correctly() {
    let text = "use crate::{cli::Cli, cluster::{a, b}, self};\nfn f() {\n let s = \"crate::output\";\n // crate::evidence\n crate::domain::x();\n}\n";
    let got: Vec<String> = imports_of(text).into_iter().collect();
    assert_eq!(got, ["cli", "cluster", "domain"]);
    assert_eq!(function_lengths(text), vec![(2, "f".to_string(), 5)]);
    assert_eq!(function_lengths("pub async fn g(x: u8) -> u8 {\n    let c = '{';\n    x\n}\n")[0].2, 4);
}
