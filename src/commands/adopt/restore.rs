//! `kubectl upjet restore`: puts the annotations and management policies of a backup back,
//! conditionally on the object read, after showing exactly what changes. A restore that writes
//! another external-name declares it to the guard in the same write
//! (`kubectl-upjet.io/identity-change`) and takes the declaration away in a second one, so the
//! object ends exactly as backed up.

use super::error::AdoptError;
use super::single::decode;
use super::ui::Ui;
use crate::commands::inputs::explain;
use crate::commands::resolve::Restore;
use anyhow::Context as _;
use serde_json::Value;
use std::io::Write;
use upjet_cluster::connect::Connection;
use upjet_cluster::target::{self, Kinds, check_name};
use upjet_cluster::write::{self, Target, WriteError};
use upjet_core::adopt;
use upjet_core::adopt::machine::{self, Next, Observation, State, Stop};
use upjet_core::error::{Error, Exit};
use upjet_core::patch;
use upjet_core::rules::diagnose;
use upjet_core::shell::ShellCommand;
use upjet_evidence::format::Reader;
use upjet_local::backup;
use upjet_output::adopt::{change_line, stop_reason};
use upjet_output::{detail, style};

/// Restores the annotations and management policies of a backup.
pub(super) async fn restore(args: &Restore, out: &mut dyn Write, ui: &mut Ui) -> anyhow::Result<Exit> {
    let backup = backup::read(&args.backup_file)
        .map_err(|e| explain(&args.backup_file, Reader::Backup, Error::usage(e.to_string())))?;
    let conn = args.reach.connect().await?;
    let target = backed_up_target(&conn, &backup).await?;
    let who = style::sanitize(&target.display());
    let mut current = target::get(&conn, &target).await?;
    // Only the conflict policy of the machine is used: a restore has a single write.
    let mut conflicts = State::default();
    loop {
        same_object(&who, &backup, &current)?;
        let Some(patch) = adopt::undo_patch(&backup, &current) else {
            writeln!(out, "{who} already has the annotations and management policies of the backup; nothing to do")?;
            return Ok(Exit::Ok);
        };
        if let Some(hold) = adopt::composite::composite_hold_of(&current).filter(|h| h.touched_by(&patch)) {
            let refusal = adopt::Refusal::CompositionOwnsIdentity(who.clone(), hold.advice());
            return Err(AdoptError::Refused(refusal).into_anyhow());
        }
        let declared = patch::declare(patch, &current);
        let text = preview(&who, args, &current, &declared);
        if args.dry_run {
            return dry_run(&conn, &target, &declared, &text, out).await;
        }
        ui.say(text.trim_end());
        if !args.yes {
            ui.confirm_change(&format!("Restore {who}?"), format!("change {who}"), "patch")
                .map_err(AdoptError::into_anyhow)?;
        }
        match write::merge_patch(&conn, &target, &declared.patch, false).await {
            Ok(stored) => {
                if let Some(then) = &declared.then {
                    undeclare(&conn, &target, stored, then).await?;
                }
                break;
            }
            Err(WriteError::Conflict { .. }) => {
                let fresh = write::read(&conn, &target).await.map_err(|e| e.into_error(&conn))?;
                conflicts = after_conflict(conflicts, &who, &target, args, ui, &current, &fresh)?;
                current = fresh;
            }
            Err(e) => return Err(e.into_error(&conn).into()),
        }
    }
    let obj = write::read(&conn, &target).await.map_err(|e| e.into_error(&conn))?;
    let mr = decode(&obj).context("reading the restored MR")?;
    ui.say(format!("restored {who} from {}", args.backup_file.display()));
    detail::write_detail(out, &mr, &diagnose(&mr, args.at), args.at.now)?;
    Ok(Exit::Ok)
}

/// The address of the backed-up object: its kind must still be a managed kind of this cluster,
/// and its name and namespace are validated like typed ones.
async fn backed_up_target(conn: &Connection, backup: &Value) -> Result<Target, Error> {
    let Kinds { all, managed } = Kinds::discover(conn).await?;
    let api_version = backup["apiVersion"].as_str().unwrap_or("");
    let group = api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    let kind_name = backup["kind"].as_str().unwrap_or("");
    let kind = managed.iter().find(|k| k.group == group && k.kind == kind_name).cloned().ok_or_else(|| {
        if all.iter().any(|k| k.group == group && k.kind == kind_name) {
            Error::usage(format!(
                "{kind_name}.{group} is not a managed resource kind; restore works on Crossplane managed resources only"
            ))
        } else {
            Error::usage(format!("the cluster serves no kind {kind_name}.{group} (is this the right cluster/context?)"))
        }
    })?;
    let name = backup.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let ns = backup.pointer("/metadata/namespace").and_then(Value::as_str).filter(|n| !n.is_empty());
    check_name(name, "name in the backup")?;
    if let Some(ns) = ns {
        check_name(ns, "namespace in the backup")?;
    }
    Ok(Target::new(kind, ns, name))
}

