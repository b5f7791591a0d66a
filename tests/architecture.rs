//! The architecture of ARCHITECTURE.md, checked where the compiler cannot: Cargo holds each
//! crate to the layers below it, and this test holds the manifests to that order, the pure core
//! to its dependencies, the binary's own modules (cli, settings, commands) to their arrows, each
//! crate to no circle between its folders or files, the environment, the clock and the terminal
//! to `settings.rs`, file writes to `upjet-local`, and every file and function to its size.
//!
//! The checks read the sources as text (`use crate::…` paths and `crate::…` expressions), the
//! way a reviewer would, so they need no extra tooling: `cargo test --test architecture`. A name
//! reached through a re-export (`pub use`) counts as an import of the file that defines it
//! (`files.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "architecture/files.rs"]
mod files;
#[path = "architecture/map.rs"]
mod map;

/// The workspace's crates from the bottom up: its folder, and the crates of the workspace it may
/// depend on (a `[dependencies]` entry; tests may use more). `kubectl-upjet` is the binary.
const LAYERS: &[(&str, &str, &[&str])] = &[
    ("json-split", "crates/json-split", &[]),
    ("upjet-core", "crates/core", &[]),
    ("upjet-evidence", "crates/evidence", &["upjet-core", "json-split"]),
    ("upjet-output", "crates/output", &["upjet-core", "upjet-evidence"]),
    ("upjet-local", "crates/local", &["upjet-core", "upjet-output"]),
    ("upjet-cluster", "crates/cluster", &["upjet-core", "upjet-local", "json-split"]),
    (
        "kubectl-upjet",
        ".",
        &["upjet-core", "json-split", "upjet-evidence", "upjet-output", "upjet-local", "upjet-cluster"],
    ),
    ("testapi", "crates/testapi", &[]),
];

/// What the pure core may depend on: serialisation and text, nothing that reaches a file, a
/// network, a clock or a runtime.
const CORE_DEPENDENCIES: &[&str] =
    &["percent-encoding", "serde", "serde-saphyr", "serde_json", "sha2", "shlex", "thiserror"];

/// What each module of the binary's crate may import from the crate (besides itself); `commands`
/// is the wiring and may import the other two.
const BINARY_ARROWS: &[(&str, &[&str])] = &[("cli", &[]), ("settings", &["cli"]), ("commands", &["cli", "settings"])];

/// The longest function (from its `fn` line to its closing brace) and file a crate may hold.
const MAX_FN_LINES: usize = 80;
const MAX_FILE_LINES: usize = 600;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `src/` folder of a crate's folder.
fn src_of(dir: &str) -> PathBuf {
    root().join(dir).join("src")
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

/// `crates/core/src/rules/x.rs` → `rules`; `src/settings.rs` → `settings`; a crate root → None.
fn top_module(src: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy().into_owned();
    let name = first.trim_end_matches(".rs").to_string();
    (name != "main" && name != "lib").then_some(name)
}

/// A file of tests alone (`tests.rs`, `*_tests.rs`) or of what tests share (`testing.rs`, a
/// `fixtures.rs`, compiled only for tests and the `testing` feature): what tests import is no
/// dependency of the code.
fn is_test_code(src: &Path, file: &Path) -> bool {
    let stem = file.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    stem == "tests"
        || stem.ends_with("_tests")
        || stem == "fixtures"
        || top_module(src, file).as_deref() == Some("testing")
}

/// The names of the `[dependencies]` of a manifest (not dev- or build-dependencies).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let mut in_section = false;
    let mut names = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line == "[dependencies]";
            continue;
        }
        if in_section && let Some((name, _)) = line.split_once('=') {
            names.insert(name.trim().trim_end_matches(".workspace").to_string());
        }
    }
    names
}

