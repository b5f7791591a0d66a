//! `kubectl upjet migrate status -f PLAN`: each item's stage, read from its two MRs.

use crate::settings::Settings;
use std::io::Write;
use upjet_cluster::connect;
use upjet_cluster::write::{self, WriteError};
use upjet_core::error::Exit;
use upjet_core::migrate::apply::{self, Stage};
use upjet_core::shell::quoted;
use upjet_output::style::sanitize;

/// Runs `migrate status` over the plan at `path`.
pub async fn run(settings: &Settings, path: &std::path::Path, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let plan = super::read_plan(path)?;
    let conn = connect::connect(&settings.connect).await?;
    let targets = super::locate_all(&conn, &plan).await?;
    let mut tally = std::collections::BTreeMap::new();
    for (item, (legacy, new)) in plan.items.iter().zip(&targets) {
        let read = |r: Result<serde_json::Value, WriteError>| match r {
            Ok(v) => Ok(Some(v)),
            Err(WriteError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        };
        let stage = match (read(write::read(&conn, legacy).await), read(write::read(&conn, new).await)) {
            (Ok(l), Ok(n)) => apply::stage(item, l.as_ref(), n.as_ref()),
            (Err(e), _) | (_, Err(e)) => Stage::Changed(format!("cannot read: {e}")),
        };
        let detail = match &stage {
            Stage::Planned => "nothing done yet".to_string(),
            Stage::Held => "legacy MR paused and unable to delete; namespaced MR not created yet".into(),
            Stage::Observing => format!("{} observing only", item.target_display()),
            Stage::Switched { deleting } if *deleting => "namespaced MR in charge; legacy MR being deleted".into(),
            Stage::Switched { .. } => "namespaced MR in charge; legacy MR paused (kept, or not deleted yet)".into(),
            Stage::Done => {
                format!("{} in charge of {}; legacy MR gone", item.target_display(), quoted(&item.external_name))
            }
            Stage::Changed(why) => why.clone(),
        };
        *tally.entry(stage.word()).or_insert(0usize) += 1;
        writeln!(out, "{:<9} {}: {}", stage.word(), sanitize(&item.display()), sanitize(&detail))?;
    }
    let counts: Vec<String> = tally.iter().map(|(w, n)| format!("{n} {w}")).collect();
    writeln!(out, "{} of {} in the plan", counts.join(", "), plan.items.len())?;
    let done = tally.get("done").copied().unwrap_or(0) == plan.items.len();
    Ok(if done { Exit::Ok } else { Exit::Failed })
}
