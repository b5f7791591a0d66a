//! `RestoreIntoFight`: the source cluster still manages the cloud object the restored MR tracks.

use super::facts::Facts;
use super::restore_verdict::{Verdict, verdict};
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::shell::quoted;

/// Two reconcilers (`reconciler.go` `Reconcile`), one per cluster, observing the same external-name
/// each Update the cloud object to their own spec, and a Delete in either deletes it for both:
/// velero#9432's migration restores Observe-only and pauses the old cluster before promoting.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let ctx = facts.evidence?.restore.as_ref()?;
    let Verdict::Fight(source) = verdict(facts, ctx) else { return None };
    let ext = facts.mr.external_name().unwrap_or_default();
    let message = format!(
        "the source cluster's {source} still manages the cloud object {ext}: restored as it is, two controllers would manage one object (each Update overwrites the other's spec, a Delete in either deletes it); restore it observing only and promote it once the source lets go",
        ext = quoted(ext)
    );
    let next = source.pause().comment("in the source cluster, then restore-plan");
    Some(
        Finding::new(Code::RestoreIntoFight, message, next)
            .with("source", source.to_string())
            .with(keys::EXTERNAL_NAME, ext),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::{P, S, T0, T1};
    use super::super::restore_cases::*;
    use crate::finding::Code::*;
    use crate::restore::{MrRestore, SourceTracker};
    use crate::testing::Mr;

    fn tracked() -> MrRestore {
        MrRestore {
            name_initialized: Some(false),
            source_tracker: Some(SourceTracker {
                context: "prod".into(),
                reference: "vpc.ec2.aws.upbound.io/v".into(),
                namespace: None,
            }),
            inactive_kind: None,
        }
    }

    /// crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile` in both clusters
    /// (Observe, Update, Delete by the same external-name), velero#9432's two-phase migration.
    const CASES: &[Case] = &[
        (
            "the source still manages it",
            || Mr::new("VPC", "v").external_name("vpc-1").healthy(),
            tracked,
            &[RestoreIntoFight],
        ),
        (
            "no source tracker",
            || Mr::new("VPC", "v").external_name("vpc-1").healthy(),
            provider_assigned,
            &[RestoreSafe],
        ),
        (
            "the gate comes first",
            || Mr::new("VPC", "v").external_name("vpc-1").annotation(S, T0).annotation(P, T1),
            tracked,
            &[RestoreStopsAtCreateGate],
        ),
    ];

    #[test]
    fn table() {
        check_restore_cases(CASES);
    }

    #[test]
    fn names_the_source_mr() {
        let f = restore_findings(&Mr::new("VPC", "v").external_name("vpc-1"), tracked()).remove(0);
        assert!(
            f.message.contains("prod: vpc.ec2.aws.upbound.io/v still manages the cloud object \"vpc-1\""),
            "{}",
            f.message
        );
    }
}
