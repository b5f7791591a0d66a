//! `ProviderRestartedDuringCreate`: the provider restarted while a create had no result yet.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::gotime::GoTime;

/// The earliest provider start after create-pending and before any result recorded after it:
/// the create's outcome (and any ID it produced) lived only in the process that was lost.
fn restart_during_create(facts: &Facts, starts: &[GoTime]) -> Option<GoTime> {
    let marks = &facts.marks;
    if !marks.pending.is_set() {
        return None;
    }
    let pending = marks.pending.at;
    let result = marks.latest_result();
    let result_after_pending = !result.is_zero() && !result.before(&pending);
    starts.iter().filter(|s| s.after(&pending) && (!result_after_pending || s.before(&result))).min().copied()
}

/// The provider container (re)started after create-pending and before any recorded result
/// (crossplane-runtime pkg/reconciler/managed/reconciler.go writes pending before Create and a
/// result after it; a restart in between loses the result). The starts are its pods' and those
/// its log shows (controller-runtime's start lines for the MR's kind).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let evidence = facts.evidence?;
    let restart = restart_during_create(facts, &evidence.provider_started())?;
    let provider = match &evidence.provider_starts {
        Some(s) if s.starts.contains(&restart) => format!("provider {}", s.provider),
        _ => "the provider process serving this kind (its log's start lines)".to_string(),
    };
    let f = Finding::new(
        Code::ProviderRestartedDuringCreate,
        format!(
            "{provider} restarted at {restart} while this MR's create (pending since {}) had no result yet",
            facts.marks.pending.raw.as_deref().unwrap_or("?")
        ),
        facts.upjet("history").to_string(),
    )
    .with("restartedAt", restart.to_string());
    Some(facts.with_marks(f))
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::{Facts, LoggedLine, MrEvidence, ProviderStarts};
    use crate::gotime::GoTime;
    use crate::managed::keys;
    use crate::testing::Mr;

    fn pending(p: &str) -> Mr {
        Mr::new("Key", "k").annotation(keys::CREATE_PENDING, p)
    }

    const CASES: &[(&str, fn() -> Mr, bool)] = &[
        ("restart after pending, no result", || pending("2024-11-30T11:00:01Z"), true),
        ("restart before pending", || pending("2024-11-30T11:30:00Z"), false),
        (
            "result before the restart",
            || pending("2024-11-30T11:00:01Z").annotation(keys::CREATE_SUCCEEDED, "2024-11-30T11:00:02Z"),
            false,
        ),
        (
            "result after the restart",
            || pending("2024-11-30T11:00:01Z").annotation(keys::CREATE_FAILED, "2024-11-30T11:10:00Z"),
            true,
        ),
        (
            "old result, new pending, restart",
            || pending("2024-11-30T11:00:01Z").annotation(keys::CREATE_SUCCEEDED, "2024-11-29T11:00:00Z"),
            true,
        ),
        ("no create at all", || Mr::new("Key", "k"), false),
    ];

    #[test]
    fn table() {
        let t = |s| GoTime::parse_rfc3339(s).unwrap();
        let starts = ProviderStarts {
            provider: "provider-aws-kms".into(),
            starts: vec![t("2024-11-30T10:00:00Z"), t("2024-11-30T11:00:03Z")],
            package: None,
        };
        let ev = MrEvidence { provider_starts: Some(starts), ..MrEvidence::default() };
        for (name, mr, want) in CASES {
            let mr = mr().build();
            let f = super::check(&Facts::with_evidence(&mr, Some(&ev), at()));
            assert_eq!(f.is_some(), *want, "{name}");
            if let Some(f) = f {
                assert_eq!(f.evidence["restartedAt"], "2024-11-30T11:00:03Z", "{name}");
            }
        }
    }

    /// Without the pods (a `--log-file` of upjet's Terraform CLI mode, which logs no "Instance
    /// state not found in cache"), the process start controller-runtime logs is the restart.
    #[test]
    fn a_process_start_in_the_log_is_a_restart() {
        let start = LoggedLine {
            time: GoTime::parse_rfc3339("2024-11-30T11:00:03Z"),
            source: "2024-11-30T11:00:03Z INFO Starting Controller".into(),
        };
        let ev = MrEvidence { process_starts: vec![start], ..MrEvidence::default() };
        let mr = pending("2024-11-30T11:00:01Z").build();
        let f = super::check(&Facts::with_evidence(&mr, Some(&ev), at())).expect("a restart from the log");
        assert!(
            f.message.starts_with(
                "the provider process serving this kind (its log's start lines) restarted at 2024-11-30T11:00:03Z"
            ),
            "{}",
            f.message
        );
    }
}
