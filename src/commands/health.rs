//! `kubectl upjet health argocd|flux`: the GitOps health checks (`domain::health`) printed in
//! each tool's configuration form. `argocd` needs no cluster (one script covers every kind of a
//! group glob); `flux` lists the managed kinds the cluster serves, since Flux matches each entry
//! by exact apiVersion and kind.

use super::resolve::Health;
use crate::cli::health::{ArgocdFormat, FluxFormat, HealthArgs};
use crate::settings::Settings;
use std::io::Write;
use upjet_cluster::kinds::KindSelection;
use upjet_core::error::{Error, Exit};
use upjet_core::health::{argocd, flux};
use upjet_core::reconcile_timeout::ReconcileTimeout;
use upjet_output::structured;

/// Prints the asked-for tool's health check, its flags resolved once ([`Health`]).
pub async fn run(settings: &Settings, args: &HealthArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    match Health::resolve(args) {
        Health::Argocd { groups, namespace, timeout, format } => {
            run_argocd((&groups, timeout), &namespace, format, out)
        }
        Health::Flux { kinds, format } => run_flux(settings, &kinds, format, out).await,
    }
}

fn run_argocd(
    (groups, timeout): (&[String], ReconcileTimeout),
    namespace: &str,
    format: ArgocdFormat,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let text = argocd::customizations(groups, timeout).map_err(|e| Error::usage(e.to_string()))?;
    match format {
        ArgocdFormat::Entry => out.write_all(argocd::data_entry(&text).as_bytes())?,
        ArgocdFormat::Yaml => structured::write_yaml(out, &argocd::config_map(namespace, &text))?,
        ArgocdFormat::Json => structured::write_json(out, &argocd::config_map(namespace, &text))?,
    }
    Ok(Exit::Ok)
}

async fn run_flux(
    settings: &Settings,
    kinds: &KindSelection,
    format: FluxFormat,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let selected = super::rbac::served_kinds(settings, kinds).await?;
    let pairs: Vec<(String, String)> = selected.iter().map(|k| (k.api_version(), k.kind.clone())).collect();
    let doc = serde_json::json!({"spec": {"healthCheckExprs": flux::entries(&pairs)}});
    match format {
        FluxFormat::Yaml => structured::write_yaml(out, &doc)?,
        FluxFormat::Json => structured::write_json(out, &doc)?,
    }
    let bytes: usize = doc.to_string().len();
    eprintln!("{} managed kinds, {} KiB of expressions", pairs.len(), bytes.div_ceil(1024));
    Ok(Exit::Ok)
}
