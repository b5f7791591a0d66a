//! `kubectl upjet doctor`: collect MRs (cluster or snapshot) and evidence → diagnose (pure) → print.

use super::evidence::{crd_owners, gather, index};
use crate::cli::{DoctorArgs, FailOn, OutputFormat};
use crate::cluster::connect::{self, Connection};
use crate::cluster::discovery_cache::{self, CacheOptions};
use crate::cluster::kinds::{self, ApiKind};
use crate::cluster::scan::{self, ScanOptions};
use crate::cluster::target::{self, TargetSpec};
use crate::cluster::{discover, snapshot};
use crate::domain::finding::{Finding, Severity};
use crate::domain::managed::ManagedResource;
use crate::domain::plan::PlanItem;
use crate::domain::report::{Filter, Report, ReportBuilder};
use crate::domain::rules;
use crate::error::{Error, Exit};
use crate::evidence::index::EvidenceIndex;
use crate::evidence::logs::Retention;
use crate::output::{detail, structured, style, table};
use crate::settings::Settings;

use std::collections::HashSet;
use std::io::Write;
use std::sync::Arc;

fn filter(args: &DoctorArgs) -> Filter {
    Filter { min_severity: args.severity.map(Into::into), only: args.only.clone(), ignore: args.ignore.clone() }
}

/// The exit code of a finished doctor run: findings at or above `--fail-on` win, then an
/// incomplete scan, then success.
pub fn exit_code(fail_on: FailOn, worst: Option<Severity>, incomplete: bool) -> Exit {
    match (fail_on.threshold(), worst) {
        (Some(t), Some(w)) if w >= t => Exit::Findings,
        _ if incomplete => Exit::Incomplete,
        _ => Exit::Ok,
    }
}

/// Runs doctor.
pub async fn run(settings: &Settings, args: &DoctorArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    if args.logs && args.from.is_some() {
        return Err(Error::usage("--logs reads a live cluster; with --from use --log-file").into());
    }
    if let Some(target) = &args.target {
        return one(settings, args, target, out).await;
    }
    let started = std::time::Instant::now();
    let (report, timings) = match &args.from {
        Some(path) => (from_snapshot(path, args).await?, None),
        None => {
            let (report, timings) = from_cluster(settings, args).await?;
            (report, Some(timings))
        }
    };
    if let Some(path) = &args.plan {
        write_plan(path, &report)?;
    }
    let printing = std::time::Instant::now();
    print_report(settings, args, &report, out)?;
    if let Some(t) = timings.filter(|_| settings.timings) {
        eprintln!("{}", t.line(printing.elapsed(), started.elapsed()));
    }
    Ok(exit_code(args.fail_on, report.worst(), report.summary.incomplete()))
}

/// Where a fleet scan spent its time, printed as one stderr line when `UPJET_TIMINGS=1` so the
/// fleet benchmark (benches/fleet.rs) can split wall time into discovery, listing and analysis
/// without a profiler. Decode and analysis times are summed over the scan's worker threads, so
/// they overlap the listing wall time.
#[derive(Debug, Default)]
struct Timings {
    connect: std::time::Duration,
    discovery: std::time::Duration,
    discovery_requests: usize,
    discovery_cached: bool,
    evidence: std::time::Duration,
    listing: std::time::Duration,
    decode_cpu: std::time::Duration,
    analysis_cpu: std::time::Duration,
    report: std::time::Duration,
    kinds: usize,
    list_requests: usize,
    list_bytes: usize,
}

impl Timings {
    fn line(&self, output: std::time::Duration, total: std::time::Duration) -> String {
        let ms = |d: std::time::Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
        format!(
            "upjet-timings connect_ms={} discovery_ms={} discovery_requests={} discovery_cached={} evidence_ms={} \
             listing_ms={} decode_cpu_ms={} analysis_cpu_ms={} report_ms={} output_ms={} total_ms={} kinds={} \
             list_requests={} list_bytes={} peak_rss_kib={}",
            ms(self.connect),
            ms(self.discovery),
            self.discovery_requests,
            self.discovery_cached,
            ms(self.evidence),
            ms(self.listing),
            ms(self.decode_cpu),
            ms(self.analysis_cpu),
            ms(self.report),
            ms(output),
            ms(total),
            self.kinds,
            self.list_requests,
            self.list_bytes,
            peak_rss_kib().map_or_else(|| "-".to_string(), |k| k.to_string()),
        )
    }
}

