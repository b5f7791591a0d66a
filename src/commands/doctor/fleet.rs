//! doctor over a live cluster: discovery, the concurrent scan, then the second pass that
//! learns identity formats and cross-checks inventories once the whole fleet is known.

use super::*;

/// Gathers evidence for the scanned kinds and indexes it by MR kind.
pub(super) async fn analyzer_for(
    conn: &Connection,
    args: &DoctorArgs,
    kinds: &[ApiKind],
) -> anyhow::Result<(EvidenceIndex, Vec<String>)> {
    let gathered = gather(Some(conn), args.logs, &args.log_files, &args.log_opts, Retention::Compact).await?;
    let owners = if args.logs { crd_owners(conn).await } else { Default::default() };
    let notes = gathered.notes.clone();
    let mut analyzer = index(gathered, kinds, &owners);
    analyzer.audit = read_audit_logs(&args.audit_logs, Groups::of(kinds.iter().map(|k| k.group.clone()))).await?;
    analyzer.cloud_record = cloud_audit::read(&args.cloud).await?;
    Ok((analyzer, notes))
}

/// The discovery cache as the flags ask for it.
pub(super) fn cache_options(settings: &Settings, args: &DoctorArgs) -> CacheOptions {
    CacheOptions {
        dir: args.discovery_cache_dir.clone().or_else(|| settings.home.as_deref().map(discovery_cache::default_dir)),
        ttl: args.discovery_cache_ttl,
        refresh: args.refresh_discovery,
        now: settings.wall_clock,
    }
}

/// Discovers (or recalls) the managed kinds and applies `--kind` / `--provider`. A `--kind` that
/// the cached kinds do not know may be a kind installed since: the server is asked before failing.
pub(super) async fn selected_kinds(
    conn: &Connection,
    args: &DoctorArgs,
    cache: &CacheOptions,
) -> anyhow::Result<(Vec<ApiKind>, discover::DiscoveryStats)> {
    let policy = RetryPolicy::within(args.retry_budget).first_contact();
    let (all, stats) = discover::discover_managed_cached(conn, args.concurrency as usize, cache, &policy).await?;
    match kinds::select(all, &args.kinds, &args.providers) {
        Ok(selected) => Ok((selected, stats)),
        Err(_) if stats.from_cache => {
            let fresh = CacheOptions { refresh: true, ..cache.clone() };
            let (all, stats) =
                discover::discover_managed_cached(conn, args.concurrency as usize, &fresh, &policy).await?;
            let selected = kinds::select(all, &args.kinds, &args.providers).map_err(|e| Error::usage(e.to_string()))?;
            Ok((selected, stats))
        }
        Err(e) => Err(Error::usage(e.to_string()).into()),
    }
}

/// What the scan keeps of an MR: the MR with its findings, if any, and its identity sample if it
/// is a healthy peer (a few strings, so that 20,000 MRs cost little).
pub(super) struct Kept {
    pub(super) found: Option<(ManagedResource, Vec<Finding>, crate::domain::report::ResourceState)>,
    pub(super) sample: Option<Sample>,
    /// With an inventory: the MR, not judged yet (see [`Judge`]).
    pub(super) unjudged: Option<(ManagedResource, crate::domain::report::ResourceState)>,
}

/// What the clusters of one run share: the request permits, and one progress bar for all of
/// them (a bar per cluster would overwrite the others). Empty for a single cluster, which draws
/// its own bar on a terminal.
#[derive(Clone, Default)]
pub(super) struct Shared {
    /// Permits every connection of the run draws from.
    pub(super) limiter: Option<Limiter>,
    /// The run's progress bar, its messages prefixed with `label`.
    pub(super) bar: Option<indicatif::ProgressBar>,
    /// The cluster this scan is of (`prod: `), for the bar.
    pub(super) label: String,
}

