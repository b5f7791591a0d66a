//! Gathering evidence beyond the MR objects (provider logs, pods, events, the Terraform
//! workspace) for doctor, history, adopt and restore-plan: the cluster layer fetches, the evidence
//! layer parses, and [`EvidenceRequest::read`], the one evidence reader, indexes what a command
//! asks for ([`EvidenceSources`], resolved once from its flags by `commands::resolve`) so that
//! `evidence::index` hands each MR its share, one MR or a fleet alike.

use super::inputs::{explain, misplaced};
use super::journal::JournalAt;
use crate::settings::Settings;
use futures::StreamExt;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::logs::{self, ContainerLog, LogLimits};
use upjet_cluster::request::RequestError;
use upjet_cluster::retry::RetryPolicy;
use upjet_cluster::workspace::{self, WorkspaceError};
use upjet_cluster::{events, providers};
use upjet_core::managed::ManagedResource;
use upjet_core::restore::RestoreModel;
use upjet_core::rules::ProviderStarts;
use upjet_evidence::audit::{self, AuditIndex, Groups};
use upjet_evidence::correlate::{LogEvidence, SourceSummary};
use upjet_evidence::events::{EventRecord, parse_events};
use upjet_evidence::format::Reader;
use upjet_evidence::index::{EvidenceIndex, KindKey};
use upjet_evidence::logs::{Evidence, Retention, scan_reader};
use upjet_evidence::pods::{self, ProviderPod};
use upjet_evidence::sources::{AcknowledgesRequests, StartsByKind};
use upjet_evidence::workspace::{NotTerraformState, WorkspaceState, workspace_state};

/// What the provider pods and the log files gave ([`gather`]), and notes on what could not be
/// read.
#[derive(Default)]
pub struct ProviderLogs {
    /// Indexed log evidence, when any source was read.
    pub logs: Option<LogEvidence>,
    /// Provider pods found (live only).
    pub pods: Vec<ProviderPod>,
    /// Things the user should know (unreadable logs, no provider pods…).
    pub notes: Vec<String>,
    /// Change-log entries from the pods' changelogs sidecars and the log files.
    pub changelog: Vec<upjet_core::changelog::ChangeEntry>,
}

/// What a live read covers of the provider pods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pods {
    /// Nothing.
    Skip,
    /// The pods alone, for their starts (`history` shows a restart without the logs).
    List,
    /// The pods and their logs (current and previous container, and the changelogs sidecar).
    Logs,
}

/// Reads log files and, with `conn`, the provider pods as `pods` asks.
pub async fn gather(
    conn: Option<&Connection>,
    pods: Pods,
    files: &[PathBuf],
    reading: &LogReading,
    retention: Retention,
) -> anyhow::Result<ProviderLogs> {
    let mut g = ProviderLogs::default();
    let live = pods == Pods::Logs;
    if pods == Pods::Skip && files.is_empty() {
        return Ok(g);
    }
    if let (Pods::List | Pods::Logs, Some(conn)) = (pods, conn) {
        match provider_pods(conn, reading.provider_namespace.as_deref()).await {
            Ok(pods) => g.pods = pods,
            Err(e) => g.notes.push(format!("cannot list provider pods: {}", e.reason())),
        }
        if live && g.pods.is_empty() && g.notes.is_empty() {
            g.notes.push(
                "no provider pods found (label pkg.crossplane.io/provider); use --provider-namespace or --log-file"
                    .into(),
            );
        }
    }
    if !live && files.is_empty() {
        return Ok(g);
    }
    let keep = super::changelog::keep_for(&retention);
    let mut evidence = Vec::new();
    let mut sources = Vec::new();
    for file in files {
        let (ev, summary) = read_file(file, retention.clone()).await?;
        evidence.extend(ev);
        sources.push(summary);
    }
    if let (true, Some(conn)) = (live, conn) {
        read_pod_logs(conn, &g.pods, reading.limits, retention, &mut evidence, &mut sources, &mut g.notes).await;
    }
    // Entries are lines the log scanner could not use: only such files are read again for them.
    let mixed: Vec<PathBuf> =
        files.iter().zip(&sources).filter(|(_, s)| s.unknown > 0).map(|(f, _)| f.clone()).collect();
    let found = super::changelog::read_files(&mixed, keep.clone(), &mut g.changelog, &mut g.notes).await?;
    if let (true, Some(conn)) = (live, conn) {
        super::changelog::read_sidecars(conn, &g.pods, reading.limits, keep, &mut g.changelog, &mut g.notes).await;
    }
    let entries_of = |s: &SourceSummary| found.iter().find(|(n, _)| *n == s.name).map_or(0, |(_, n)| *n);
    // A file of change-log entries only is a sidecar's log, not a provider log: no rule about
    // provider logs (debug level) applies to it.
    sources.retain(|s| s.lines == 0 || entries_of(s) < s.lines);
    for s in &sources {
        let entries = entries_of(s);
        if s.unknown > entries {
            g.notes.push(format!(
                "{}: {} of {} lines were not provider log records (skipped)",
                s.name,
                s.unknown - entries,
                s.lines
            ));
        }
    }
    g.logs = Some(LogEvidence::new(evidence, sources));
    Ok(g)
}

