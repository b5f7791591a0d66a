//! `ProviderRestartedDuringCreate`: the provider restarted while a create had no result yet.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::gotime::GoTime;

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
/// result after it; a restart in between loses the result).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let starts = facts.evidence?.provider_starts.as_ref()?;
    let restart = restart_during_create(facts, &starts.starts)?;
    let f = Finding::new(
        Code::ProviderRestartedDuringCreate,
        format!(
            "provider {} restarted at {restart} while this MR's create (pending since {}) had no result yet",
            starts.provider,
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
    use super::super::{Facts, MrEvidence, ProviderStarts};
    use crate::domain::gotime::GoTime;
    use crate::domain::managed::keys;
    use crate::domain::testing::Mr;

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
}
