//! GitHub Actions: error findings as workflow annotations (`::error title=…::…`, shown on the
//! run and the pull request) and a Markdown summary for the step's page (`$GITHUB_STEP_SUMMARY`).

use super::sarif::logical_name;
use std::fmt::Write as _;
use upjet_core::finding::Severity;
use upjet_core::report::Report;

/// How many error findings the step summary lists before it says how many more there are.
const SUMMARY_ROWS: usize = 50;

/// A workflow command's message: `%`, CR and LF escaped as the runner expects.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: as a message, plus `:` and `,`.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One `::error` line per error finding (with `file=…,line=…` when the finding has a place).
pub fn annotations(report: &Report) -> String {
    let mut out = String::new();
    for f in report.findings.iter().filter(|f| f.finding.severity == Severity::Error) {
        let title = format!("{} {}", f.finding.code.as_str(), logical_name(&f.resource));
        let message = format!("{} Next: {}", f.finding.message, f.finding.next);
        let place = match f.resource.source.as_ref().filter(|s| s.file != "-") {
            Some(s) => format!("file={},line={},", escape_property(&s.file), s.line),
            None => String::new(),
        };
        let _ = writeln!(out, "::error {place}title={}::{}", escape_property(&title), escape_data(&message));
    }
    out
}

/// A Markdown cell: pipes escaped, one line.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The step summary: counts by severity, then the error findings (the first 50).
pub fn step_summary(report: &Report) -> String {
    let count = |s: Severity| report.findings.iter().filter(|f| f.finding.severity == s).count();
    let mut md =
        String::from("## kubectl upjet doctor\n\n| errors | warnings | info | MRs scanned |\n|---|---|---|---|\n");
    let _ = writeln!(
        md,
        "| {} | {} | {} | {} |\n",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
        report.summary.resources_scanned
    );
    let errors: Vec<_> = report.findings.iter().filter(|f| f.finding.severity == Severity::Error).collect();
    if errors.is_empty() {
        md.push_str("No error findings.\n");
        return md;
    }
    md.push_str("| code | MR | message | next |\n|---|---|---|---|\n");
    for f in errors.iter().take(SUMMARY_ROWS) {
        let _ = writeln!(
            md,
            "| `{}` | `{}` | {} | `{}` |",
            f.finding.code.as_str(),
            logical_name(&f.resource),
            cell(&f.finding.message),
            cell(&f.finding.next)
        );
    }
    if errors.len() > SUMMARY_ROWS {
        let _ = writeln!(md, "\n…and {} more error findings.", errors.len() - SUMMARY_ROWS);
    }
    md
}