/// This process's peak resident set size (`VmHWM`, Linux only). Unlike `getrusage`'s `ru_maxrss`,
/// it belongs to the memory map created at `exec`, so it does not include the parent's memory
/// when the parent spawned us with vfork/`posix_spawn` (as Rust's `Command` does).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}

/// The adoption plan: one item per MR whose findings suggest an ID (the most severe finding wins).
pub fn plan_of(report: &Report) -> Vec<PlanItem> {
    let mut seen = std::collections::HashSet::new();
    report
        .findings
        .iter()
        .filter_map(|f| {
            let id = f.finding.suggested_id.clone()?;
            let r = &f.resource;
            let group = r.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
            let resource = format!("{}.{}/{}", r.kind.to_lowercase(), group, r.name);
            seen.insert((resource.clone(), r.namespace.clone())).then(|| PlanItem {
                resource,
                namespace: r.namespace.clone(),
                id,
                reason: Some(f.finding.code.to_string()),
                ..Default::default()
            })
        })
        .collect()
}

fn write_plan(path: &std::path::Path, report: &Report) -> anyhow::Result<()> {
    let plan = plan_of(report);
    let text = serde_json::to_string_pretty(&plan)? + "\n";
    std::fs::write(path, text).map_err(|e| Error::usage(format!("cannot write plan {}: {e}", path.display())))?;
    eprintln!(
        "wrote an adoption plan with {} items to {} (apply with `kubectl upjet adopt -f {}`)",
        plan.len(),
        path.display(),
        path.display()
    );
    Ok(())
}

fn print_report(settings: &Settings, args: &DoctorArgs, report: &Report, out: &mut dyn Write) -> anyhow::Result<()> {
    // Stdout is line-buffered: without this, a large pretty-printed report costs a write per line.
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, out);
    let out: &mut dyn Write = &mut out;
    match args.output {
        OutputFormat::Json => structured::write_json(out, report)?,
        OutputFormat::Yaml => structured::write_yaml(out, report)?,
        OutputFormat::Table | OutputFormat::Wide => {
            let opts = table::TableOptions {
                wide: args.output == OutputFormat::Wide,
                no_headers: args.no_headers,
                color: settings.color_stdout,
                now: settings.now,
            };
            table::write_table(out, report, &opts)?;
        }
    }
    out.flush()?;
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
    writeln!(err, "{}", table::summary_line(report))?;
    Ok(())
}

fn finish(mut builder: ReportBuilder, analyzer: &EvidenceIndex, notes: Vec<String>) -> Report {
    if let Some(logs) = &analyzer.logs {
        for f in rules::source_findings(&logs.log_sources()) {
            builder.push(f);
        }
        let lines: u64 = logs.sources.iter().map(|s| s.lines).sum();
        builder.note(format!("read {} log sources ({lines} lines)", logs.sources.len()));
    }
    for n in notes {
        builder.note(n);
    }
    builder.finish()
}

async fn from_snapshot(path: &std::path::Path, args: &DoctorArgs) -> anyhow::Result<Report> {
    let items = snapshot::read(path)?;
    let gathered = gather(None, false, &args.log_files, &args.log_opts, Retention::Compact).await?;
    let notes = gathered.notes.clone();
    let analyzer = index(gathered, &[], &Default::default());
    let mut builder = ReportBuilder::new(filter(args));
    let mut kinds = std::collections::BTreeSet::new();
    for item in items {
        match ManagedResource::from_json(&item.json) {
            Ok(mr) => {
                if !args.kinds.is_empty() && !args.kinds.iter().any(|k| snapshot_kind_matches(&mr, k)) {
                    continue;
                }
                kinds.insert((mr.group().to_string(), mr.kind.clone()));
                builder.scanned(1);
                builder.add(&mr, analyzer.findings(&mr), || analyzer.state(&mr));
            }
            Err(e) => builder.unreadable(format!("{}: {e}", item.source.display())),
        }
    }
    for _ in &kinds {
        builder.kind_scanned();
    }
    Ok(finish(builder, &analyzer, notes))
}