/// Reads every provider pod's current container log, and the previous container's where the
/// pod restarted, four at a time; a log that cannot be read becomes a note.
async fn read_pod_logs(
    conn: &Connection,
    pods: &[ProviderPod],
    limits: LogLimits,
    retention: Retention,
    evidence: &mut Vec<Evidence>,
    sources: &mut Vec<SourceSummary>,
    notes: &mut Vec<String>,
) {
    let jobs: Vec<(ProviderPod, bool)> = pods
        .iter()
        .flat_map(|p| {
            let previous = p.restart_count > 0 || p.last_termination.is_some();
            std::iter::once((p.clone(), false)).chain(previous.then(|| (p.clone(), true)))
        })
        .collect();
    let policy = RetryPolicy::default();
    let results: Vec<_> = futures::stream::iter(jobs)
        .map(|(pod, previous)| {
            let (retention, policy) = (retention.clone(), &policy);
            async move { (read_pod_log_with(conn, &pod, previous, limits, retention, policy).await, pod, previous) }
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
            Err(e) => notes.push(unreadable_log(&pod, previous, &e)),
        }
    }
}

/// The note on a provider container's log that could not be read.
pub(crate) fn unreadable_log(pod: &ProviderPod, previous: bool, e: &RequestError) -> String {
    let which = if previous { " (previous container)" } else { "" };
    format!("cannot read logs of {}/{}{which}: {}", pod.namespace, pod.name, e.reason())
}

/// Reads a log file (`-` is stdin; gzip accepted).
async fn read_file(
    path: &Path,
    retention: Retention,
) -> Result<(Vec<Evidence>, SourceSummary), upjet_core::error::Error> {
    let path = path.to_path_buf();
    let name = path.display().to_string();
    tokio::task::spawn_blocking(move || {
        let result = if path.as_os_str() == "-" {
            scan_reader(std::io::stdin().lock(), "stdin", retention)
        } else {
            std::fs::File::open(&path).and_then(|f| scan_reader(f, &name, retention))
        };
        let mut s = result.map_err(|e| {
            explain(
                &path,
                Reader::LogFile,
                upjet_core::error::Error::usage(format!("cannot read log file {name}: {e}")),
            )
        })?;
        // Not one line was a log record: if the file is another input, say which flag takes it.
        if s.lines > 0
            && s.parsed == 0
            && let Some(e) = misplaced(&path, Reader::LogFile)
        {
            return Err(e);
        }
        let summary = SourceSummary::of(&name, None, &s);
        Ok((s.take_evidence(), summary))
    })
    .await
    .map_err(|e| upjet_core::error::Error::failed(format!("log reader stopped: {e}")))?
}

/// Reads and scans one container log of a provider pod (`previous`: the container before the
/// last restart) under `policy`: a stream cut off mid-body is read again from the start.
pub async fn read_pod_log_with(
    conn: &Connection,
    pod: &ProviderPod,
    previous: bool,
    limits: LogLimits,
    retention: Retention,
    policy: &RetryPolicy,
) -> Result<(Vec<Evidence>, SourceSummary), RequestError> {
    let name = format!("{}/{}/{}{}", pod.namespace, pod.name, pod.container, if previous { " (previous)" } else { "" });
    let scan_name = name.clone();
    let log = ContainerLog { namespace: &pod.namespace, pod: &pod.name, container: &pod.container, previous };
    let consume = move |r: &mut dyn std::io::Read| scan_reader(r, &scan_name, retention.clone());
    let mut s = logs::read_pod_log(conn, log, limits, policy, consume).await?;
    let summary = SourceSummary::of(&name, Some(pod.provider.clone()), &s);
    Ok((s.take_evidence(), summary))
}

/// How provider logs are read (`--since`, `--limit-bytes`, `--provider-namespace`, resolved).
#[derive(Clone, Debug, Default)]
pub struct LogReading {
    /// What of each container's log the API server sends.
    pub limits: LogLimits,
    /// Where the provider pods run (`None`: found from their labels in any namespace).
    pub provider_namespace: Option<String>,
}

