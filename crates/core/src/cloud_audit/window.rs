//! When a create for an MR can have happened: its create window.

use crate::create_marks::{ASYNC_TIMEOUT_SECS, CreateMarks};
use crate::gotime::GoTime;
use crate::managed::ManagedResource;

/// The margin added at both ends of a create window: the provider pod's clock (which wrote the
/// marks) and the cloud's clock (which stamped the call) may disagree, and the marks are
/// truncated to the second.
pub const CLOCK_SKEW_SECS: i64 = 300;

/// The span in which a create call may belong to an MR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The earliest instant (inclusive).
    pub from: GoTime,
    /// The latest instant (inclusive).
    pub to: GoTime,
}

impl Window {
    /// An explicit window, widened by [`CLOCK_SKEW_SECS`] at both ends: the hook for a verdict
    /// that knows better than the MR's own marks when its object was made (a restore from a
    /// backup, whose creates predate the MR now in the cluster).
    pub fn between(from: GoTime, to: GoTime) -> Window {
        Window { from: from.add_secs(-CLOCK_SKEW_SECS), to: to.add_secs(CLOCK_SKEW_SECS) }
    }

    /// An MR's create window: from its creation (no create for it can be older; without a
    /// creation time, its earliest create mark) to the async deadline of its last attempt (the
    /// latest create mark plus upjet's one-hour `defaultAsyncTimeout`: the goroutine is dead
    /// after that). The pending mark is rewritten before every attempt, so earlier attempts
    /// (a create before a restart) lie between the creation and the marks, inside the window.
    /// `None` when the MR dates nothing.
    pub fn of(mr: &ManagedResource) -> Option<Window> {
        let marks = CreateMarks::of(mr);
        let set: Vec<GoTime> = [&marks.pending, &marks.succeeded, &marks.failed]
            .into_iter()
            .filter(|m| m.is_set())
            .map(|m| m.at)
            .collect();
        let created = mr.creation_timestamp.as_deref().and_then(GoTime::parse_rfc3339);
        let from = created.or_else(|| set.iter().min().copied())?;
        let last = set.iter().max().copied().unwrap_or(from).max(from);
        Some(Window::between(from, last.add_secs(ASYNC_TIMEOUT_SECS)))
    }

    /// Whether `t` lies inside.
    pub fn contains(&self, t: GoTime) -> bool {
        !t.before(&self.from) && !t.after(&self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::managed::keys;
    use crate::testing::Mr;

    fn t(s: &str) -> GoTime {
        GoTime::parse_rfc3339(s).unwrap()
    }

    /// (case, MR, instant, inside?) — the MR is created at 10:00:00Z.
    const CASES: &[(&str, fn() -> Mr, &str, bool)] = &[
        ("at creation", || Mr::new("VPC", "a"), "2024-11-30T10:00:00Z", true),
        ("skew before creation", || Mr::new("VPC", "a"), "2024-11-30T09:55:00Z", true),
        ("beyond the skew before creation", || Mr::new("VPC", "a"), "2024-11-30T09:54:59Z", false),
        ("no marks: one hour after creation, plus skew", || Mr::new("VPC", "a"), "2024-11-30T11:05:00Z", true),
        ("no marks: past that", || Mr::new("VPC", "a"), "2024-11-30T11:05:01Z", false),
        (
            "a pending mark later on moves the deadline",
            || Mr::new("VPC", "a").annotation(keys::CREATE_PENDING, "2024-11-30T15:00:00Z"),
            "2024-11-30T16:04:00Z",
            true,
        ),
        (
            "an attempt before a restart lies between creation and the last mark",
            || Mr::new("VPC", "a").annotation(keys::CREATE_PENDING, "2024-11-30T15:00:00Z"),
            "2024-11-30T12:00:00Z",
            true,
        ),
        (
            "marks in another zone are read as the instant they name",
            || Mr::new("VPC", "a").annotation(keys::CREATE_FAILED, "2024-11-30T17:00:00+02:00"),
            "2024-11-30T16:04:59Z",
            true,
        ),
        (
            "an unparsable mark dates nothing",
            || Mr::new("VPC", "a").annotation(keys::CREATE_PENDING, "yesterday"),
            "2024-11-30T11:06:00Z",
            false,
        ),
    ];

    #[test]
    fn windows_run_from_creation_to_the_last_attempt_s_deadline() {
        for (name, mr, at, inside) in CASES {
            let w = Window::of(&mr().build()).unwrap();
            assert_eq!(w.contains(t(at)), *inside, "{name}: {w:?}");
        }
    }

    #[test]
    fn an_mr_without_any_time_has_no_window() {
        let mut mr = Mr::new("VPC", "a").build();
        mr.creation_timestamp = None;
        assert_eq!(Window::of(&mr), None);
        let explicit = Window::between(t("2024-01-01T00:00:00Z"), t("2024-01-02T00:00:00Z"));
        assert!(explicit.contains(t("2023-12-31T23:56:00Z")), "a restore verdict's own window, with skew");
    }
}
