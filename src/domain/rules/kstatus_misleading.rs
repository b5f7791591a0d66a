//! `KstatusMisleading`: kstatus (Flux, Argo CD) reports a state the MR's real state contradicts.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::kstatus::{self, KStatus};

/// kstatus's verdict contradicted by the MR's real state (see [`kstatus::compute`]).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    let verdict = kstatus::compute(mr);
    let ready = mr.condition("Ready");
    let reality = match verdict.status {
        KStatus::Current if ready.is_none() && facts.paused => {
            "the MR is paused and was never reported Ready".to_string()
        }
        KStatus::Current if mr.conditions.is_empty() => {
            "no controller has reported on this MR yet (no conditions): the provider may be down or not installed"
                .to_string()
        }
        KStatus::Current if ready.is_none() => "the MR has no Ready condition yet".to_string(),
        KStatus::Current if mr.is_true("Ready") && mr.is_false("Synced") => format!(
            "Ready is True but Synced is False: {}",
            mr.condition("Synced").map(|c| c.message.as_str()).filter(|m| !m.is_empty()).unwrap_or("reconcile error")
        ),
        KStatus::Current
            if mr.is_true("Ready")
                && matches!((ready.and_then(|c| c.observed_generation), mr.generation), (Some(o), Some(g)) if o < g) =>
        {
            format!(
                "Ready describes generation {} but the spec is at generation {}: the change is not reconciled yet",
                ready.and_then(|c| c.observed_generation).unwrap_or_default(),
                mr.generation.unwrap_or_default()
            )
        }
        KStatus::Current if mr.is_true("Ready") && mr.is_false("LastAsyncOperation") => {
            "Ready is True but the last async operation failed".to_string()
        }
        KStatus::InProgress if facts.marks.incomplete() => {
            "the reconciler stopped at the create-incomplete gate and will not progress on its own".to_string()
        }
        _ => return None,
    };
    Some(
        Finding::new(
            Code::KstatusMisleading,
            format!("kstatus (Flux, Argo CD) reports {}, yet {reality}", verdict.status),
            format!("kubectl upjet doctor {}", facts.arg()),
        )
        .with("kstatus", format!("{}: {}", verdict.status, verdict.message)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::domain::finding::Code::*;
    use crate::domain::testing::Mr;

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
            "Ready describes an older generation",
            || {
                base().generation(4).cond_gen("Ready", "True", "Available", 3).cond_gen(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    3,
                )
            },
            &[KstatusMisleading],
        ),
        (
            "status.observedGeneration present makes kstatus right",
            || base().generation(4).status_observed_generation(3).cond_gen("Ready", "True", "Available", 3),
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
