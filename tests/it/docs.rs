//! The README is a front door and the pages under `docs/` hold the rest: the README stays short
//! and opens with the two commands that work on a fresh machine, every command has its line there
//! and a page of its own, every relative link of the README and `docs/` leads to a file (and a
//! heading) that exists, and the console blocks that run offline show what the binary prints today
//! (`scripts/readme-examples.py` rewrites them).

use crate::support::upjet;
use crate::support::upjet::root;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What a newcomer reads before deciding to read on.
const README_MAX_LINES: usize = 250;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// README.md and every page under docs/, relative to the repository root.
fn pages() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(root()).unwrap().to_path_buf())
        .collect();
    docs.sort();
    [PathBuf::from("README.md")].into_iter().chain(docs).collect()
}

/// The lines of a Markdown text with the content of fenced blocks blanked (a `#` comment in a
/// shell block is no heading, a `](` in a YAML block no link), numbered from 1.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line.to_string()));
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, spaces made `-`,
/// everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a Markdown file offers: its headings' slugs and its `id="…"` attributes.
fn anchors(path: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(&read(path)) {
        if let Some(h) = line.strip_prefix('#').map(|h| h.trim_start_matches('#')).filter(|h| h.starts_with(' ')) {
            out.insert(slug(h));
        }
        for part in line.split("id=\"").skip(1) {
            out.extend(part.split('"').next().map(str::to_string));
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a line, inline code left out.
fn link_targets(line: &str) -> Vec<String> {
    let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join("``");
    prose.split("](").skip(1).filter_map(|rest| rest.split(')').next()).map(str::to_string).collect()
}

#[test]
fn readme_is_a_front_door_that_opens_with_the_two_commands() {
    let readme = read(&root().join("README.md"));
    let lines = readme.lines().count();
    assert!(lines <= README_MAX_LINES, "README.md has {lines} lines; move detail to a page under docs/");
    let first_block: Vec<&str> = readme.split("```").nth(1).unwrap_or_default().lines().collect();
    assert_eq!(first_block.first(), Some(&"sh"), "the README opens with a shell block");
    assert!(
        first_block.get(1).is_some_and(
            |l| l.starts_with("cargo install --locked --path . && kubectl-upjet doctor --from examples/fleet")
        ),
        "first line installs and runs doctor on the bundled fleet: {first_block:?}"
    );
    assert!(first_block.get(2).is_some_and(|l| l.starts_with("cargo test --workspace --locked")), "{first_block:?}");
}

#[test]
fn every_command_has_a_line_in_the_readme_and_a_page_under_docs() {
    let help = upjet().arg("--help").run().stdout;
    let commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 10, "{commands:?}");
    let readme = read(&root().join("README.md"));
    let index = read(&root().join("docs/README.md"));
    for command in commands {
        let row = readme.lines().find(|l| l.starts_with(&format!("| `{command}` |")));
        let row = row.unwrap_or_else(|| panic!("README.md's command table has no row for `{command}`"));
        let page = link_targets(row).into_iter().find(|t| t.starts_with("docs/")).unwrap_or_else(|| panic!("{row}"));
        let file = page.split('#').next().unwrap();
        assert!(root().join(file).is_file(), "`{command}` links to {page}, which does not exist");
        let name = file.trim_start_matches("docs/");
        assert!(index.contains(&format!("]({name})")), "docs/README.md does not list {name} (`{command}`)");
    }
}

#[test]
fn every_relative_link_of_the_readme_and_docs_resolves() {
    let mut files = pages();
    files.extend(["ARCHITECTURE.md", "tests/README.md"].map(PathBuf::from));
    let mut broken = Vec::new();
    for file in &files {
        for (n, line) in prose_lines(&read(&root().join(file))) {
            for target in link_targets(&line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
                let to =
                    if path.is_empty() { root().join(file) } else { root().join(file).parent().unwrap().join(path) };
                if !to.exists() {
                    broken.push(format!("{}:{n}: {target}: no such file", file.display()));
                } else if !anchor.is_empty()
                    && to.extension().is_some_and(|e| e == "md")
                    && !anchors(&to).contains(anchor)
                {
                    broken.push(format!("{}:{n}: {target}: no such heading", file.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The console blocks whose command runs offline and writes no file: one command line (with `\`
/// continuations), no pipe, redirect or `;`.
fn offline_blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for block in text.split("```console\n").skip(1) {
        let body = block.split("```").next().unwrap();
        let Some(first) = body.strip_prefix("$ kubectl upjet ") else { continue };
        let mut lines = first.lines();
        let mut command = String::from("kubectl upjet ");
        for line in lines.by_ref() {
            command.push_str(line.trim_end_matches('\\'));
            if !line.ends_with('\\') {
                break;
            }
        }
        let writes = ["--plan", "--modifiers"].iter().any(|f| command.contains(f));
        if writes || command.contains(['|', ';', '>', '&']) {
            continue;
        }
        let shown: String = lines.map(|l| format!("{l}\n")).collect();
        out.push((command, shown));
    }
    out
}

#[test]
fn console_blocks_that_run_offline_show_what_the_binary_prints() {
    let mut stale = Vec::new();
    let mut ran = 0;
    for page in pages() {
        for (command, shown) in offline_blocks(&read(&root().join(&page))) {
            let builder = upjet();
            let program = builder.program();
            let script = command.replacen("kubectl upjet ", &format!("'{}' ", program.display()), 1);
            let mut bash = std::process::Command::new("bash");
            bash.env_clear().envs(builder.envs()).current_dir(root()).args(["-c", &script]);
            let out = bash.output().unwrap();
            let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            ran += 1;
            if printed != shown {
                stale.push(format!("{}: {command}", page.display()));
            }
        }
    }
    assert!(ran >= 10, "only {ran} blocks ran");
    assert!(
        stale.is_empty(),
        "stale console blocks (run `cargo build && python3 scripts/readme-examples.py`):\n{}",
        stale.join("\n")
    );
}

/// The tour's outputs are judged at the moment the examples were taken: the README says so, with
/// the very `UPJET_NOW` the console blocks ran with (`support::NOW`, the one
/// `scripts/readme-examples.py` sets), and says what a run today, unpinned, shows instead.
#[test]
fn the_tour_says_how_its_outputs_are_pinned_and_what_today_shows() {
    let readme = read(&root().join("README.md"));
    let script = read(&root().join("scripts/readme-examples.py"));
    let pin = format!("UPJET_NOW={}", crate::support::upjet::NOW);
    assert!(script.contains(&format!("UPJET_NOW=\"{}\"", crate::support::upjet::NOW)), "the script pins another now");
    let tour = readme.split("## A one-minute tour").nth(1).and_then(|t| t.split("```").next()).unwrap_or_default();
    assert!(tour.contains(&format!("`{pin}`")), "the tour does not say how its outputs are pinned:\n{tour}");
    let errors = |pinned: bool| {
        let mut run = upjet();
        run.args(["doctor", "--from", "examples/fleet", "--severity", "error"]);
        if !pinned {
            run.env_remove("UPJET_NOW");
        }
        let summary = r"\A24 kinds scanned, 51 managed resources, \d+ errors, 0 warnings, 0 info, 7 would be created again by a provider restart\n\z";
        let stderr = run.status(1).stderr_matches(summary).run().stderr;
        let line = stderr.lines().find(|l| l.contains(" errors,")).unwrap_or_else(|| panic!("{stderr}")).to_string();
        line.split(" errors,").next().and_then(|s| s.rsplit(' ').next()).unwrap().to_string()
    };
    let (then, today) = (errors(true), errors(false));
    let said = format!("{today} errors instead of {then}");
    assert!(tour.replace('\n', " ").contains(&said), "the tour should say \"{said}\":\n{tour}");
}
