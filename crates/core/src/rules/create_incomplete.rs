//! `CreateIncomplete`: the reconciler stopped at its create-incomplete gate and will not go on.

use super::facts::Facts;
use crate::finding::{Code, Finding, Severity};

/// `meta.ExternalCreateIncomplete` (reconciler.go create-incomplete gate): the reconciler stops
/// with `Requeue: false` until someone resolves the pending annotation. Only once the reconcile
/// that wrote the mark can no longer record a result (its timeout and grace period passed, the
/// gate already reported, the provider restarted since): before, the create may still be running
/// (`CreateInFlight`). Two earlier gates keep
/// it from getting there: a policy set `Validate` rejects (UnsupportedManagementPolicies), and
/// deletion, where the orphan fast path removes the finalizer first or the gate blocks the
/// deletion (DeletionBlockedByCreateGate, whose way out differs: adopt refuses deleted MRs).
///
/// A reconciler built with `WithDeterministicExternalName(true)` (crossplane-runtime v2) does not
/// stop: it logs "Cannot determine creation result, but proceeding due to deterministic external
/// name" and goes on to Observe, which finds an object the create made under the deterministic
/// name. upjet's generated controllers do not pass the option, so only the provider's own log can
/// show it; when it does, the MR is not stuck and the finding is a warning.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    if !facts.pending_create.is_stuck() || facts.management.validate().is_err() || facts.mr.deletion_timestamp.is_some()
    {
        return None;
    }
    let id = facts.mr.at_provider_id.as_deref();
    let next = match id {
        Some(id) => facts.upjet("adopt").opt("--id", id).word("--import").to_string(),
        None => facts.upjet("history").to_string(),
    };
    let pending = facts.marks.pending.raw.as_deref().unwrap_or("?");
    let bypass = facts.evidence.and_then(|e| e.gate_bypassed.as_ref());
    let mut f = match bypass {
        None => Finding::new(
            Code::CreateIncomplete,
            format!(
                "create started at {pending} and no result was recorded; the provider will not touch this MR until the pending annotation is resolved, and a cloud object may exist that nothing tracks"
            ),
            next,
        ),
        Some(line) => {
            let when = line.time.map(|t| format!(" at {t}")).unwrap_or_default();
            let mut f = Finding::new(
                Code::CreateIncomplete,
                format!(
                    "create started at {pending} and no result was recorded, but this provider goes on past the gate (it logged \"{MSG_PROCEEDING}\"{when}): it observes the MR under its deterministic external-name and creates again only if no object has that name"
                ),
                next,
            )
            .with("gate bypassed", line.source.clone());
            f.severity = Severity::Warning;
            f
        }
    };
    f = facts.with_marks(f).with_opt("synced", facts.synced_message().map(str::to_owned));
    Some(f.suggest(id))
}

/// What a reconciler built with `WithDeterministicExternalName(true)` logs at the gate instead
/// of stopping (crossplane-runtime v2 `pkg/reconciler/managed/reconciler.go`, `Reconcile`).
pub(crate) const MSG_PROCEEDING: &str =
    "Cannot determine creation result, but proceeding due to deterministic external name";

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::create_marks::ERR_CREATE_INCOMPLETE;
    use crate::finding::Code::*;

    /// Follows crossplane-runtime `pkg/meta/meta.go` `ExternalCreateIncomplete` and the gate in
    /// `pkg/reconciler/managed/reconciler.go` `Reconcile` (after pause, Validate and deletion).
    const CASES: &[Case] = &[
        (
            "create incomplete (provider died)",
            || {
                base().annotation(P, T1).annotation(S, T0).cond("Ready", "False", "Creating", "").cond(
                    "Synced",
                    "False",
                    "ReconcileError",
                    ERR_CREATE_INCOMPLETE,
                )
            },
            &[CreateIncomplete, KstatusMisleading],
        ),
        (
            "pending equal to succeeded is complete",
            || base().healthy().annotation(P, T0).annotation(S, "2024-11-30T11:53:06+01:00"),
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    /// crossplane-runtime v2 `WithDeterministicExternalName(true)`: the reconciler logs
    /// `MSG_PROCEEDING` and goes on, so the finding must not say the provider will not touch it.
    #[test]
    fn a_logged_bypass_makes_it_a_warning_that_says_the_provider_goes_on() {
        use crate::finding::{Code, Severity};
        use crate::rules::{LoggedLine, MrEvidence, findings_with};
        let mr = base().annotation(P, T1).annotation(S, T0).build();
        let line = LoggedLine { time: None, source: super::MSG_PROCEEDING.to_string() };
        let bypassed = MrEvidence { gate_bypassed: Some(line), ..MrEvidence::default() };
        for (evidence, severity, stuck) in [(None, Severity::Error, true), (Some(&bypassed), Severity::Warning, false)]
        {
            let f = findings_with(&mr, evidence, at()).into_iter().find(|f| f.code == Code::CreateIncomplete).unwrap();
            assert_eq!(f.severity, severity);
            assert_eq!(f.message.contains("will not touch this MR"), stuck, "{}", f.message);
            assert_eq!(f.message.contains("goes on past the gate"), !stuck, "{}", f.message);
        }
    }
}
