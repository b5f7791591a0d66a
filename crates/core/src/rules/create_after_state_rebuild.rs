//! `CreateAfterStateRebuild`: after the provider lost and rebuilt this MR's state, it created
//! again although the MR had already been created.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::gotime::GoTime;
use crate::shell::quoted;

/// upjet keeps no-fork Terraform state in memory (`pkg/controller/nofork_store.go`); on `Connect`
/// with an empty tracker it logs "Instance state not found in cache, reconstructing..." and
/// rebuilds the state from `status.atProvider` with the ID taken from the external-name
/// (`external_tfpluginsdk.go`, `external_tfpluginfw.go`). When that rebuilt state finds nothing —
/// no external-name was saved (upjet#561, a restart or a Velero restore), or a transient
/// not-found met an interleaved `Connect` (upjet#722) — the next reconcile creates again. The log
/// shows it: a create started after a rebuild, while a create had already started or ended for
/// this MR before that rebuild.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let evidence = facts.evidence?;
    // The first object created before the rebuild, by its ID when the log names one.
    let earlier_create = |before: GoTime| -> Option<(GoTime, String)> {
        let ended = evidence.created.iter().filter_map(|c| Some((c.time?, format!("created {}", quoted(&c.id)))));
        let started = evidence.creates_started.iter().filter_map(|l| Some((l.time?, "started a create".to_string())));
        earliest_before(ended, before).or_else(|| earliest_before(started, before))
    };
    let (rebuild, (first_at, first), again) = evidence.state_rebuilt.iter().find_map(|r| {
        let at = r.time?;
        let first = earlier_create(at)?;
        let again = evidence.creates_started.iter().find(|s| s.time.is_some_and(|t| !t.before(&at)))?;
        Some((r, first, again))
    })?;
    let rebuilt_at = rebuild.time.map(|t| t.to_string()).unwrap_or_default();
    let again_at = again.time.map(|t| t.to_string()).unwrap_or_default();
    let f = Finding::new(
        Code::CreateAfterStateRebuild,
        format!(
            "the provider {first} for this MR at {first_at}, lost its state (rebuilt at {rebuilt_at}: a restart, or upjet#722's interleaved Connect) and started another create at {again_at}: the rebuilt state did not find the first object (upjet#561, upjet#722), so a duplicate may exist, and the first object may be an orphan{}",
            tracking(facts)
        ),
        facts.upjet("history").to_string(),
    )
    .with("rebuilt", rebuild.source.clone())
    .with("createdAgain", again.source.clone());
    Some(f.with_opt("firstCreate", evidence.created.first().map(|c| c.source.clone())))
}

fn earliest_before(sightings: impl Iterator<Item = (GoTime, String)>, before: GoTime) -> Option<(GoTime, String)> {
    sightings.filter(|(t, _)| t.before(&before)).min_by_key(|(t, _)| *t)
}

fn tracking(facts: &Facts) -> &'static str {
    if facts.mr.external_name().is_none() {
        "; the MR has no external-name, which is why the rebuilt state was empty"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::{LoggedCreate, LoggedLine, MrEvidence, findings_with};
    use crate::finding::Code;
    use crate::gotime::GoTime;
    use crate::testing::Mr;

    fn line(t: &str, what: &str) -> LoggedLine {
        LoggedLine { time: GoTime::parse_rfc3339(&format!("2024-11-30T{t}Z")), source: what.into() }
    }

    fn ended(id: &str, t: &str) -> LoggedCreate {
        LoggedCreate { id: id.into(), time: GoTime::parse_rfc3339(&format!("2024-11-30T{t}Z")), source: id.into() }
    }

    /// (case, creates ended, creates started, rebuilds, fires)
    type Case = (&'static str, fn() -> Vec<LoggedCreate>, fn() -> Vec<LoggedLine>, fn() -> Vec<LoggedLine>, bool);

    /// upjet `pkg/controller/external_tfpluginsdk.go` `Connect` (rebuild from the external-name)
    /// and `external_async_tfpluginsdk.go` `Create`; upjet#561 and upjet#722.
    const CASES: &[Case] = &[
        (
            "created, restarted, created again",
            || vec![ended("mrk-1", "10:00:05")],
            || vec![line("10:00:01", "start"), line("10:30:02", "start again")],
            || vec![line("10:00:00", "rebuild (first sight)"), line("10:30:00", "rebuild")],
            true,
        ),
        (
            "only started before the restart (the pod died mid-create)",
            Vec::new,
            || vec![line("10:00:01", "start"), line("10:30:02", "start again")],
            || vec![line("10:30:00", "rebuild")],
            true,
        ),
        (
            "first sight only: one create",
            || vec![ended("mrk-1", "10:00:05")],
            || vec![line("10:00:01", "start")],
            || vec![line("10:00:00", "rebuild (first sight)")],
            false,
        ),
        (
            "rebuilt after a create, and no create since: the state was found",
            || vec![ended("mrk-1", "10:00:05")],
            || vec![line("10:00:01", "start")],
            || vec![line("10:30:00", "rebuild")],
            false,
        ),
    ];

    #[test]
    fn table() {
        for (name, created, started, rebuilt, fires) in CASES {
            let ev = MrEvidence {
                created: created(),
                creates_started: started(),
                state_rebuilt: rebuilt(),
                ..MrEvidence::default()
            };
            let found: Vec<_> = findings_with(&Mr::new("Key", "k").build(), Some(&ev), at())
                .into_iter()
                .filter(|f| f.code == Code::CreateAfterStateRebuild)
                .collect();
            assert_eq!(found.len(), usize::from(*fires), "{name}");
            if let Some(f) = found.first() {
                assert!(f.message.contains("upjet#722") && f.message.contains("no external-name"), "{}", f.message);
                assert_eq!(f.evidence["rebuilt"], "rebuild", "{name}: the rebuild after the first create");
            }
        }
    }
}