/// Refuses to restore onto an object that was deleted and created again under the same name.
fn same_object(who: &str, backup: &Value, current: &Value) -> Result<(), Error> {
    let uid = |v: &Value| v.pointer("/metadata/uid").and_then(Value::as_str).map(str::to_owned);
    match (uid(backup), uid(current)) {
        (Some(was), Some(now)) if was != now => Err(Error::failed(format!(
            "refused: {who} is a different object than the one backed up (uid {} now, {} in the backup): it was deleted and created again",
            style::sanitize(&now),
            style::sanitize(&was)
        ))),
        _ => Ok(()),
    }
}

/// The second write of a restore that declared its external-name: the declaration taken away,
/// conditional on the object the first write stored (read again after a 409: it changes one
/// annotation of ours, whatever else changed meanwhile).
async fn undeclare(conn: &Connection, target: &Target, stored: Value, then: &Value) -> anyhow::Result<()> {
    let mut current = stored;
    for _ in 0..3 {
        let body = patch::with_resource_version(then.clone(), patch::resource_version(&current));
        match write::merge_patch(conn, target, &body, false).await {
            Ok(_) => return Ok(()),
            Err(WriteError::Conflict { .. }) => {
                current = write::read(conn, target).await.map_err(|e| e.into_error(conn))?;
            }
            Err(e) => return Err(e.into_error(conn).into()),
        }
    }
    let remove = ShellCommand::kubectl("annotate")
        .arg(target.kind.resource_name())
        .target(&target.name, target.namespace.as_deref())
        .arg_then(patch::IDENTITY_CHANGE, "-");
    Err(Error::failed(format!(
        "{} was restored, but {} could not be removed (it kept changing): remove it with {remove}",
        target.display(),
        patch::IDENTITY_CHANGE,
    ))
    .into())
}

/// What the restore changes, one line per field (the declaration to the guard, which the second
/// write takes away, is no change).
fn preview(who: &str, args: &Restore, current: &Value, declared: &patch::Declared) -> String {
    let mut after = current.clone();
    patch::apply_merge_patch(&mut after, &declared.patch);
    if let Some(then) = &declared.then {
        patch::apply_merge_patch(&mut after, then);
    }
    let mut text = format!("Restore {who} from {}:\n", args.backup_file.display());
    for c in &adopt::diff(current, &after) {
        text.push_str(&format!("  {}\n", change_line(c)));
    }
    text
}

/// Shows the patches and has the API server judge each without applying it.
async fn dry_run(
    conn: &Connection,
    target: &Target,
    declared: &patch::Declared,
    text: &str,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    write!(out, "{text}")?;
    for patch in std::iter::once(&declared.patch).chain(&declared.then) {
        writeln!(out, "  PATCH (application/merge-patch+json, dryRun=All)\n  {}", style::sanitize(&patch.to_string()))?;
        write::merge_patch(conn, target, patch, true).await.map_err(|e| e.into_error(conn))?;
    }
    writeln!(out, "accepted by the API server (dryRun=All); nothing was changed")?;
    Ok(Exit::Ok)
}

/// A 409 on the restore's write: status-only changes are retried under the machine's conflict
/// policy; a real change is shown, and only a person at a terminal may go on.
fn after_conflict(
    conflicts: State,
    who: &str,
    target: &Target,
    args: &Restore,
    ui: &mut Ui,
    current: &Value,
    fresh: &Value,
) -> Result<State, Error> {
    let changed = adopt::conflicting_changes(current, fresh);
    let (state, next) =
        machine::next(&conflicts, Observation::Conflict { changes: changed.clone(), recovering: false });
    match next {
        Next::Retry => {
            ui.say("the object changed meanwhile (status only); retrying");
            return Ok(state);
        }
        Next::Stop(Stop::KeepsChanging) => {
            return Err(Error::failed(stop_reason(&Stop::KeepsChanging, &target.display())));
        }
        _ => {}
    }
    ui.say(format!("{who} was changed by someone else meanwhile:"));
    for c in &changed {
        ui.say(format!("  {}", change_line(c)));
    }
    if args.yes || !ui.interactive {
        return Err(Error::failed(format!(
            "{who} changed since it was read; nothing was restored (re-run to see the new differences)"
        )));
    }
    Ok(state)
}