/// Offline there is no discovery: a kind matches by `Kind`, `kind.group`, or a plural that is the
/// kind with an `s`/`es` suffix.
fn snapshot_kind_matches(mr: &ManagedResource, spec: &str) -> bool {
    let (name, group) = spec.split_once('.').map(|(n, g)| (n, Some(g))).unwrap_or((spec, None));
    let kind = mr.kind.to_lowercase();
    let name = name.to_lowercase();
    let name_ok = name == kind || name == format!("{kind}s") || name == format!("{kind}es");
    name_ok && group.is_none_or(|g| g.eq_ignore_ascii_case(mr.group()))
}

/// Gathers evidence for the scanned kinds and indexes it by MR kind.
async fn analyzer_for(
    conn: &Connection,
    args: &DoctorArgs,
    kinds: &[ApiKind],
) -> anyhow::Result<(EvidenceIndex, Vec<String>)> {
    let gathered = gather(Some(conn), args.logs, &args.log_files, &args.log_opts, Retention::Compact).await?;
    let owners = if args.logs { crd_owners(conn).await } else { Default::default() };
    let notes = gathered.notes.clone();
    Ok((index(gathered, kinds, &owners), notes))
}

/// The discovery cache as the flags ask for it.
fn cache_options(settings: &Settings, args: &DoctorArgs) -> CacheOptions {
    CacheOptions {
        dir: args.discovery_cache_dir.clone().or_else(|| settings.home.as_deref().map(discovery_cache::default_dir)),
        ttl: args.discovery_cache_ttl,
        refresh: args.refresh_discovery,
        now: settings.wall_clock,
    }
}

/// Discovers (or recalls) the managed kinds and applies `--kind` / `--provider`. A `--kind` that
/// the cached kinds do not know may be a kind installed since: the server is asked before failing.
async fn selected_kinds(
    conn: &Connection,
    args: &DoctorArgs,
    cache: &CacheOptions,
) -> anyhow::Result<(Vec<ApiKind>, discover::DiscoveryStats)> {
    let (all, stats) = discover::discover_managed_cached(conn, args.concurrency as usize, cache).await?;
    match kinds::select(all, &args.kinds, &args.providers) {
        Ok(selected) => Ok((selected, stats)),
        Err(_) if stats.from_cache => {
            let fresh = CacheOptions { refresh: true, ..cache.clone() };
            let (all, stats) = discover::discover_managed_cached(conn, args.concurrency as usize, &fresh).await?;
            let selected = kinds::select(all, &args.kinds, &args.providers).map_err(|e| Error::usage(e.to_string()))?;
            Ok((selected, stats))
        }
        Err(e) => Err(Error::usage(e.to_string()).into()),
    }
}

/// What the scan keeps of an MR with findings.
type Kept = (ManagedResource, Vec<Finding>, crate::domain::report::ResourceState);

/// Lists `kinds`, keeping the MRs with findings, with a progress bar on a terminal.
async fn scan_kinds(
    conn: &Arc<Connection>,
    analyzer: &Arc<EvidenceIndex>,
    kinds: Vec<ApiKind>,
    opts: ScanOptions,
    show_progress: bool,
) -> Vec<scan::KindScan<Kept>> {
    let progress = show_progress.then(|| progress_bar(kinds.len() as u64));
    let per_mr = analyzer.clone();
    let results = scan::scan(
        conn.clone(),
        kinds,
        opts,
        move |mr| {
            let findings = per_mr.findings(&mr);
            (!findings.is_empty()).then(|| {
                let state = per_mr.state(&mr);
                (mr, findings, state)
            })
        },
        |k| {
            if let Some(p) = &progress {
                p.inc(1);
                p.set_message(format!("{} ({} objects)", k.kind.resource_name(), k.decoded));
            }
        },
    )
    .await;
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    results
}

