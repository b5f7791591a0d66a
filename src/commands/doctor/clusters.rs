//! doctor over several clusters (several `--context`, `--all-contexts`, several `--from`): each
//! cluster is scanned on its own, all at once, under one bound on the requests in flight; the
//! reports are merged by `domain::clusters`. A cluster that cannot be read is reported and the
//! others still count; only when none can be read does the run fail.

use super::fleet::{self, Shared};
use super::*;
use crate::commands::exit::{exit_for, one_line};
use crate::commands::resolve::NamedInput;
use upjet_core::clusters::{self, Outcome};

/// Scans every context asked for (several `--context`, or `--all-contexts`) and merges their
/// reports.
pub(super) async fn live(settings: &Settings, doctor: &Doctor) -> anyhow::Result<Report> {
    let outcomes = scan_contexts(settings, doctor).await?;
    merged(outcomes)
}

/// Reads every snapshot or backup (several `--from`), each as its own cluster, and merges their
/// reports. A snapshot that cannot be read fails the run: the user named it.
pub(super) async fn offline(settings: &Settings, doctor: &Doctor, named: &[NamedInput]) -> anyhow::Result<Report> {
    let mut outcomes = Vec::new();
    for input in named {
        let report = match input.backup {
            true => from_backup(&input.path, None, doctor, settings).await?,
            false => from_snapshot(&input.path, doctor, settings).await?,
        };
        outcomes.push((input.name.clone(), Ok(report)));
    }
    merged(outcomes)
}

/// One report of every cluster's; a cluster that failed is a block with its error. Fails only
/// when no cluster could be read.
fn merged(outcomes: Vec<(String, anyhow::Result<Report>)>) -> anyhow::Result<Report> {
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
pub(crate) fn contexts(settings: &Settings) -> Result<Vec<String>, Error> {
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
async fn scan_contexts(settings: &Settings, doctor: &Doctor) -> anyhow::Result<Vec<(String, anyhow::Result<Report>)>> {
    let names = contexts(settings)?;
    let limiter: Limiter = Arc::new(tokio::sync::Semaphore::new(doctor.scan.concurrency.max(1)));
    // One bar for every cluster, its length growing as each one's kinds are discovered.
    let bar = settings.progress.then(|| fleet::progress_bar(0));
    let scans = names.iter().map(|name| {
        let shared = Shared { limiter: Some(limiter.clone()), bar: bar.clone(), label: format!("{name}: ") };
        async move {
            let connect = settings.connect_to(name);
            let result = from_cluster(settings, doctor, &connect, &shared).await.map(|scan| scan.report);
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
