//! `kubectl upjet doctor`: collect MRs (cluster or snapshot) and evidence → diagnose (pure) → print.

mod clusters;
/// The contexts a run over several clusters covers (`watch` follows the same ones).
pub(crate) use clusters::contexts;
mod fleet;
/// How a scan's healthy peers teach each kind's ID format (`guard` learns them so too).
pub(crate) use fleet::learn_peers;
mod offline;
mod one;
mod plan;
mod print;
mod timings;
mod tree;

use fleet::{LiveScan, from_cluster};
use offline::{find_in_snapshot, from_backup, from_snapshot};
pub use one::locate;
use one::one;
pub use plan::plan_of;
use plan::write_plan;
use print::Printer;
use timings::Timings;

use super::backup;
use super::cloud_audit;
use super::evidence::{acknowledges_requests, snapshot_groups};
use super::resolve::{Doctor, Flow, OneMr, PathKind, Scan};
use crate::cli::DoctorArgs;
use crate::settings::Settings;
use upjet_cluster::connect::{self, ConnectOptions, Connection, Limiter};
use upjet_cluster::discover;
use upjet_cluster::discovery_cache::CacheOptions;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::retry::RetryPolicy;
use upjet_cluster::scan;
use upjet_cluster::target::{self, TargetSpec};
use upjet_core::error::{Error, Exit};
use upjet_core::finding::Finding;
use upjet_core::identity::{self, Peers, Sample, UserTemplate};
use upjet_core::inventory::{CrossCheck, ScanCoverage, ServedKind};
use upjet_core::managed::ManagedResource;
use upjet_core::plan::PlanItem;
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_core::report::{Report, ReportBuilder};
use upjet_core::rules;
use upjet_evidence::audit::Groups;
use upjet_evidence::fleet::FleetFacts;
use upjet_evidence::index::EvidenceIndex;
use upjet_output::style;

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

/// Runs doctor: the flags are resolved once into a [`Doctor`] (every refused combination fails
/// here, before anything is read), its printer opened (a form's template read and compiled), its
/// flow runs, and the report is printed.
pub async fn run(settings: &Settings, args: &DoctorArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let doctor = Doctor::resolve(args, settings, PathKind::on_disk).map_err(Error::from)?;
    let printer = doctor.printer.open()?;
    let started = std::time::Instant::now();
    let fleet = match &doctor.flow {
        Flow::OneMr(asked @ OneMr { in_backup: true, from: Some(backup), .. }) => {
            return one::in_backup(settings, &doctor, &printer, asked, backup.as_path(), out).await;
        }
        Flow::OneMr(asked @ OneMr { from: Some(path), .. }) if !backup::is_backup(path) => {
            if let Some(exit) = tree::offline(settings, &doctor, &printer, asked, path, out).await? {
                return Ok(exit);
            }
            return one(settings, &doctor, &printer, asked, out).await;
        }
        Flow::OneMr(asked) => return one(settings, &doctor, &printer, asked, out).await,
        Flow::Cluster => Fleet::Live(from_cluster(settings, &doctor, &settings.connect, &Default::default()).await?),
        Flow::Snapshot(path) => Fleet::ReportOnly(from_snapshot(path, &doctor, settings).await?),
        Flow::Backup { path, source_context } => {
            Fleet::ReportOnly(from_backup(path, source_context.as_deref(), &doctor, settings).await?)
        }
        Flow::Contexts => Fleet::ReportOnly(clusters::live(settings, &doctor).await?),
        Flow::Snapshots(named) => Fleet::ReportOnly(clusters::offline(settings, &doctor, named).await?),
        Flow::Lint(paths) => {
            let keep = |mr: &ManagedResource| doctor.scan.select.keeps(mr);
            Fleet::ReportOnly(super::lint::run(paths, keep, settings, doctor.filter.clone())?)
        }
    };
    let report = fleet.report();
    if let Some(path) = &doctor.plan {
        write_plan(path, report, fleet.context())?;
    }
    let printing = std::time::Instant::now();
    print::report(settings, &printer, report, out)?;
    if let Fleet::Live(scan) = &fleet
        && settings.timings
    {
        eprintln!("{}", scan.timings.line(printing.elapsed(), started.elapsed()));
    }
    Ok(print::exit_code(&doctor.exit, report.worst(), report.summary.incomplete()))
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
    for n in notes.into_iter().chain(evidence.notes()).chain(fleet.cloud_notes().iter().cloned()) {
        builder.note(n);
    }
    for cut in fleet.cloud_cut_short() {
        builder.input_truncated(cut.clone());
    }
    if let Some(check) = fleet.inventory() {
        let mut objects = check.unmatched.clone();
        upjet_core::inventory::name_by_identity(&mut objects, naming.0, naming.1);
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
