//! `AsyncFailureMasked`: a failed async operation hidden behind Ready=True.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};

/// upjet's callback records a failure in `LastAsyncOperation`, which a later successful Observe
/// masks by setting Ready=True (upjet PR #594, provider-upjet-azure#684).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let last = facts.mr.condition("LastAsyncOperation").filter(|c| c.status == "False")?;
    if !facts.mr.is_true("Ready") {
        return None;
    }
    Some(
        Finding::new(
            Code::AsyncFailureMasked,
            format!("the last async operation failed ({}) but Ready is True, so the failure is hidden", last.reason),
            format!("kubectl upjet history {}", facts.arg()),
        )
        .with("LastAsyncOperation", format!("{}: {}", last.reason, last.message)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::domain::finding::Code::*;

    const CASES: &[Case] = &[(
        "async failure masked",
        || base().healthy().cond("LastAsyncOperation", "False", "AsyncUpdateFailure", "async update failed: boom"),
        &[AsyncFailureMasked, KstatusMisleading],
    )];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
