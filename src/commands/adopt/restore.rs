//! `kubectl upjet restore`: puts the annotations and management policies of a backup back,
//! conditionally on the object read, after showing exactly what changes.

use super::AdoptEnv;
use super::error::AdoptError;
use super::single::decode;
use super::ui::Ui;
use crate::cli::adopt::RestoreArgs;
use crate::cluster::connect;
use crate::cluster::target::{self, Kinds, check_name};
use crate::cluster::write::{self, Target, WriteError};
use crate::domain::adopt;
use crate::domain::adopt::machine::{self, Next, Observation, State, Stop};
use crate::domain::diagnose::diagnose;
use crate::error::{Error, Exit};
use crate::local::backup;
use crate::output::adopt::{change_line, stop_reason};
use crate::output::{detail, style};
use crate::settings::Settings;
use anyhow::Context as _;
use serde_json::Value;
use std::io::Write;

/// Restores the annotations and management policies of a backup.
pub(super) async fn restore(
    settings: &Settings,
    args: &RestoreArgs,
    out: &mut dyn Write,
    ui: &mut Ui,
    env: &AdoptEnv,
) -> anyhow::Result<Exit> {
    let backup = backup::read(&args.backup_file).map_err(|e| Error::usage(e.to_string()))?;
    let conn = connect::connect(&settings.connect).await?;
    let Kinds { all, managed } = Kinds::discover(&conn).await?;
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
    let target = Target::new(kind, ns, name);
    let who = style::sanitize(&target.display());
    let mut current = target::get(&conn, &target).await?;
    // Only the conflict policy of the machine is used: a restore has a single write.
    let mut conflicts = State::default();
    loop {
        let (was, now) = (
            backup.pointer("/metadata/uid").and_then(Value::as_str),
            current.pointer("/metadata/uid").and_then(Value::as_str),
        );
        if let (Some(was), Some(now)) = (was, now)
            && was != now
        {
            return Err(Error::failed(format!(
                "refused: {who} is a different object than the one backed up (uid {} now, {} in the backup): it was deleted and created again",
                style::sanitize(now),
                style::sanitize(was)
            ))
            .into());
        }
        let Some(patch) = adopt::undo_patch(&backup, &current) else {
            writeln!(out, "{who} already has the annotations and management policies of the backup; nothing to do")?;
            return Ok(Exit::Ok);
        };
        let mut preview = current.clone();
        adopt::apply_merge_patch(&mut preview, &patch);
        let changes = adopt::diff(&current, &preview);
        let mut text = format!("Restore {who} from {}:\n", args.backup_file.display());
        for c in &changes {
            text.push_str(&format!("  {}\n", change_line(c)));
        }
        if args.dry_run {
            write!(out, "{text}")?;
            writeln!(
                out,
                "  PATCH (application/merge-patch+json, dryRun=All)\n  {}",
                style::sanitize(&patch.to_string())
            )?;
            write::merge_patch(&conn, &target, &patch, true).await.map_err(|e| e.into_error(&conn))?;
            writeln!(out, "accepted by the API server (dryRun=All); nothing was changed")?;
            return Ok(Exit::Ok);
        }
        ui.say(text.trim_end());
        if !args.yes {
            ui.confirm_change(&format!("Restore {who}?"), format!("change {who}"), "patch")
                .map_err(AdoptError::into_anyhow)?;
        }
        match write::merge_patch(&conn, &target, &patch, false).await {
            Ok(_) => break,
            Err(WriteError::Conflict { .. }) => {
                let fresh = write::read(&conn, &target).await.map_err(|e| e.into_error(&conn))?;
                let changed = adopt::conflicting_changes(&current, &fresh);
                let (s, next) =
                    machine::next(&conflicts, Observation::Conflict { changes: changed.clone(), recovering: false });
                conflicts = s;
                match next {
                    Next::Retry => {
                        ui.say("the object changed meanwhile (status only); retrying");
                        current = fresh;
                        continue;
                    }
                    Next::Stop(Stop::KeepsChanging) => {
                        return Err(Error::failed(stop_reason(&Stop::KeepsChanging, &target.display())).into());
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
                    ))
                    .into());
                }
                current = fresh;
            }
            Err(e) => return Err(e.into_error(&conn).into()),
        }
    }
    let obj = write::read(&conn, &target).await.map_err(|e| e.into_error(&conn))?;
    let mr = decode(&obj).context("reading the restored MR")?;
    ui.say(format!("restored {who} from {}", args.backup_file.display()));
    detail::write_detail(out, &mr, &diagnose(&mr), env.detail_now)?;
    Ok(Exit::Ok)
}
