//! The flags of the commands that print configuration for other tools — `rbac` (ClusterRoles)
//! and `health` (Argo CD's and Flux's health checks) — resolved once.

use crate::cli::health::{ArgocdFormat, FluxFormat, HealthArgs, HealthTool};
use crate::cli::rbac::{RbacArgs, RbacFormat};
use upjet_cluster::kinds::KindSelection;
use upjet_core::reconcile_timeout::ReconcileTimeout;

/// `kubectl upjet rbac`, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rbac {
    /// Which managed kinds get roles.
    pub kinds: KindSelection,
    /// `-o`.
    pub format: RbacFormat,
}

impl Rbac {
    /// Resolves rbac's flags.
    pub fn resolve(args: &RbacArgs) -> Rbac {
        Rbac { kinds: super::shared::kinds(&args.select), format: args.output }
    }
}

/// `kubectl upjet health`, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Health {
    /// `health argocd`: one Lua script for the kinds of some API group globs.
    Argocd {
        /// `--group`.
        groups: Vec<String>,
        /// `--argocd-namespace`.
        namespace: String,
        /// The providers' reconcile timeout, written into the script.
        timeout: ReconcileTimeout,
        /// `-o`.
        format: ArgocdFormat,
    },
    /// `health flux`: an expression per managed kind the cluster serves.
    Flux {
        /// Which of them.
        kinds: KindSelection,
        /// `-o`.
        format: FluxFormat,
    },
}

impl Health {
    /// Resolves health's flags (`--create-timeout` is written into Argo CD's script).
    pub fn resolve(args: &HealthArgs) -> Health {
        match &args.tool {
            HealthTool::Argocd(a) => Health::Argocd {
                groups: a.groups.clone(),
                namespace: a.argocd_namespace.clone(),
                timeout: super::shared::reconcile_timeout(Some(&a.reconciler)),
                format: a.output,
            },
            HealthTool::Flux(a) => Health::Flux { kinds: super::shared::kinds(&a.select), format: a.output },
        }
    }
}
