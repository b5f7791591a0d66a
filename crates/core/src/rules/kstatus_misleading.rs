//! `KstatusMisleading`: kstatus (Flux, Argo CD) reports a state the MR's real state contradicts.

use super::facts::Facts;
use crate::finding::{Code, Finding, Severity};
use crate::gotime::GoTime;
use crate::kstatus::{self, KStatus};
use crate::managed::ManagedResource;

/// kstatus's verdict contradicted by the MR's real state (see [`kstatus::compute`]).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let verdict = kstatus::compute(facts.mr);
    let reality = match verdict.status {
        KStatus::Current => current_reality(facts)?,
        KStatus::InProgress => in_progress_reality(facts)?,
        KStatus::Failed | KStatus::Terminating => return None,
    };
    let mut f = Finding::new(
        Code::KstatusMisleading,
        format!("kstatus (Flux, Argo CD) reports {}, yet {reality}", verdict.status),
        facts.upjet("doctor").to_string(),
    )
    .with("kstatus", verdict.to_string());
    if facts.mr.conditions.is_empty() && not_due_yet(facts) {
        f.severity = Severity::Info;
    }
    Some(f)
}

/// No condition is no sign of trouble yet while the MR is younger than one reconcile (its
/// controller may not have finished the first) or a create it started may still be running:
/// the reconciler writes status only when the reconcile ends.
fn not_due_yet(facts: &Facts) -> bool {
    let created = facts.mr.creation_timestamp.as_deref().and_then(GoTime::parse_rfc3339);
    let young = created.is_some_and(|c| facts.now.before(&facts.reconcile_timeout.result_due(c)));
    young || facts.pending_create.is_in_flight()
}

/// What contradicts `Current`: nobody has reported yet, or Ready=True hides a failure or an
/// unreconciled spec edit.
fn current_reality(facts: &Facts) -> Option<String> {
    let mr = facts.mr;
    let ready = mr.condition("Ready");
    if ready.is_none() && facts.paused {
        return Some("the MR is paused and was never reported Ready".to_string());
    }
    if mr.conditions.is_empty() && not_due_yet(facts) {
        return Some(
            "no controller has reported on this MR yet (no conditions): normal while its first reconcile (or a create it started) may still be running".to_string(),
        );
    }
    if mr.conditions.is_empty() {
        return Some(
            "no controller has reported on this MR yet (no conditions): the provider may be down or not installed"
                .to_string(),
        );
    }
    if ready.is_none() {
        return Some("the MR has no Ready condition yet".to_string());
    }
    if !mr.is_true("Ready") {
        return None;
    }
    // Synced=False/ReconcilePaused is the pause gate's own mark, which the Paused finding reports.
    if let Some(synced) = mr.condition("Synced").filter(|c| c.status == "False" && c.reason != "ReconcilePaused") {
        let why = Some(synced.message.as_str()).filter(|m| !m.is_empty()).unwrap_or("reconcile error");
        return Some(format!("Ready is True but Synced is False: {why}"));
    }
    if let Some((type_, observed, generation)) = unreconciled_generation(mr) {
        return Some(format!(
            "{type_} describes generation {observed} but the spec is at generation {generation}: the change is not reconciled yet"
        ));
    }
    mr.is_false("LastAsyncOperation").then(|| "Ready is True but the last async operation failed".to_string())
}

/// A condition stamped with an older generation than the spec's, Synced first. The managed
/// reconciler stamps `observedGeneration` (`MarkConditions`) on Synced at every status update and
/// on Ready only for Creating/Deleting; upjet writes Ready=True/Available with plain
/// `SetConditions`, so a real Ready=True carries none. A missing or zero `observedGeneration`
/// says nothing (`Condition.Equal` ignores it too), so it never counts as stale.
fn unreconciled_generation(mr: &ManagedResource) -> Option<(&'static str, i64, i64)> {
    let generation = mr.generation?;
    ["Synced", "Ready"].into_iter().find_map(|type_| {
        let observed = mr.condition(type_)?.observed_generation.filter(|og| *og > 0)?;
        (observed < generation).then_some((type_, observed, generation))
    })
}

