//! `AsyncFailureMasked`: the last async operation failed, and Ready=True does not show it.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::Condition;

/// Ready=True only says the cloud object exists; the failure lives in `LastAsyncOperation`, which
/// neither `kubectl get` nor kstatus shows. What a failure that persists means depends on who
/// would have cleared it (upjet `pkg/controller/external_async_tfpluginsdk.go` and
/// `external_async_tfpluginfw.go` `Observe`, `pkg/controller/external.go` `Observe`):
///
/// - no-fork providers (`Async{Create,Update,Delete}Failure`) reset it to `Success` as soon as an
///   Observe finds the object up to date, so it persists only while the object still differs
///   from spec, and upjet's next Update returns this cached error instead of applying;
/// - Terraform-CLI mode (`ApplyFailure`, `DestroyFailure`) never clears it on Observe: no async
///   apply has succeeded since, though the object may have been put right another way;
/// - older upjet wrote no-fork failures under a condition of type `Unknown`, which nothing
///   clears: it may be stale.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    if !facts.mr.is_true("Ready") {
        return None;
    }
    let (failure, meaning) = failure(facts)?;
    Some(
        Finding::new(
            Code::AsyncFailureMasked,
            format!("the last async operation failed ({}) while Ready is True: {meaning}", failure.reason),
            facts.upjet("history").to_string(),
        )
        .with(&failure.type_, format!("{}: {}", failure.reason, failure.message)),
    )
}

/// The recorded async failure and what its persisting means.
fn failure<'a>(facts: &Facts<'a>) -> Option<(&'a Condition, &'static str)> {
    let mr = facts.mr;
    if let Some(c) = mr.condition("LastAsyncOperation").filter(|c| c.status == "False") {
        let meaning = match c.reason.as_str() {
            "ApplyFailure" | "DestroyFailure" => {
                "in Terraform-CLI mode Observe never clears it, so no async apply has succeeded since"
            }
            _ => {
                "upjet clears it once an Observe finds the object up to date, so the object still differs from spec and the next update returns this cached error"
            }
        };
        return Some((c, meaning));
    }
    mr.condition("Unknown")
        .filter(|c| c.status == "False" && c.message.starts_with("async "))
        .map(|c| (c, "older upjet records it under type Unknown, which nothing clears, so it may be stale"))
}

#[cfg(test)]
mod tests {
    // Follows upjet `pkg/controller/external_async_tfpluginsdk.go` `Observe` (LastAsyncOperation
    // reset to Success only when the object exists, is up to date and is not being deleted),
    // `pkg/controller/external.go` `Observe` (CLI mode: never reset), and
    // `pkg/resource/conditions.go` `LastAsyncOperationCondition` (older upjet: type `Unknown`).
    use super::super::cases::*;
    use crate::finding::Code::*;

    const CASES: &[Case] = &[
        (
            "no-fork update failed and the object is not up to date",
            || base().healthy().cond("LastAsyncOperation", "False", "AsyncUpdateFailure", "async update failed: boom"),
            &[AsyncFailureMasked, KstatusMisleading],
        ),
        (
            "CLI apply failed, never cleared",
            || base().healthy().cond("LastAsyncOperation", "False", "ApplyFailure", "apply failed: boom"),
            &[AsyncFailureMasked, KstatusMisleading],
        ),
        (
            "older upjet: failure under type Unknown",
            || base().healthy().cond("Unknown", "False", "Unknown", "async update failed: boom"),
            &[AsyncFailureMasked],
        ),
        (
            "cleared by an Observe that found it up to date",
            || base().healthy().cond("LastAsyncOperation", "True", "Success", ""),
            &[],
        ),
        (
            "not Ready: nothing masks it",
            || {
                base()
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "False", "ReconcileError", "update failed: async update failed: boom")
                    .cond("LastAsyncOperation", "False", "AsyncUpdateFailure", "async update failed: boom")
            },
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
