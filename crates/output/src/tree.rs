//! A composition tree for the terminal (`doctor CLAIM|XR`): claim → XR → MRs drawn as
//! `crossplane resource trace` draws it, each MR with its resource name, its identity and the
//! codes of its findings, so a platform engineer sees the tree they think in.

use crate::style::sanitize;
use std::io::{self, Write};
use upjet_core::composition::tree::{Node, NodeRole, walk};

/// One printed row: the name column with its branch drawing, then the other columns.
fn row(prefix: &str, n: &Node) -> [String; 7] {
    let name = match n.role {
        NodeRole::Missing => format!("{prefix}{}/{} (not found)", n.kind, n.name),
        _ => format!("{prefix}{}/{}", n.kind, n.name),
    };
    let findings: Vec<String> = n.findings.iter().map(|(code, _)| code.as_str().to_string()).collect();
    let mut status = n.status.clone();
    if let Some(note) = &n.note {
        status = if status.is_empty() { note.clone() } else { format!("{status}: {note}") };
    }
    [
        sanitize(&name),
        sanitize(n.resource.as_deref().unwrap_or("")),
        n.synced.clone(),
        n.ready.clone(),
        sanitize(n.identity.as_deref().unwrap_or("")),
        findings.join(","),
        sanitize(&status),
    ]
}

/// Writes the tree under `root`, one row per node, columns aligned.
pub fn write_tree(out: &mut dyn Write, root: &Node) -> io::Result<()> {
    let mut rows = vec![["NAME", "RESOURCE", "SYNCED", "READY", "ID", "FINDINGS", "STATUS"].map(String::from)];
    // Whether each ancestor level still has siblings below: `│  ` or blank.
    let mut open: Vec<bool> = Vec::new();
    for (depth, last, node) in walk(root) {
        open.truncate(depth);
        let mut prefix = String::new();
        if depth > 0 {
            for &more in &open[1..] {
                prefix.push_str(if more { "│  " } else { "   " });
            }
            prefix.push_str(if last { "└─ " } else { "├─ " });
        }
        open.push(!last);
        rows.push(row(&prefix, node));
    }
    let widths: Vec<usize> = (0..7).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    for r in &rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            if i + 1 == r.len() {
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(widths[i] - cell.chars().count() + 3));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
