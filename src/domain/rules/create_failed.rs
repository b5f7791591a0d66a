//! `CreateFailed`: the last create attempt failed.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::gotime::GoTime;
use crate::domain::managed::Condition;

/// The last create attempt failed: either the reconciler recorded it (failed at or after pending,
/// and after succeeded), or upjet's async create failed after the reconciler had already written
/// succeeded, so the failure shows only in `LastAsyncOperation`.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    if facts.marks.last_create_failed() {
        let f = Finding::new(
            Code::CreateFailed,
            format!("the last create attempt failed at {}", facts.marks.failed.raw.as_deref().unwrap_or("?")),
            format!("kubectl upjet history {}", facts.arg()),
        )
        .with_opt("synced", facts.synced_message().map(str::to_owned));
        return Some(facts.with_marks(f));
    }
    let failure = failed_after_succeeded(facts)?;
    let f = Finding::new(
        Code::CreateFailed,
        format!(
            "the async create started at {} failed afterwards ({}); the create marks do not show it",
            facts.marks.succeeded.raw.as_deref().unwrap_or("?"),
            failure.reason
        ),
        format!("kubectl upjet history {}", facts.arg()),
    )
    .with(&failure.type_, failure.message.clone())
    .with_opt("synced", facts.synced_message().map(str::to_owned));
    Some(facts.with_marks(f))
}

/// An async create returns nil to the reconciler once its goroutine starts, so crossplane-runtime
/// writes `external-create-succeeded` (usually the same second as pending) and only upjet's
/// callback learns it failed. Until a retry writes `external-create-failed`, the failure is in
/// `LastAsyncOperation` alone. It counts when it was recorded no earlier than the latest create
/// mark (a later attempt would have written newer marks), Ready is not True, and no attempt is
/// shown running (a new attempt leaves the old failure in place: CLI mode never clears it).
fn failed_after_succeeded<'a>(facts: &Facts<'a>) -> Option<&'a Condition> {
    let marks = &facts.marks;
    if facts.mr.is_true("Ready") || facts.in_flight || marks.incomplete() {
        return None;
    }
    let failure = facts.failed_async_create()?;
    let recorded = GoTime::parse_or_zero(failure.last_transition_time.as_deref());
    let latest_mark = marks.pending.at.max(marks.succeeded.at);
    (!recorded.before(&latest_mark)).then_some(failure)
}

#[cfg(test)]
mod tests {
    // Follows crossplane-runtime `pkg/meta/meta.go` (create marks) and
    // `pkg/reconciler/managed/reconciler.go` `Reconcile` (succeeded written when Create returns
    // nil), and upjet `pkg/controller/external_async_tfpluginsdk.go` `Create` plus
    // `pkg/controller/api.go` `callbackFn` (the goroutine's failure goes to LastAsyncOperation).
    use super::super::cases::*;
    use crate::domain::finding::Code::*;
    use crate::domain::testing::Mr;

    /// After T1, when the callback recorded the failure.
    const LATER: &str = "2024-11-30T10:55:00Z";

    const CASES: &[Case] = &[
        (
            "create failed, other reason",
            || {
                base().annotation(P, T0).annotation(F, T1).cond("Ready", "False", "Creating", "").cond(
                    "Synced",
                    "False",
                    "ReconcileError",
                    "create failed: AccessDenied",
                )
            },
            &[CreateFailed],
        ),
        (
            "failed before a later successful create",
            || base().healthy().annotation(P, T1).annotation(F, T0).annotation(S, T1),
            &[],
        ),
        (
            "failed first async create: pending == succeeded, failure only in LastAsyncOperation",
            || {
                Mr::new("Key", "k")
                    .annotation(P, T0)
                    .annotation(S, T0)
                    .cond("Ready", "False", "Creating", "")
                    .cond("Synced", "False", "ReconcileError", "create failed: async create failed: AccessDenied")
                    .cond_at(
                        "LastAsyncOperation",
                        "False",
                        "AsyncCreateFailure",
                        "async create failed: AccessDenied",
                        LATER,
                    )
            },
            &[CreateFailed],
        ),
        (
            "CLI create: ApplyFailure with the callback's create prefix",
            || {
                base()
                    .annotation(P, T0)
                    .annotation(S, T0)
                    .cond("Ready", "False", "Creating", "")
                    .cond("Synced", "False", "ReconcileError", "create failed: apply failed: AccessDenied")
                    .cond_at("LastAsyncOperation", "False", "ApplyFailure", "apply failed: AccessDenied", LATER)
            },
            &[CreateFailed],
        ),
        (
            "CLI update failed: not a create",
            || {
                base()
                    .annotation(P, T0)
                    .annotation(S, T0)
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "False", "ReconcileError", "update failed: apply failed: AccessDenied")
                    .cond_at("LastAsyncOperation", "False", "ApplyFailure", "apply failed: AccessDenied", LATER)
            },
            &[],
        ),
        (
            "an older failure, then a newer attempt started: not this attempt's result",
            || {
                Mr::new("Key", "k")
                    .annotation(P, T1)
                    .annotation(S, T1)
                    .cond("Ready", "False", "Creating", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
                    .cond_at("LastAsyncOperation", "False", "AsyncCreateFailure", "async create failed: x", T0)
            },
            &[AsyncInFlight],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
