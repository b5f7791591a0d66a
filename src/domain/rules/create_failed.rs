//! `CreateFailed`: the last create attempt failed.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};

/// The last create attempt failed (failed at or after pending, and after succeeded).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    if !facts.marks.last_create_failed() {
        return None;
    }
    let f = Finding::new(
        Code::CreateFailed,
        format!("the last create attempt failed at {}", facts.marks.failed.raw.as_deref().unwrap_or("?")),
        format!("kubectl upjet history {}", facts.arg()),
    )
    .with_opt("synced", facts.synced_message().map(str::to_owned));
    Some(facts.with_marks(f))
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::domain::finding::Code::*;

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
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
