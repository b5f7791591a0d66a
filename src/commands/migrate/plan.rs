//! `kubectl upjet migrate plan`: the legacy MRs asked for, their namespaced twins' CRDs, the
//! core's plan, and — with a cluster — the API server's word on every new manifest (the target
//! namespace exists, the name is free, a server-side `dryRun=All` create passes) before the
//! plan file is written.

use super::inputs::{self, Selection};
use crate::commands::resolve::MigratePlan;
use crate::settings::Settings;
use std::io::Write;
use upjet_cluster::connect::{self, Connection};
use upjet_cluster::target::Kinds;
use upjet_cluster::write::{self, Target, WriteError};
use upjet_core::error::{Error, Exit};
use upjet_core::managed::keys;
use upjet_core::migrate::{self, MIGRATED_FROM, MigrationPlan, Options, Refusal};
use upjet_core::shell::{ShellCommand, quoted};
use upjet_output::style::sanitize;

/// Runs `migrate plan`.
pub async fn run(settings: &Settings, args: &MigratePlan, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let selector = args.selector.as_deref();
    let sel = Selection { targets: &args.targets, all: args.all, labels: args.labels.clone() };
    let opts = Options {
        namespace: args.namespace.clone(),
        drop_fields: args.drop_fields.clone(),
        provider_config_kind: args.provider_config_kind.clone(),
        at: args.at,
        mrds: Default::default(),
    };
    let mut plan = if args.from.is_empty() {
        let conn = connect::connect(&settings.connect).await?;
        let (legacy, targets) = inputs::live(&conn, &sel, selector).await?;
        let mrds = crate::commands::mrd::read(&conn).await.ok().flatten().unwrap_or_default();
        let mut plan = migrate::build_plan(&legacy, &targets, &Options { mrds, ..opts });
        check_live(&conn, &mut plan).await?;
        plan
    } else {
        let (legacy, targets) = inputs::offline(&args.from, &sel)?;
        migrate::build_plan_from_json(&legacy, &targets, &opts)
    };
    for t in &args.targets {
        let asked = |r: &str| {
            r.split_once('/').is_some_and(|(k, n)| {
                t.ends_with(&format!("/{n}"))
                    && k.starts_with(t.split('/').next().unwrap_or("").to_lowercase().as_str())
            })
        };
        if !plan.items.iter().any(|i| asked(&i.legacy.resource)) && !plan.refused.iter().any(|r| asked(&r.resource)) {
            plan.refused.push(Refusal { resource: t.clone(), reason: "no such legacy MR".into() });
        }
    }
    write_plan(&args.output, &plan)?;
    report(&plan, &args.output, out)?;
    Ok(if plan.refused.is_empty() { Exit::Ok } else { Exit::Failed })
}

fn write_plan(path: &std::path::Path, plan: &MigrationPlan) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(plan).map_err(|e| Error::failed(format!("cannot encode the plan: {e}")))?;
    upjet_local::store::write(path, (text + "\n").as_bytes())
        .map_err(|e| Error::usage(format!("cannot write {}: {e}", path.display())))
}

fn report(plan: &MigrationPlan, path: &std::path::Path, out: &mut dyn Write) -> std::io::Result<()> {
    for item in &plan.items {
        let dropped =
            if item.dropped.is_empty() { String::new() } else { format!(" (dropped {})", item.dropped.join(", ")) };
        let id = if item.id_source == "crossplane.io/external-name" {
            quoted(&item.external_name).into_owned()
        } else {
            format!("{} (suggested by {}: check it)", quoted(&item.external_name), item.id_source)
        };
        writeln!(
            out,
            "{:<8} {} → {} tracking {}{dropped}",
            "plan",
            sanitize(&item.display()),
            sanitize(&item.target_display()),
            sanitize(&id)
        )?;
        if item.in_use {
            writeln!(
                out,
                "{:<8} {} is in use (label {}): Crossplane's webhook refuses its delete, the last step, while a Usage names it; point the Usage at {} before apply, or apply stops there with the legacy MR held",
                "note",
                sanitize(&item.display()),
                keys::IN_USE_LABEL,
                sanitize(&item.target_display())
            )?;
        }
    }
    for r in &plan.refused {
        writeln!(out, "{:<8} {}: {}", "refused", sanitize(&r.resource), sanitize(&r.reason))?;
    }
    writeln!(out, "{} planned, {} refused; plan written to {}", plan.items.len(), plan.refused.len(), path.display())?;
    if !plan.items.is_empty() {
        let apply =
            ShellCommand::upjet("migrate").word("apply").opt("-f", path.display().to_string()).word("--dry-run");
        writeln!(out, "next: {}", sanitize(&apply.to_string()))?;
    }
    Ok(())
}

/// The API server's word on each item: the namespace exists, the name is free (or taken by this
/// very migration), and a `dryRun=All` create of the manifest passes. An item that fails moves
/// to the refusals, named.
async fn check_live(conn: &Connection, plan: &mut MigrationPlan) -> anyhow::Result<()> {
    let kinds = Kinds::discover(conn).await?;
    let mut kept = Vec::new();
    for mut item in std::mem::take(&mut plan.items) {
        match check_one(conn, &kinds, &mut item).await {
            Ok(()) => kept.push(item),
            Err(reason) => plan.refused.push(Refusal { resource: item.display(), reason }),
        }
    }
    plan.items = kept;
    Ok(())
}

async fn check_one(conn: &Connection, kinds: &Kinds, item: &mut migrate::Item) -> Result<(), String> {
    let (_, target) = super::addresses(kinds, item, &Default::default()).map_err(|e| e.to_string())?;
    let ns_path = format!("/api/v1/namespaces/{}", item.target.namespace);
    if let Err(e) = upjet_cluster::request::text(conn, upjet_cluster::request::get(&ns_path, "application/json")).await
    {
        return Err(match e.status_code() {
            Some(404) => format!(
                "the namespace {} does not exist: {}",
                quoted(&item.target.namespace),
                ShellCommand::kubectl("create").word("namespace").arg(&item.target.namespace)
            ),
            _ => format!("cannot read the namespace {:?}: {}", item.target.namespace, e.reason()),
        });
    }
    match write::read(conn, &target).await {
        Ok(existing) => {
            let ours = upjet_core::patch::annotation(&existing, MIGRATED_FROM) == Some(item.legacy.resource.as_str());
            let same_id =
                upjet_core::patch::annotation(&existing, keys::EXTERNAL_NAME) == Some(item.external_name.as_str());
            if !same_id {
                return Err(taken(&target, &existing));
            }
            // The twin already tracks this object (created by hand, or by a run that stopped):
            // apply finishes around it and leaves its policies as they are, unless it is still
            // observing only (then this plan's final policies follow its Observe, as in step d).
            let policies = upjet_core::patch::policies_of(&existing);
            if !ours || policies.as_deref() != Some(&["Observe".to_string()][..]) {
                item.twin_exists = true;
                item.final_policies = policies;
            }
            return Ok(());
        }
        Err(WriteError::NotFound { .. }) => {}
        Err(e) => return Err(e.to_string()),
    }
    write::create(conn, &target, &upjet_core::migrate::apply::manifest(item), true)
        .await
        .map(|_| ())
        .map_err(|e| format!("the server-side dry run refused it: {e}"))
}

fn taken(target: &Target, existing: &serde_json::Value) -> String {
    let ext = upjet_core::patch::annotation(existing, keys::EXTERNAL_NAME).unwrap_or("");
    format!(
        "{} already exists, tracking {ext:?}: the name is taken in the target namespace by an MR with another identity",
        target.display()
    )
}
