//! Flags of `kubectl upjet health`: the health checks GitOps tools should run on MRs, printed in
//! each tool's own configuration form.

use clap::{Args, Subcommand, ValueEnum};

const ARGOCD_EXAMPLES: &str = "Examples:
  # The argocd-cm entry, to paste under data: (it replaces an existing resource.customizations)
  kubectl upjet health argocd

  # Patch it into Argo CD's ConfigMap
  kubectl upjet health argocd -o yaml | kubectl patch configmap argocd-cm -n argocd --type merge --patch-file /dev/stdin

  # Also a provider outside *.upbound.io
  kubectl upjet health argocd --group '*.upbound.io' --group '*.ovh.edixos.io'

How it differs from Argo CD's built-in check for *.upbound.io, case by case: docs/gitops-health.md.";

const FLUX_EXAMPLES: &str = "Examples:
  # healthCheckExprs for every managed kind this cluster serves, for a Kustomization's spec
  kubectl upjet health flux

  # Only one provider family's kinds
  kubectl upjet health flux --provider aws.upbound.io

Flux matches an entry by exact apiVersion and kind, so re-run it after installing a provider.
What CEL cannot say that the Argo CD check says: docs/gitops-health.md.";

/// `kubectl upjet health`.
#[derive(Debug, Clone, Args)]
pub struct HealthArgs {
    /// Which tool.
    #[command(subcommand)]
    pub tool: HealthTool,
}

/// The GitOps tools.
#[derive(Debug, Clone, Subcommand)]
pub enum HealthTool {
    /// Print the argocd-cm entry that installs a Lua health check for the upjet groups: Argo
    /// CD's built-in verdicts, plus lost identity and stuck creates as Degraded, paused as
    /// Suspended.
    #[command(after_help = ARGOCD_EXAMPLES)]
    Argocd(ArgocdArgs),
    /// Print a Flux Kustomization's healthCheckExprs (CEL) for the managed kinds this cluster
    /// serves.
    #[command(after_help = FLUX_EXAMPLES)]
    Flux(FluxArgs),
}

/// `kubectl upjet health argocd`.
#[derive(Debug, Clone, Args)]
pub struct ArgocdArgs {
    /// API groups the check covers, as globs: every kind of each (repeatable).
    #[arg(long = "group", value_name = "GLOB", default_value = "*.upbound.io")]
    pub groups: Vec<String>,
    /// The namespace of argocd-cm, for -o yaml and -o json.
    #[arg(long = "argocd-namespace", value_name = "NAMESPACE", default_value = "argocd")]
    pub argocd_namespace: String,
    /// The providers' reconcile timeout, written into the script.
    #[command(flatten)]
    pub reconciler: super::shared::ReconcilerArgs,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = ArgocdFormat::Entry, help_heading = super::OUTPUT)]
    pub output: ArgocdFormat,
}

/// `health argocd -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArgocdFormat {
    /// The `resource.customizations` entry, as written under the ConfigMap's `data:`.
    Entry,
    /// The argocd-cm ConfigMap holding only that entry (a merge patch).
    Yaml,
    /// The same ConfigMap as JSON.
    Json,
}

/// `kubectl upjet health flux`.
#[derive(Debug, Clone, Args)]
pub struct FluxArgs {
    /// `--kind`, `--provider`.
    #[command(flatten)]
    pub select: super::shared::KindArgs,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = FluxFormat::Yaml, help_heading = super::OUTPUT)]
    pub output: FluxFormat,
}

/// `health flux -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FluxFormat {
    /// `spec.healthCheckExprs` as YAML, to merge into a Kustomization.
    Yaml,
    /// The same as JSON.
    Json,
}
