//! doctor over several clusters (several `--context`, `--all-contexts`, several `--from`): each
//! cluster is scanned on its own, all at once, under one bound on the requests in flight; the
//! reports are merged by `domain::clusters`. A cluster that cannot be read is reported and the
//! others still count; only when none can be read does the run fail.

use super::fleet::{self, Shared};
use super::*;
use crate::domain::clusters::{self, Outcome};
use crate::error::{exit_for, one_line};
use std::path::PathBuf;

/// Whether this run covers several clusters (then the report names each finding's cluster).
pub(super) fn several(settings: &Settings, args: &DoctorArgs) -> bool {
    settings.several_contexts() || args.from.len() > 1
}

/// Each `--from` with the cluster it is named after (usage error: two of one name).
pub(super) fn snapshot_names(args: &DoctorArgs) -> Result<Vec<(String, PathBuf)>, Error> {
    let paths: Vec<(&std::path::Path, bool)> = args.from.iter().map(|p| (p.as_path(), p.is_dir())).collect();
    let names = clusters::names_of_snapshots(&paths).map_err(Error::usage)?;
    Ok(names.into_iter().zip(args.from.iter().cloned()).collect())
}

/// Scans every cluster asked for and merges their reports.
pub(super) async fn run(settings: &Settings, args: &DoctorArgs) -> anyhow::Result<Report> {
    if !args.inventory.is_empty() {
        let why = "--inventory cross-checks one cluster's fleet against one cloud export: run doctor once per cluster";
        return Err(Error::usage(why).into());
    }
    if !args.cloud.cloud_audit.is_empty() {
        let why = "--cloud-audit ties one cluster's MRs to the cloud's record (their healthy peers teach who the provider is): run doctor once per cluster";
        return Err(Error::usage(why).into());
    }
    if !args.log_files.is_empty() {
        let why = "--log-file cannot tell which cluster a log came from: run doctor once per cluster (--logs reads each cluster's own provider pods)";
        return Err(Error::usage(why).into());
    }
    let outcomes = if args.from.is_empty() {
        live(settings, args).await?
    } else {
        let mut outcomes = Vec::new();
        for (name, path) in snapshot_names(args)? {
            outcomes.push((name, Ok(from_snapshot(&path, args, settings).await?)));
        }
        outcomes
    };
    if outcomes.iter().all(|(_, r)| r.is_err()) {
        return Err(none_scanned(outcomes).into());
    }
    let outcomes = outcomes
        .into_iter()
        .map(|(name, r)| (name, r.map_or_else(|e| Outcome::Failed(one_line(&e)), |r| Outcome::Scanned(Box::new(r)))))
        .collect();
    Ok(clusters::merge(outcomes))
}

/// The contexts to scan: every `--context` once, in order, or the kubeconfig's with
/// `--all-contexts`.
pub(super) fn contexts(settings: &Settings) -> Result<Vec<String>, Error> {
    let names = match settings.all_contexts {
        true => connect::kubeconfig_contexts(&settings.connect)?.0,
        false => settings.contexts.clone(),
    };
    let mut unique: Vec<String> = Vec::with_capacity(names.len());
    for n in names {
        if !unique.contains(&n) {
            unique.push(n);
        }
    }
    if unique.is_empty() {
        return Err(Error::usage("--all-contexts: the kubeconfig has no contexts"));
    }
    Ok(unique)
}

/// Scans every context at once; the requests of all of them share `--concurrency` permits.
async fn live(settings: &Settings, args: &DoctorArgs) -> anyhow::Result<Vec<(String, anyhow::Result<Report>)>> {
    let names = contexts(settings)?;
    let limiter: Limiter = Arc::new(tokio::sync::Semaphore::new(usize::from(args.concurrency).max(1)));
    // One bar for every cluster, its length growing as each one's kinds are discovered.
    let bar = settings.progress.then(|| fleet::progress_bar(0));
    let scans = names.iter().map(|name| {
        let shared = Shared { limiter: Some(limiter.clone()), bar: bar.clone(), label: format!("{name}: ") };
        async move {
            let connect = settings.connect_to(name);
            let result = from_cluster(settings, args, &connect, &shared).await.map(|(report, _, _)| report);
            (name.clone(), result)
        }
    });
    let outcomes = futures::future::join_all(scans).await;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(outcomes)
}

/// The error of a run in which no cluster could be read: each cluster and why, exit 3 (exit 2
/// when every reason is a usage error, e.g. a `--kind` no cluster serves).
fn none_scanned(outcomes: Vec<(String, anyhow::Result<Report>)>) -> Error {
    let mut all_usage = true;
    let mut lines = Vec::new();
    for (name, r) in outcomes {
        if let Err(e) = r {
            all_usage &= exit_for(&e) == Exit::Usage;
            lines.push(format!("  {}: {}", style::sanitize(&name), style::sanitize(&one_line(&e))));
        }
    }
    let message = format!("no cluster could be scanned:\n{}", lines.join("\n"));
    if all_usage { Error::usage(message) } else { Error::cluster(message) }
}