/// Lists `kinds`, keeping the MRs with findings, with a progress bar on a terminal.
pub(super) async fn scan_kinds(
    conn: &Arc<Connection>,
    analyzer: &Arc<EvidenceIndex>,
    kinds: Vec<ApiKind>,
    opts: ScanOptions,
    (args, settings, shared): (&DoctorArgs, &Settings, &Shared),
    keep_all: bool,
) -> Vec<scan::KindScan<Kept>> {
    let own = shared.bar.is_none() && settings.progress;
    let progress = match &shared.bar {
        Some(bar) => {
            bar.inc_length(kinds.len() as u64);
            Some(bar.clone())
        }
        None => own.then(|| progress_bar(kinds.len() as u64)),
    };
    let label = shared.label.clone();
    let (per_mr, now) = (analyzer.clone(), settings.now);
    let results = scan::scan_with(
        conn.clone(),
        kinds,
        opts,
        RetryPolicy::within(args.retry_budget),
        move |mr| {
            let sample = Sample::of(&mr);
            if keep_all {
                // With an inventory every MR is kept unjudged: it is judged once the cross-check
                // over the whole fleet is known.
                let state = per_mr.state(&mr);
                return Some(Kept { found: None, sample, unjudged: Some((mr, state)) });
            }
            let findings = per_mr.findings(&mr, now);
            let found = (!findings.is_empty()).then(|| {
                let state = per_mr.state(&mr);
                (mr, findings, state)
            });
            (found.is_some() || sample.is_some()).then_some(Kept { found, sample, unjudged: None })
        },
        |k| {
            if let Some(p) = &progress {
                p.inc(1);
                p.set_message(format!("{label}{} ({} objects)", k.kind.resource_name(), k.decoded));
            }
        },
    )
    .await;
    if let Some(p) = progress.filter(|_| own) {
        p.finish_and_clear();
    }
    results
}

/// The second pass: the identity formats are learned across the whole fleet before any is
/// applied; the samples are moved out of the scan results and dropped once learned.
pub(super) fn learn_peers(results: &mut [scan::KindScan<Kept>]) -> Peers {
    let mut peers = Peers::default();
    for r in results.iter_mut() {
        for sample in r.kept.iter_mut().filter_map(|k| k.sample.take()) {
            peers.add(&r.kind.group, &r.kind.kind, sample);
        }
    }
    peers.learn();
    peers
}

/// Scans the cluster `connect` points at; with `limiter`, every request draws from the permits
/// shared with the other clusters of the run. Returns the report, where the time went, and the
/// kubeconfig context scanned (for the plan).
pub(super) async fn from_cluster(
    settings: &Settings,
    args: &DoctorArgs,
    connect: &ConnectOptions,
    shared: &Shared,
) -> anyhow::Result<(Report, Timings, Option<String>)> {
    let mut timings = Timings::default();
    let inventory = match args.inventory.is_empty() {
        true => None,
        false => Some(read_inventories(&args.inventory).await?),
    };
    let mut clock = std::time::Instant::now();
    let mut lap = |t: &mut std::time::Duration| {
        *t = clock.elapsed();
        clock = std::time::Instant::now();
    };
    let conn = connected(connect, shared.limiter.clone()).await?;
    lap(&mut timings.connect);
    let cache = cache_options(settings, args);
    let (selected, dstats) = selected_kinds(&conn, args, &cache).await?;
    lap(&mut timings.discovery);
    timings.discovery_requests = dstats.requests;
    timings.discovery_cached = dstats.from_cache;
    let mut builder = ReportBuilder::new(filter(args));
    if selected.is_empty() {
        builder.note("no managed resource kinds found: is Crossplane installed with an upjet provider?".into());
        return Ok((builder.finish(), timings, conn.context.clone()));
    }
    let (analyzer, mut notes) = analyzer_for(&conn, args, &selected).await?;
    notes.extend(crate::commands::mrd::scan_note(&conn).await);
    notes.extend(inventory.iter().flat_map(|(_, n)| n.iter().cloned()));
    let analyzer = Arc::new(analyzer);
    lap(&mut timings.evidence);
    let opts = ScanOptions {
        namespace: settings.namespace.clone(),
        label_selector: settings.selector.clone(),
        page_size: 500,
        concurrency: args.concurrency as usize,
    };
    // The inventory cross-check and the cloud record's attribution need every MR first.
    let keep_all = inventory.is_some() || analyzer.cloud_record.is_some();
    let run = (args, settings, shared);
    let mut results = scan_kinds(&conn, &analyzer, selected, opts.clone(), run, keep_all).await;
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
            results.extend(scan_kinds(&conn, &analyzer, rest, opts, run, keep_all).await);
        }
    }
    lap(&mut timings.listing);
    credentials_accepted(&results, &conn)?;
    timings.kinds = results.len();
    let peers = learn_peers(&mut results);
    if keep_all {
        let mrs: Vec<&ManagedResource> =
            results.iter().flat_map(|r| r.kept.iter().filter_map(|k| k.unjudged.as_ref().map(|(mr, _)| mr))).collect();
        if let Some((objects, _)) = &inventory {
            cross_check(&analyzer, objects, &mrs, &live_scope(settings, &results));
        }
        tie_cloud_record(&analyzer, &mrs, args);
    }
    let judge = Judge { analyzer: &analyzer, now: settings.now, peers: &peers, templates: &args.id_templates };
    add_results(&mut builder, results, &mut timings, &judge);
    let report = finish(builder, &analyzer, notes);
    lap(&mut timings.report);
    Ok((report, timings, conn.context.clone()))
}

