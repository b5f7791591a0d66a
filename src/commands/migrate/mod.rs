//! `kubectl upjet migrate {plan,apply,status}`: the shell around [`upjet_core::migrate`].
//! `plan` reads the legacy MRs and the namespaced kinds' CRDs (from the cluster or from
//! `--from`), asks the core for the plan and, with a cluster, has the API server dry-run every
//! new manifest; `apply` carries the plan out with adopt's guarantees; `status` reads where
//! each item stands.

mod apply;
mod inputs;
mod plan;
mod status;

use crate::cli::migrate::{MigrateArgs, MigrateCommand};
use crate::commands::resolve::{MigrateApply, MigratePlan};
use crate::settings::Settings;
use std::io::Write;
use std::path::Path;
use upjet_cluster::connect::Connection;
use upjet_cluster::target::Kinds;
use upjet_cluster::write::Target;
use upjet_core::error::{Error, Exit};
use upjet_core::migrate::{Item, MigrationPlan, not_served};
use upjet_core::mrd::MrdStates;

/// Runs one of the migrate commands, its flags resolved once ([`MigratePlan`], [`MigrateApply`];
/// a refused combination of `plan`'s fails here, before anything is read).
pub async fn run(settings: &Settings, args: &MigrateArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    match &args.command {
        MigrateCommand::Plan(a) => {
            let asked = MigratePlan::resolve(a, settings, Path::exists).map_err(Error::from)?;
            plan::run(settings, &asked, out).await
        }
        MigrateCommand::Apply(a) => apply::run(settings, &MigrateApply::resolve(a), out).await,
        MigrateCommand::Status(a) => status::run(settings, &a.filename, out).await,
    }
}

/// Reads a plan file.
fn read_plan(path: &Path) -> Result<MigrationPlan, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::usage(format!("cannot read the plan {}: {e}", path.display())))?;
    upjet_core::migrate::parse(&text).map_err(|e| Error::usage(format!("{}: {e}", path.display())))
}

/// The addresses of one item's two MRs: the legacy MR, and the namespaced MR at the version the
/// plan writes it with.
/// `mrds`: the cluster's ManagedResourceDefinitions, so that a twin kind that is not served
/// because its MRD is inactive says how to activate it.
fn addresses(kinds: &Kinds, item: &Item, mrds: &MrdStates) -> Result<(Target, Target), Error> {
    let (legacy_kind, legacy_name) = split(&item.legacy.resource)?;
    let (target_kind, target_name) = split(&item.target.resource)?;
    let legacy = Target::new(kinds.resolve(legacy_kind)?, None, legacy_name);
    let mut kind = kinds.resolve(target_kind).map_err(|e| {
        let (group, kind) = (item.manifest["apiVersion"].as_str().unwrap_or_default(), item.manifest["kind"].as_str());
        let group = group.rsplit_once('/').map_or(group, |(g, _)| g);
        Error::usage(format!("{e} ({})", not_served(kind.unwrap_or_default(), group, mrds)))
    })?;
    if let Some(v) = item.manifest["apiVersion"].as_str().and_then(|a| a.rsplit_once('/')).map(|(_, v)| v) {
        kind.version = v.to_string();
    }
    Ok((legacy, Target::new(kind, Some(&item.target.namespace), target_name)))
}

fn split(resource: &str) -> Result<(&str, &str), Error> {
    resource.split_once('/').ok_or_else(|| Error::usage(format!("{resource:?} is not kind.group/name")))
}

/// Every item's addresses; an item whose kinds the cluster does not serve refuses the plan.
async fn locate_all(conn: &Connection, plan: &MigrationPlan) -> anyhow::Result<Vec<(Target, Target)>> {
    let kinds = Kinds::discover(conn).await?;
    let mrds = crate::commands::mrd::read(conn).await.ok().flatten().unwrap_or_default();
    let mut out = Vec::with_capacity(plan.items.len());
    let mut problems = Vec::new();
    for (i, item) in plan.items.iter().enumerate() {
        match addresses(&kinds, item, &mrds) {
            Ok(t) => out.push(t),
            Err(e) => problems.push(format!("  item {i} ({}): {e}", item.display())),
        }
    }
    if !problems.is_empty() {
        return Err(
            Error::usage(format!("the plan cannot be applied; nothing was changed:\n{}", problems.join("\n"))).into()
        );
    }
    Ok(out)
}
