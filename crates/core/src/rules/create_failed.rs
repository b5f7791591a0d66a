//! `CreateFailed`: the last create attempt failed.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::gotime::GoTime;
use crate::managed::Condition;
use crate::shell::quoted;

/// The last create attempt failed: either the reconciler recorded it (failed at or after pending,
/// and after succeeded), or upjet's async create failed after the reconciler had already written
/// succeeded, so the failure shows only in `LastAsyncOperation`.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    if facts.marks.last_create_failed() {
        let mut message =
            format!("the last create attempt failed at {}", facts.marks.failed.raw.as_deref().unwrap_or("?"));
        if facts.marks.failed.at == facts.marks.pending.at {
            message.push_str(&retry(facts));
        }
        let f = Finding::new(Code::CreateFailed, message, facts.upjet("history").to_string())
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
        facts.upjet("history").to_string(),
    )
    .with(&failure.type_, failure.message.clone())
    .with_opt("synced", facts.synced_message().map(str::to_owned));
    Some(facts.with_marks(f))
}

/// Pending and failed in the same second: `meta.ExternalCreateIncomplete` compares with `After`,
/// so the create counts as complete and the next reconcile that observes nothing creates again.
/// That retry duplicates whatever the failed attempt made, so say so when it may have made one.
fn retry(facts: &Facts) -> String {
    let why = may_have_created(facts);
    let head = "; pending and failed carry the same second, so crossplane-runtime counts the create as complete (ExternalCreateIncomplete compares with After) and creates again when it observes nothing";
    match why {
        Some(why) => {
            format!("{head}: the failed attempt may have made the object ({why}), so the retry may create a duplicate")
        }
        None => head.to_string(),
    }
}

/// Why a failed create may still have made a cloud object, if anything says so.
fn may_have_created(facts: &Facts) -> Option<String> {
    let mr = facts.mr;
    if let Some(id) = &mr.at_provider_id {
        return Some(format!("status.atProvider.id is {id}", id = quoted(id)));
    }
    if let Some(c) = facts.evidence.and_then(|e| e.created.last()) {
        return Some(format!("the provider logged creating {}", quoted(&c.id)));
    }
    let synced = facts.synced_message().unwrap_or_default().to_ascii_lowercase();
    if ["deadline exceeded", "timeout", "timed out"].iter().any(|t| synced.contains(t)) {
        return Some("it timed out, which does not mean nothing was created".into());
    }
    // upjet's async Create starts its goroutine before it returns the previous attempt's cached
    // error (or refuses while one still runs), so an error at once says nothing of the cloud.
    mr.condition("LastAsyncOperation").is_some().then(|| {
        "upjet creates asynchronously: an error returned at once is an earlier attempt's, while a create may still run in the background".to_string()
    })
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
    use crate::finding::Code::*;
    use crate::testing::Mr;

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

    /// crossplane-runtime `pkg/meta/meta.go` `ExternalCreateIncomplete`: `pending.After(latest)`,
    /// so pending == failed (same second) is complete and the reconciler creates again.
    #[test]
    fn same_second_failure_is_retried_and_may_duplicate() {
        use crate::finding::Code;
        use crate::rules::diagnose;
        let msg = |mr: Mr| {
            diagnose(&mr.build(), at()).into_iter().find(|f| f.code == Code::CreateFailed).map(|f| f.message).unwrap()
        };
        let failed = |synced: &str| {
            Mr::new("Key", "k").annotation(P, T0).annotation(F, T0).cond("Synced", "False", "ReconcileError", synced)
        };
        for (name, mr, retried, duplicate) in [
            ("later failure: not the same second", base().annotation(P, T0).annotation(F, T1), false, false),
            ("same second, plain failure", failed("create failed: AccessDenied"), true, false),
            ("same second, timed out", failed("create failed: context deadline exceeded"), true, true),
            ("same second, object observed", failed("create failed: x").at_provider_id("mrk-1"), true, true),
            (
                "same second, upjet async",
                failed("create failed: async create failed: x").cond(
                    "LastAsyncOperation",
                    "False",
                    "AsyncCreateFailure",
                    "x",
                ),
                true,
                true,
            ),
        ] {
            let m = msg(mr);
            assert_eq!(m.contains("creates again"), retried, "{name}: {m}");
            assert_eq!(m.contains("may create a duplicate"), duplicate, "{name}: {m}");
        }
    }
}