/// What contradicts `InProgress`: the reconciler has stopped and will not progress on its own.
/// `Reconcile` checks the pause, then `ManagementPoliciesResolver.Validate`, then (much later) the
/// create-incomplete gate, so the first of them that holds is what stopped it.
fn in_progress_reality(facts: &Facts) -> Option<String> {
    if facts.paused {
        return Some("reconciliation is paused, so nothing progresses until the pause is lifted".to_string());
    }
    if facts.management.validate().is_err() {
        return Some(
            "the reconciler rejects the management policies before anything else and will not progress on its own"
                .to_string(),
        );
    }
    facts
        .pending_create
        .is_stuck()
        .then(|| "the reconciler stopped at the create-incomplete gate and will not progress on its own".to_string())
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::{self, *};
    use crate::managed::keys;
    use crate::rules::diagnose;
    use crate::testing::Mr;

    /// Follows cli-utils `pkg/kstatus/status` `Compute` (generic.go `checkGeneration`, status.go
    /// `checkReadyCondition`) for the verdict; crossplane-runtime `pkg/reconciler/managed`
    /// `Reconcile` (pause gate before the create-incomplete gate; `MarkConditions` stamping
    /// observedGeneration on Synced) and `apis/common` `Condition.Equal` (observedGeneration 0 is
    /// ignored) for the reality; upjet `Observe` sets Ready=True `Available()` with no
    /// observedGeneration.
    const CASES: &[Case] = &[
        ("new MR, nothing yet", || Mr::new("Key", "k").no_status(), &[KstatusMisleading]),
        (
            "Ready True Synced False",
            || {
                base().cond("Ready", "True", "Available", "").cond(
                    "Synced",
                    "False",
                    "ReconcileError",
                    "update failed: boom",
                )
            },
            &[KstatusMisleading],
        ),
        (
            "Synced describes an older generation, Ready carries none (as upjet writes it)",
            || {
                base().generation(5).cond("Ready", "True", "Available", "").cond_gen(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    4,
                )
            },
            &[KstatusMisleading],
        ),
        (
            "Ready carrying an older generation counts too",
            || {
                base().generation(4).cond_gen("Ready", "True", "Available", 3).cond(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    "",
                )
            },
            &[KstatusMisleading],
        ),
        (
            "Synced at the spec's generation",
            || {
                base().generation(5).cond("Ready", "True", "Available", "").cond_gen(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    5,
                )
            },
            &[],
        ),
        (
            "observedGeneration 0 or absent says nothing",
            || {
                base().generation(5).cond("Ready", "True", "Available", "").cond_gen(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    0,
                )
            },
            &[],
        ),
        (
            "status.observedGeneration present makes kstatus right",
            || base().generation(4).status_observed_generation(3).cond_gen("Synced", "True", "ReconcileSuccess", 3),
            &[],
        ),
        (
            "paused at the create-incomplete gate: stopped by the pause",
            || {
                base()
                    .annotation(keys::PAUSED, "true")
                    .annotation(P, T1)
                    .annotation(S, T0)
                    .cond("Ready", "False", "Creating", "")
                    .cond("Synced", "False", "ReconcilePaused", "")
            },
            &[Paused, CreateIncomplete, KstatusMisleading],
        ),
        (
            "paused while Ready: Synced=False is the pause itself",
            || {
                base().annotation(keys::PAUSED, "true").cond("Ready", "True", "Available", "").cond(
                    "Synced",
                    "False",
                    "ReconcilePaused",
                    "",
                )
            },
            &[Paused],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    fn message(mr: Mr) -> String {
        diagnose(&mr.build(), at()).into_iter().find(|f| f.code == Code::KstatusMisleading).unwrap().message
    }

    #[test]
    fn the_pause_comes_before_the_gate_and_synced_names_the_stale_generation() {
        let gated = || base().annotation(P, T1).annotation(S, T0).cond("Ready", "False", "Creating", "");
        assert!(message(gated()).contains("create-incomplete gate"));
        let paused = message(gated().policies(&[]));
        assert!(paused.contains("paused") && !paused.contains("gate"), "{paused}");
        // ManagementPoliciesResolver.Validate runs before the gate too: the policies stop it.
        let rejected = message(gated().policies(&["Create", "Update", "Delete"]));
        assert!(rejected.contains("rejects the management policies") && !rejected.contains("gate"), "{rejected}");
        let stale = message(base().generation(5).cond("Ready", "True", "Available", "").cond_gen(
            "Synced",
            "True",
            "ReconcileSuccess",
            4,
        ));
        assert!(stale.contains("Synced describes generation 4 but the spec is at generation 5"), "{stale}");
    }

    /// The verdict as evidence: kstatus's status, then its message when it has one (a Ready
    /// condition written without a message, as crossplane-runtime's `Creating()` is, has none).
    #[test]
    fn the_evidence_names_the_status_alone_when_kstatus_has_no_message() {
        let kstatus = |mr: Mr| {
            let f = diagnose(&mr.build(), at()).into_iter().find(|f| f.code == Code::KstatusMisleading).unwrap();
            f.evidence["kstatus"].clone()
        };
        let gated = base().annotation(P, T1).annotation(S, T0).cond("Ready", "False", "Creating", "");
        assert_eq!(kstatus(gated), "InProgress");
        let said = base().annotation(P, T1).annotation(S, T0).cond("Ready", "False", "Creating", "creating it");
        assert_eq!(kstatus(said), "InProgress: creating it");
    }
}
