//! `doctor -o html`: the summary on top (counts, completeness, notes), then every finding in a
//! table the page's script sorts by any column and filters by text and severity.

use super::{escape, page};
use crate::sarif::logical_name;
use std::fmt::Write as _;
use std::io::{self, Write};
use upjet_core::finding::Severity;
use upjet_core::report::{Report, ReportFinding};

/// The table's script.
const SCRIPT: &str = include_str!("doctor.js");

/// Sorts most severe first when the severity column is sorted ascending.
fn severity_rank(s: Severity) -> u8 {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

/// The summary: one card per count, completeness, and the notes and unreadable inputs.
fn summary(html: &mut String, report: &Report) {
    let s = &report.summary;
    let count = |sev: Severity| s.findings.get(&sev).copied().unwrap_or(0);
    html.push_str("<section id=\"summary\"><div class=\"cards\">");
    for (class, label, n) in [
        ("error", "errors", count(Severity::Error)),
        ("warning", "warnings", count(Severity::Warning)),
        ("info", "info", count(Severity::Info)),
        ("", "MRs scanned", s.resources_scanned),
        ("", "kinds scanned", s.kinds_scanned),
    ] {
        let _ = write!(html, "<div class=\"card {class}\"><b>{n}</b>{label}</div>");
    }
    let complete = if s.complete { "complete" } else { "incomplete: findings are a lower bound" };
    let _ = write!(html, "<div class=\"card\"><b>{}</b>{complete}</div></div>", if s.complete { "✓" } else { "!" });
    let lists = [("Unreadable", &s.unreadable), ("Cut short", &s.inputs_truncated), ("Notes", &s.notes)];
    for (title, items) in lists.iter().filter(|(_, items)| !items.is_empty()) {
        let _ = write!(html, "<h2>{title}</h2><ul>");
        for item in items.iter() {
            let _ = write!(html, "<li>{}</li>", escape(item));
        }
        html.push_str("</ul>");
    }
    if !s.by_code.is_empty() {
        html.push_str("<h2>By code</h2><ul class=\"codes\">");
        for (code, n) in &s.by_code {
            let _ = write!(html, "<li><code>{}</code> {n}</li>", code.as_str());
        }
        html.push_str("</ul>");
    }
    html.push_str("</section>\n");
}

/// One row: severity, code, the MR (and its manifest's place when linted), message, next.
fn row(html: &mut String, f: &ReportFinding) {
    let sev = f.finding.severity;
    let mr = logical_name(&f.resource);
    let place = match &f.resource.source {
        Some(s) => format!("<span class=\"src\">{}:{}</span>", escape(&s.file), s.line),
        None => String::new(),
    };
    let suggested = match &f.finding.suggested_id {
        Some(id) => format!("<span class=\"src\">suggested ID <code>{}</code></span>", escape(id)),
        None => String::new(),
    };
    // End tags of cells and rows are implied (HTML's optional end tags), and the columns are
    // styled by position: a row costs little beyond its text, which keeps 4,000 findings in
    // well under 2 MB.
    let _ = writeln!(
        html,
        "<tr data-s=\"{sev}\"><td data-sort=\"{}\">{sev}<td><code>{}</code><td>{}{place}<td>{}{suggested}<td><code>{}</code>",
        severity_rank(sev),
        f.finding.code.as_str(),
        escape(&mr),
        escape(&f.finding.message),
        escape(&f.finding.next),
    );
}

/// The findings table, its filter box and severity choice.
fn findings(html: &mut String, report: &Report) {
    html.push_str(
        "<section><h2>Findings</h2><div class=\"controls\"><input id=\"filter\" type=\"search\" placeholder=\"filter: code, MR, message…\" aria-label=\"filter\">\
         <select id=\"severity\" aria-label=\"severity\"><option value=\"\">every severity</option><option value=\"error\">errors</option><option value=\"warning\">warnings</option><option value=\"info\">info</option></select>\
         <span id=\"shown\" class=\"mute\"></span></div>\n<table id=\"findings-table\"><thead><tr><th>Severity</th><th>Code</th><th>Resource</th><th>Message</th><th>Next</th></tr></thead><tbody>\n",
    );
    for f in &report.findings {
        row(html, f);
    }
    html.push_str("</tbody></table></section>");
}

/// Writes the doctor report as one self-contained page.
pub fn write_doctor(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    let mut html = String::with_capacity(512 * (report.findings.len() + 8));
    html.push_str("<header><h1>kubectl upjet doctor</h1><p class=\"sub\">");
    let _ =
        write!(html, "{} findings about {} managed resources", report.findings.len(), report.summary.resources_scanned);
    html.push_str("</p></header>\n");
    summary(&mut html, report);
    findings(&mut html, report);
    page(out, "kubectl upjet doctor", &html, SCRIPT)
}
