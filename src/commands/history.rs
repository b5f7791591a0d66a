//! `kubectl upjet history KIND/NAME`: everything the cluster still knows about one MR's creation,
//! as one timeline.

use super::cloud_audit;
use super::doctor::locate;
use super::evidence::{
    Gathered, acknowledges_requests, crd_owners, events_of, gather, provider_pods, read_audit_logs, read_workspace,
};
use crate::cli::output::Output;
use crate::cli::{HistoryArgs, HistoryFormat};
use crate::cluster::connect::Connection;
use crate::cluster::kinds::ApiKind;
use crate::cluster::providers;
use crate::domain::adopt::{self, Candidate, EventName};
use crate::domain::audit::highlights;
use crate::domain::finding::Finding;
use crate::domain::managed::ManagedResource;
use crate::domain::rules::{self, MrEvidence};
use crate::error::Exit;
use crate::evidence::audit::Groups;
use crate::evidence::events::EventRecord;
use crate::evidence::logs::Retention;
use crate::evidence::pods::{self, ProviderPod};
use crate::evidence::timeline::{Inputs, build};
use crate::evidence::workspace::WorkspaceState;
use crate::output::{history, structured};
use crate::settings::Settings;
use std::io::Write;

/// What only a live cluster can tell about the MR: its events, its provider's pods, its workspace.
#[derive(Default)]
struct Live {
    events: Vec<EventRecord>,
    events_read: bool,
    pods: Vec<ProviderPod>,
    workspace: Option<WorkspaceState>,
}

/// Runs history.
pub async fn run(settings: &Settings, args: &HistoryArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let (mr, live) = locate(settings, args.from.as_deref(), &args.target).await?;
    // Only this MR's lines are kept, so a long log costs time, not memory.
    let focus = Retention::Focus { uid: mr.uid.clone(), name: mr.name.clone(), namespace: mr.namespace.clone() };
    let live_logs = live.is_some() && !args.no_logs;
    let gathered = gather(live.as_ref().map(|(c, _)| c), live_logs, &args.log_files, &args.log_opts, focus).await?;
    let mut notes = gathered.notes.clone();
    let seen = match &live {
        Some((conn, kind)) => read_live(conn, kind, &mr, args, &gathered, &mut notes).await,
        None if args.workspace => {
            notes.push("--workspace needs a live cluster (not --from)".into());
            Live::default()
        }
        None => Live::default(),
    };
    // The highlights are the rules' findings on this MR's logs and its provider's restarts.
    let starts = pods::provider_starts(&seen.pods).into_values().next();
    let mut evidence = match &gathered.logs {
        Some(l) => l.mr_evidence(&mr, starts),
        None => MrEvidence { provider_starts: starts, ..MrEvidence::default() },
    };
    if let Some((conn, kind)) = &live {
        evidence.acknowledges_requests = acknowledges_requests(conn, kind, &mr).await;
    }
    // Only this MR's group is decoded; the rest of the audit log is skipped by byte checks.
    let audit = read_audit_logs(&args.audit_logs, Groups::of([mr.group().to_string()])).await?;
    evidence.audit = audit.as_ref().and_then(|a| a.for_mr(&mr));
    notes.extend(audit.as_ref().map(|a| a.notes()).unwrap_or_default());
    let cloud =
        cloud_audit::for_one(&args.cloud, &mr, args.from.as_deref(), live.as_ref().map(|(c, k)| (c, k))).await?;
    if let Some((check, cloud_notes)) = &cloud {
        evidence.cloud_audit = check.for_mr(&mr).cloned();
        notes.extend(cloud_notes.iter().cloned());
    }
    evidence.changelog = crate::domain::changelog::MrChangeLog::for_mr(&gathered.changelog, &mr);
    let context = live.as_ref().and_then(|(c, _)| c.context.as_deref());
    let (journal, journal_notes) =
        super::journal::read(super::journal::locate(settings, args.journal.journal.as_deref(), context).as_ref())?;
    evidence.journal = journal.for_uid(&mr.uid);
    notes.extend(journal_notes);
    let findings = rules::findings_with(&mr, Some(&evidence), settings.judged_at());
    let mut candidates = candidates_of(&mr, &findings, &seen, &gathered, &evidence.journal);
    if let Some(a) = &evidence.audit {
        candidates =
            crate::domain::candidate::rank(candidates.into_iter().chain(highlights::candidates(&a.history, &mr)));
    }
    let audit_history = evidence.audit.as_ref().map(|a| &a.history);
    let inputs = Inputs {
        events: &seen.events,
        pods: &seen.pods,
        logs: gathered.logs.as_ref().map(|l| l.about(&mr)).unwrap_or_default(),
        workspace: seen.workspace.as_ref(),
        events_read: seen.events_read,
        findings: &findings,
        candidates: &candidates,
        audit: audit_history,
        cloud: evidence.cloud_audit.as_ref(),
        changelog: evidence.changelog.as_ref(),
        journal: &evidence.journal,
    };
    let timeline = build(&mr, &inputs);
    let doc = || {
        serde_json::json!({
            "apiVersion": "upjet.doctor/v1", "kind": "History",
            "resource": crate::domain::finding::ResourceRef::of(&mr),
            "timeline": timeline, "notes": notes,
            "lastLoggedId": gathered.logs.as_ref().and_then(|l| l.last_logged_ref(&mr.uid)),
            "audit": audit_history,
        })
    };
    match (&args.output, args.format()) {
        (Some(Output::Form(spec)), _) => super::forms::print_history(out, spec, &doc())?,
        (_, Some(HistoryFormat::Json)) => structured::write_json(out, &doc())?,
        (_, Some(HistoryFormat::Html)) => crate::output::html::history::write_history(out, &mr, &timeline, &notes)?,
        _ => history::write_history(out, &mr, &timeline, &notes)?,
    }
    Ok(Exit::Ok)
}

