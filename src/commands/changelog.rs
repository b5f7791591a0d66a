//! Gathering change-log entries wherever provider logs are read: the changelogs sidecar of each
//! provider pod (and its previous container after a restart), and every `--log-file` that holds
//! entries among its lines.

use futures::StreamExt;
use std::path::PathBuf;
use std::sync::Arc;
use upjet_cluster::connect::Connection;
use upjet_cluster::logs::{self, ContainerLog, LogLimits};
use upjet_cluster::retry::RetryPolicy;
use upjet_core::changelog::ChangeEntry;
use upjet_evidence::changelog::{self, ChangeLogRead};
use upjet_evidence::logs::Retention;
use upjet_evidence::pods::ProviderPod;

/// Which entries a run keeps: all of them for a fleet, one MR's (by name) for a command about it.
pub type Keep = Arc<dyn Fn(&ChangeEntry) -> bool + Send + Sync>;

/// The entries a retention keeps: `Focus` keeps one MR's by name (the UID and namespace are in
/// the snapshot, matched later by `MrChangeLog::for_mr`).
pub(crate) fn keep_for(retention: &Retention) -> Keep {
    match retention {
        Retention::Focus { name, .. } => {
            let name = name.clone();
            Arc::new(move |e: &ChangeEntry| e.name == name)
        }
        _ => Arc::new(|_: &ChangeEntry| true),
    }
}

/// Reads the change-log sidecar of every pod that runs one (its previous container too after a
/// restart), four at a time; a log that cannot be read becomes a note.
pub(crate) async fn read_sidecars(
    conn: &Connection,
    pods: &[ProviderPod],
    limits: LogLimits,
    keep: Keep,
    entries: &mut Vec<ChangeEntry>,
    notes: &mut Vec<String>,
) {
    let jobs: Vec<(&ProviderPod, &str, bool)> = pods
        .iter()
        .filter_map(|p| Some((p, p.changelog.as_ref()?)))
        .flat_map(|(p, s)| {
            std::iter::once((p, s.container.as_str(), false)).chain(s.restarted.then_some((
                p,
                s.container.as_str(),
                true,
            )))
        })
        .collect();
    let policy = RetryPolicy::default();
    let results: Vec<_> = futures::stream::iter(jobs)
        .map(|(pod, container, previous)| {
            let (keep, policy) = (keep.clone(), &policy);
            async move {
                let name =
                    format!("{}/{}/{container}{}", pod.namespace, pod.name, if previous { " (previous)" } else { "" });
                let log = ContainerLog { namespace: &pod.namespace, pod: &pod.name, container, previous };
                let scan_name = name.clone();
                let consume = move |r: &mut dyn std::io::Read| changelog::read(r, &scan_name, |e| keep(e));
                (logs::read_pod_log(conn, log, limits, policy, consume).await, name)
            }
        })
        .buffer_unordered(4)
        .collect()
        .await;
    for (result, name) in results {
        match result {
            Ok(read) => take(read, &name, entries, notes),
            Err(e) => notes.push(format!("cannot read the change log of {name}: {}", e.reason())),
        }
    }
}

/// Reads the change-log entries among the lines of `--log-file` files (stdin cannot be read a
/// second time: it is skipped), off the async runtime. Returns how many entries each file held.
pub(crate) async fn read_files(
    files: &[PathBuf],
    keep: Keep,
    entries: &mut Vec<ChangeEntry>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<(String, u64)>> {
    let files: Vec<PathBuf> = files.iter().filter(|f| f.as_os_str() != "-").cloned().collect();
    let read = tokio::task::spawn_blocking(move || {
        files
            .iter()
            .map(|path| {
                let name = path.display().to_string();
                let read = std::fs::File::open(path).and_then(|f| changelog::read(f, &name, |e| keep(e)));
                (read, name)
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|e| upjet_core::error::Error::failed(format!("change-log reader stopped: {e}")))?;
    let mut found = Vec::new();
    for (result, name) in read {
        match result {
            Ok(r) => {
                found.push((name.clone(), r.found));
                take(r, &name, entries, notes);
            }
            Err(e) => notes.push(format!("cannot read change-log entries of {name}: {e}")),
        }
    }
    Ok(found)
}

/// Keeps what one source held and notes how much it was.
fn take(read: ChangeLogRead, name: &str, entries: &mut Vec<ChangeEntry>, notes: &mut Vec<String>) {
    if read.found > 0 {
        notes.push(format!("read change log {name}: {} entries", read.found));
    }
    if read.too_long > 0 {
        notes.push(format!("{name}: {} change-log lines longer than the reader's limit (skipped)", read.too_long));
    }
    entries.extend(read.entries);
}
