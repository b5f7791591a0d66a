//! `ObserveNotFound`: an Observe-only MR whose cloud object does not exist.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::managed::keys;

/// The Synced message an Observe-only MR gets when its cloud object is missing.
pub const ERR_OBSERVE_NOT_FOUND: &str = "observe failed: external resource does not exist";

/// Observe-only + not found (reconciler.go Observe branch): usually a wrong external-name format.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let msg = facts.synced_message().filter(|m| m.contains(ERR_OBSERVE_NOT_FOUND))?;
    Some(
        Finding::new(
            Code::ObserveNotFound,
            "the MR only observes, and no cloud object has its external-name: the external-name is probably wrong or in the wrong format",
            format!("kubectl upjet history {}", facts.arg()),
        )
        .with("synced", msg)
        .with_opt(keys::EXTERNAL_NAME, facts.mr.external_name())
        .with("managementPolicies", facts.policies.describe()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::domain::finding::Code::*;

    const CASES: &[Case] = &[(
        "observe-only not found",
        || {
            base().policies(&["Observe"]).cond("Ready", "False", "Unavailable", "").cond(
                "Synced",
                "False",
                "ReconcileError",
                "observe failed: external resource does not exist",
            )
        },
        &[ObserveNotFound],
    )];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
