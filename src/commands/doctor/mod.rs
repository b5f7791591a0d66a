//! `kubectl upjet doctor`: collect MRs (cluster or snapshot) and evidence → diagnose (pure) → print.

mod clusters;
/// The contexts a run over several clusters covers (`watch` follows the same ones).
pub(crate) use clusters::contexts;
mod fleet;
mod offline;
mod one;
mod plan;
mod timings;

use fleet::{LiveScan, from_cluster, live_evidence};
use offline::{find_in_snapshot, from_backup, from_snapshot};
pub use one::locate;
use one::one;
pub use plan::plan_of;
use plan::write_plan;
use timings::Timings;

use super::backup;
use super::cloud_audit;
use super::evidence::{EvidenceRequest, LiveEvidence, acknowledges_requests, snapshot_groups};
use super::fleet_inputs::read_fleet_inputs;
use super::flow::{Flow, PathKind};
use crate::cli::{DoctorArgs, FailOn, OutputFormat};
use crate::cluster::connect::{self, ConnectOptions, Connection, Limiter};
use crate::cluster::discover;
use crate::cluster::discovery_cache::{self, CacheOptions};
use crate::cluster::kinds::ApiKind;
use crate::cluster::retry::RetryPolicy;
use crate::cluster::scan::{self, ScanOptions};
use crate::cluster::target::{self, TargetSpec};
use crate::domain::finding::{Finding, Severity};
use crate::domain::identity::{self, Peers, Sample, UserTemplate};
use crate::domain::inventory::{CrossCheck, Scope, ServedKind};
use crate::domain::managed::ManagedResource;
use crate::domain::plan::PlanItem;
use crate::domain::reconcile_timeout::JudgedAt;
use crate::domain::report::{Filter, Report, ReportBuilder};
use crate::domain::rules;
use crate::domain::summary;
use crate::error::{Error, Exit};
use crate::evidence::audit::Groups;
use crate::evidence::fleet::FleetFacts;
use crate::evidence::index::{EvidenceIndex, KindKey};
use crate::output::{self, detail, structured, style, table};
use crate::settings::Settings;

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

fn filter(args: &DoctorArgs) -> Filter {
    Filter { min_severity: args.severity.map(Into::into), only: args.only.clone(), ignore: args.ignore.clone() }
}

/// The exit code of a finished doctor run (the table in docs/reliability.md). By default findings
/// at or above `--fail-on` win, then an incomplete scan, then success: findings from a partial
/// scan are still real. With `--fail-on-incomplete` an incomplete scan wins, because CI that
/// demands a complete scan must not read "findings" as "the fleet was read".
pub fn exit_code(fail_on: FailOn, worst: Option<Severity>, incomplete: bool, fail_on_incomplete: bool) -> Exit {
    match (fail_on.threshold(), worst) {
        _ if incomplete && fail_on_incomplete => Exit::Incomplete,
        (Some(t), Some(w)) if w >= t => Exit::Findings,
        _ if incomplete => Exit::Incomplete,
        _ => Exit::Ok,
    }
}

/// Runs doctor: the flags are resolved into one [`Flow`] (every refused combination fails here,
/// before anything is read), the flow runs, and its report is printed.
pub async fn run(settings: &Settings, args: &DoctorArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let flow = Flow::of_doctor(args, settings.several_contexts(), PathKind::on_disk).map_err(Error::from)?;
    let started = std::time::Instant::now();
    let fleet = match &flow {
        Flow::OneMr { target, from } => return one(settings, args, target, from.as_deref(), out).await,
        Flow::Cluster => Fleet::Live(from_cluster(settings, args, &settings.connect, &Default::default()).await?),
        Flow::Snapshot(path) => Fleet::ReportOnly(from_snapshot(path, args, settings).await?),
        Flow::Backup { path, source_context } => {
            Fleet::ReportOnly(from_backup(path, source_context.as_deref(), args, settings).await?)
        }
        Flow::Contexts => Fleet::ReportOnly(clusters::live(settings, args).await?),
        Flow::Snapshots(named) => Fleet::ReportOnly(clusters::offline(settings, args, named).await?),
        Flow::Lint(paths) => Fleet::ReportOnly(super::lint::run(paths, args, settings, filter(args))?),
    };
    let report = fleet.report();
    if let Some(path) = &args.plan {
        write_plan(path, report, fleet.context())?;
    }
    let printing = std::time::Instant::now();
    print_report(settings, args, &flow, report, out)?;
    if let Fleet::Live(scan) = &fleet
        && settings.timings
    {
        eprintln!("{}", scan.timings.line(printing.elapsed(), started.elapsed()));
    }
    Ok(exit_code(args.fail_on, report.worst(), report.summary.incomplete(), args.fail_on_incomplete))
}

