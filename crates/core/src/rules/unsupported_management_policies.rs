//! `UnsupportedManagementPolicies`: the reconciler rejects the policy set before doing anything.

use super::facts::Facts;
use crate::finding::{Code, Finding};

/// `ManagementPoliciesResolver.Validate` runs right after the pause gate, before deletion
/// handling, Observe and Create: a set that is not one of `defaultSupportedManagementPolicies`
/// (as a set) stops every reconcile with Synced=False/ReconcileError, a
/// `CannotUseInvalidManagementPolicy` event and no requeue. Nothing else on the MR matters until
/// the set is fixed, so the fix is a supported set, not other edits.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let err = facts.management.validate().err()?;
    let nearest = serde_json::to_string(&facts.management.nearest_supported()).unwrap_or_default();
    let when = if facts.paused { "once unpaused, " } else { "" };
    let deleting = if facts.mr.deletion_timestamp.is_some() { "is stuck: its" } else { "would hang: its" };
    Some(
        Finding::new(
            Code::UnsupportedManagementPolicies,
            format!(
                "spec.managementPolicies {} is not a set the reconciler supports: {when}it rejects the MR before anything else (Synced=False ReconcileError \"{}\", event CannotUseInvalidManagementPolicy), so nothing is observed, created, updated or deleted, and deleting the MR {deleting} finalizer is never removed",
                facts.policies.describe(),
                err.message
            ),
            facts.kubectl("patch").word("--type=merge").opt("-p", format!(r#"{{"spec":{{"managementPolicies":{nearest}}}}}"#)),
        )
        .with("managementPolicies", facts.policies.describe())
        .with_opt("synced", facts.synced_message().map(str::to_owned)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::managed::keys;

    /// Follows crossplane-runtime `pkg/reconciler/managed/policies.go` `Validate` with
    /// `defaultSupportedManagementPolicies`, and `reconciler.go` `Reconcile` (Validate before
    /// the deletion, create-incomplete and late-initialize steps).
    const CASES: &[Case] = &[
        (
            "no Observe",
            || {
                base().policies(&["Create", "Update", "Delete"]).cond("Ready", "False", "Unavailable", "").cond(
                    "Synced",
                    "False",
                    "ReconcileError",
                    "`spec.managementPolicies` is set to a value([Create Update Delete]) which is not supported. Check docs for supported policies",
                )
            },
            &[KstatusMisleading, UnsupportedManagementPolicies],
        ),
        (
            "Delete without Create, fresh MR: no LateInitialize advice",
            || base().policies(&["Observe", "Update", "Delete"]).cond("Ready", "False", "Unavailable", ""),
            &[KstatusMisleading, UnsupportedManagementPolicies],
        ),
        (
            "deleting: blocked by Validate, not by the create gate",
            || base().healthy().policies(&["*", "Delete"]).annotation(P, T1).deleting(),
            &[UnsupportedManagementPolicies],
        ),
        ("order and duplicates do not matter", || base().healthy().policies(&["Delete", "Observe", "Observe"]), &[]),
        (
            "paused by annotation too",
            || base().healthy().policies(&["Delete"]).annotation(keys::PAUSED, "true"),
            &[Paused, UnsupportedManagementPolicies],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    /// Validate stops the reconciler before the create-incomplete gate, so CreateIncomplete (and
    /// its adopt advice) does not fire; kstatus's own view is another rule's business.
    #[test]
    fn validate_comes_before_the_create_gate() {
        let mr = base().policies(&["Create"]).annotation(P, T1).annotation(S, T0).build();
        let facts = super::Facts::of(&mr, super::super::cases::at());
        assert!(super::check(&facts).is_some());
        assert!(super::super::create_incomplete::check(&facts).is_none());
    }
}