/// Ties the cloud's audit record (if read) to every MR seen, and hands the result to the index.
pub(super) fn tie_cloud_record(analyzer: &EvidenceIndex, mrs: &[&ManagedResource], args: &DoctorArgs) {
    if let Some(record) = &analyzer.cloud_record {
        let _ = analyzer.cloud_audit.set(cloud_audit::check(record, mrs, &args.cloud));
    }
}

/// Rejected credentials fail the whole run (the whole cluster, with several), as they do when
/// discovery meets them first: with a cached discovery the lists are the first requests.
fn credentials_accepted(results: &[scan::KindScan<Kept>], conn: &Connection) -> Result<(), Error> {
    if results.iter().any(|r| r.status == Some(401)) {
        return Err(Error::cluster(format!(
            "the API server at {} rejected the credentials (401 Unauthorized) while listing managed resources; log in again or check the kubeconfig user",
            conn.server
        )));
    }
    Ok(())
}

/// A connection for `connect`, drawing from `limiter`'s permits when given.
async fn connected(connect: &ConnectOptions, limiter: Option<Limiter>) -> Result<Arc<Connection>, Error> {
    let conn = connect::connect(connect).await?;
    Ok(Arc::new(match limiter {
        Some(l) => conn.limited(l),
        None => conn,
    }))
}

/// What a live scan covered: every kind listed, complete unless `-n`, `-l` or a skipped kind
/// hid some MRs (then no object is reported as having lost its MR).
pub(super) fn live_scope(settings: &Settings, results: &[scan::KindScan<Kept>]) -> Scope {
    let kinds = results.iter().map(|r| normalize_kind(&format!("{}.{}", r.kind.kind, r.kind.group))).collect();
    let complete =
        settings.namespace.is_none() && settings.selector.is_none() && results.iter().all(|r| r.error.is_none());
    Scope { kinds, all_kinds: false, complete }
}

/// How the kept MRs become findings once the whole fleet is known: those kept unjudged (for the
/// inventory cross-check) are judged now, and every finding is completed with the ID formats
/// learned from healthy peers.
pub(super) struct Judge<'a> {
    pub(super) analyzer: &'a EvidenceIndex,
    pub(super) now: GoTime,
    pub(super) peers: &'a Peers,
    pub(super) templates: &'a [identity::UserTemplate],
}

/// Adds each listed kind's outcome and kept MRs to the report.
pub(super) fn add_results(
    builder: &mut ReportBuilder,
    results: Vec<scan::KindScan<Kept>>,
    timings: &mut Timings,
    judge: &Judge,
) {
    let mut restart = 0;
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
        for kept in r.kept {
            let (mr, mut findings, state) = match (kept.found, kept.unjudged) {
                (Some(found), _) => found,
                (None, Some((mr, state))) => {
                    let findings = judge.analyzer.findings(&mr, judge.now);
                    (mr, findings, state)
                }
                (None, None) => continue,
            };
            crate::domain::candidate::share_observed(&mut findings);
            identity::fill(&mut findings, &mr, judge.peers, judge.templates);
            restart +=
                usize::from(crate::domain::rules::restore_verdict::restart_duplicates(&mr, judge.peers, judge.now));
            builder.add(&mr, findings, || state);
        }
    }
    builder.restart_duplicates(restart);
}

pub(super) fn progress_bar(len: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} scanning kinds {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
