//! doctor over a live cluster: discovery, the concurrent scan, then the second pass that learns
//! identity formats and ties the fleet-wide inputs (inventory, cloud record) once the whole fleet
//! is known.

use super::*;
use crate::commands::admission::{GuardRead, guard_kinds, read as read_guard};
use std::sync::Mutex;
use upjet_cluster::write::Target;
use upjet_core::composition::{Composites, Composition, Member};
use upjet_core::guard::facts::{Fetched, GuardFacts, LockFacts};
use upjet_core::guard::installed::Installed;
use upjet_core::kind_removal::KindRemovals;
use upjet_core::shared_names::{Holder, MrKey, SharedNames};

/// Discovers (or recalls) the managed kinds and applies `--kind` / `--provider`.
pub(super) async fn selected_kinds(
    conn: &Connection,
    scan: &Scan,
    cache: &CacheOptions,
) -> anyhow::Result<(Vec<ApiKind>, discover::DiscoveryStats)> {
    let policy = RetryPolicy::within(scan.retry_budget).first_contact();
    Ok(discover::select_managed(conn, scan.concurrency, cache, &policy, &scan.select).await?)
}

/// What the scan keeps of an MR: the MR itself when the report will show it, its identity
/// sample if it is a healthy peer, and its place in the index of shared objects. A kind's kept
/// MRs are one `Vec`, and nearly every MR of a fleet is kept for its sample and holder, so what
/// is inline here is paid for every MR (and again for the `Vec`'s spare room): the MR is boxed.
pub(super) struct Kept {
    /// The MR, with its findings if it was judged during the scan.
    pub(super) mr: Option<Box<KeptMr>>,
    /// Its identity sample if it is a healthy peer (a few strings, so that 20,000 MRs cost little).
    pub(super) sample: Option<Sample>,
    /// Its place in the index of objects several MRs hold (kind, external-name, whether it
    /// acts): every MR with an external-name keeps one, a few strings.
    pub(super) holder: Option<Holder>,
    /// What the composition tree needs of it when it is composed (its slot, UIDs hashed, its
    /// ID): boxed, as most MRs of a fleet have none.
    pub(super) member: Option<Box<Member>>,
}

/// An MR the report will show.
pub(super) struct KeptMr {
    /// The MR, in the compact view.
    mr: ManagedResource,
    /// What the report says of its state.
    state: upjet_core::report::ResourceState,
    /// Its findings; `None` while it waits to be judged once what the whole fleet tells is known
    /// (fleet-wide inputs, or an object it shares; see [`Judge`]).
    findings: Option<Vec<Finding>>,
}

