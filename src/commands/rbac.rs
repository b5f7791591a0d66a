//! `kubectl upjet rbac`: the managed kinds this cluster serves (discovery, `managed` category),
//! turned into the ClusterRoles `deploy/` aggregates (`domain::rbac`), printed for `kubectl apply`.

use super::resolve::Rbac;
use crate::cli::rbac::{RbacArgs, RbacFormat};
use crate::settings::Settings;
use std::io::Write;
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::{self, KindSelection};
use upjet_cluster::{connect, discover};
use upjet_core::error::{Error, Exit};
use upjet_core::rbac::{ManagedKind, managed_roles};
use upjet_output::structured;

/// The managed kinds the cluster serves, narrowed by `--kind` and `--provider`: what `rbac` and
/// `health flux` write an entry for. No kind at all is a usage error naming the fix.
pub(crate) async fn served_kinds(settings: &Settings, wanted: &KindSelection) -> anyhow::Result<Vec<kinds::ApiKind>> {
    let conn = connect::connect(&settings.connect).await?;
    served_kinds_on(&conn, wanted).await
}

/// [`served_kinds`] over a connection the caller holds (`guard` asks the same cluster more).
pub(crate) async fn served_kinds_on(conn: &Connection, wanted: &KindSelection) -> anyhow::Result<Vec<kinds::ApiKind>> {
    let (all, _) = discover::discover_managed(conn, 8).await?;
    let selected = wanted.select(all).map_err(|e| Error::usage(e.to_string()))?;
    if selected.is_empty() {
        return Err(Error::usage(
            "the cluster serves no managed kinds (no CRD in the `managed` category): install a provider first",
        )
        .into());
    }
    Ok(selected)
}

/// Discovers the managed kinds and prints their read and patch roles as one `List`, the flags
/// resolved once ([`Rbac`]).
pub async fn run(settings: &Settings, args: &RbacArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let asked = Rbac::resolve(args);
    let selected = served_kinds(settings, &asked.kinds).await?;
    let managed: Vec<ManagedKind> =
        selected.iter().map(|k| ManagedKind { group: k.group.clone(), plural: k.plural.clone() }).collect();
    let mut items = managed_roles(&managed);
    let scoped: Vec<(ManagedKind, bool)> =
        selected.iter().zip(&managed).map(|(k, m)| (m.clone(), k.namespaced)).collect();
    items.push(upjet_core::migrate::rbac::migrate_role(&scoped));
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
    match asked.format {
        RbacFormat::Yaml => structured::write_yaml(out, &list)?,
        RbacFormat::Json => structured::write_json(out, &list)?,
    }
    let groups: std::collections::BTreeSet<&str> = managed.iter().map(|k| k.group.as_str()).collect();
    eprintln!("{} managed kinds in {} API groups", managed.len(), groups.len());
    Ok(Exit::Ok)
}
