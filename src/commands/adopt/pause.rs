//! `adopt --pause-composite`: the MR's XR paused for the adoption. The composite reconciler does
//! nothing for an XR annotated `crossplane.io/paused: "true"` (crossplane's composite reconciler
//! checks it before composing), so no forced apply puts the composition's external-name back
//! while the adoption writes and verifies the new one. The XR is backed up first, and its pause
//! is put back as it was after the adoption, whatever its outcome: an XR that was not paused is
//! never left paused.

use super::AdoptEnv;
use super::error::AdoptError;
use super::ui::Ui;
use crate::commands::resolve::Carry;
use serde_json::{Value, json};
use upjet_cluster::connect::Connection;
use upjet_cluster::target::Kinds;
use upjet_cluster::write::{self, Target};
use upjet_core::adopt::composite::CompositeHold;
use upjet_core::error::Error;
use upjet_core::managed::ManagedResource;
use upjet_core::patch;
use upjet_local::backup;
use upjet_output::style::sanitize;

const PAUSED: &str = "crossplane.io/paused";

/// An XR paused for an adoption: where it is, and whether it was paused before.
pub(super) struct PausedXr {
    target: Target,
    was_paused: bool,
}

/// Pauses the XR that holds the MR's identity: finds its kind, reads it, backs it up and
/// annotates it paused (a conditional write). `None` when the MR has no controller XR to pause.
pub(super) async fn pause(
    conn: &Connection,
    mr: &ManagedResource,
    carry: &Carry,
    env: &AdoptEnv,
    ui: &mut Ui,
) -> Result<Option<PausedXr>, AdoptError> {
    let Some(controller) = mr.composed.as_ref().and_then(|c| c.controller.clone()) else { return Ok(None) };
    let kinds = Kinds::discover(conn).await?;
    let Some(kind) = kinds.all.iter().find(|k| k.group == controller.group() && k.kind == controller.kind) else {
        return Err(Error::failed(format!(
            "cannot pause XR {}/{}: its kind is not served",
            controller.kind, controller.name
        ))
        .into());
    };
    let namespace = if kind.namespaced { mr.namespace.as_deref() } else { None };
    let target = Target::new(kind.clone(), namespace, &controller.name);
    let xr = write::read(conn, &target).await.map_err(|e| e.into_error(conn))?;
    let was_paused = xr.pointer("/metadata/annotations/crossplane.io~1paused").and_then(Value::as_str) == Some("true");
    let who = sanitize(&target.display());
    if carry.dry_run() {
        ui.say(format!("would pause {who} for the adoption"));
        return Ok(Some(PausedXr { target, was_paused: true }));
    }
    let dir = carry.backups().map_err(|e| Error::failed(format!("no backup folder for {who}: {e}")))?;
    let path = backup::write(dir, &xr, (env.now)()).map_err(|e| Error::failed(e.to_string()))?;
    ui.say(format!("backed up {who} to {}", path.display()));
    if !was_paused {
        let body = patch::with_resource_version(
            json!({"metadata": {"annotations": {PAUSED: "true"}}}),
            patch::resource_version(&xr),
        );
        write::merge_patch(conn, &target, &body, false).await.map_err(|e| e.into_error(conn))?;
        ui.say(format!("paused {who} ({PAUSED}: \"true\") for the adoption"));
    }
    Ok(Some(PausedXr { target, was_paused }))
}

/// Puts the XR's pause back as it was (removes it when the XR was not paused before).
pub(super) async fn resume(conn: &Connection, paused: PausedXr, ui: &mut Ui) -> Result<(), AdoptError> {
    if paused.was_paused {
        return Ok(());
    }
    let who = sanitize(&paused.target.display());
    let body = json!({"metadata": {"annotations": {PAUSED: null}}});
    write::merge_patch(conn, &paused.target, &body, false).await.map_err(|e| e.into_error(conn))?;
    ui.say(format!("unpaused {who}, as it was before"));
    Ok(())
}

/// What the composition must carry for the adopted ID to survive the XR's next compose.
pub(super) fn carry(hold: &CompositeHold, id: &str) -> String {
    format!(
        "the composition of {xr} still sets {f}: before {xr} composes again, make it set the external-name to {id} \
         (patched onto this resource from {xr}), or stop setting it; otherwise its next compose puts the old value back",
        xr = hold.xr,
        f = hold.fields_phrase(),
        id = upjet_core::shell::quoted(id)
    )
}