#[test]
fn every_crate_depends_only_on_the_layers_below_it() {
    let ours: BTreeSet<&str> = LAYERS.iter().map(|(name, _, _)| *name).collect();
    let mut wrong = Vec::new();
    for (name, dir, below) in LAYERS {
        let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).expect("manifest");
        for dep in dependencies(&manifest) {
            if ours.contains(dep.as_str()) && !below.contains(&dep.as_str()) {
                wrong.push(format!("{name} depends on {dep}"));
            }
            if dep.starts_with("clap") && *name != "kubectl-upjet" {
                wrong.push(format!("{name} depends on {dep}: flags are the binary's"));
            }
            if *name == "upjet-core" && !CORE_DEPENDENCIES.contains(&dep.as_str()) {
                wrong.push(format!("the pure core depends on {dep}"));
            }
        }
    }
    let mut members: Vec<String> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .map(|e| format!("crates/{}", e.expect("entry").file_name().to_string_lossy()))
        .collect();
    members.retain(|m| !LAYERS.iter().any(|(_, dir, _)| dir == m));
    assert!(members.is_empty(), "crates without a layer (add them to LAYERS and ARCHITECTURE.md): {members:?}");
    assert!(wrong.is_empty(), "dependencies the layers forbid:\n{}", wrong.join("\n"));
}

