//! `AsyncCreateRace`: upjet created several cloud objects for one MR without a restart between
//! them: its async create raced the write-back of the first ID.

use super::facts::Facts;
use super::mr_evidence::LoggedCreate;
use crate::finding::{Code, Finding};
use crate::gotime::GoTime;
use crate::redacted::same_id;
use crate::shell::quoted;

/// upjet's async `Create` (`pkg/controller/external_async_tfpluginsdk.go`) starts a goroutine and
/// returns at once; nothing joins it back before the next reconcile, so an Observe that runs
/// before the ID is written back finds nothing and creates again (upjet#632: "piling up
/// duplicates"). The provider log shows it: two or more different IDs logged as created
/// (`Async create ended.` `tfID`) with no `Instance state not found in cache, reconstructing...`
/// between them, nor a new provider process — with one, the state was lost to a restart
/// (`CreateAfterStateRebuild`). upjet
/// logs that line at its first `Connect` to every MR, so the log must show one before the first
/// create: only then does it cover the provider's life enough for "no restart" to mean anything.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let evidence = facts.evidence?;
    let creates = distinct(&evidence.created);
    let (first, last) = (creates.first()?, creates.last()?);
    if creates.len() < 2 {
        return None;
    }
    let (from, to) = (first.time?, last.time?);
    let rebuilds: Vec<GoTime> = evidence.state_rebuilt.iter().filter_map(|l| l.time).collect();
    let first_sight = rebuilds.iter().any(|t| !t.after(&from));
    let rebuilt_between = rebuilds.iter().any(|t| !t.before(&from) && !t.after(&to));
    // A new provider process between them (a pod's container start, controller-runtime's start
    // lines) is a restart too, whether or not the log kept the rebuilt-state line.
    let restarted_between = evidence.provider_started().iter().any(|t| t.after(&from) && t.before(&to));
    if !first_sight || rebuilt_between || restarted_between {
        return None;
    }
    let tracked = facts.mr.external_name().or(facts.mr.at_provider_id.as_deref());
    let ids: Vec<String> = creates.iter().map(|c| describe(c, tracked)).collect();
    let f = Finding::new(
        Code::AsyncCreateRace,
        format!(
            "the provider created {} cloud objects for this MR with no restart between them ({}): upjet's async create ran again before the first ID was written back (upjet#632), so every object the MR does not track is an orphan",
            creates.len(),
            ids.join(", ")
        ),
        facts.upjet("history").to_string(),
    )
    .with("created", creates.iter().map(|c| c.id.as_str()).collect::<Vec<_>>().join(", "))
    .with("firstLog", first.source.clone())
    .with("lastLog", last.source.clone());
    Some(f)
}

/// The logged creates with one entry per cloud object (REDACTED IDs match the same object).
fn distinct(created: &[LoggedCreate]) -> Vec<&LoggedCreate> {
    let mut out: Vec<&LoggedCreate> = Vec::new();
    for c in created {
        if !out.iter().any(|o| same_id(&c.id, &o.id) || same_id(&o.id, &c.id)) {
            out.push(c);
        }
    }
    out
}

fn describe(c: &LoggedCreate, tracked: Option<&str>) -> String {
    let when = c.time.map(|t| format!(" at {t}")).unwrap_or_default();
    let mark = if tracked.is_some_and(|t| same_id(&c.id, t)) { ", tracked" } else { "" };
    format!("{}{when}{mark}", quoted(&c.id))
}

#[cfg(test)]
mod tests {
    use super::super::cases::at as judged_at;
    use super::super::{LoggedCreate, LoggedLine, MrEvidence, findings_with};
    use crate::finding::Code;
    use crate::gotime::GoTime;
    use crate::testing::Mr;

    fn at(s: &str) -> Option<GoTime> {
        GoTime::parse_rfc3339(&format!("2024-11-30T{s}Z"))
    }