/// What a command reads about its MRs beyond the objects, resolved once from its flags
/// (`commands::resolve`): the files, how live provider logs are read, and the ID journal. A run
/// turns it into an [`EvidenceRequest`] once it knows the MRs' groups and cluster.
#[derive(Clone, Debug, Default)]
pub struct EvidenceSources {
    /// `--log-file`.
    pub log_files: Vec<PathBuf>,
    /// How live logs are read.
    pub logs: LogReading,
    /// Read the live provider pods' logs (`doctor --logs`, `history` without `--no-logs`).
    pub provider_logs: bool,
    /// `--audit-log`.
    pub audit_logs: Vec<PathBuf>,
    /// `--journal`: the ID journal's folder, when named.
    pub journal: Option<PathBuf>,
}

impl EvidenceSources {
    /// The request of a run about the MRs of `groups`, without a cluster (set
    /// [`EvidenceRequest::live`] for one): the ID journal is `--journal`, else the default folder
    /// of `context` (`None`: the kubeconfig's current context).
    pub fn request<'a>(&'a self, settings: &Settings, context: Option<&str>, groups: Groups) -> EvidenceRequest<'a> {
        EvidenceRequest {
            live: None,
            sources: self,
            retention: Retention::Compact,
            groups,
            acknowledges_requests: HashMap::new(),
            restore: None,
            journal: super::journal::locate(settings, self.journal.as_deref(), context),
        }
    }

    /// Reads the evidence about the MRs of `kinds` in a live cluster: the provider pods' logs
    /// when asked, the files (an audit log filtered to the kinds' groups), the ID journal of the
    /// connection's context. `acknowledges_requests`: what is known of the kinds' CRDs.
    pub(crate) async fn read_live(
        &self,
        settings: &Settings,
        conn: &Connection,
        kinds: &[ApiKind],
        acknowledges_requests: HashMap<KindKey, bool>,
    ) -> anyhow::Result<(EvidenceIndex, Vec<String>)> {
        let groups = Groups::of(kinds.iter().map(|k| k.group.clone()));
        let mut request = self.request(settings, conn.context.as_deref(), groups);
        request.live = Some(LiveEvidence { conn, kinds, pods_without_logs: false });
        request.acknowledges_requests = acknowledges_requests;
        Ok(request.read().await?.into_index())
    }
}

/// What one run asks to be read about its MRs: its [`EvidenceSources`] and what the run knows
/// of the MRs (their groups, cluster, kinds' CRDs, a backup's restore model). The one request
/// [`EvidenceRequest::read`] turns into an [`EvidenceIndex`], one MR's (`history`) or a fleet's
/// (`doctor`, `restore-plan`) alike.
pub struct EvidenceRequest<'a> {
    /// The live cluster, when there is one: its provider pods (and, with
    /// [`EvidenceSources::provider_logs`], their logs) are read, and their starts tied to the
    /// kinds each serves.
    pub live: Option<LiveEvidence<'a>>,
    /// The files and how logs are read.
    pub sources: &'a EvidenceSources,
    /// What of each log line is kept.
    pub retention: Retention,
    /// The API groups of the MRs judged: the audit log is filtered to them before decoding.
    pub groups: Groups,
    /// What is already known of each kind's CRD (a backup holds the CRDs; a live one-MR run reads
    /// its one kind's).
    pub acknowledges_requests: HashMap<KindKey, bool>,
    /// From a backup: what restoring each MR depends on.
    pub restore: Option<RestoreModel>,
    /// The ID journal to read (`--journal`, else the context's default folder).
    pub journal: Option<JournalAt>,
}

/// The live half of an [`EvidenceRequest`].
pub struct LiveEvidence<'a> {
    /// The cluster.
    pub conn: &'a Connection,
    /// The kinds judged, mapped to the provider that serves each.
    pub kinds: &'a [ApiKind],
    /// List the provider pods for their starts even when their logs are not read (`history`).
    pub pods_without_logs: bool,
}

/// What [`EvidenceRequest::read`] read: the index, and what the shell uses beside it.
pub struct EvidenceRead {
    /// Each MR's share of it ([`EvidenceIndex::evidence_for`]).
    pub index: EvidenceIndex,
    /// The provider pods listed (live).
    pub pods: Vec<ProviderPod>,
    /// Which provider serves which CRD (ProviderRevisions), when the pods were listed.
    pub owners: HashMap<String, String>,
    /// What could not be read of the logs, the pods and the change log.
    pub notes: Vec<String>,
    /// The ID journal's skipped lines.
    pub journal_notes: Vec<String>,
}