async fn from_cluster(settings: &Settings, args: &DoctorArgs) -> anyhow::Result<(Report, Timings)> {
    let mut timings = Timings::default();
    let mut clock = std::time::Instant::now();
    let mut lap = |t: &mut std::time::Duration| {
        *t = clock.elapsed();
        clock = std::time::Instant::now();
    };
    let conn = Arc::new(connect::connect(&settings.connect).await?);
    lap(&mut timings.connect);
    let cache = cache_options(settings, args);
    let (selected, dstats) = selected_kinds(&conn, args, &cache).await?;
    lap(&mut timings.discovery);
    timings.discovery_requests = dstats.requests;
    timings.discovery_cached = dstats.from_cache;
    let mut builder = ReportBuilder::new(filter(args));
    if selected.is_empty() {
        builder.note("no managed resource kinds found: is Crossplane installed with an upjet provider?".into());
        return Ok((builder.finish(), timings));
    }
    let (analyzer, notes) = analyzer_for(&conn, args, &selected).await?;
    let analyzer = Arc::new(analyzer);
    lap(&mut timings.evidence);
    let opts = ScanOptions {
        namespace: settings.namespace.clone(),
        label_selector: settings.selector.clone(),
        page_size: 500,
        concurrency: args.concurrency as usize,
    };
    let mut results = scan_kinds(&conn, &analyzer, selected, opts.clone(), settings.progress).await;
    // A cached kind whose very first page answers 404 means the cache is stale (a kind deleted or
    // no longer served at that version). A 404 after pages were read is a kind deleted mid-scan,
    // which is reported as skipped like on any run.
    let stale = |r: &scan::KindScan<Kept>| r.status == Some(404) && r.bytes == 0;
    if dstats.from_cache && results.iter().any(stale) {
        // Discover afresh, forget the stale kinds, and list in a second pass every kind the
        // fresh discovery knows that was not listed yet (new kinds, or stale ones at a new version).
        tracing::debug!("a cached kind answered 404: refreshing discovery");
        let (fresh, stats) = selected_kinds(&conn, args, &CacheOptions { refresh: true, ..cache }).await?;
        timings.discovery_requests += stats.requests;
        results.retain(|r| !stale(r));
        let done: HashSet<String> = results.iter().map(|r| r.kind.resource_name()).collect();
        let rest: Vec<ApiKind> = fresh.into_iter().filter(|k| !done.contains(&k.resource_name())).collect();
        if !rest.is_empty() {
            results.extend(scan_kinds(&conn, &analyzer, rest, opts, settings.progress).await);
        }
    }
    lap(&mut timings.listing);
    // Rejected credentials fail the whole run, as they do when discovery meets them first (with a
    // cached discovery the lists are the first requests).
    if results.iter().any(|r| r.status == Some(401)) {
        return Err(Error::cluster(format!(
            "the API server at {} rejected the credentials (401 Unauthorized) while listing managed resources; log in again or check the kubeconfig user",
            conn.server
        ))
        .into());
    }
    timings.kinds = results.len();
    for r in results {
        timings.list_requests += r.requests;
        timings.list_bytes += r.bytes;
        timings.decode_cpu += r.decode_time;
        timings.analysis_cpu += r.process_time;
        match r.error {
            Some(reason) => builder.kind_skipped(r.kind.resource_name(), reason),
            None => builder.kind_scanned(),
        }
        builder.scanned(r.decoded);
        for what in r.unreadable {
            builder.unreadable(what);
        }
        for (mr, findings, state) in r.kept {
            builder.add(&mr, findings, || state);
        }
    }
    let report = finish(builder, &analyzer, notes);
    lap(&mut timings.report);
    Ok((report, timings))
}

