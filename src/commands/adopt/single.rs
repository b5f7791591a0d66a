//! Adopting one MR named on the command line.

use super::choose::choose_interactively;
use super::duplicates::external_names;
use super::error::AdoptError;
use super::executor::{Job, Outcome, Sink};
use super::ui::Ui;
use super::{AdoptEnv, options};
use crate::commands::resolve::{AdoptOne, IdSources};
use serde_json::Value;
use std::io::Write;
use std::sync::Arc;
use upjet_cluster::target;
use upjet_cluster::write;
use upjet_core::adopt;
use upjet_core::error::{Error, Exit};
use upjet_core::managed::ManagedResource;
use upjet_core::rules::diagnose;
use upjet_core::shell::quoted;
use upjet_output::adopt::timed_out;
use upjet_output::{detail, style};

/// Adopts the MR `one` names, its ID sources read and its flags resolved.
pub(super) async fn single(
    one: AdoptOne,
    out: &mut dyn Write,
    ui: &mut Ui,
    env: &AdoptEnv,
) -> Result<Exit, AdoptError> {
    let AdoptOne { target: spec, id, ids, pause_composite, carry, reach } = one;
    let conn = Arc::new(reach.connect().await?);
    let target = target::resolve_target(&conn, &spec, reach.namespace()).await?;
    let obj = target::get(&conn, &target).await?;
    let mr = decode(&obj)?;
    let at = carry.at();
    let id = match id {
        Some(id) => id,
        None => id_without_flag(&ids, &conn, &mr, &target.kind, ui, at).await?,
    };
    adopt::validate_id(&id)?;
    let (by_name, problems) = external_names(&conn, vec![target.kind.clone()]).await;
    for p in problems {
        ui.say(format!("note: could not check other MRs for the same ID: {}", style::sanitize(&p)));
    }
    let duplicates = by_name.get(&id).cloned().unwrap_or_default();
    let opts = options(&carry, env);
    let hold = if pause_composite { adopt::composite::composite_hold(&mr) } else { None };
    let paused = match &hold {
        Some(_) => super::pause::pause(&conn, &mr, &carry, env, ui).await?,
        None => None,
    };
    let interrupt = ui.interrupt.clone();
    let mut job = Job {
        slot: None,
        conn: &conn,
        target: &target,
        carry: &carry,
        opts: &opts,
        env,
        sink: Sink::Live(ui),
        can_ask: true,
        confirmed: carry.confirmed(),
        interrupt,
        composite_paused: paused.is_some(),
    };
    let reported = match job.adopt(obj, &id, &duplicates, out).await {
        Ok(outcome) => report(&mut job, &conn, &target, outcome, out, at).await,
        Err(e) => Err(e),
    };
    drop(job);
    if let Some(p) = paused {
        super::pause::resume(&conn, p, ui).await?;
        if let (Some(h), Ok(true)) = (&hold, &reported) {
            ui.say(format!("warning: {}", super::pause::carry(h, &id)));
        }
    }
    reported?;
    Ok(Exit::Ok)
}