impl EvidenceRead {
    /// The index and every note (the journal's last): what a fleet's report takes.
    pub(crate) fn into_index(self) -> (EvidenceIndex, Vec<String>) {
        (self.index, [self.notes, self.journal_notes].concat())
    }
}

impl EvidenceRequest<'_> {
    /// The one evidence reader: reads what the request asks for (logs, provider pods, audit
    /// logs, change-log entries, the ID journal) and adds each source read to the index, one
    /// line each (`evidence::sources`: what each MR gets of it).
    pub async fn read(self) -> anyhow::Result<EvidenceRead> {
        let EvidenceRequest { live, sources, retention, groups, acknowledges_requests, restore, journal } = self;
        let conn = live.as_ref().map(|l| l.conn);
        let pods = match &live {
            Some(_) if sources.provider_logs => Pods::Logs,
            Some(l) if l.pods_without_logs => Pods::List,
            _ => Pods::Skip,
        };
        let gathered = gather(conn, pods, &sources.log_files, &sources.logs, retention).await?;
        let (starts, owners) = match &live {
            Some(l) if pods != Pods::Skip => {
                let owners = crd_owners(l.conn).await;
                (provider_starts(&gathered.pods, l.kinds, &owners), owners)
            }
            _ => (HashMap::new(), HashMap::new()),
        };
        let (journal, journal_notes) = super::journal::read(journal.as_ref())?;
        let changelog = upjet_core::changelog::ChangeLogIndex::new(gathered.changelog);
        let mut index = EvidenceIndex::default();
        index.add(gathered.logs);
        index.add(Some(StartsByKind(starts)));
        index.add(read_audit_logs(&sources.audit_logs, groups).await?);
        index.add(Some(AcknowledgesRequests(acknowledges_requests)));
        index.add(restore);
        index.add((!changelog.is_empty()).then_some(changelog));
        index.add((!journal.is_empty()).then_some(journal));
        Ok(EvidenceRead { index, pods: gathered.pods, owners, notes: gathered.notes, journal_notes })
    }
}

/// Maps each judged kind to the starts of the provider serving it.
fn provider_starts(
    pods: &[ProviderPod],
    kinds: &[ApiKind],
    owners: &HashMap<String, String>,
) -> HashMap<KindKey, ProviderStarts> {
    let by_provider = pods::provider_starts(pods);
    let names: Vec<String> = by_provider.keys().cloned().collect();
    let mut starts = HashMap::new();
    for k in kinds {
        if let Some(s) = providers::provider_for_kind(k, owners, &names).and_then(|p| by_provider.get(&p)) {
            starts.insert((k.group.clone(), k.kind.clone()), s.clone());
        }
    }
    starts
}

/// A body the API server sent that does not parse, as the request error kube would report.
fn undecodable(e: serde_json::Error) -> RequestError {
    RequestError::Kube(kube::Error::SerdeError(e))
}

/// Lists provider pods, in one namespace or (default) wherever Crossplane runs them.
pub async fn provider_pods(conn: &Connection, namespace: Option<&str>) -> Result<Vec<ProviderPod>, RequestError> {
    pods::parse_pods(&providers::provider_pods(conn, namespace).await?).map_err(undecodable)
}

/// Lists the providers' Deployments (with safe-start, a provider's only trace while it waits at
/// zero replicas), in one namespace or every one.
pub(crate) async fn provider_deployments(
    conn: &Connection,
    namespace: Option<&str>,
) -> Result<Vec<pods::ProviderDeployment>, RequestError> {
    providers::deployments(conn, namespace, pods::parse_deployments).await
}

/// CRD → provider from ProviderRevisions; empty when they cannot be read (older Crossplane, RBAC).
pub(crate) async fn crd_owners(conn: &Connection) -> HashMap<String, String> {
    match providers::provider_revisions(conn).await {
        Ok(body) => pods::parse_revisions(&body).unwrap_or_default(),
        Err(_) => HashMap::new(),
    }
}

/// The kind a CRD serves, at its storage version (every served version reads the same objects);
/// `None` for a CRD that serves no version. The watch follows a CRD installed later by it, and
/// `guard --from` reads a folder of CRDs with it.
pub(crate) fn served_kind(summary: &upjet_evidence::crd::CrdSummary) -> Option<ApiKind> {
    Some(ApiKind {
        group: summary.group.clone(),
        version: summary.versions.first()?.clone(),
        plural: summary.plural.clone(),
        singular: summary.kind.to_lowercase(),
        kind: summary.kind.clone(),
        namespaced: summary.namespaced,
        short_names: Vec::new(),
        categories: summary.categories.clone(),
    })
}

