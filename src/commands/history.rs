//! `kubectl upjet history KIND/NAME`: everything the cluster still knows about one MR's creation,
//! as one timeline.

use super::doctor::locate;
use super::evidence::{EvidenceRead, LiveEvidence, acknowledges_requests, events_of, read_workspace};
use super::resolve::{History, HistoryOutput};
use crate::cli::HistoryArgs;
use crate::settings::Settings;
use std::collections::HashMap;
use std::io::Write;
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::providers;
use upjet_core::adopt::{self, Candidate, EventName};
use upjet_core::audit::highlights;
use upjet_core::error::Exit;
use upjet_core::finding::Finding;
use upjet_core::managed::ManagedResource;
use upjet_core::rules;
use upjet_evidence::audit::Groups;
use upjet_evidence::correlate::LogEvidence;
use upjet_evidence::events::EventRecord;
use upjet_evidence::logs::Retention;
use upjet_evidence::pods::ProviderPod;
use upjet_evidence::timeline::{Inputs, build};
use upjet_evidence::workspace::WorkspaceState;
use upjet_output::forms::Form;
use upjet_output::{history, structured};

/// What only a live cluster can tell about the MR: its events, its provider's pods, its workspace.
#[derive(Default)]
struct Live {
    events: Vec<EventRecord>,
    events_read: bool,
    pods: Vec<ProviderPod>,
    workspace: Option<WorkspaceState>,
}

/// Runs history: its flags resolved once ([`History`]), its printer opened (a form's template
/// read), then the timeline of the MR they name.
pub async fn run(settings: &Settings, args: &HistoryArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let asked = History::resolve(args, settings);
    let output = asked.output.open()?;
    timeline(settings, &asked, &output, out).await
}

/// The MR's timeline: its evidence read as one MR's share (`EvidenceRequest::read`, the rules'
/// findings on it as highlights), its events and provider pods when live, printed.
async fn timeline(
    settings: &Settings,
    asked: &History,
    output: &HistoryOutput<Form>,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let (mr, live) = locate(settings, asked.from.as_deref(), &asked.target).await?;
    let read = read_evidence(settings, asked, &mr, live.as_ref()).await?;
    let mut notes = read.notes.clone();
    let seen = match &live {
        Some((conn, kind)) => read_live(conn, kind, &mr, asked.workspace, &read, &mut notes).await,
        None if asked.workspace => {
            notes.push("--workspace needs a live cluster (not --from)".into());
            Live::default()
        }
        None => Live::default(),
    };
    let live_kind = live.as_ref().map(|(c, k)| (c, k));
    let (fleet, fleet_notes) = asked.fleet.for_one(&mr, asked.from.as_deref(), live_kind).await?;
    // The highlights are the rules' findings on this MR's evidence, as doctor judges it.
    let evidence = read.index.evidence_for(&mr, &fleet);
    // The audit log's notes say which of its writes no MR read claimed: after the lookup.
    notes.extend(read.index.notes());
    notes.extend(fleet_notes);
    notes.extend(read.journal_notes.iter().cloned());
    let findings = rules::findings_with(&mr, Some(&evidence), asked.at);
    let logs = read.index.logs();
    let mut candidates = candidates_of(&mr, &findings, &seen, logs, &evidence.journal);
    if let Some(a) = &evidence.audit {
        candidates = upjet_core::candidate::rank(candidates.into_iter().chain(highlights::candidates(&a.history, &mr)));
    }
    let audit_history = evidence.audit.as_ref().map(|a| &a.history);
    let inputs = Inputs {
        events: &seen.events,
        pods: &seen.pods,
        logs: logs.map(|l| l.timeline(&mr)).unwrap_or_default(),
        workspace: seen.workspace.as_ref(),
        events_read: seen.events_read,
        findings: &findings,
        candidates: &candidates,
        audit: audit_history,
        cloud: evidence.cloud_audit.as_ref(),
        changelog: evidence.changelog.as_ref(),
        journal: &evidence.journal,
        inventory: evidence.inventory.as_ref(),
    };
    let timeline = build(&mr, &inputs);
    let doc = || {
        serde_json::json!({
            "apiVersion": "upjet.doctor/v1", "kind": "History",
            "resource": upjet_core::finding::ResourceRef::of(&mr),
            "timeline": timeline, "notes": notes,
            "lastLoggedId": logs.and_then(|l| l.last_logged_ref(&mr.uid)),
            "audit": audit_history,
        })
    };
    match output {
        HistoryOutput::Form(form) => super::forms::print_history(out, form, &doc())?,
        HistoryOutput::Json => structured::write_json(out, &doc())?,
        HistoryOutput::Html => upjet_output::html::history::write_history(out, &mr, &timeline, &notes)?,
        HistoryOutput::Text => history::write_history(out, &mr, &timeline, &notes)?,
    }
    Ok(Exit::Ok)
}