/// Says how the adoption ended; `true` when it wrote the ID.
async fn report(
    job: &mut Job<'_>,
    conn: &upjet_cluster::connect::Connection,
    target: &upjet_cluster::write::Target,
    outcome: Outcome,
    out: &mut dyn Write,
    at: upjet_core::reconcile_timeout::JudgedAt,
) -> Result<bool, AdoptError> {
    match outcome {
        Outcome::NothingToDo(msg) => writeln!(out, "{}", style::sanitize(&msg))?,
        Outcome::DryRun => {}
        Outcome::Adopted { note } => {
            let obj = write::read(conn, target).await.map_err(|e| e.into_error(conn))?;
            let mr = decode(&obj)?;
            if let Some(note) = note {
                job.say(format!("warning: {}", timed_out(&note)));
            }
            job.say(format!(
                "adopted {}: external-name {}",
                style::sanitize(&target.display()),
                quoted(&style::sanitize(mr.external_name().unwrap_or("")))
            ));
            detail::write_detail(out, &mr, &diagnose(&mr, at), at.now)?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// The ID when `--id` is not given, without a terminal: the best ID the ID journal recorded for
/// this MR, else the one object the cloud's audit record names, else the user template's; on a
/// terminal, the user's pick among every candidate (the journal's first).
async fn id_without_flag(
    ids: &IdSources,
    conn: &upjet_cluster::connect::Connection,
    mr: &ManagedResource,
    kind: &upjet_cluster::kinds::ApiKind,
    ui: &mut Ui,
    at: upjet_core::reconcile_timeout::JudgedAt,
) -> Result<String, AdoptError> {
    let templated = user_template_candidate(mr, &ids.templates)?;
    let recorded = recorded_findings(ids, conn, mr, kind, ui, at).await?;
    let journaled = journaled(ids, mr, ui);
    let from_journal = upjet_core::candidate::journaled(&journaled).into_iter().next();
    match templated {
        _ if !ui.interactive && from_journal.is_some() => {
            let c = from_journal.expect("checked");
            ui.say(format!("using {} from the ID journal ({})", style::sanitize(&c.id), style::sanitize(&c.evidence)));
            Ok(c.id)
        }
        _ if !ui.interactive && one_recorded_id(&recorded).is_some() => {
            let f = one_recorded_id(&recorded).expect("checked");
            let id = f.suggested_id.clone().unwrap_or_default();
            ui.say(format!(
                "using {} from the cloud's audit record ({})",
                style::sanitize(&id),
                style::sanitize(&f.message)
            ));
            Ok(id)
        }
        Some(c) if !ui.interactive => {
            ui.say(format!("using {} from {}", style::sanitize(&c.id), style::sanitize(&c.evidence)));
            Ok(c.id)
        }
        _ if !ui.interactive => Err(Error::usage(
            "no --id given and no terminal to ask on: pass --id <cloud-id>, --id-template KIND=TEMPLATE or a --cloud-audit record naming one object (and --yes to skip the confirmation)",
        )
        .into()),
        templated => choose_interactively(conn, mr, ui, at, templated, recorded, &journaled).await,
    }
}

/// What the ID journal (read before the cluster was asked anything) recorded for this very MR
/// (its uid), best ID first — or, for a new MR of an XR created again, what it recorded for the
/// MR's predecessor in the same slot; the notes on its skipped lines are said.
fn journaled(ids: &IdSources, mr: &ManagedResource, ui: &mut Ui) -> Vec<upjet_core::journal::Record> {
    let (index, notes) = &ids.journal;
    for n in notes {
        ui.say(format!("note: {}", style::sanitize(n)));
    }
    let own = index.for_uid(&mr.uid);
    if !own.is_empty() {
        return own;
    }
    // A new MR of an XR created again: what its predecessor in the same slot held.
    let earlier = adopt::composite::predecessor_ids(index.records(), mr);
    if let Some(r) = earlier.first() {
        ui.say(format!(
            "note: the ID journal holds {} for {}, the MR the same XR composed for this resource before",
            style::sanitize(&r.id),
            style::sanitize(&r.name)
        ));
    }
    earlier
}

/// The findings the cloud's audit record (`--cloud-audit`, read before the cluster was asked
/// anything) gives the MR, its peers being every MR of its kind, listed over adopt's own
/// connection; the notes on the files are said. Empty without the flag.
async fn recorded_findings(
    ids: &IdSources,
    conn: &upjet_cluster::connect::Connection,
    mr: &ManagedResource,
    kind: &upjet_cluster::kinds::ApiKind,
    ui: &mut Ui,
    at: upjet_core::reconcile_timeout::JudgedAt,
) -> Result<Vec<upjet_core::finding::Finding>, AdoptError> {
    let Some((record, asked)) = &ids.record else { return Ok(Vec::new()) };
    let (check, notes) = crate::commands::cloud_audit::tie_one(record, asked, mr, None, Some((conn, kind)))
        .await
        .map_err(|e| Error::usage(format!("{e:#}")))?;
    for n in notes {
        ui.say(format!("note: {}", style::sanitize(&n)));
    }
    use upjet_core::rules::{Facts, evidence_findings};
    use upjet_evidence::sources::mr_evidence;
    // The only evidence given is the record's, so the evidence rules that fire are its own.
    let evidence = mr_evidence(mr, &[&check]);
    let facts = Facts::with_evidence(mr, Some(&evidence), at);
    Ok(evidence_findings(&facts).into_iter().filter(|f| f.suggested_id.is_some()).collect())
}

/// The finding to adopt from without asking: the record's findings name exactly one ID.
fn one_recorded_id(findings: &[upjet_core::finding::Finding]) -> Option<&upjet_core::finding::Finding> {
    let first = findings.first()?;
    findings.iter().all(|f| f.suggested_id == first.suggested_id).then_some(first)
}

/// The MR as the diagnoses read it; an object that is not one is the user's mistake.
pub(super) fn decode(obj: &Value) -> Result<ManagedResource, Error> {
    ManagedResource::from_value(obj).map_err(|e| Error::usage(format!("not a readable managed resource: {e}")))
}

/// The ID an `--id-template` gives for this MR; a template that matches the kind but cannot be
/// filled (a field the MR does not set) is a usage error rather than a silent fallback.
fn user_template_candidate(
    mr: &upjet_core::managed::ManagedResource,
    users: &[upjet_core::identity::UserTemplate],
) -> Result<Option<adopt::Candidate>, AdoptError> {
    use upjet_core::identity::{Peers, Prediction, predict};
    if !users.iter().any(|u| u.matches(&mr.kind, mr.group())) {
        return Ok(None);
    }
    match predict(mr, &Peers::default(), users) {
        Prediction::Predicted(c) => Ok(Some(c)),
        Prediction::None(why) => Err(Error::usage(why).into()),
    }
}