/// The ranked candidate IDs from everything history read: the findings' suggestions,
/// the IDs the journal recorded, `status.atProvider.id`, the events' external-name annotations, IDs logged as created, the last
/// logged ID and the Terraform workspace.
fn candidates_of(
    mr: &ManagedResource,
    findings: &[Finding],
    seen: &Live,
    gathered: &Gathered,
    journaled: &[crate::domain::journal::Record],
) -> Vec<Candidate> {
    let events: Vec<EventName> = seen
        .events
        .iter()
        .filter_map(|e| {
            let id = e.external_name.clone()?;
            Some(EventName { id, reason: e.reason.clone(), time: e.last.clone(), message: e.message.clone() })
        })
        .collect();
    let mut extra: Vec<Candidate> = gathered.logs.as_ref().map(|l| l.candidates(mr)).unwrap_or_default();
    extra.extend(seen.workspace.as_ref().and_then(|w| w.candidate()));
    adopt::candidates(mr, findings, &events, extra, journaled)
}

/// Reads the MR's events, its provider's pods and (with `--workspace`) its workspace, noting what
/// cannot be read.
async fn read_live(
    conn: &Connection,
    kind: &ApiKind,
    mr: &ManagedResource,
    args: &HistoryArgs,
    gathered: &Gathered,
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
    let owners = crd_owners(conn).await;
    // Pod starts and restarts belong in the history even when logs are not read.
    let all_pods = if gathered.pods.is_empty() {
        match provider_pods(conn, args.log_opts.provider_namespace.as_deref()).await {
            Ok(p) => p,
            Err(e) => {
                notes.push(format!("cannot list provider pods: {}", e.reason()));
                Vec::new()
            }
        }
    } else {
        gathered.pods.clone()
    };
    let names: Vec<String> = all_pods.iter().map(|p| p.provider.clone()).collect();
    match providers::provider_for_kind(kind, &owners, &names) {
        Some(p) => live.pods = all_pods.into_iter().filter(|x| x.provider == p).collect(),
        None if args.workspace => notes.push(format!("no provider pod found for {}", kind.resource_name())),
        None => {}
    }
    if args.workspace {
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
