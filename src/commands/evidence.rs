//! Gathering evidence beyond the MR objects (provider logs, pods) for doctor and history, and the
//! [`Analyzer`] that turns one MR plus that evidence into findings.

use crate::cli::LogOptions;
use crate::cluster::connect::Connection;
use crate::cluster::kinds::ApiKind;
use crate::cluster::logs::{self, LogLimits};
use crate::cluster::providers::{self, ProviderPod};
use crate::domain::diagnose::diagnose;
use crate::domain::finding::Finding;
use crate::domain::managed::ManagedResource;
use crate::domain::report::ResourceState;
use crate::evidence::correlate::{LogEvidence, ProviderStarts, log_findings};
use crate::evidence::logs::Retention;
use futures::StreamExt;
use std::collections::HashMap;
use std::path::PathBuf;

/// What was gathered, and notes on what could not be.
#[derive(Default)]
pub struct Gathered {
    /// Indexed log evidence, when any source was read.
    pub logs: Option<LogEvidence>,
    /// Provider pods found (live only).
    pub pods: Vec<ProviderPod>,
    /// Things the user should know (unreadable logs, no provider pods…).
    pub notes: Vec<String>,
}

/// Reads log files and, with `live`, every provider pod's current and previous container logs.
pub async fn gather(
    conn: Option<&Connection>,
    live: bool,
    files: &[PathBuf],
    opts: &LogOptions,
    retention: Retention,
) -> anyhow::Result<Gathered> {
    let mut g = Gathered::default();
    if !live && files.is_empty() {
        return Ok(g);
    }
    let mut evidence = Vec::new();
    let mut sources = Vec::new();
    for file in files {
        let (ev, summary) = logs::read_file(file, retention.clone()).await?;
        evidence.extend(ev);
        sources.push(summary);
    }
    if let (true, Some(conn)) = (live, conn) {
        match providers::provider_pods(conn, opts.provider_namespace.as_deref()).await {
            Ok(pods) => g.pods = pods,
            Err(e) => g.notes.push(format!("cannot list provider pods: {}", e.reason())),
        }
        if g.pods.is_empty() && g.notes.is_empty() {
            g.notes.push(
                "no provider pods found (label pkg.crossplane.io/provider); use --provider-namespace or --log-file"
                    .into(),
            );
        }
        let limits = LogLimits {
            since_seconds: (!opts.since.is_zero()).then(|| opts.since.as_secs().max(1) as i64),
            limit_bytes: Some(opts.limit_bytes),
        };
        let jobs: Vec<(ProviderPod, bool)> = g
            .pods
            .iter()
            .flat_map(|p| {
                let previous = p.restart_count > 0 || p.last_termination.is_some();
                std::iter::once((p.clone(), false)).chain(previous.then(|| (p.clone(), true)))
            })
            .collect();
        let results: Vec<_> = futures::stream::iter(jobs)
            .map(|(pod, previous)| {
                let retention = retention.clone();
                async move { (logs::read_pod_log(conn, &pod, previous, limits, retention).await, pod, previous) }
            })
            .buffer_unordered(4)
            .collect()
            .await;
        for (result, pod, previous) in results {
            match result {
                Ok((ev, summary)) => {
                    evidence.extend(ev);
                    sources.push(summary);
                }
                Err(e) => g.notes.push(format!(
                    "cannot read logs of {}/{}{}: {}",
                    pod.namespace,
                    pod.name,
                    if previous { " (previous container)" } else { "" },
                    e.reason()
                )),
            }
        }
    }
    for s in &sources {
        if s.unknown > 0 {
            g.notes.push(format!(
                "{}: {} of {} lines were not provider log records (skipped)",
                s.name, s.unknown, s.lines
            ));
        }
    }
    g.logs = Some(LogEvidence::new(evidence, sources));
    Ok(g)
}

/// Every rule applied to one MR: the object's own diagnoses plus log and restart evidence.
#[derive(Default)]
pub struct Analyzer {
    /// Log evidence, if gathered.
    pub logs: Option<LogEvidence>,
    /// Provider starts by (API group, kind) of the kinds each provider serves.
    pub starts: HashMap<(String, String), ProviderStarts>,
}

impl Analyzer {
    /// Builds the analyzer, mapping each scanned kind to its provider's pod starts.
    pub fn new(gathered: Gathered, kinds: &[ApiKind], owners: &HashMap<String, String>) -> Analyzer {
        let mut by_provider: HashMap<String, ProviderStarts> = HashMap::new();
        for pod in &gathered.pods {
            let e = by_provider
                .entry(pod.provider.clone())
                .or_insert_with(|| ProviderStarts { provider: pod.provider.clone(), starts: Vec::new() });
            e.starts.extend(pod.starts());
        }
        let names: Vec<String> = by_provider.keys().cloned().collect();
        let mut starts = HashMap::new();
        for k in kinds {
            if let Some(s) = providers::provider_for_kind(k, owners, &names).and_then(|p| by_provider.get(&p)) {
                starts.insert((k.group.clone(), k.kind.clone()), s.clone());
            }
        }
        Analyzer { logs: gathered.logs, starts }
    }

    /// All findings for one MR.
    pub fn findings(&self, mr: &ManagedResource) -> Vec<Finding> {
        let mut f = diagnose(mr);
        if self.logs.is_some() || !self.starts.is_empty() {
            let starts = self.starts.get(&(mr.group().to_string(), mr.kind.clone()));
            f.extend(log_findings(mr, self.logs.as_ref(), starts));
        }
        f
    }

    /// The MR's identity state, with the last provider-logged ID when logs were read.
    pub fn state(&self, mr: &ManagedResource) -> ResourceState {
        let mut s = ResourceState::of(mr);
        s.last_logged_id = self.logs.as_ref().and_then(|l| l.last_logged_ref(&mr.uid));
        s
    }
}