/// Reads what the MR's timeline is made of, as one MR's share of the evidence: only its log
/// lines are kept (a long log costs time, not memory), only its group of an audit log is decoded,
/// and when live its provider pods are listed for their starts even without their logs, and its
/// kind's CRD read when it carries a reconcile request not yet acknowledged.
async fn read_evidence(
    settings: &Settings,
    asked: &History,
    mr: &ManagedResource,
    live: Option<&(Connection, ApiKind)>,
) -> anyhow::Result<EvidenceRead> {
    let groups = Groups::of([mr.group().to_string()]);
    let context = live.and_then(|(c, _)| c.context.as_deref());
    let mut request = asked.evidence.request(settings, context, groups);
    request.retention =
        Retention::Focus { uid: mr.uid.clone(), name: mr.name.clone(), namespace: mr.namespace.clone() };
    if let Some((conn, kind)) = live {
        request.live = Some(LiveEvidence { conn, kinds: std::slice::from_ref(kind), pods_without_logs: true });
        let mut acks = HashMap::new();
        if let Some(acks_requests) = acknowledges_requests(conn, kind, mr).await {
            acks.insert((mr.group().to_string(), mr.kind.clone()), acks_requests);
        }
        request.acknowledges_requests = acks;
    }
    request.read().await
}

/// The ranked candidate IDs from everything history read: the findings' suggestions,
/// the IDs the journal recorded, `status.atProvider.id`, the events' external-name annotations, IDs logged as created, the last
/// logged ID and the Terraform workspace.
fn candidates_of(
    mr: &ManagedResource,
    findings: &[Finding],
    seen: &Live,
    logs: Option<&LogEvidence>,
    journaled: &[upjet_core::journal::Record],
) -> Vec<Candidate> {
    let events: Vec<EventName> = seen
        .events
        .iter()
        .filter_map(|e| {
            let id = e.external_name.clone()?;
            Some(EventName { id, reason: e.reason.clone(), time: e.last.clone(), message: e.message.clone() })
        })
        .collect();
    let mut extra: Vec<Candidate> = logs.map(|l| l.candidates(mr)).unwrap_or_default();
    extra.extend(seen.workspace.as_ref().and_then(|w| w.candidate()));
    adopt::candidates(mr, findings, &events, extra, journaled)
}

/// Reads the MR's events and (with `--workspace`) its workspace, and keeps the pods of its
/// provider among those `read` listed, noting what cannot be read.
async fn read_live(
    conn: &Connection,
    kind: &ApiKind,
    mr: &ManagedResource,
    workspace: bool,
    read: &EvidenceRead,
    notes: &mut Vec<String>,
) -> Live {
    let mut live = Live::default();
    match events_of(conn, mr).await {
        Ok(e) => {
            live.events = e;
            live.events_read = true;
        }
        Err(e) => notes.push(format!("cannot read events: {}", e.reason())),
    }
    // Pod starts and restarts belong in the history even when logs are not read.
    let names: Vec<String> = read.pods.iter().map(|p| p.provider.clone()).collect();
    match providers::provider_for_kind(kind, &read.owners, &names) {
        Some(p) => live.pods = read.pods.iter().filter(|x| x.provider == p).cloned().collect(),
        None if workspace => notes.push(format!("no provider pod found for {}", kind.resource_name())),
        None => {}
    }
    if workspace {
        live.workspace = read_any_workspace(conn, &live.pods, &mr.uid, notes).await;
    }
    live
}

/// The workspace from the first pod that has it; when none does, every pod's reason is noted.
async fn read_any_workspace(
    conn: &Connection,
    pods: &[ProviderPod],
    uid: &str,
    notes: &mut Vec<String>,
) -> Option<WorkspaceState> {
    let mut errors = Vec::new();
    for pod in pods {
        match read_workspace(conn, pod, uid).await {
            Ok(state) => return Some(state),
            Err(e) => errors.push(e),
        }
    }
    notes.extend(errors.into_iter().map(|e| format!("workspace: {e}")));
    None
}
