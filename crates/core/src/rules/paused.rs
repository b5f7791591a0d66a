//! `Paused`: reconciliation is paused.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;

/// `meta.IsPaused || policy.IsPaused` (reconciler.go paused check).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    if !facts.paused {
        return None;
    }
    let by_annotation = facts.mr.annotation(keys::PAUSED) == Some("true");
    let (message, next) = if by_annotation {
        (
            "reconciliation is paused by the crossplane.io/paused annotation",
            facts.kubectl("annotate").word("crossplane.io/paused-").to_string(),
        )
    } else {
        (
            "reconciliation is paused by an empty spec.managementPolicies",
            facts
                .kubectl("patch")
                .word("--type=merge")
                .opt("-p", r#"{"spec":{"managementPolicies":["*"]}}"#)
                .to_string(),
        )
    };
    Some(
        Finding::new(Code::Paused, message, next)
            .with_opt(keys::PAUSED, facts.mr.annotation(keys::PAUSED))
            .with("managementPolicies", facts.policies.describe()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::{self, *};
    use crate::managed::keys;
    use crate::rules::diagnose;
    use crate::testing::Mr;

    const CASES: &[Case] = &[
        (
            "paused by annotation, never Ready",
            || base().annotation(keys::PAUSED, "true").cond("Synced", "False", "ReconcilePaused", ""),
            &[Paused, KstatusMisleading],
        ),
        ("paused by empty policies", || base().healthy().policies(&[]), &[Paused]),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    #[test]
    fn next_step_removes_the_annotation() {
        let paused = Mr::new("Vpc", "v").annotation(keys::PAUSED, "true").build();
        let f = diagnose(&paused, at()).into_iter().find(|f| f.code == Code::Paused).unwrap();
        assert_eq!(f.next, "kubectl annotate vpc.dns.gcp.upbound.io v crossplane.io/paused-");
    }
}
