//! What the user asked an adoption for, and what follows from it alone: the management policies
//! the MR ends with. The preflight (`verdict.rs`) and the steps (`steps.rs`) both read it.

use crate::reconcile_timeout::JudgedAt;

/// What the user asked for, beyond the ID.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Verify through an Observe-only phase before allowing Create/Update/Delete again.
    pub import: bool,
    /// Adopt even while an async operation may be running, or over another adoption.
    pub force: bool,
    /// Add `LateInitialize` to the restored policies so upjet keeps persisting the external-name.
    pub add_late_initialize: bool,
    /// Only show and server-side dry-run the writes.
    pub dry_run: bool,
    /// Current time, RFC3339; also the base of the `reconcile-requested-at` tokens.
    pub now: String,
    /// "Now" for judging the MR (`Settings::now`, pinned in tests) and the providers' reconcile
    /// timeout: whether an async operation is past upjet's one-hour deadline, whether a create
    /// may still be running. `None`: no operation counts as past it, no create as running.
    pub judged_at: Option<JudgedAt>,
}

/// The policies an adoption ends with: the original ones, plus LateInitialize when asked and
/// missing (absent and `*` already include it).
pub fn final_policies(original: &Option<Vec<String>>, add_late_initialize: bool) -> Option<Vec<String>> {
    match original {
        Some(list)
            if add_late_initialize && !list.is_empty() && !list.iter().any(|p| p == "*" || p == "LateInitialize") =>
        {
            let mut l = list.clone();
            l.push("LateInitialize".into());
            Some(l)
        }
        other => other.clone(),
    }
}
