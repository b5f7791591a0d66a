//! `ObserveNotFound`: an MR that only observes (or imports) and whose cloud object does not exist.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::shell::quoted;

/// The Synced message an Observe-only MR gets when its cloud object is missing.
pub(crate) const ERR_OBSERVE_NOT_FOUND: &str = "observe failed: external resource does not exist";

/// Two shapes of one failure, both in crossplane-runtime `pkg/reconciler/managed/reconciler.go`
/// `Reconcile`:
/// - exactly `["Observe"]` (`ShouldOnlyObserve`): Observe finding nothing fails the reconcile with
///   [`ERR_OBSERVE_NOT_FOUND`];
/// - any other set without Create or Update, such as the import set `["Observe",
///   "LateInitialize"]` (crossplane-runtime #788): the reconciler skips Create, then skips Update
///   ("Skipping update due to managementPolicies. Reconciliation succeeded"), so the MR reports
///   Synced=True and nothing else: no Ready (upjet sets `Available` only when the object exists)
///   and no `status.atProvider`. That silence is the finding.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let (message, synced) = match facts.synced_message().filter(|m| m.contains(ERR_OBSERVE_NOT_FOUND)) {
        Some(msg) => (
            "the MR only observes, and no cloud object has its external-name: the external-name is probably wrong or in the wrong format".to_string(),
            msg.to_string(),
        ),
        None => (silent_import(facts)?, "True/ReconcileSuccess".to_string()),
    };
    Some(
        Finding::new(Code::ObserveNotFound, message, facts.upjet("history").to_string())
            .with("synced", synced)
            .with_opt(keys::EXTERNAL_NAME, facts.mr.external_name())
            .with("managementPolicies", facts.policies.describe()),
    )
}

/// The import that stays silent: a policy set that neither creates nor updates (and is not
/// exactly `["Observe"]`), reconciled successfully, with neither Ready nor an observed ID.
fn silent_import(facts: &Facts) -> Option<String> {
    let (mr, m) = (facts.mr, &facts.management);
    let importing = m.validate().is_ok() && !m.is_paused() && !m.should_create() && !m.should_update();
    let reconciled = mr.condition("Synced").is_some_and(|c| c.status == "True" && c.reason == "ReconcileSuccess");
    let observed = mr.condition("Ready").is_some() || mr.at_provider_id.is_some();
    if !importing
        || m.should_only_observe()
        || !reconciled
        || observed
        || facts.paused
        || mr.deletion_timestamp.is_some()
    {
        return None;
    }
    let name = match mr.external_name() {
        Some(n) => format!("the external-name {n} names no cloud object", n = quoted(n)),
        None => "it has no external-name, so it names no cloud object".to_string(),
    };
    Some(format!(
        "the MR imports ({}) and its Observe found nothing, but says so nowhere: crossplane-runtime reports \"external resource does not exist\" only for exactly [\"Observe\"], so Synced is True while Ready and status.atProvider stay empty; {name}",
        facts.policies.describe()
    ))
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::testing::Mr;

    fn import(policies: &'static [&'static str]) -> Mr {
        Mr::new("Subnet", "imported").external_name("subnet-0abc").policies(policies)
    }

    /// crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile` (the
    /// `ShouldOnlyObserve` not-found branch; Create and Update skipped by policy) and
    /// `pkg/reconciler/managed/policies.go` (`{Observe, LateInitialize}` supported since #788).
    const CASES: &[Case] = &[
        (
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
        ),
        (
            "import [Observe, LateInitialize] found nothing: silent",
            || import(&["Observe", "LateInitialize"]).cond("Synced", "True", "ReconcileSuccess", ""),
            &[ObserveNotFound, KstatusMisleading],
        ),
        (
            "import without an external-name: silent too",
            || {
                Mr::new("Vpc", "v").policies(&["Observe", "LateInitialize"]).cond(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    "",
                )
            },
            &[ObserveNotFound, KstatusMisleading],
        ),
        (
            "import found its object",
            || import(&["Observe", "LateInitialize"]).at_provider_id("subnet-0abc").healthy(),
            &[],
        ),
        ("import not reconciled yet", || import(&["Observe", "LateInitialize"]), &[KstatusMisleading]),
        (
            "exactly [Observe] stays with its own message",
            || import(&["Observe"]).cond("Synced", "True", "ReconcileSuccess", ""),
            &[KstatusMisleading],
        ),
        (
            "Update allowed: a missing object fails the update, not silent",
            || import(&["Observe", "Update", "LateInitialize"]).cond("Synced", "True", "ReconcileSuccess", ""),
            &[KstatusMisleading],
        ),
        (
            "Create allowed: it would create",
            || import(&["Observe", "Create", "LateInitialize"]).cond("Synced", "True", "ReconcileSuccess", ""),
            &[KstatusMisleading],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
