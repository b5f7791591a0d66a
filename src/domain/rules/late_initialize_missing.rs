//! `LateInitializeMissing`: an external-name learned after an async create would never be saved.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::managed::keys;

/// Without LateInitialize (or `*`), upjet never persists an external-name it learns after an
/// async create (reconciler.go late-init step; crossplane#5918). It matters while the identity is
/// not yet durable: no external-name, or not yet confirmed Ready. A set the reconciler rejects
/// (`Validate`) is reported as UnsupportedManagementPolicies instead: nothing runs until it is
/// replaced, so adding LateInitialize to it is the wrong advice.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    if facts.policies.listed.is_none()
        || facts.management.validate().is_err()
        || facts.policies.is_paused()
        || facts.policies.should_late_initialize()
        || !facts.policies.should_create()
    {
        return None;
    }
    if mr.external_name().is_some() && mr.is_true("Ready") {
        return None;
    }
    Some(
        Finding::new(
            Code::LateInitializeMissing,
            "managementPolicies lack LateInitialize and \"*\", so upjet will never save an external-name learned after an async create; a restart then creates a duplicate",
            facts.kubectl("patch").word("--type=json").opt(
                "-p",
                r#"[{"op":"add","path":"/spec/managementPolicies/-","value":"LateInitialize"}]"#,
            ),
        )
        .with("managementPolicies", facts.policies.describe())
        .with_opt(keys::EXTERNAL_NAME, mr.external_name()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::domain::finding::Code::*;
    use crate::domain::testing::Mr;

    /// Follows crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile` (the
    /// late-initialize step, after `Validate`) and `policies.go` `ShouldLateInitialize`.
    const CASES: &[Case] = &[
        (
            "LateInitialize missing on a fresh MR",
            || {
                Mr::new("Vpc", "v")
                    .policies(&["Observe", "Create", "Update", "Delete"])
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
            },
            &[LateInitializeMissing],
        ),
        (
            "unsupported set: no LateInitialize advice",
            || {
                Mr::new("Vpc", "v")
                    .policies(&["Create", "Update", "Delete"])
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
            },
            &[KstatusMisleading, UnsupportedManagementPolicies],
        ),
        (
            "LateInitialize missing but identity durable",
            || base().healthy().policies(&["Observe", "Create", "Update", "Delete"]),
            &[],
        ),
        (
            "observe-only does not need LateInitialize",
            || {
                Mr::new("Vpc", "v").policies(&["Observe"]).cond("Ready", "False", "Unavailable", "").cond(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    "",
                )
            },
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
