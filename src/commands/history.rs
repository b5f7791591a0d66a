//! `kubectl upjet history KIND/NAME`: everything the cluster still knows about one MR's creation,
//! as one timeline.

use super::doctor::locate;
use super::evidence::gather;
use crate::cli::{HistoryArgs, HistoryFormat};
use crate::cluster::{events, providers, workspace};
use crate::error::Exit;
use crate::evidence::logs::Retention;
use crate::evidence::timeline::{Inputs, build};
use crate::output::{history, structured};
use crate::settings::Settings;
use std::io::Write;

/// Runs history.
pub async fn run(settings: &Settings, args: &HistoryArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let (mr, live) = locate(settings, args.from.as_deref(), &args.target).await?;
    let mut notes = Vec::new();
    let mut event_list = Vec::new();
    let mut pods = Vec::new();
    let mut ws = None;
    let mut events_read = false;
    // Only this MR's lines are kept, so a long log costs time, not memory.
    let focus = Retention::Focus { uid: mr.uid.clone(), name: mr.name.clone(), namespace: mr.namespace.clone() };
    let live_logs = live.is_some() && !args.no_logs;
    let gathered = gather(live.as_ref().map(|(c, _)| c), live_logs, &args.log_files, &args.log_opts, focus).await?;
    notes.extend(gathered.notes.iter().cloned());
    if let Some((conn, kind)) = &live {
        match events::events_of(conn, &mr).await {
            Ok(e) => {
                event_list = e;
                events_read = true;
            }
            Err(e) => notes.push(format!("cannot read events: {}", e.reason())),
        }
        let owners = providers::crd_owners(conn).await;
        // Pod starts and restarts belong in the history even when logs are not read.
        let all_pods = if gathered.pods.is_empty() {
            match providers::provider_pods(conn, args.log_opts.provider_namespace.as_deref()).await {
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
            Some(p) => pods = all_pods.iter().filter(|x| x.provider == p).cloned().collect(),
            None if args.workspace => notes.push(format!("no provider pod found for {}", kind.resource_name())),
            None => {}
        }
        if args.workspace {
            let mut errors = Vec::new();
            for pod in &pods {
                match workspace::read(conn, pod, &mr.uid).await {
                    Ok(state) => {
                        ws = Some(state);
                        break;
                    }
                    Err(e) => errors.push(e),
                }
            }
            if ws.is_none() {
                notes.extend(errors.into_iter().map(|e| format!("workspace: {e}")));
            }
        }
    } else if args.workspace {
        notes.push("--workspace needs a live cluster (not --from)".into());
    }
    let logs: Vec<_> = gathered.logs.as_ref().map(|l| l.about(&mr)).unwrap_or_default();
    let timeline = build(&mr, &Inputs { events: &event_list, pods: &pods, logs, workspace: ws.as_ref(), events_read });
    match args.output {
        HistoryFormat::Json => structured::write_json(
            out,
            &serde_json::json!({
                "apiVersion": "upjet.doctor/v1", "kind": "History",
                "resource": crate::domain::finding::ResourceRef::of(&mr),
                "timeline": timeline, "notes": notes,
                "lastLoggedId": gathered.logs.as_ref().and_then(|l| l.last_logged_ref(&mr.uid)),
            }),
        )?,
        HistoryFormat::Text => history::write_history(out, &mr, &timeline, &notes)?,
    }
    Ok(Exit::Ok)
}
