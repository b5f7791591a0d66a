//! `RestoreStopsAtCreateGate`: the restored MR stops at the create-incomplete gate.

use super::facts::Facts;
use super::restore_verdict::{Verdict, verdict};
use crate::finding::{Code, Finding};
use crate::shell::quoted;

/// Velero restores every annotation, the create marks among them (`resetMetadataAndStatus` drops
/// none), so an `external-create-pending` newer than the result marks (`meta.ExternalCreateIncomplete`)
/// stops the restored MR at the gate: Ready=False `Creating`, Synced=False, `Requeue: false`, and
/// the watch ignores a later edit of that mark (`reconciler.go` `Reconcile`).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let ctx = facts.evidence?.restore.as_ref()?;
    if verdict(facts, ctx) != Verdict::Gate {
        return None;
    }
    let mr = facts.mr;
    let id = mr.external_name().or(mr.at_provider_id.as_deref());
    let then = match id {
        Some(id) => {
            format!("restore it with external-name {id} and without the pending mark, observing only", id = quoted(id))
        }
        None => "no ID is known: restore it paused and find the ID with `kubectl upjet history`".to_string(),
    };
    let message = format!(
        "a restore brings back external-create-pending ({}), newer than any create result, so the restored MR stops at the create-incomplete gate and nothing reconciles it; {then}",
        facts.marks.pending.raw.as_deref().unwrap_or_default()
    );
    let f = Finding::new(Code::RestoreStopsAtCreateGate, message, super::restore_creates_duplicate::restore_plan(None))
        .with_opt("externalName", mr.external_name())
        .with_opt("status.atProvider.id", mr.at_provider_id.as_deref());
    Some(facts.with_marks(f).suggest(id))
}

#[cfg(test)]
mod tests {
    use super::super::cases::{F, P, S, T0, T1};
    use super::super::restore_cases::*;
    use crate::finding::Code::*;
    use crate::testing::Mr;

    /// crossplane-runtime `pkg/meta/meta.go` `ExternalCreateIncomplete` and
    /// `pkg/reconciler/managed/reconciler.go` `Reconcile` (the gate after Initialize), with the
    /// annotations Velero `pkg/restore/restore.go` `resetMetadataAndStatus` keeps.
    const CASES: &[Case] = &[
        (
            "pending newer than succeeded",
            || Mr::new("VPC", "v").annotation(S, T0).annotation(P, T1),
            provider_assigned,
            &[RestoreStopsAtCreateGate],
        ),
        ("pending alone", || Mr::new("VPC", "v").annotation(P, T0), unknown, &[RestoreStopsAtCreateGate]),
        (
            "with an external-name too: the gate comes first",
            || Mr::new("VPC", "v").external_name("vpc-1").annotation(P, T1).annotation(S, T0),
            name_initialized,
            &[RestoreStopsAtCreateGate],
        ),
        (
            "equal seconds: complete",
            || Mr::new("VPC", "v").external_name("vpc-1").annotation(P, T0).annotation(S, T0),
            unknown,
            &[RestoreSafe],
        ),
        (
            "failed after pending: complete",
            || Mr::new("VPC", "v").annotation(P, T0).annotation(F, T1),
            provider_assigned,
            &[RestoreSafe],
        ),
    ];

    #[test]
    fn table() {
        check_restore_cases(CASES);
    }

    #[test]
    fn suggests_the_id_it_tracks() {
        let mr = Mr::new("VPC", "v").at_provider_id("vpc-2").annotation(P, T1).annotation(S, T0);
        assert_eq!(restore_findings(&mr, unknown()).remove(0).suggested_id.as_deref(), Some("vpc-2"));
    }
}
