//! `DeletionBlockedByPause`: a paused MR being deleted keeps its finalizer forever.

use super::facts::Facts;
use crate::finding::{Code, Finding};

/// A paused MR keeps its finalizer, so deleting it hangs forever (crossplane docs, "Paused").
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let deleted_at = facts.mr.deletion_timestamp.as_deref()?;
    if !facts.paused {
        return None;
    }
    Some(
        Finding::new(
            Code::DeletionBlockedByPause,
            "the MR is being deleted but is paused, so the provider will never remove its finalizer",
            facts.kubectl("annotate").word("crossplane.io/paused-"),
        )
        .with("deletionTimestamp", deleted_at),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::managed::keys;

    const CASES: &[Case] = &[
        (
            "paused and deleting",
            || base().healthy().annotation(keys::PAUSED, "true").deleting(),
            &[Paused, DeletionBlockedByPause],
        ),
        ("deleting, not paused", || base().healthy().deleting(), &[]),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