/// What a fleet flow produced: one live cluster's scan also says where the time went and which
/// context it read (the plan's); a snapshot, a backup or several clusters merged are a report
/// alone.
enum Fleet {
    /// One live cluster.
    Live(LiveScan),
    /// Every other fleet flow.
    ReportOnly(Report),
}

impl Fleet {
    fn report(&self) -> &Report {
        match self {
            Fleet::Live(scan) => &scan.report,
            Fleet::ReportOnly(report) => report,
        }
    }

    /// The kubeconfig context the report is of, for the plan (several clusters: each item's own).
    fn context(&self) -> Option<&str> {
        match self {
            Fleet::Live(scan) => scan.context.as_deref(),
            Fleet::ReportOnly(_) => None,
        }
    }
}

fn print_report(
    settings: &Settings,
    args: &DoctorArgs,
    flow: &Flow,
    report: &Report,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    // Stdout is line-buffered: without this, a large pretty-printed report costs a write per line.
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, out);
    let out: &mut dyn Write = &mut out;
    match args.format() {
        OutputFormat::Json => structured::write_json(out, report)?,
        OutputFormat::Yaml => structured::write_yaml(out, report)?,
        OutputFormat::Summary => write_fleet_summary(args, flow, report, settings.color_stdout, false, out)?,
        OutputFormat::Sarif => output::sarif::write_sarif(out, report)?,
        OutputFormat::Junit => output::junit::write_junit(out, report)?,
        OutputFormat::Html => output::html::doctor::write_doctor(out, report)?,
        OutputFormat::Form => {
            let spec = args.form().ok_or_else(|| anyhow::anyhow!("-o names no form"))?;
            crate::commands::forms::print_report(out, spec, report, args.no_headers)?
        }
        OutputFormat::Table | OutputFormat::Wide => {
            let lines =
                if report.findings.is_empty() { 0 } else { report.findings.len() + usize::from(!args.no_headers) };
            if summary::summary_first(args.output.is_some(), settings.stdout_terminal, lines, settings.screen_rows) {
                write_fleet_summary(args, flow, report, settings.color_stdout, true, out)?;
            } else {
                let opts = table::TableOptions {
                    wide: args.format() == OutputFormat::Wide,
                    no_headers: args.no_headers,
                    color: settings.color_stdout,
                    now: settings.now,
                };
                table::write_table(out, report, &opts)?;
            }
        }
    }
    out.flush()?;
    if let Some(step_summary) = &settings.github_actions {
        crate::commands::forms::github_actions(report, step_summary.as_deref())?;
    }
    let mut err = std::io::stderr().lock();
    for skipped in &report.summary.kinds_skipped {
        writeln!(err, "skipped {}: {}", skipped.resource, style::sanitize(&skipped.reason))?;
    }
    for (i, what) in report.summary.unreadable.iter().enumerate() {
        if i == 10 {
            writeln!(err, "… and {} more unreadable objects", report.summary.unreadable.len() - 10)?;
            break;
        }
        writeln!(err, "{}", style::sanitize(what))?;
    }
    for note in &report.summary.notes {
        writeln!(err, "{}", style::sanitize(note))?;
    }
    for cluster in &report.summary.clusters {
        if let Some(why) = &cluster.error {
            writeln!(err, "cluster {} not scanned: {}", style::sanitize(&cluster.name), style::sanitize(why))?;
        }
    }
    writeln!(err, "{}", table::summary_line(report))?;
    Ok(())
}

/// The fleet summary, its suggested commands scoped to what this run read (`--from`, logs).
fn write_fleet_summary(
    args: &DoctorArgs,
    flow: &Flow,
    report: &Report,
    color: bool,
    table_hint: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut logs = String::new();
    for log in &args.log_files {
        logs.push_str(&format!(" --log-file {}", log.display()));
    }
    let snapshots = flow.snapshot_names();
    let scope = |cluster: Option<&str>| {
        let from = match cluster {
            Some(name) if args.from.is_empty() => format!(" --context {name}"),
            Some(name) => snapshots
                .iter()
                .find(|s| s.name == name)
                .map(|s| s.path.display().to_string())
                .map_or(String::new(), |p| format!(" --from {p}")),
            None => args.from.first().map(|p| format!(" --from {}", p.display())).unwrap_or_default(),
        };
        format!("{from}{logs}")
    };
    let groups = summary::summarize_scoped(report, scope);
    let save =
        format!("kubectl upjet doctor{} --plan ids.json && kubectl upjet adopt -f ids.json --import", scope(None));
    let restart = Some((report.summary.restart_duplicates, save));
    output::summary::write_summary(out, &groups, &output::summary::SummaryOptions { color, table_hint, restart })
}

