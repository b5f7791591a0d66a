//! `RestoreSafe`: restoring the MR as it is creates nothing twice.

use super::facts::Facts;
use super::restore_verdict::{Verdict, verdict};
use crate::finding::{Code, Finding};

/// The reconciler's path after a restore (`reconciler.go` `Reconcile`) meets no Create of an
/// object that exists: the external-name is restored (upjet's `Connect` rebuilds the state from
/// it), the initializer of a `NameAsIdentifier` kind fills it from `metadata.name`, or nothing
/// was ever created.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let ctx = facts.evidence?.restore.as_ref()?;
    let Verdict::Safe(why) = verdict(facts, ctx) else { return None };
    let message = format!("restoring it as it is creates nothing twice: {why}");
    let next = super::restore_creates_duplicate::restore_plan(None);
    Some(Finding::new(Code::RestoreSafe, message, next).with("restore", why))
}

#[cfg(test)]
mod tests {
    use super::super::cases::{P, S, T0};
    use super::super::restore_cases::*;
    use crate::finding::Code::*;
    use crate::testing::Mr;

    /// crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile` and
    /// `pkg/reconciler/managed/api.go` `NameAsExternalName.Initialize`; upjet
    /// `pkg/controller/external_tfpluginsdk.go` `Connect`.
    const CASES: &[Case] = &[
        (
            "external-name restored",
            || Mr::new("VPC", "v").external_name("vpc-1").healthy(),
            provider_assigned,
            &[RestoreSafe],
        ),
        (
            "name initializer",
            || Mr::new("Bucket", "b").annotation(P, T0).annotation(S, T0),
            name_initialized,
            &[RestoreSafe],
        ),
        ("nothing created yet", || Mr::new("VPC", "v"), unknown, &[RestoreSafe]),
        ("created, no ID, peers unknown", || Mr::new("VPC", "v").healthy(), unknown, &[RestoreCreatesDuplicate]),
    ];

    #[test]
    fn table() {
        check_restore_cases(CASES);
    }
}
