//! The architecture of ARCHITECTURE.md, checked: which top-level module may import which, no
//! import cycles, where the environment and the clock may be read, and the size limits.
//!
//! The checks read `src/` as text (`use crate::…` paths and `crate::…` expressions), the way a
//! reviewer would, so they need no extra tooling: `cargo test --test architecture`. A name reached
//! through a re-export (`pub use`) counts as an import of the file that defines it (`files.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "architecture/files.rs"]
mod files;

/// What each top-level module may import from the crate (besides itself). Anything not listed
/// is forbidden; `commands` is the wiring and may import every layer.
const ALLOWED: &[(&str, &[&str])] = &[
    ("domain", &[]),
    ("evidence", &["domain", "json_split"]),
    ("cluster", &["domain", "error", "local", "json_split"]),
    ("output", &["domain", "evidence", "error"]),
    ("local", &["domain", "output", "error"]),
    ("cli", &["domain"]),
    ("settings", &["cli", "cluster", "domain"]),
    ("error", &[]),
    ("json_split", &[]),
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

/// Module → modules it imports, over all of `src/`: the modules a file names, and those the
/// files it imports lie in (a name another module re-exports leads to the module defining it).
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
    for (from_file, to_files) in files::file_graph(&src()) {
        let from_path = src().join(&from_file);
        let Some(from) = top_module(&from_path) else { continue };
        for to in to_files.iter().filter_map(|f| top_module(&src().join(f))).filter(|to| *to != from) {
            graph.entry(from.clone()).or_default().entry(to).or_default().push(from_path.clone());
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

/// The non-test code of every file under `src/`, by its path relative to `src/` (files of tests
/// alone, `tests.rs` and `*_tests.rs`, left out).
fn production_code() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let test_file =
        |f: &PathBuf| f.file_stem().is_some_and(|n| n == "tests" || n.to_string_lossy().ends_with("_tests"));
    files
        .into_iter()
        .filter(|f| !test_file(f))
        .map(|file| {
            let rel = file.strip_prefix(src()).expect("under src").to_string_lossy().replace('\\', "/");
            let code = without_test_modules(&code_only(&std::fs::read_to_string(&file).expect("readable")));
            (rel, code)
        })
        .collect()
}

#[test]
fn only_the_settings_layer_reads_the_environment_the_clock_and_the_terminal() {
    let mut wrong = Vec::new();
    for (rel, code) in production_code() {
        if rel == "settings.rs" {
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
    let wrong: Vec<String> = production_code()
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
    for (rel, code) in production_code() {
        if rel.starts_with("local/") {
            continue;
        }
        for (n, line) in code.lines().enumerate() {
            if FILE_WRITES.iter().any(|w| line.contains(w)) {
                wrong.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(wrong.is_empty(), "files written outside src/local/:\n{}", wrong.join("\n"));
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

/// Every command the tool prints that carries a value comes from `domain::shell::ShellCommand`,
/// which quotes each argument for a POSIX shell: a string literal that writes `kubectl VERB …`
/// and then a value into it (`format!("kubectl upjet adopt {} --id {id}", …)`) lets whatever the
/// value holds — an MR's status, an export, a log line — run in the operator's shell. A
/// constant (`{PLURAL}`) carries no input and is allowed; a sentence that goes on after naming a
/// command (`kubectl upjet guard is not installed: {}`) is prose.
#[test]
fn every_printed_command_with_a_value_comes_from_the_shell_builder() {
    let command = regex::Regex::new(r#"kubectl [a-z][a-z-]*[^"`\n:;(]*?\{([A-Za-z0-9_]*)(?::[^}]*)?\}"#).unwrap();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
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
    assert!(wrong.is_empty(), "commands built by format! (use domain::shell::ShellCommand):\n{}", wrong.join("\n"));
}