#[test]
fn the_core_does_no_io() {
    const IO: &[&str] = &["std::fs", "std::net", "std::process", "std::env", "std::time::SystemTime", "std::io::stdin"];
    let mut wrong = Vec::new();
    for (rel, code) in production_code("crates/core") {
        for (n, line) in code.lines().enumerate() {
            if IO.iter().any(|io| line.contains(io)) {
                wrong.push(format!("crates/core/src/{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "I/O in the pure core:\n{}", wrong.join("\n"));
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

/// Where the `}` closing an already opened `{` is in `s` (its length when none does).
fn matching_brace(s: &str) -> usize {
    matching(s, '{', '}')
}

/// Where the `close` closing an already opened `open` is in `s` (its length when none does).
fn matching(s: &str, open: char, close: char) -> usize {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            if depth == 0 {
                return i;
            }
            depth -= 1;
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

/// Top-level module → top-level modules it imports, within one crate's `src/`: the modules a
/// file names through `crate::`, and those the files it imports lie in (a name another module
/// re-exports leads to the module defining it). A top-level module is a folder or a file beside
/// the crate root.
fn import_graph(src: &Path) -> BTreeMap<String, BTreeMap<String, Vec<PathBuf>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeMap<String, Vec<PathBuf>>> = BTreeMap::new();
    files.retain(|f| !is_test_code(src, f));
    for file in files {
        let Some(from) = top_module(src, &file) else { continue };
        let text = without_test_modules(&std::fs::read_to_string(&file).expect("readable source"));
        let entry = graph.entry(from.clone()).or_default();
        for to in imports_of(&text).into_iter().filter(|to| *to != from) {
            entry.entry(to).or_default().push(file.clone());
        }
    }
    for (from_file, to_files) in files::file_graph(src) {
        let from_path = src.join(&from_file);
        if is_test_code(src, &from_path) {
            continue;
        }
        let Some(from) = top_module(src, &from_path) else { continue };
        for to in to_files.iter().filter_map(|f| top_module(src, &src.join(f))).filter(|to| *to != from) {
            graph.entry(from.clone()).or_default().entry(to).or_default().push(from_path.clone());
        }
    }
    graph
}

#[test]
fn the_binarys_modules_import_only_what_architecture_md_allows() {
    let allowed: BTreeMap<&str, &[&str]> = BINARY_ARROWS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (from, tos) in import_graph(&src_of(".")) {
        let Some(ok) = allowed.get(from.as_str()) else {
            wrong.push(format!("{from}: a new module of the binary; add it to ARCHITECTURE.md and BINARY_ARROWS"));
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

/// The first circle of `graph`, as the nodes it runs through, if any.
fn first_cycle(graph: &BTreeMap<String, BTreeMap<String, Vec<PathBuf>>>) -> Option<Vec<String>> {
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
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_crate_has_a_circle_between_its_folders() {
    let circles: Vec<String> = LAYERS
        .iter()
        .filter_map(|(name, dir, _)| {
            first_cycle(&import_graph(&src_of(dir))).map(|c| format!("{name}: {}", c.join(" → ")))
        })
        .collect();
    assert!(circles.is_empty(), "import circles between the folders of a crate:\n{}", circles.join("\n"));
}

#[test]
fn no_crate_has_a_circle_between_its_files() {
    let circles: Vec<String> = LAYERS
        .iter()
        .flat_map(|(name, dir, _)| {
            files::file_circles(&files::file_graph(&src_of(dir)))
                .into_iter()
                .map(move |c| format!("{name}: {}", c.into_iter().collect::<Vec<_>>().join(" ↔ ")))
        })
        .collect();
    assert!(circles.is_empty(), "import circles between files:\n{}", circles.join("\n"));
}

/// Lines of code that read the process environment, the working folder, the wall clock or the
/// terminal. Only `settings.rs` may: everything else is given values (`main.rs` hands the command
/// line, not the environment, to the parser).
const AMBIENT: &[&str] = &[
    "env::var",
    "env::vars",
    "env::var_os",
    "env::current_dir",
    "from_env(",
    "is_terminal()",
    "GoTime::now",
    "Utc::now",
    "SystemTime::now",
    "Local::now",
];

/// The non-test code of every file of one crate's `src/`, by its path relative to it (files of
/// tests alone, `tests.rs` and `*_tests.rs`, left out).
fn production_code(dir: &str) -> Vec<(String, String)> {
    let src = src_of(dir);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let test_file =
        |f: &PathBuf| f.file_stem().is_some_and(|n| n == "tests" || n.to_string_lossy().ends_with("_tests"));
    files
        .into_iter()
        .filter(|f| !test_file(f))
        .map(|file| {
            let rel = file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
            let code = without_test_modules(&code_only(&std::fs::read_to_string(&file).expect("readable")));
            (rel, code)
        })
        .collect()
}

/// The non-test code of every crate of the application (the test API server aside), each file
/// named by its path from the repository root.
fn all_production_code() -> Vec<(String, String)> {
    LAYERS
        .iter()
        .filter(|(name, _, _)| *name != "testapi")
        .flat_map(|(_, dir, _)| {
            let prefix = if *dir == "." { "src/".to_string() } else { format!("{dir}/src/") };
            production_code(dir).into_iter().map(move |(rel, code)| (format!("{prefix}{rel}"), code))
        })
        .collect()
}

#[test]
fn only_the_settings_layer_reads_the_environment_the_clock_and_the_terminal() {
    let mut wrong = Vec::new();
    for (rel, code) in all_production_code() {
        if rel == "src/settings.rs" {
            continue;
        }
        for (n, line) in code.lines().enumerate() {
            if AMBIENT.iter().any(|a| line.contains(a)) {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "ambient reads outside src/settings.rs:\n{}", wrong.join("\n"));
}

/// clap attributes that fill a flag from an environment variable (`env = "X"`, or a bare `env`
/// that derives the variable's name), and the builder's `.env(…)`: the settings layer reads
/// variables, so a flag's variable is resolved there (`Environment::fill_flags`).
fn clap_env_uses(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attr in ["#[arg(", "#[clap(", "#[command("] {
        for (i, _) in code.match_indices(attr) {
            let body = &code[i + attr.len()..];
            let body = &body[..matching(body, '(', ')')];
            let items = split_top_level(body);
            if items.iter().map(|item| item.trim()).any(|item| item == "env" || item.starts_with("env =")) {
                found.push(format!("{attr}{body})]"));
            }
        }
    }
    if code.contains("clap") {
        found.extend(code.lines().filter(|l| l.contains(".env(")).map(|l| l.trim().to_string()));
    }
    found
}

#[test]
fn no_flag_reads_an_environment_variable_through_clap() {
    let wrong: Vec<String> = all_production_code()
        .into_iter()
        .flat_map(|(rel, code)| clap_env_uses(&code).into_iter().map(move |u| format!("{rel}: {u}")))
        .collect();
    assert!(wrong.is_empty(), "clap reads the environment (resolve it in settings.rs):\n{}", wrong.join("\n"));
}

/// Calls that create, replace, change or remove files and folders.
const FILE_WRITES: &[&str] = &[
    "fs::write",
    "fs::create_dir",
    "fs::rename",
    "fs::remove_file",
    "fs::remove_dir",
    "fs::copy",
    "fs::hard_link",
    "fs::set_permissions",
    "fs::symlink(",
    "OpenOptions",
    "File::create",
    "DirBuilder",
];

#[test]
fn only_local_writes_files() {
    let mut wrong = Vec::new();
    for (rel, code) in all_production_code() {
        if rel.starts_with("crates/local/") {
            continue;
        }
        for (n, line) in code.lines().enumerate() {
            if FILE_WRITES.iter().any(|w| line.contains(w)) {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "files written outside crates/local/ (upjet-local):\n{}", wrong.join("\n"));
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
    for (_, dir, _) in LAYERS {
        rust_files(&src_of(dir), &mut files);
    }
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
fn the_checker_finds_clap_environment_attributes() {
    let code = code_only(
        "#[arg(long, env = \"X\", help_heading = SCAN)]\n#[arg(long, env)]\n#[arg(long, value_name = \"ENV\")]\n\
         #[command(flatten)]\nclap::Arg::new(\"x\").env(\"X\")\n",
    );
    assert_eq!(clap_env_uses(&code).len(), 3, "{:?}", clap_env_uses(&code));
}

#[test]
fn the_checker_reads_imports_and_lengths_correctly() {
    let text = "use crate::{cli::Cli, cluster::{a, b}, self};\nfn f() {\n let s = \"crate::output\";\n // crate::evidence\n crate::domain::x();\n}\n";
    let got: Vec<String> = imports_of(text).into_iter().collect();
    assert_eq!(got, ["cli", "cluster", "domain"]);
    assert_eq!(function_lengths(text), vec![(2, "f".to_string(), 5)]);
    assert_eq!(function_lengths("pub async fn g(x: u8) -> u8 {\n    let c = '{';\n    x\n}\n")[0].2, 4);
}

/// Code without its inline `#[cfg(test)] mod … { … }` blocks: a test module's `super` is the
/// file itself, and what tests import is no dependency of the code.
fn without_test_modules(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        let is_inline_mod = item.strip_prefix("mod ").is_some_and(|m| {
            let name_end = m.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(m.len());
            m[name_end..].trim_start().starts_with('{')
        });
        if !is_inline_mod {
            rest = after;
            continue;
        }
        let open = item.find('{').expect("inline module body");
        let end = matching_brace(&item[open + 1..]);
        rest = item.get(open + 1 + end + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// Every command the tool prints that carries a value comes from `upjet_core::shell::ShellCommand`,
/// which quotes each argument for a POSIX shell: a string literal that writes `kubectl VERB …`
/// and then a value into it (`format!("kubectl upjet adopt {} --id {id}", …)`) lets whatever the
/// value holds — an MR's status, an export, a log line — run in the operator's shell. A
/// constant (`{PLURAL}`) carries no input and is allowed; a sentence that goes on after naming a
/// command (`kubectl upjet guard is not installed: {}`) is prose.
#[test]
fn every_printed_command_with_a_value_comes_from_the_shell_builder() {
    let command = regex::Regex::new(r#"kubectl [a-z][a-z-]*[^"`\n:;(]*?\{([A-Za-z0-9_]*)(?::[^}]*)?\}"#).unwrap();
    let mut files = Vec::new();
    for (_, dir, _) in LAYERS.iter().filter(|(name, _, _)| *name != "testapi") {
        rust_files(&src_of(dir), &mut files);
    }
    let mut wrong = Vec::new();
    for file in files.iter().filter(|f| !f.to_string_lossy().ends_with("tests.rs")) {
        let text = without_test_modules(&std::fs::read_to_string(file).expect("readable"));
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let line = line.replace("{{", "").replace("}}", "");
            for found in command.captures_iter(&line) {
                let name = &found[1];
                if name.is_empty() || name.chars().any(|c| c.is_ascii_lowercase()) {
                    wrong.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "commands built by format! (use upjet_core::shell::ShellCommand):\n{}", wrong.join("\n"));
}
