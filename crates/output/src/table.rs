//! The findings table in kubectl's look: upper-case headers, no borders, three spaces between
//! columns, no wrapping (so `grep`/`awk` work), severity coloured only when colour is on.

use super::style::sanitize;
use comfy_table::{Cell, Color, ContentArrangement, Table};
use std::collections::HashMap;
use std::io::{self, Write};
use upjet_core::candidate;
use upjet_core::finding::Severity;
use upjet_core::gotime::GoTime;
use upjet_core::report::{Report, ReportFinding};

/// Table options.
#[derive(Clone, Copy, Debug)]
pub struct TableOptions {
    /// Add identity columns (external-name, atProvider.id, create-mark ages, last logged ID).
    pub wide: bool,
    /// Omit the header row.
    pub no_headers: bool,
    /// Colour severities.
    pub color: bool,
    /// "Now", for ages.
    pub now: GoTime,
}

fn severity_cell(s: Severity, color: bool) -> Cell {
    let cell = Cell::new(s.to_string().to_uppercase());
    if !color {
        return cell;
    }
    cell.fg(match s {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
        Severity::Info => Color::Cyan,
    })
}

fn age(raw: Option<&str>, now: GoTime) -> String {
    match raw {
        None => "-".into(),
        Some(v) => match GoTime::parse_rfc3339(v) {
            Some(t) => upjet_core::age::age(&t, &now),
            None => "<bad>".into(),
        },
    }
}

/// One MR of a report: cluster, apiVersion, kind, namespace, name.
type MrKey<'a> = (Option<&'a str>, &'a str, &'a str, Option<&'a str>, &'a str);

fn mr_key(f: &ReportFinding) -> MrKey<'_> {
    let r = &f.resource;
    (r.cluster.as_deref(), r.api_version.as_str(), r.kind.as_str(), r.namespace.as_deref(), r.name.as_str())
}

/// Each MR's suggestions across its findings as one ranked list (`domain::candidate`), shown in
/// the wide table as the best ID, its confidence and how many others compete with it.
fn candidates_by_mr(report: &Report) -> HashMap<MrKey<'_>, String> {
    let mut by_mr: HashMap<MrKey<'_>, Vec<&upjet_core::finding::Finding>> = HashMap::new();
    for f in &report.findings {
        by_mr.entry(mr_key(f)).or_default().push(&f.finding);
    }
    by_mr
        .into_iter()
        .map(|(key, findings)| {
            let ranked = candidate::from_findings(findings);
            let shown = match ranked.split_first() {
                None => "-".to_string(),
                Some((best, [])) => format!("{} ({})", best.id, best.confidence),
                Some((best, rest)) => format!("{} ({}, +{} other)", best.id, best.confidence, rest.len()),
            };
            (key, shown)
        })
        .collect()
}

/// Which optional leading columns a table has.
#[derive(Clone, Copy)]
struct Columns {
    /// CLUSTER: the report covers several clusters.
    cluster: bool,
    /// NAMESPACE: some finding is about a namespaced MR.
    namespace: bool,
}

fn row(f: &ReportFinding, cols: Columns, opts: &TableOptions, candidates: &str) -> Vec<Cell> {
    let r = &f.resource;
    let group = r.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    let kind = if group.is_empty() { r.kind.to_lowercase() } else { format!("{}.{group}", r.kind.to_lowercase()) };
    let mut cells = Vec::new();
    if cols.cluster {
        cells.push(Cell::new(sanitize(r.cluster.as_deref().unwrap_or("-"))));
    }
    if cols.namespace {
        cells.push(Cell::new(sanitize(r.namespace.as_deref().unwrap_or("-"))));
    }
    cells.push(Cell::new(sanitize(&format!("{kind}/{}", r.name))));
    cells.push(severity_cell(f.finding.severity, opts.color));
    cells.push(Cell::new(f.finding.code.as_str()));
    if opts.wide {
        let s = &f.state;
        cells.push(Cell::new(sanitize(s.external_name_shown().as_deref().unwrap_or("-"))));
        cells.push(Cell::new(sanitize(s.at_provider_id.as_deref().unwrap_or("-"))));
        cells.push(Cell::new(age(s.create_pending.as_deref(), opts.now)));
        cells.push(Cell::new(age(s.create_succeeded.as_deref(), opts.now)));
        cells.push(Cell::new(age(s.create_failed.as_deref(), opts.now)));
        cells.push(Cell::new(sanitize(s.last_logged_id.as_ref().map(|l| l.id.as_str()).unwrap_or("-"))));
        cells.push(Cell::new(sanitize(candidates)));
    }
    cells.push(Cell::new(sanitize(&f.finding.message)));
    cells
}

/// Writes the findings table; writes nothing when there are no findings. A report of several
/// clusters gets a CLUSTER column first.
pub fn write_table(out: &mut dyn Write, report: &Report, opts: &TableOptions) -> io::Result<()> {
    if report.findings.is_empty() {
        return Ok(());
    }
    let cols = Columns {
        cluster: !report.summary.clusters.is_empty(),
        namespace: report.findings.iter().any(|f| f.resource.namespace.is_some()),
    };
    let mut table = Table::new();
    table.load_style(comfy_table::presets::NOTHING);
    table.set_content_arrangement(ContentArrangement::Disabled);
    if opts.color {
        table.enforce_styling();
    } else {
        table.force_no_tty();
    }
    if !opts.no_headers {
        let mut header = Vec::new();
        if cols.cluster {
            header.push("CLUSTER");
        }
        if cols.namespace {
            header.push("NAMESPACE");
        }
        header.extend(["RESOURCE", "SEVERITY", "CODE"]);
        if opts.wide {
            header.extend([
                "EXTERNAL-NAME",
                "ATPROVIDER-ID",
                "PENDING",
                "SUCCEEDED",
                "FAILED",
                "LAST-LOGGED-ID",
                "CANDIDATES",
            ]);
        }
        header.push("MESSAGE");
        table.set_header(header);
    }
    let candidates = if opts.wide { candidates_by_mr(report) } else { HashMap::new() };
    for f in &report.findings {
        table.add_row(row(f, cols, opts, candidates.get(&mr_key(f)).map_or("-", String::as_str)));
    }
    let last = table.column_count().saturating_sub(1);
    for (i, col) in table.column_iter_mut().enumerate() {
        col.set_padding((0, if i == last { 0 } else { 3 }));
    }
    for line in table.lines() {
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The one-line summary printed on stderr after a scan.
pub fn summary_line(report: &Report) -> String {
    let s = &report.summary;
    let count = |sev| s.findings.get(&sev).copied().unwrap_or(0);
    let mut line = format!(
        "{} kinds scanned, {} managed resources, {} errors, {} warnings, {} info",
        s.kinds_scanned,
        s.resources_scanned,
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info)
    );
    if !s.kinds_skipped.is_empty() {
        line.push_str(&format!(", {} kinds skipped", s.kinds_skipped.len()));
    }
    if !s.unreadable.is_empty() {
        line.push_str(&format!(", {} unreadable objects", s.unreadable.len()));
    }
    if !s.inputs_truncated.is_empty() {
        line.push_str(&format!(", {} inputs cut short", s.inputs_truncated.len()));
    }
    if s.restart_duplicates > 0 {
        line.push_str(&format!(", {} would be created again by a provider restart", s.restart_duplicates));
    }
    if !s.clusters.is_empty() {
        let failed = s.clusters.iter().filter(|c| c.error.is_some()).count();
        line.push_str(&format!(", {} clusters", s.clusters.len()));
        if failed > 0 {
            line.push_str(&format!(" ({failed} not scanned)"));
        }
    }
    line
}