impl KeptMr {
    /// A `Kept`'s MR, boxed.
    fn boxed(
        mr: ManagedResource,
        state: upjet_core::report::ResourceState,
        findings: Option<Vec<Finding>>,
    ) -> Option<Box<KeptMr>> {
        Some(Box::new(KeptMr { mr, state, findings }))
    }
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

/// Which MRs the scan keeps unjudged, to be judged once what the whole run learns is known: every
/// MR when fleet-wide inputs are read, else those being deleted and those of a kind whose MRD is
/// being deleted (whether their kind goes away is known only once the scan has seen them).
#[derive(Clone, Default)]
pub(super) struct Unjudged {
    /// Every MR (the inventory or the cloud's record are tied over the whole fleet).
    all: bool,
    /// The kinds whose MRD is being deleted.
    going: Arc<KindRemovals>,
}

impl Unjudged {
    fn keeps(&self, mr: &ManagedResource) -> bool {
        self.all || mr.deletion_timestamp.is_some() || self.going.of(mr.group(), &mr.kind).is_some()
    }
}

/// The guard's lock, checked against every MR the scan decodes (when its identity-locked rule is
/// bound): the scan's tasks share it.
pub(super) type LockCheck = Option<Arc<Mutex<LockFacts>>>;

/// Lists `kinds`, keeping the MRs with findings, with a progress bar on a terminal; each MR is
/// checked against the guard's lock on the way (`lock`), and judged with the composition tree's
/// XRs and claims (`tree`: the fleet's composed MRs are known only once the scan is over).
pub(super) async fn scan_kinds(
    conn: &Arc<Connection>,
    (evidence, lock, tree): (&Arc<EvidenceIndex>, &LockCheck, &Arc<FleetFacts>),
    kinds: Vec<ApiKind>,
    (doctor, settings, shared): (&Doctor, &Settings, &Shared),
    unjudged: &Unjudged,
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
    let (per_mr, at, lock, unjudged, tree) =
        (evidence.clone(), doctor.at, lock.clone(), unjudged.clone(), tree.clone());
    let results = scan::scan_with(
        conn.clone(),
        kinds,
        doctor.scan.lists.clone(),
        RetryPolicy::within(doctor.scan.retry_budget),
        move |mr| {
            if let Some(lock) = &lock {
                lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).check(&mr);
            }
            let sample = Sample::of(&mr);
            let holder = Holder::of(&mr);
            let member = mr.composed.as_ref().and_then(|_| Member::of(&mr)).map(Box::new);
            if unjudged.keeps(&mr) {
                // Judged once what the whole fleet tells is known (fleet-wide inputs, its kind
                // going away).
                let state = per_mr.state(&mr);
                return Some(Kept { mr: KeptMr::boxed(mr, state, None), sample, holder, member });
            }
            let findings = per_mr.findings(&mr, &tree, at);
            let mr = match findings.is_empty() {
                true => None,
                false => {
                    let state = per_mr.state(&mr);
                    KeptMr::boxed(mr, state, Some(findings))
                }
            };
            let keep = mr.is_some() || sample.is_some() || holder.is_some() || member.is_some();
            keep.then_some(Kept { mr, sample, holder, member })
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
/// applied; the samples (`sample` takes one out of what the scan kept of an MR) are moved out
/// of the scan results and dropped once learned. `guard` learns its kinds' formats so too.
pub(crate) fn learn_peers<T>(results: &mut [scan::KindScan<T>], sample: impl Fn(&mut T) -> Option<Sample>) -> Peers {
    let mut peers = Peers::default();
    for r in results.iter_mut() {
        for sample in r.kept.iter_mut().filter_map(&sample) {
            peers.add(&r.kind.group, &r.kind.kind, sample);
        }
    }
    peers.learn();
    peers
}

/// One live cluster's scan: the report, where the time went, and the kubeconfig context read
/// (for the plan).
pub(super) struct LiveScan {
    pub(super) report: Report,
    pub(super) timings: Timings,
    pub(super) context: Option<String>,
}

/// Scans the cluster `connect` points at; with `shared.limiter`, every request draws from the
/// permits shared with the other clusters of the run.
pub(super) async fn from_cluster(
    settings: &Settings,
    doctor: &Doctor,
    connect: &ConnectOptions,
    shared: &Shared,
) -> anyhow::Result<LiveScan> {
    let mut timings = Timings::default();
    let (fleet_inputs, inventory_notes) = doctor.fleet.read().await?;
    let mut clock = std::time::Instant::now();
    let mut lap = |t: &mut std::time::Duration| {
        *t = clock.elapsed();
        clock = std::time::Instant::now();
    };
    let conn = connected(connect, shared.limiter.clone()).await?;
    lap(&mut timings.connect);
    let (selected, dstats) = selected_kinds(&conn, &doctor.scan, &doctor.scan.cache).await?;
    lap(&mut timings.discovery);
    timings.discovery_requests = dstats.requests;
    timings.discovery_cached = dstats.from_cache;
    let context = conn.context.clone();
    if selected.is_empty() {
        // Nothing to filter: a report of the one note.
        let mut empty = ReportBuilder::new(upjet_core::report::Filter::default());
        empty.note("no managed resource kinds found: is Crossplane installed with an upjet provider?".into());
        return Ok(LiveScan { report: empty.finish(), timings, context });
    }
    let mut builder = ReportBuilder::new(doctor.filter.clone());
    let (evidence, mut notes) = doctor.evidence.read_live(settings, &conn, &selected, HashMap::new()).await?;
    let (mrd_note, going) = crate::commands::mrd::scan(&conn).await;
    notes.extend(mrd_note);
    notes.extend(inventory_notes);
    let GuardRead { admission, lock, notes: guard_notes } = read_guard(&conn).await;
    notes.extend(guard_notes);
    let lock: LockCheck = lock.map(|l| Arc::new(Mutex::new(l)));
    let (tree, tree_notes) = crate::commands::composition::read_live(&conn).await;
    notes.extend(tree_notes);
    let tree = Arc::new(FleetFacts::default().with_composition(Arc::new(Composition::of(tree))));
    let evidence = Arc::new(evidence);
    lap(&mut timings.evidence);
    let keep_all = fleet_inputs.need_every_mr();
    let unjudged = Unjudged { all: keep_all, going: Arc::new(going) };
    let run = (doctor, settings, shared);
    let mut results = scan_kinds(&conn, (&evidence, &lock, &tree), selected, run, &unjudged).await;
    if discover::cache_was_stale(&dstats, &results) {
        tracing::debug!("a cached kind answered 404: refreshing discovery");
        let fresh_cache = CacheOptions { refresh: true, ..doctor.scan.cache.clone() };
        let (fresh, stats) = selected_kinds(&conn, &doctor.scan, &fresh_cache).await?;
        timings.discovery_requests += stats.requests;
        let rest = discover::forget_stale(&mut results, fresh);
        if !rest.is_empty() {
            results.extend(scan_kinds(&conn, (&evidence, &lock, &tree), rest, run, &unjudged).await);
        }
    }
    lap(&mut timings.listing);
    credentials_accepted(&results, &conn)?;
    timings.kinds = results.len();
    let peers = learn_peers(&mut results, |k| k.sample.take());
    let holders: Vec<Holder> =
        results.iter_mut().flat_map(|r| r.kept.iter_mut().filter_map(|k| k.holder.take())).collect();
    let fleet = match keep_all {
        true => {
            let mrs: Vec<&ManagedResource> =
                results.iter().flat_map(|r| r.kept.iter().filter_map(|k| k.mr.as_ref().map(|k| &k.mr))).collect();
            fleet_inputs.tie(&mrs, &live_scope(settings, &results))
        }
        false => FleetFacts::default(),
    }
    .with_shared(SharedNames::of(holders))
    .with_removals(going_kinds(&conn, &results, &unjudged.going, &mut notes).await)
    .with_composition(Arc::new(fleet_tree(tree, &mut results, &evidence, &lock)));
    notes.extend(involve(&conn, &evidence, &mut results, &fleet).await);
    let judge =
        Judge { evidence: &evidence, fleet: &fleet, at: doctor.at, peers: &peers, templates: &doctor.id_templates };
    judge_guard(&mut builder, &results, &admission, &lock);
    add_results(&mut builder, results, &mut timings, &judge);
    let mut report = finish(builder, (&evidence, &fleet), notes, (&peers, &doctor.id_templates));
    report.complete_trees(&fleet.composition_tree().index);
    lap(&mut timings.report);
    Ok(LiveScan { report, timings, context })
}

/// The composition tree of the whole run, once the scan is over: the XRs and claims read before
/// it (`tree`, whose copy the scan's tasks held), the composed MRs it met (each `Kept`'s member,
/// moved out), and the identities the ID journal and the guard's lock keep of earlier MRs.
fn fleet_tree(
    tree: Arc<FleetFacts>,
    results: &mut [scan::KindScan<Kept>],
    evidence: &EvidenceIndex,
    lock: &LockCheck,
) -> Composition {
    let index: Composites = Arc::try_unwrap(tree)
        .map(FleetFacts::into_tree_index)
        .unwrap_or_else(|shared| shared.composition_tree().index.clone());
    let members: Vec<Member> =
        results.iter_mut().flat_map(|r| r.kept.iter_mut().filter_map(|k| k.member.take().map(|m| *m))).collect();
    let journal: Vec<_> = evidence.journal().into_iter().flat_map(|j| j.records()).cloned().collect();
    let lock = lock.as_ref().map(|l| l.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    let entries: Vec<(MrKey, Vec<String>)> = match lock.as_deref().map(|l| &l.view) {
        Some(Fetched::Got(view)) => view
            .entries()
            .map(|(k, ids)| {
                (MrKey { group: k.group, kind: k.kind, namespace: k.namespace, name: k.name }, ids.to_vec())
            })
            .collect(),
        _ => Vec::new(),
    };
    Composition::of_run(index, members, &journal, entries)
}

/// The kinds going away: those whose MRD is being deleted (`going`, from the MRD list), and those
/// whose CRD is, asked (metadata only) for the kinds whose MRs the scan saw being deleted alone.
async fn going_kinds(
    conn: &Connection,
    results: &[scan::KindScan<Kept>],
    going: &KindRemovals,
    notes: &mut Vec<String>,
) -> KindRemovals {
    let deleting: Vec<ApiKind> = results
        .iter()
        .filter(|r| r.kept.iter().filter_map(|k| k.mr.as_ref()).any(|k| k.mr.deletion_timestamp.is_some()))
        .map(|r| r.kind.clone())
        .collect();
    let mut removals = going.clone();
    if !deleting.is_empty() {
        let (crds, unread) = crate::commands::kind_removal::crds(conn, &deleting).await;
        removals.merge(crds);
        notes.extend(unread);
    }
    removals
}

/// The guard's findings, over the kinds listed and the MRs the scan checked against its lock.
fn judge_guard(
    builder: &mut ReportBuilder,
    results: &[scan::KindScan<Kept>],
    admission: &Fetched<Installed>,
    lock: &LockCheck,
) {
    let kinds = guard_kinds(results.iter().map(|r| &r.kind));
    let lock = lock.as_ref().map(|l| l.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    let facts = GuardFacts { kinds: &kinds, admission, lock: lock.as_deref() };
    for f in rules::guard_findings(&facts) {
        builder.push(f);
    }
}

/// The MRs the index of shared objects names (a fight, a parked legacy MR beside its twin) are
/// judged (again) once it is known: one kept with findings is judged anew, one judged healthy
/// during the scan (only its holder was kept) is read again. Returns a note per MR that could
/// not be read.
async fn involve(
    conn: &Connection,
    evidence: &EvidenceIndex,
    results: &mut [scan::KindScan<Kept>],
    fleet: &FleetFacts,
) -> Vec<String> {
    let mut involved = fleet.involved();
    if involved.is_empty() {
        return Vec::new();
    }
    for kept in results.iter_mut().flat_map(|r| r.kept.iter_mut()).filter_map(|k| k.mr.as_mut()) {
        if involved.remove(&MrKey::of(&kept.mr)) {
            kept.findings = None;
        }
    }
    let mut notes = Vec::new();
    for key in involved {
        let Some(r) = results.iter_mut().find(|r| (&r.kind.group, &r.kind.kind) == (&key.group, &key.kind)) else {
            continue;
        };
        let target = Target::new(r.kind.clone(), key.namespace.as_deref(), &key.name);
        match upjet_cluster::write::read(conn, &target).await.map(|v| ManagedResource::from_value(&v)) {
            Ok(Ok(mr)) => {
                let state = evidence.state(&mr);
                r.kept.push(Kept { mr: KeptMr::boxed(mr, state, None), sample: None, holder: None, member: None });
            }
            Ok(Err(e)) => notes.push(format!("{}: cannot decode it to judge the object it shares: {e}", key.display())),
            Err(e) => notes.push(format!("{}: cannot read it again to judge the object it shares: {e}", key.display())),
        }
    }
    notes
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
pub(super) fn live_scope(settings: &Settings, results: &[scan::KindScan<Kept>]) -> ScanCoverage {
    let kinds = ScanCoverage::of_kinds(results.iter().map(|r| ServedKind {
        kind: r.kind.kind.clone(),
        group: r.kind.group.clone(),
        version: r.kind.version.clone(),
    }));
    let complete =
        settings.namespace.is_none() && settings.selector.is_none() && results.iter().all(|r| r.error.is_none());
    ScanCoverage { kinds, all_kinds: false, complete, truncated: Vec::new() }
}

/// How the kept MRs become findings once the whole fleet is known: those kept unjudged (for the
/// fleet-wide inputs) are judged now, and every finding is completed with the ID formats learned
/// from healthy peers.
pub(super) struct Judge<'a> {
    pub(super) evidence: &'a EvidenceIndex,
    pub(super) fleet: &'a FleetFacts,
    pub(super) at: JudgedAt,
    pub(super) peers: &'a Peers,
    pub(super) templates: &'a [identity::UserTemplate],
}

impl Judge<'_> {
    /// Completes one kept MR's findings once the whole fleet is known (the observed IDs shared
    /// between its findings, the predicted ones filled from the peers learned), and says whether
    /// the provider would create its cloud object again (the summary's restart count), which the
    /// evidence gathered for it may show as well as the object.
    pub(super) fn complete(&self, mr: &ManagedResource, findings: &mut [Finding]) -> bool {
        upjet_core::candidate::share_observed(findings);
        identity::fill(findings, mr, self.peers, self.templates);
        let evidence = self.evidence.evidence_for(mr, self.fleet);
        upjet_core::rules::restore_verdict::restart_duplicates(mr, Some(&evidence), self.peers, self.at)
    }
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
        for kept in r.kept.into_iter().filter_map(|k| k.mr) {
            let KeptMr { mr, state, findings } = *kept;
            let mut findings = findings.unwrap_or_else(|| judge.evidence.findings(&mr, judge.fleet, judge.at));
            restart += usize::from(judge.complete(&mr, &mut findings));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Nearly every MR of a fleet is kept for its sample and holder, in one `Vec` per kind that
    /// grows by doubling: what `Kept` holds inline is paid for every MR, twice at worst. With the
    /// MR, its state and its findings inline (room for the MR twice, one per case) it was 1,856
    /// bytes: 51 MiB of `doctor -A`'s 79 MiB heap peak at 22,000 MRs (docs/performance.md).
    #[test]
    fn what_the_scan_keeps_of_each_mr_stays_small() {
        let size = std::mem::size_of::<Kept>();
        assert!(size <= 256, "Kept is {size} bytes inline; box what only some MRs need");
    }
}
