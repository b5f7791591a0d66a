//! `kubectl upjet health argocd|flux`: the GitOps health checks (`domain::health`) printed in
//! each tool's configuration form. `argocd` needs no cluster (one script covers every kind of a
//! group glob); `flux` lists the managed kinds the cluster serves, since Flux matches each entry
//! by exact apiVersion and kind.

use crate::cli::health::{ArgocdArgs, ArgocdFormat, FluxArgs, FluxFormat, HealthArgs, HealthTool};
use crate::domain::health::{argocd, flux};
use crate::error::{Error, Exit};
use crate::output::structured;
use crate::settings::Settings;
use std::io::Write;

/// Prints the asked-for tool's health check.
pub async fn run(settings: &Settings, args: &HealthArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    match &args.tool {
        HealthTool::Argocd(a) => run_argocd(settings, a, out),
        HealthTool::Flux(a) => run_flux(settings, a, out).await,
    }
}

fn run_argocd(settings: &Settings, args: &ArgocdArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let text =
        argocd::customizations(&args.groups, settings.reconcile_timeout).map_err(|e| Error::usage(e.to_string()))?;
    match args.output {
        ArgocdFormat::Entry => out.write_all(argocd::data_entry(&text).as_bytes())?,
        ArgocdFormat::Yaml => structured::write_yaml(out, &argocd::config_map(&args.argocd_namespace, &text))?,
        ArgocdFormat::Json => structured::write_json(out, &argocd::config_map(&args.argocd_namespace, &text))?,
    }
    Ok(Exit::Ok)
}

async fn run_flux(settings: &Settings, args: &FluxArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let selected = super::rbac::served_kinds(settings, &args.kinds, &args.providers).await?;
    let pairs: Vec<(String, String)> = selected.iter().map(|k| (k.api_version(), k.kind.clone())).collect();
    let doc = serde_json::json!({"spec": {"healthCheckExprs": flux::entries(&pairs)}});
    match args.output {
        FluxFormat::Yaml => structured::write_yaml(out, &doc)?,
        FluxFormat::Json => structured::write_json(out, &doc)?,
    }
    let bytes: usize = doc.to_string().len();
    eprintln!("{} managed kinds, {} KiB of expressions", pairs.len(), bytes.div_ceil(1024));
    Ok(Exit::Ok)
}
