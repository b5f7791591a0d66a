//! ManagedResourceDefinitions of a live cluster: one list call, read where Crossplane v2 serves
//! them and skipped without error where the API is absent (Crossplane v1) or denied.

use crate::settings::Settings;
use upjet_cluster::connect::{self, Connection};
use upjet_cluster::providers;
use upjet_core::kind_removal::KindRemovals;
use upjet_core::mrd::MrdStates;

/// The cluster's MRDs; `Ok(None)` when the MRD API is absent (404) or the caller may not list it
/// (403), `Err` with the reason otherwise.
pub async fn read(conn: &Connection) -> Result<Option<MrdStates>, String> {
    match providers::managed_resource_definitions(conn).await {
        Ok(body) => upjet_evidence::mrd::parse_list(&body)
            .map(|m| Some(MrdStates::new(m)))
            .map_err(|e| format!("unreadable ManagedResourceDefinition list: {e}")),
        Err(e) if matches!(e.status_code(), Some(403 | 404)) => Ok(None),
        Err(e) => Err(e.reason()),
    }
}

/// doctor's scan line (how many MRDs are inactive; nothing where there are none to read) and
/// the kinds whose MRD is being deleted, from the one list.
pub async fn scan(conn: &Connection) -> (Option<String>, KindRemovals) {
    match read(conn).await {
        Ok(Some(states)) => (states.scan_note(), states.removals()),
        Ok(None) => (None, KindRemovals::default()),
        Err(why) => (Some(format!("cannot list ManagedResourceDefinitions: {why}")), KindRemovals::default()),
    }
}

/// The MRDs of the cluster a backup will be restored into (`--target-context`), and a note when
/// they could not be read (then no kind is reported inactive).
pub async fn target(settings: &Settings, context: &str) -> anyhow::Result<(MrdStates, Option<String>)> {
    let conn = connect::connect(&settings.connect_to(context)).await?;
    Ok(match read(&conn).await {
        Ok(Some(states)) => {
            let (all, inactive) = states.counts();
            let note = format!("target cluster {context}: {inactive} of {all} ManagedResourceDefinitions inactive");
            (states, Some(note))
        }
        Ok(None) => (
            MrdStates::default(),
            Some(format!(
                "target cluster {context}: no ManagedResourceDefinitions to read (Crossplane v1, or not allowed to list them)"
            )),
        ),
        Err(why) => (
            MrdStates::default(),
            Some(format!(
                "target cluster {context}: cannot list ManagedResourceDefinitions ({why}); inactive kinds not checked"
            )),
        ),
    })
}
