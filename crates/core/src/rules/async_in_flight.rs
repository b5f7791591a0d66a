//! `AsyncInFlight`: an asynchronous operation is probably still running.

use super::facts::Facts;
use crate::finding::{Code, Finding};

/// While a no-fork async create runs, Observe reports exists+up-to-date, so the MR shows
/// Ready=False/Creating with Synced=True — crossplane-runtime marks ReconcileSuccess whenever
/// Observe says up to date (crossplane-runtime#941), so Synced=True here does not mean the create
/// finished; CLI mode shows AsyncOperation/Ongoing. Adopting now races the goroutine (upjet#722).
/// Only within upjet's one-hour deadline: past it the operation is not running any more
/// (`AsyncDeadlinePassed`).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    if !facts.in_flight {
        return None;
    }
    let mut f = Finding::new(
        Code::AsyncInFlight,
        "an asynchronous create or update is probably still running (Synced=True only says Observe found nothing to do while upjet's operation runs: crossplane-runtime#941); do not adopt or edit it now",
        facts.upjet("doctor").to_string(),
    );
    if let Some(c) = facts.mr.condition("AsyncOperation") {
        f = f.with("AsyncOperation", format!("{}/{}", c.status, c.reason));
    }
    if let Some(c) = facts.mr.condition("Ready") {
        f = f.with("ready", format!("{}/{}", c.status, c.reason));
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    // Follows upjet `pkg/controller/external_async_tfpluginsdk.go` `Observe` (exists and up to
    // date while the operation runs) and `Create` (deadline one hour after `MarkStart`).
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::testing::Mr;

    const CASES: &[Case] = &[
        (
            "external-name missing while async create is running",
            || {
                Mr::new("Key", "k").annotation(P, T0).annotation(S, T0).cond("Ready", "False", "Creating", "").cond(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    "",
                )
            },
            &[AsyncInFlight],
        ),
        (
            "CLI async in flight",
            || {
                base().cond("Ready", "True", "Available", "").cond("Synced", "True", "ReconcileSuccess", "").cond(
                    "AsyncOperation",
                    "False",
                    "Ongoing",
                    "",
                )
            },
            &[AsyncInFlight],
        ),
        (
            "started over an hour ago: past the deadline, not in flight",
            || {
                Mr::new("Key", "k")
                    .external_name("k")
                    .cond_at("Ready", "False", "Creating", "", "2024-11-30T09:00:00Z")
                    .cond_at("Synced", "True", "ReconcileSuccess", "", "2024-11-30T09:00:00Z")
            },
            &[AsyncDeadlinePassed],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