/// Whether an MR's kind acknowledges reconcile requests (its CRD declares
/// `status.lastHandledReconcileAt`), read only when the MR carries a request the provider has not
/// acknowledged: the one case a rule needs it. `None` when not needed or the CRD is unreadable.
pub async fn acknowledges_requests(conn: &Connection, kind: &ApiKind, mr: &ManagedResource) -> Option<bool> {
    use upjet_core::managed::keys::RECONCILE_REQUESTED_AT;
    let token = mr.annotation(RECONCILE_REQUESTED_AT)?;
    if mr.last_handled_reconcile_at.as_deref() == Some(token) {
        return None;
    }
    let body = providers::crd(conn, &kind.resource_name()).await.ok()?;
    upjet_evidence::crd::parse(&body).ok().map(|c| c.acknowledges_requests)
}

/// The events of one MR (by UID).
pub async fn events_of(conn: &Connection, mr: &ManagedResource) -> Result<Vec<EventRecord>, RequestError> {
    parse_events(&events::events_of(conn, mr).await?).map_err(undecodable)
}

/// Why the workspace of an MR could not be read or understood.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WorkspaceReadError {
    /// The file could not be read from the pod.
    #[error(transparent)]
    Read(#[from] WorkspaceError),
    /// The file is not a Terraform state.
    #[error(transparent)]
    Parse(#[from] NotTerraformState),
}

/// Reads and parses the Terraform workspace of MR `uid` from one provider pod.
pub(crate) async fn read_workspace(
    conn: &Connection,
    pod: &ProviderPod,
    uid: &str,
) -> Result<WorkspaceState, WorkspaceReadError> {
    let text = workspace::read(conn, &pod.namespace, &pod.name, &pod.container, uid).await?;
    Ok(workspace_state(format!("{}/{}", pod.namespace, pod.name), &workspace::tfstate_path(uid), &text)?)
}

/// Opens a file the user named (`-` is stdin) for one of the readers: a file that does not exist,
/// cannot be opened or is a folder is a usage error (exit 2) naming it and `what` it was meant to
/// be. Returns the reader and the name the file's notes use.
pub(crate) fn open_input(
    path: &Path,
    what: &str,
) -> Result<(Box<dyn std::io::Read>, String), upjet_core::error::Error> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(std::io::stdin().lock()), "stdin".into()));
    }
    let name = path.display().to_string();
    let unreadable = |e: std::io::Error| upjet_core::error::Error::usage(format!("cannot read {what} {name}: {e}"));
    let f = std::fs::File::open(path).map_err(unreadable)?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(unreadable(std::io::Error::from(std::io::ErrorKind::IsADirectory)));
    }
    Ok((Box::new(f), name))
}

/// Reads every `--audit-log` file (`-` is stdin; gzip accepted) off the async runtime, keeping
/// the writes to `groups`; `None` without files. A file that cannot be opened is a usage error;
/// what its content lacks becomes notes (see [`AuditIndex::notes`]).
pub async fn read_audit_logs(files: &[PathBuf], groups: Groups) -> anyhow::Result<Option<AuditIndex>> {
    if files.is_empty() {
        return Ok(None);
    }
    let files = files.to_vec();
    tokio::task::spawn_blocking(move || {
        let mut read = Vec::new();
        for path in &files {
            let (reader, name) = open_input(path, "audit log")?;
            let (found, writes) = audit::read(reader, &name, &groups);
            // Not one document was an audit event: if the file is another input, say so.
            if found.documents > 0
                && found.audit_like == 0
                && let Some(e) = misplaced(path, Reader::AuditLog)
            {
                return Err(e.into());
            }
            read.push((found, writes));
        }
        Ok(Some(AuditIndex::new(read)))
    })
    .await
    .map_err(|e| upjet_core::error::Error::failed(format!("audit log reader stopped: {e}")))?
}

/// The API groups of the MRs in a snapshot (from each item's `apiVersion`), so that an audit
/// log is filtered to them before it is decoded.
pub(crate) fn snapshot_groups<'a>(items: impl Iterator<Item = &'a str>) -> Groups {
    #[derive(serde::Deserialize)]
    struct Head<'b> {
        #[serde(borrow, rename = "apiVersion")]
        api_version: Option<std::borrow::Cow<'b, str>>,
    }
    let groups = items.filter_map(|json| {
        let head: Head = serde_json::from_str(json).ok()?;
        let av = head.api_version?;
        av.split_once('/').map(|(g, _)| g.to_string())
    });
    Groups::of(groups)
}
