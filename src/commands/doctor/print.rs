//! How doctor's report is printed, as its resolved printer says (`resolve::DoctorPrinter`): the
//! format asked for on stdout, what could not be read and the notes on stderr, the GitHub
//! Actions annotations when in a step; and one MR's findings in depth (`doctor KIND/NAME`).

use super::*;
use crate::commands::resolve::{DoctorOutput, DoctorPrinter, Document, ExitRule, Human};
use upjet_core::finding::Severity;
use upjet_core::shell::ShellCommand;
use upjet_core::summary::{self, SourceFlags};
use upjet_output::forms::Form;
use upjet_output::{self as output, detail, structured, table};

/// doctor's printer, opened: a form compiled before anything was scanned.
pub(super) type Printer = DoctorPrinter<Form>;

/// Prints a fleet's report in the printer's format, then what stderr says about the run.
pub(super) fn report(
    settings: &Settings,
    printer: &Printer,
    report: &Report,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    // Stdout is line-buffered: without this, a large pretty-printed report costs a write per line.
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, out);
    let out: &mut dyn Write = &mut out;
    match &printer.output {
        DoctorOutput::Document(doc) => document(out, doc, report, printer.no_headers)?,
        DoctorOutput::Human(Human::Summary) => fleet_summary(printer, report, settings.color_stdout, false, out)?,
        DoctorOutput::Human(human) => {
            let lines =
                if report.findings.is_empty() { 0 } else { report.findings.len() + usize::from(!printer.no_headers) };
            if summary::summary_first(printer.chosen, settings.stdout_terminal, lines, settings.screen_rows) {
                fleet_summary(printer, report, settings.color_stdout, true, out)?;
            } else {
                let opts = table::TableOptions {
                    wide: *human == Human::Wide,
                    no_headers: printer.no_headers,
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
    stderr_lines(report)
}

/// Writes `report` as the document `-o` names: the one place a document is chosen, for a fleet's
/// report and one MR's alike.
fn document(out: &mut dyn Write, doc: &Document<Form>, report: &Report, no_headers: bool) -> anyhow::Result<()> {
    match doc {
        Document::Json => structured::write_json(out, report)?,
        Document::Yaml => structured::write_yaml(out, report)?,
        Document::Sarif => output::sarif::write_sarif(out, report)?,
        Document::Junit => output::junit::write_junit(out, report)?,
        Document::Html => output::html::doctor::write_doctor(out, report)?,
        Document::Form(form) => crate::commands::forms::print_report(out, form, report, no_headers)?,
    }
    Ok(())
}

/// What could not be read, the notes, the clusters not scanned and the summary line, on stderr.
fn stderr_lines(report: &Report) -> anyhow::Result<()> {
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
    for going in &report.summary.kinds_being_deleted {
        writeln!(err, "{}", style::sanitize(&going.line()))?;
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
fn fleet_summary(
    printer: &Printer,
    report: &Report,
    color: bool,
    table_hint: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let read = &printer.scope;
    let scope = |cluster: Option<&str>| {
        let from = match cluster {
            Some(name) if read.from.is_empty() => SourceFlags::default().flag("--context", name),
            Some(name) => match read.snapshots.iter().find(|s| s.name == name) {
                Some(s) => SourceFlags::default().flag("--from", s.path.display().to_string()),
                None => SourceFlags::default(),
            },
            None => match read.from.first() {
                Some(p) => SourceFlags::default().flag("--from", p.display().to_string()),
                None => SourceFlags::default(),
            },
        };
        read.log_files.iter().fold(from, |s, log| s.flag("--log-file", log.display().to_string()))
    };
    let groups = summary::summarize_scoped(report, scope);
    let save = scope(None)
        .apply(ShellCommand::upjet("doctor"))
        .opt("--plan", "ids.json")
        .and_then(ShellCommand::upjet("adopt").opt("-f", "ids.json").word("--import"))
        .to_string();
    let restart = Some((report.summary.restart_duplicates, save));
    output::summary::write_summary(out, &groups, &output::summary::SummaryOptions { color, table_hint, restart })
}

/// Prints one MR's findings (those the filter keeps) and returns the exit code they make.
pub(super) fn one_mr(
    settings: &Settings,
    doctor: &Doctor,
    printer: &Printer,
    mr: &ManagedResource,
    findings: Vec<Finding>,
    evidence: &EvidenceIndex,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let findings: Vec<Finding> = findings.into_iter().filter(|f| doctor.filter.keeps(f)).collect();
    match &printer.output {
        DoctorOutput::Document(doc) => {
            let mut b = ReportBuilder::new(doctor.filter.clone());
            b.scanned(1);
            b.kind_scanned();
            b.add(mr, findings.clone(), || evidence.state(mr));
            document(out, doc, &b.finish(), printer.no_headers)?;
        }
        DoctorOutput::Human(_) => detail::write_detail(out, mr, &findings, settings.now)?,
    }
    Ok(exit_code(&doctor.exit, findings.iter().map(|f| f.severity).max(), false))
}

/// The exit code of a finished run (the table in docs/reliability.md). By default findings at or
/// above `--fail-on` win, then an incomplete scan, then success: findings from a partial scan are
/// still real. With `--fail-on-incomplete` an incomplete scan wins, because CI that demands a
/// complete scan must not read "findings" as "the fleet was read".
pub(super) fn exit_code(rule: &ExitRule, worst: Option<Severity>, incomplete: bool) -> Exit {
    match (rule.fail_on, worst) {
        _ if incomplete && rule.fail_on_incomplete => Exit::Incomplete,
        (Some(t), Some(w)) if w >= t => Exit::Findings,
        _ if incomplete => Exit::Incomplete,
        _ => Exit::Ok,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exit-code table of docs/reliability.md, row by row: (fail-on, worst finding,
    /// incomplete) → (default, with --fail-on-incomplete).
    #[test]
    fn exit_codes_follow_the_documented_table() {
        use crate::cli::FailOn;
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
            let rule = |fail_on_incomplete| ExitRule { fail_on: fail_on.threshold(), fail_on_incomplete };
            assert_eq!(exit_code(&rule(false), worst, incomplete), want, "{case}");
            assert_eq!(exit_code(&rule(true), worst, incomplete), strict, "{case} --fail-on-incomplete");
        }
    }
}
