//! `AsyncDeadlinePassed`: the MR still shows an async operation running, but upjet's one-hour
//! deadline for it has passed, so nothing is running it any more.

use super::facts::{ASYNC_TIMEOUT_SECS, Facts};
use crate::age::age;
use crate::finding::{Code, Finding, Severity};
use crate::managed::keys;

/// upjet runs every async operation under `context.WithDeadline(…, start + defaultAsyncTimeout)`
/// (one hour), and nothing upstream moves Ready off `Creating` when the deadline expires: the
/// callback gets the expired context and cannot even read the MR. Ready=False/Creating with
/// Synced=True (or AsyncOperation=Ongoing) whose latest possible start is more than an hour ago
/// therefore means the goroutine was cancelled, died with its pod, or the provider is hung. A
/// cloud object may exist; without a saved external-name nothing will ever find it again.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let start = facts.past_deadline?;
    let mr = facts.mr;
    let mut message = format!(
        "the MR still shows an async operation running, but it started at {start} at the latest ({} ago) and upjet cancels async operations {}h after their start: the provider is hung or the operation died with its pod, and nothing will finish it",
        age(&start, &facts.now),
        ASYNC_TIMEOUT_SECS / 3600
    );
    let f = match mr.external_name() {
        Some(_) => {
            message.push_str("; the external-name is saved, so a working provider will observe the object again");
            let mut f =
                Finding::new(Code::AsyncDeadlinePassed, message, facts.upjet("doctor").word("--logs").to_string());
            // The object is still findable by its saved name: a lost status, not a lost object.
            f.severity = Severity::Warning;
            f
        }
        None => {
            message
                .push_str("; no external-name is saved, so a cloud object it may have created is tracked by nothing");
            Finding::new(Code::AsyncDeadlinePassed, message, facts.upjet("history").to_string())
        }
    };
    let f = f.with("latestPossibleStart", start.to_string()).with_opt(keys::EXTERNAL_NAME, mr.external_name());
    let f = ["Ready", "Synced", "AsyncOperation"].iter().fold(f, |f, t| match mr.condition(t) {
        Some(c) => {
            f.with(t, format!("{}/{} since {}", c.status, c.reason, c.last_transition_time.as_deref().unwrap_or("?")))
        }
        None => f,
    });
    Some(facts.with_marks(f))
}

#[cfg(test)]
mod tests {
    // Follows upjet `pkg/controller/external_async_tfpluginsdk.go` `Create` (deadline =
    // `LastOperation.StartTime().Add(defaultAsyncTimeout)`, one hour) and `pkg/terraform/workspace.go`
    // `ApplyAsync`; the start is bounded by crossplane-runtime `pkg/reconciler/managed/reconciler.go`
    // `Reconcile` (pending before Create, succeeded and `Creating()` after it returns).
    use super::super::cases::*;
    use crate::finding::Code::{self, *};
    use crate::finding::Severity;
    use crate::rules::diagnose;
    use crate::testing::Mr;

    /// Well over an hour before [`NOW`].
    const OLD: &str = "2024-11-30T09:40:00Z";
    /// 59 minutes before [`NOW`].
    const RECENT: &str = "2024-11-30T09:59:00Z";

    fn creating(ltt: &str) -> Mr {
        Mr::new("Key", "k").cond_at("Ready", "False", "Creating", "", ltt).cond_at(
            "Synced",
            "True",
            "ReconcileSuccess",
            "",
            ltt,
        )
    }

    const CASES: &[Case] = &[
        ("Creating for hours, no marks, no external-name", || creating(OLD), &[AsyncDeadlinePassed]),
        ("Creating for 59 minutes: still in flight", || creating(RECENT), &[AsyncInFlight]),
        (
            "old Ready, but a create mark 59 minutes ago: the latest start counts",
            || creating(OLD).annotation(P, RECENT).annotation(S, RECENT),
            &[AsyncInFlight],
        ),
        (
            "old marks and conditions, external-name missing: the create may have made an orphan",
            || creating(OLD).annotation(P, OLD).annotation(S, OLD),
            &[AsyncDeadlinePassed, ExternalNameMissing],
        ),
        (
            "external-name saved",
            || creating(OLD).external_name("k").annotation(P, OLD).annotation(S, OLD),
            &[AsyncDeadlinePassed],
        ),
        (
            "CLI mode: AsyncOperation Ongoing for hours on a Ready MR",
            || {
                base()
                    .cond_at("Ready", "True", "Available", "", OLD)
                    .cond_at("Synced", "True", "ReconcileSuccess", "", OLD)
                    .cond_at("AsyncOperation", "False", "Ongoing", "", OLD)
            },
            &[AsyncDeadlinePassed],
        ),
        (
            "Creating with an unparsable lastTransitionTime and no marks: cannot tell, in flight",
            || creating("yesterday"),
            &[AsyncInFlight],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    #[test]
    fn severity_follows_the_external_name() {
        let severity = |mr: Mr| {
            diagnose(&mr.build(), at()).into_iter().find(|f| f.code == Code::AsyncDeadlinePassed).unwrap().severity
        };
        assert_eq!(severity(creating(OLD)), Severity::Error);
        assert_eq!(severity(creating(OLD).external_name("k")), Severity::Warning);
    }

    #[test]
    fn the_age_reads_like_kubectl() {
        let message = |ltt: &str| {
            let found = diagnose(&creating(ltt).build(), at());
            found.into_iter().find(|f| f.code == Code::AsyncDeadlinePassed).unwrap().message
        };
        assert!(message(OLD).contains("at the latest (78m ago)"), "{}", message(OLD));
        assert!(message("2023-01-15T03:40:00Z").contains("(685d ago)"), "{}", message("2023-01-15T03:40:00Z"));
    }
}