    fn create(id: &str, t: &str) -> LoggedCreate {
        LoggedCreate { id: id.into(), time: at(t), source: format!("Async create ended. {id}") }
    }

    fn rebuilt(t: &str) -> LoggedLine {
        LoggedLine { time: at(t), source: "Instance state not found in cache, reconstructing...".into() }
    }

    /// (case, MR, creates logged, state rebuilds logged, fires)
    type Case = (&'static str, fn() -> Mr, fn() -> Vec<LoggedCreate>, fn() -> Vec<LoggedLine>, bool);

    /// upjet `pkg/controller/external_async_tfpluginsdk.go` `Create` (goroutine, no join) and
    /// `Connect` (the rebuild line), as reported in upjet#632.
    const CASES: &[Case] = &[
        (
            "two objects, no restart between: the race",
            || Mr::new("TargetGroup", "tg"),
            || vec![create("arn:tg/a", "10:00:05"), create("arn:tg/b", "10:00:40")],
            || vec![rebuilt("10:00:00")],
            true,
        ),
        (
            "the log starts after the provider's first Connect: a restart cannot be ruled out",
            || Mr::new("TargetGroup", "tg"),
            || vec![create("arn:tg/a", "10:00:05"), create("arn:tg/b", "10:00:40")],
            Vec::new,
            false,
        ),
        (
            "a restart between them: state loss, not the race",
            || Mr::new("TargetGroup", "tg"),
            || vec![create("arn:tg/a", "10:00:05"), create("arn:tg/b", "10:09:40")],
            || vec![rebuilt("10:00:00"), rebuilt("10:09:00")],
            false,
        ),
        (
            "a rebuild before the first create is the MR's first sight",
            || Mr::new("TargetGroup", "tg").external_name("arn:tg/b"),
            || vec![create("arn:tg/a", "10:00:05"), create("arn:tg/b", "10:00:40")],
            || vec![rebuilt("09:59:59")],
            true,
        ),
        ("one object", || Mr::new("TargetGroup", "tg"), || vec![create("arn:tg/a", "10:00:05")], Vec::new, false),
        (
            "the same object logged twice (REDACTED)",
            || Mr::new("RecordSet", "rs"),
            || vec![create("projects/REDACTED/rrsets/a", "10:00:05"), create("projects/p/rrsets/a", "10:00:06")],
            || vec![rebuilt("10:00:00")],
            false,
        ),
        (
            "untimed lines cannot be ordered",
            || Mr::new("TargetGroup", "tg"),
            || vec![LoggedCreate { time: None, ..create("arn:tg/a", "10:00:05") }, create("arn:tg/b", "10:00:40")],
            || vec![rebuilt("10:00:00")],
            false,
        ),
    ];

    #[test]
    fn table() {
        for (name, mr, created, rebuilt, fires) in CASES {
            let ev = MrEvidence { created: created(), state_rebuilt: rebuilt(), ..MrEvidence::default() };
            let found: Vec<_> = findings_with(&mr().build(), Some(&ev), judged_at())
                .into_iter()
                .filter(|f| f.code == Code::AsyncCreateRace)
                .collect();
            assert_eq!(found.len(), usize::from(*fires), "{name}");
            // The same creates with a provider process started between them (controller-runtime's
            // start lines; no rebuilt-state line kept): a restart, never the race.
            let start = LoggedLine { time: at("10:00:20"), source: "Starting Controller".into() };
            let restarted = MrEvidence { process_starts: vec![start], ..ev.clone() };
            let raced = findings_with(&mr().build(), Some(&restarted), judged_at());
            assert!(!raced.iter().any(|f| f.code == Code::AsyncCreateRace), "{name}: a restart between");
            if let Some(f) = found.first() {
                assert!(
                    f.message.contains("upjet#632") && f.message.contains("\"arn:tg/a\" at"),
                    "{name}: {}",
                    f.message
                );
                assert_eq!(f.suggested_id, None, "{name}: the orphans are OrphanCandidate's to suggest");
            }
        }
    }
}