/// Closes a fleet's report: the findings and notes about the run as a whole (log sources, the
/// audit and cloud files, the inventory's objects without an MR, named by their kind's identity
/// format where the inventory's rule gives none: `naming`, the peers learned and `--id-template`),
/// after `notes`.
fn finish(
    mut builder: ReportBuilder,
    (evidence, fleet): (&EvidenceIndex, &FleetFacts),
    notes: Vec<String>,
    naming: (&Peers, &[UserTemplate]),
) -> Report {
    if let Some(logs) = evidence.logs() {
        for f in rules::source_findings(&logs.log_sources()) {
            builder.push(f);
        }
        let lines: u64 = logs.sources.iter().map(|s| s.lines).sum();
        builder.note(format!("read {} log sources ({lines} lines)", logs.sources.len()));
    }
    for n in notes.into_iter().chain(evidence.audit_notes()).chain(fleet.cloud_notes().iter().cloned()) {
        builder.note(n);
    }
    for cut in fleet.cloud_cut_short() {
        builder.input_truncated(cut.clone());
    }
    if let Some(check) = fleet.inventory() {
        let mut objects = check.unmatched.clone();
        crate::domain::inventory::name_by_identity(&mut objects, naming.0, naming.1);
        for f in rules::object_findings(&objects) {
            builder.push(f);
        }
        for file in &check.truncated {
            builder.input_truncated(format!(
                "inventory {file}: cut short (it ends with a paging token); objects on its missing pages were not checked"
            ));
        }
        builder.note(inventory_note(check));
    }
    builder.finish()
}

/// What the inventory cross-check covered, as one note.
fn inventory_note(check: &CrossCheck) -> String {
    let matched: usize = check.per_mr.values().map(|m| m.objects.len()).sum();
    let with_objects = check.per_mr.values().filter(|m| !m.objects.is_empty()).count();
    let gone = check.per_mr.len() - with_objects;
    let mut note = format!(
        "inventory: {} objects tagged for a crossplane MR, {matched} matched to {with_objects} MRs, {} without an MR",
        check.tagged,
        check.unmatched.len()
    );
    if gone > 0 {
        note.push_str(&format!("; {gone} MRs whose object it should list seem gone"));
    }
    if check.out_of_scope > 0 {
        note.push_str(&format!(
            "; {} not checked (kinds not scanned, or the scan was limited by -n, -l or a skipped kind)",
            check.out_of_scope
        ));
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exit-code table of docs/reliability.md, row by row: (fail-on, worst finding,
    /// incomplete) → (default, with --fail-on-incomplete).
    #[test]
    fn exit_codes_follow_the_documented_table() {
        use Severity::*;
        for (fail_on, worst, incomplete, want, strict) in [
            (FailOn::Error, None, false, Exit::Ok, Exit::Ok),
            (FailOn::Error, Some(Warning), false, Exit::Ok, Exit::Ok),
            (FailOn::Error, Some(Error), false, Exit::Findings, Exit::Findings),
            (FailOn::Error, None, true, Exit::Incomplete, Exit::Incomplete),
            (FailOn::Error, Some(Warning), true, Exit::Incomplete, Exit::Incomplete),
            (FailOn::Error, Some(Error), true, Exit::Findings, Exit::Incomplete),
            (FailOn::Warning, Some(Warning), false, Exit::Findings, Exit::Findings),
            (FailOn::Info, Some(Info), false, Exit::Findings, Exit::Findings),
            (FailOn::Info, Some(Info), true, Exit::Findings, Exit::Incomplete),
            (FailOn::Never, Some(Error), false, Exit::Ok, Exit::Ok),
            (FailOn::Never, Some(Error), true, Exit::Incomplete, Exit::Incomplete),
            (FailOn::Info, None, false, Exit::Ok, Exit::Ok),
        ] {
            let case = format!("{fail_on:?} {worst:?} incomplete={incomplete}");
            assert_eq!(exit_code(fail_on, worst, incomplete, false), want, "{case}");
            assert_eq!(exit_code(fail_on, worst, incomplete, true), strict, "{case} --fail-on-incomplete");
        }
    }
}
