//! The interactive choice of an ID: the MR's state, then the candidate IDs from its findings,
//! events, provider logs and Terraform workspace, best evidence first.

use super::error::{AdoptError, Unchanged};
use super::ui::Ui;
use std::io::Write;
use upjet_cluster::connect::Connection;
use upjet_core::adopt::{self, Candidate, EventName};
use upjet_core::managed::ManagedResource;
use upjet_core::rules::diagnose;
use upjet_output::{detail, style};

/// The `external-name` annotations of the MR's events (best effort: events expire after 1h).
async fn event_names(conn: &Connection, mr: &ManagedResource) -> Result<Vec<EventName>, String> {
    let events = crate::commands::evidence::events_of(conn, mr).await.map_err(|e| e.reason())?;
    Ok(events
        .into_iter()
        .filter_map(|e| Some(EventName { id: e.external_name?, reason: e.reason, time: e.last, message: e.message }))
        .collect())
}

/// Evidence from the provider for the interactive choice: orphan candidates and the last logged
/// ID from the provider pods' logs (only this MR's lines are kept), and the Terraform workspace
/// of CLI-mode resources. Best effort: what cannot be read is noted and skipped.
async fn log_candidates(
    conn: &Connection,
    mr: &ManagedResource,
    ui: &mut Ui,
    at: upjet_core::reconcile_timeout::JudgedAt,
) -> (Vec<upjet_core::finding::Finding>, Vec<Candidate>) {
    use upjet_cluster::kinds::ApiKind;
    use upjet_evidence::index::log_findings;
    use upjet_evidence::logs::Retention;
    ui.say("reading provider logs for evidence…");
    use crate::commands::evidence::{LogReading, Pods, gather};
    let limits = upjet_cluster::logs::LogLimits { since_seconds: None, limit_bytes: Some(64 * 1024 * 1024) };
    let reading = LogReading { limits, provider_namespace: None };
    let focus = Retention::Focus { uid: mr.uid.clone(), name: mr.name.clone(), namespace: mr.namespace.clone() };
    let gathered = match gather(Some(conn), Pods::Logs, &[], &reading, focus).await {
        Ok(g) => g,
        Err(e) => {
            ui.say(format!("note: could not read provider logs: {}", style::sanitize(&format!("{e:#}"))));
            return (Vec::new(), Vec::new());
        }
    };
    let findings = log_findings(mr, gathered.logs.as_ref(), None, at);
    let mut extra: Vec<Candidate> = gathered.logs.as_ref().map(|l| l.candidates(mr)).unwrap_or_default();
    // The MR's provider, by its API group, for the workspace of Terraform-CLI resources.
    let kind = ApiKind {
        group: mr.group().to_string(),
        version: String::new(),
        plural: String::new(),
        singular: String::new(),
        kind: mr.kind.clone(),
        namespaced: mr.namespace.is_some(),
        short_names: Vec::new(),
        categories: Vec::new(),
    };
    for pod in gathered.pods.iter().filter(|p| upjet_cluster::kinds::provider_matches(&kind, &p.provider)) {
        if let Ok(ws) = crate::commands::evidence::read_workspace(conn, pod, &mr.uid).await {
            extra.extend(ws.candidate());
            break;
        }
    }
    (findings, extra)
}

/// Shows the MR and the candidate IDs, and asks which one to adopt.
pub(super) async fn choose_interactively(
    conn: &Connection,
    mr: &ManagedResource,
    ui: &mut Ui,
    at: upjet_core::reconcile_timeout::JudgedAt,
    templated: Option<Candidate>,
    recorded: Vec<upjet_core::finding::Finding>,
    journaled: &[upjet_core::journal::Record],
) -> Result<String, AdoptError> {
    let findings = diagnose(mr, at);
    let mut state = Vec::new();
    detail::write_detail(&mut state, mr, &findings, at.now)?;
    let _ = ui.err.write_all(&state);
    let events = match event_names(conn, mr).await {
        Ok(e) => e,
        Err(e) => {
            ui.say(format!("note: could not read the MR's events: {}", style::sanitize(&e)));
            Vec::new()
        }
    };
    let (log_findings, mut extra) = log_candidates(conn, mr, ui, at).await;
    extra.extend(templated);
    let mut all_findings = findings.clone();
    all_findings.extend(log_findings);
    // Creates the cloud's audit record ties to the MR: observed, so ranked first.
    all_findings.extend(recorded);
    let candidates: Vec<Candidate> = adopt::candidates(mr, &all_findings, &events, extra, journaled);
    ui.say("");
    if candidates.is_empty() {
        ui.say("No candidate IDs found (no status.atProvider.id, no suggested ID, no event annotation). `kubectl upjet history` may find one in the provider logs.");
    } else {
        ui.say("Candidate IDs (best evidence first):");
        for c in &candidates {
            ui.say(format!("  {}", upjet_local::prompt::candidate_line(c)));
        }
    }
    ui.prompter.choose_id(&candidates)?.ok_or_else(|| Unchanged::Cancelled.into())
}
