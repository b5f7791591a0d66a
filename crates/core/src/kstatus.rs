//! What kstatus (`sigs.k8s.io/cli-utils/pkg/kstatus/status.Compute`) would say about an MR.
//!
//! Flux, Argo CD and `kubectl wait`-style tooling judge readiness with kstatus. Its rules were not
//! written for Crossplane: MRs never carry `Reconciling`/`Stalled` and the managed reconciler never
//! sets `status.observedGeneration`, so kstatus calls an MR `Current` before its controller has
//! spoken. Reproducing the rule order exactly lets the doctor show where that verdict misleads.

use super::managed::ManagedResource;

/// kstatus's status values that can arise for a custom resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum KStatus {
    /// Reconciled and ready (or assumed so).
    Current,
    /// Still being reconciled.
    InProgress,
    /// A `Stalled=True` condition.
    Failed,
    /// Scheduled for deletion.
    Terminating,
}

impl std::fmt::Display for KStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KStatus::Current => "Current",
            KStatus::InProgress => "InProgress",
            KStatus::Failed => "Failed",
            KStatus::Terminating => "Terminating",
        })
    }
}

/// kstatus's verdict with the message it would print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The status.
    pub status: KStatus,
    /// The message kstatus attaches.
    pub message: String,
}

/// `InProgress: creating it`, or the status alone when kstatus has no message (a Ready condition
/// written without one, as crossplane-runtime's `Creating()` is): a dangling `InProgress: ` reads
/// as a message lost.
impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.message.as_str() {
            "" => write!(f, "{}", self.status),
            message => write!(f, "{}: {message}", self.status),
        }
    }
}

/// `status.Compute` for a custom resource, rule by rule:
/// 1. `metadata.deletionTimestamp` → Terminating;
/// 2. `status.observedGeneration` present and ≠ `metadata.generation` → InProgress;
/// 3. the first `Reconciling=True` → InProgress, or `Stalled=True` → Failed, in condition order;
/// 4. (built-in kinds only: not MRs);
/// 5. the first `Ready` condition whose status is True → Current, False/Unknown → InProgress
///    (other status strings are skipped);
/// 6. otherwise Current ("Resource is current"). Per-condition `observedGeneration` is ignored.
pub fn compute(mr: &ManagedResource) -> Verdict {
    let v = |status, message: String| Verdict { status, message };
    if mr.deletion_timestamp.is_some() {
        return v(KStatus::Terminating, "Resource scheduled for deletion".into());
    }
    if let (Some(generation), Some(observed)) = (mr.generation, mr.status_observed_generation)
        && generation != observed
    {
        return v(
            KStatus::InProgress,
            format!("{} generation is {generation}, but latest observed generation is {observed}", mr.kind),
        );
    }
    for c in &mr.conditions {
        if c.type_ == "Reconciling" && c.status == "True" {
            return v(KStatus::InProgress, c.message.clone());
        }
        if c.type_ == "Stalled" && c.status == "True" {
            return v(KStatus::Failed, c.message.clone());
        }
    }
    for c in mr.conditions.iter().filter(|c| c.type_ == "Ready") {
        match c.status.as_str() {
            "True" => return v(KStatus::Current, "Resource is Ready".into()),
            "False" | "Unknown" => return v(KStatus::InProgress, c.message.clone()),
            _ => {}
        }
    }
    v(KStatus::Current, "Resource is current".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Mr;

    /// Each case: name, MR, expected status, expected message.
    type Case = (&'static str, Mr, KStatus, &'static str);

    fn check(cases: Vec<Case>) {
        for (name, mr, status, message) in cases {
            let got = compute(&mr.build());
            assert_eq!((got.status, got.message.as_str()), (status, message), "{name}");
        }
    }

    #[test]
    fn rule_order_deletion_and_generation() {
        check(vec![
            ("no status at all", Mr::new("Vpc", "a"), KStatus::Current, "Resource is current"),
            (
                "deletion wins over everything",
                Mr::new("Vpc", "a").deleting().cond("Stalled", "True", "X", "").cond("Ready", "True", "Available", ""),
                KStatus::Terminating,
                "Resource scheduled for deletion",
            ),
            (
                "observedGeneration mismatch beats Ready=True",
                Mr::new("Vpc", "a").generation(3).status_observed_generation(2).cond("Ready", "True", "Available", ""),
                KStatus::InProgress,
                "Vpc generation is 3, but latest observed generation is 2",
            ),
            (
                "observedGeneration equal falls through",
                Mr::new("Vpc", "a").generation(3).status_observed_generation(3).cond("Ready", "True", "Available", ""),
                KStatus::Current,
                "Resource is Ready",
            ),
            (
                "observedGeneration absent is skipped",
                Mr::new("Vpc", "a").generation(9).cond("Ready", "True", "Available", ""),
                KStatus::Current,
                "Resource is Ready",
            ),
        ]);
    }

    #[test]
    fn rule_order_conditions() {
        check(vec![
            (
                "Reconciling before Stalled in condition order",
                Mr::new("Vpc", "a").cond("Reconciling", "True", "R", "busy").cond("Stalled", "True", "S", "stuck"),
                KStatus::InProgress,
                "busy",
            ),
            (
                "Stalled first",
                Mr::new("Vpc", "a").cond("Stalled", "True", "S", "stuck").cond("Reconciling", "True", "R", "busy"),
                KStatus::Failed,
                "stuck",
            ),
            (
                "Stalled beats Ready",
                Mr::new("Vpc", "a").cond("Ready", "True", "Available", "").cond("Stalled", "True", "S", "stuck"),
                KStatus::Failed,
                "stuck",
            ),
            (
                "Ready False",
                Mr::new("Vpc", "a").cond("Ready", "False", "Creating", "creating it"),
                KStatus::InProgress,
                "creating it",
            ),
            ("Ready Unknown", Mr::new("Vpc", "a").cond("Ready", "Unknown", "", "hmm"), KStatus::InProgress, "hmm"),
            (
                "odd Ready status skipped, next Ready used",
                Mr::new("Vpc", "a").cond("Ready", "Maybe", "", "").cond("Ready", "False", "Unavailable", "x"),
                KStatus::InProgress,
                "x",
            ),
            (
                "only Synced False",
                Mr::new("Vpc", "a").cond("Synced", "False", "ReconcilePaused", ""),
                KStatus::Current,
                "Resource is current",
            ),
            (
                "Ready True with Synced False",
                Mr::new("Vpc", "a").cond("Synced", "False", "ReconcileError", "boom").cond(
                    "Ready",
                    "True",
                    "Available",
                    "",
                ),
                KStatus::Current,
                "Resource is Ready",
            ),
        ]);
    }
}