fn progress_bar(len: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} scanning kinds {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Finds one MR (snapshot or cluster), with the connection and kind it was resolved to when live.
pub async fn locate(
    settings: &Settings,
    from: Option<&std::path::Path>,
    target: &str,
) -> anyhow::Result<(ManagedResource, Option<(Connection, ApiKind)>)> {
    let spec = TargetSpec::parse(target)?;
    match from {
        Some(path) => Ok((find_in_snapshot(path, &spec, settings.namespace_flag.as_deref())?, None)),
        None => {
            let conn = connect::connect(&settings.connect).await?;
            let target = target::resolve_target(&conn, &spec, settings.namespace_flag.as_deref()).await?;
            let obj = target::get(&conn, &target).await?;
            let mr = ManagedResource::from_value(&obj).map_err(|e| {
                Error::failed(format!("{} is not a readable managed resource", target.display())).because(e)
            })?;
            Ok((mr, Some((conn, target.kind))))
        }
    }
}

async fn one(settings: &Settings, args: &DoctorArgs, target: &str, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let (mr, live) = locate(settings, args.from.as_deref(), target).await?;
    let analyzer = match &live {
        Some((conn, kind)) => analyzer_for(conn, args, std::slice::from_ref(kind)).await?.0,
        None => index(
            gather(None, false, &args.log_files, &args.log_opts, Retention::Compact).await?,
            &[],
            &Default::default(),
        ),
    };
    let findings: Vec<Finding> = analyzer.findings(&mr).into_iter().filter(|f| filter(args).keeps(f)).collect();
    match args.output {
        OutputFormat::Json | OutputFormat::Yaml => {
            let mut b = ReportBuilder::new(filter(args));
            b.scanned(1);
            b.kind_scanned();
            b.add(&mr, findings.clone(), || analyzer.state(&mr));
            let report = b.finish();
            if args.output == OutputFormat::Json {
                structured::write_json(out, &report)?;
            } else {
                structured::write_yaml(out, &report)?;
            }
        }
        _ => detail::write_detail(out, &mr, &findings, settings.now)?,
    }
    Ok(exit_code(args.fail_on, findings.iter().map(|f| f.severity).max(), false))
}

fn find_in_snapshot(path: &std::path::Path, spec: &TargetSpec, ns: Option<&str>) -> anyhow::Result<ManagedResource> {
    let (kind_spec, name) = (spec.kind.as_str(), spec.name.as_str());
    let found: Vec<ManagedResource> = snapshot::read(path)?
        .into_iter()
        .filter_map(|i| ManagedResource::from_json(&i.json).ok())
        .filter(|mr| mr.name == name && snapshot_kind_matches(mr, kind_spec))
        .filter(|mr| ns.is_none_or(|n| mr.namespace.as_deref() == Some(n)))
        .collect();
    match found.len() {
        0 => Err(Error::usage(format!("{kind_spec}/{name} is not in {}", path.display())).into()),
        1 => Ok(found.into_iter().next().expect("one")),
        _ => Err(Error::usage(format!(
            "{kind_spec}/{name} matches {} objects in {}: add the group (kind.group/name) or -n",
            found.len(),
            path.display()
        ))
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_at_fail_on_win_over_an_incomplete_scan() {
        use Severity::*;
        for (fail_on, worst, incomplete, want) in [
            (FailOn::Error, Some(Error), false, Exit::Findings),
            (FailOn::Error, Some(Error), true, Exit::Findings),
            (FailOn::Error, Some(Warning), true, Exit::Incomplete),
            (FailOn::Error, Some(Warning), false, Exit::Ok),
            (FailOn::Warning, Some(Warning), false, Exit::Findings),
            (FailOn::Info, Some(Info), false, Exit::Findings),
            (FailOn::Never, Some(Error), false, Exit::Ok),
            (FailOn::Never, Some(Error), true, Exit::Incomplete),
            (FailOn::Info, None, false, Exit::Ok),
        ] {
            assert_eq!(exit_code(fail_on, worst, incomplete), want, "{fail_on:?} {worst:?} {incomplete}");
        }
    }
}
