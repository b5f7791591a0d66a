//! Flags of `kubectl upjet rbac`: the least-privilege roles for the managed kinds a cluster serves.

use clap::{Args, ValueEnum};

const RBAC_EXAMPLES: &str = "Examples:
  # Grant the roles in deploy/ access to every managed kind installed now (re-run after installing a provider)
  kubectl upjet rbac | kubectl apply -f -

  # Only one provider family's kinds, as JSON
  kubectl upjet rbac --provider aws.upbound.io -o json

The static roles in deploy/ aggregate these by label: kubectl-upjet-doctor reads, kubectl-upjet-adopt
also patches; neither reads Secrets or writes anything else. See docs/rbac.md.";

/// `kubectl upjet rbac`.
#[derive(Debug, Clone, Args)]
#[command(after_help = RBAC_EXAMPLES)]
pub struct RbacArgs {
    /// `--kind`, `--provider`.
    #[command(flatten)]
    pub select: super::shared::KindArgs,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = RbacFormat::Yaml, help_heading = super::OUTPUT)]
    pub output: RbacFormat,
}

/// `rbac -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RbacFormat {
    /// A YAML `List` of ClusterRoles.
    Yaml,
    /// A JSON `List` of ClusterRoles.
    Json,
}
