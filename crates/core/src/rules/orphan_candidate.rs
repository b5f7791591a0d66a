//! `OrphanCandidate`: a provider logged an ID created for this MR that the MR does not track.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::redacted::same_id;
use crate::shell::quoted;

/// upjet logged an ID as created for this MR that is not its external-name (upjet
/// pkg/controller/external_nofork.go, `Async create ended.` with `tfID`): that cloud object
/// probably exists with nothing tracking it (upjet#561, #305). One finding per such ID.
pub(super) fn check(facts: &Facts) -> Vec<Finding> {
    let Some(evidence) = facts.evidence else { return Vec::new() };
    let mr = facts.mr;
    let current = mr.external_name();
    // What the MR tracks: its external-name, or failing that the ID it last observed.
    let tracked = current.or(mr.at_provider_id.as_deref());
    evidence
        .created
        .iter()
        .filter(|c| tracked.is_none_or(|t| !same_id(&c.id, t)))
        .map(|c| {
            let (message, next, suggest) = match tracked {
                None => (
                    format!("the provider logged creating {} for this MR, which has no external-name: adopt it before a restart creates a duplicate", quoted(&c.id)),
                    facts.upjet("adopt").opt("--id", &c.id).word("--import").to_string(),
                    Some(c.id.clone()),
                ),
                Some(cur) => (
                    format!("the provider logged creating {} for this MR, but it tracks {cur}: {} is probably an orphan nothing tracks", quoted(&c.id), quoted(&c.id), cur = quoted(cur)),
                    facts.upjet("history").to_string(),
                    None,
                ),
            };
            Finding::new(Code::OrphanCandidate, message, next)
                .with("loggedId", c.id.clone())
                .with_opt("loggedAt", c.time.map(|t| t.to_string()))
                .with("log", c.source.clone())
                .with_opt(keys::EXTERNAL_NAME, current)
                .suggest(suggest.as_deref())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::{LoggedCreate, MrEvidence, findings_with};
    use crate::finding::Code;
    use crate::testing::Mr;

    fn created(ids: &[&str]) -> MrEvidence {
        let created = ids
            .iter()
            .map(|id| LoggedCreate { id: id.to_string(), time: None, source: format!("ended {id}") })
            .collect();
        MrEvidence { created, ..MrEvidence::default() }
    }

    /// (case, MR, IDs logged as created, orphans expected, adoption suggested)
    type Case = (&'static str, fn() -> Mr, &'static [&'static str], &'static [&'static str], bool);

    const CASES: &[Case] = &[
        (
            "no external-name: every creation is adoptable",
            || Mr::new("Key", "k"),
            &["mrk-1", "mrk-2"],
            &["mrk-1", "mrk-2"],
            true,
        ),
        (
            "observed the second: the first is an orphan",
            || Mr::new("Key", "k").at_provider_id("mrk-2"),
            &["mrk-1", "mrk-2"],
            &["mrk-1"],
            false,
        ),
        (
            "tracks the second: the first is an orphan",
            || Mr::new("Key", "k").external_name("mrk-2"),
            &["mrk-1", "mrk-2"],
            &["mrk-1"],
            false,
        ),
        ("a redacted log ID matches", || Mr::new("Key", "k").external_name("p/x/k"), &["p/REDACTED/k"], &[], false),
        ("nothing logged", || Mr::new("Key", "k"), &[], &[], false),
    ];

    #[test]
    fn table() {
        for (name, mr, logged, want, suggested) in CASES {
            let ev = created(logged);
            let f: Vec<_> = findings_with(&mr().build(), Some(&ev), at())
                .into_iter()
                .filter(|f| f.code == Code::OrphanCandidate)
                .collect();
            let ids: Vec<&str> = f.iter().map(|f| f.evidence["loggedId"].as_str()).collect();
            assert_eq!(&ids, want, "{name}");
            assert!(f.iter().all(|f| f.suggested_id.is_some() == *suggested), "{name}");
        }
    }
}
