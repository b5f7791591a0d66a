//! Candidate cloud IDs for one MR, from every source that can name one, in one ranked list.
//!
//! Logged IDs, inventory matches, peer templates, user templates, `status.atProvider.id`, events
//! and workspace state all produce a [`Candidate`]; [`rank`] merges the same ID named by several
//! sources and orders the rest by confidence, keeping conflicting IDs side by side so that a
//! human (or `adopt --probe`) sees every one, never a silent merge.

use super::finding::Finding;
use serde::Serialize;

pub use super::codes::Confidence;

/// One candidate ID and why it is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Candidate {
    /// The cloud ID, in the provider's external-name format.
    pub id: String,
    /// Where it came from: `doctor OrphanCandidate`, `status.atProvider.id`, `peer template`, …
    pub source: String,
    /// How much to trust it before the provider confirms it.
    pub confidence: Confidence,
    /// The evidence, for a human deciding.
    pub evidence: String,
}

impl Candidate {
    /// A candidate.
    pub fn new(
        id: impl Into<String>,
        source: impl Into<String>,
        confidence: Confidence,
        evidence: impl Into<String>,
    ) -> Candidate {
        Candidate { id: id.into(), source: source.into(), confidence, evidence: evidence.into() }
    }
}

/// Whether an ID can be a candidate at all: not blank, and not a provider's placeholder (a stub
/// names no cloud object, whoever reports it).
pub fn usable(id: &str) -> bool {
    !id.trim().is_empty() && !super::placeholder::is_placeholder(id)
}

/// Merges candidates naming the same ID (the best confidence wins, the other sources are named in
/// its evidence) and orders them by confidence, keeping the given order among equals. Blank IDs
/// and placeholders are dropped. Different IDs are never merged: a conflict stays visible as two
/// entries.
pub fn rank(candidates: impl IntoIterator<Item = Candidate>) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for c in candidates {
        if !usable(&c.id) {
            continue;
        }
        match out.iter_mut().find(|o| o.id == c.id) {
            Some(o) => {
                o.evidence.push_str(&format!("; also {}", c.source));
                o.confidence = o.confidence.max(c.confidence);
            }
            None => out.push(c),
        }
    }
    out.sort_by_key(|c| std::cmp::Reverse(c.confidence));
    out
}

/// The one ranked list of a report's suggestions for one MR: every finding's `suggestedId`, with
/// the finding's code as its source, merged and ordered by [`rank`]. `doctor --plan` writes it
/// (the best as `id`, the rest as `candidates` for `adopt --probe`).
/// A suggestion taken from the ID journal (`kubectl upjet watch` saw this very MR hold it) ranks
/// first: it comes before the others, at high confidence, and [`rank`] keeps the order among equals.
pub fn from_findings<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Vec<Candidate> {
    // A suggestion shared by [`share_observed`] is the other finding's, already in the list.
    let (journaled, rest): (Vec<&Finding>, Vec<&Finding>) = findings
        .into_iter()
        .filter(|f| !f.evidence.contains_key(SHARED))
        .partition(|f| f.evidence.contains_key(super::journal::EVIDENCE_KEY));
    let from_journal = journaled.into_iter().filter_map(|f| {
        let id = f.suggested_id.as_deref()?;
        let seen = &f.evidence[super::journal::EVIDENCE_KEY];
        Some(Candidate::new(id, format!("journal ({})", f.code), Confidence::High, seen.clone()))
    });
    let others = rest.into_iter().filter_map(|f| {
        let id = f.suggested_id.as_deref()?;
        Some(Candidate::new(id, f.code.as_str(), f.code.id_confidence(), f.message.clone()))
    });
    rank(from_journal.chain(others))
}

/// The IDs the ID journal recorded for one MR (its records, `domain::journal::best_first` order)
/// as candidates: observed for this very MR, so high confidence, and placed before every other
/// source by the lists that take them (`domain::adopt::candidates`).
pub fn journaled(records: &[super::journal::Record]) -> Vec<Candidate> {
    super::journal::best_first(records)
        .into_iter()
        .map(|r| Candidate::new(&r.id, "journal", Confidence::High, super::journal::describe(r)))
        .collect()
}

/// The evidence key naming where a shared suggestion came from.
const SHARED: &str = "candidate";

/// Gives the findings that want an ID the best *observed* suggestion another finding of the same
/// MR made (an inventory object tagged for it, a logged create), naming where it came from:
/// an observed ID outranks a template, which fills only what is still empty afterwards.
pub fn share_observed(findings: &mut [Finding]) {
    let Some(best) = from_findings(findings.iter()).into_iter().find(|c| c.confidence == Confidence::High) else {
        return;
    };
    for f in findings.iter_mut().filter(|f| f.code.wants_id() && f.suggested_id.is_none()) {
        f.suggested_id = Some(best.id.clone());
        f.evidence.insert(SHARED.into(), format!("{} ({} confidence)", best.source, best.confidence));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Code;
    use Confidence::*;

    #[test]
    fn an_observed_id_is_shared_with_the_findings_that_want_one() {
        let f = |code: Code, id: Option<&str>| Finding::new(code, "m", "n").suggest(id);
        let mut findings =
            vec![f(Code::AlreadyExists, None), f(Code::InventoryOrphan, Some("arn:x")), f(Code::Paused, None)];
        share_observed(&mut findings);
        assert_eq!(findings[0].suggested_id.as_deref(), Some("arn:x"));
        assert_eq!(findings[0].evidence["candidate"], "InventoryOrphan (high confidence)");
        assert_eq!(findings[2].suggested_id, None, "only findings that want an ID");
        let mut derived = vec![f(Code::AlreadyExists, None), f(Code::ExternalNameDrift, Some("guess"))];
        share_observed(&mut derived);
        assert_eq!(derived[0].suggested_id, None, "a derived ID is not shared as if observed");
        let ranked = from_findings(&findings);
        assert_eq!(
            (ranked.len(), ranked[0].source.as_str()),
            (1, "InventoryOrphan"),
            "the shared copy is not a source"
        );
    }

    #[test]
    fn a_report_s_suggestions_for_one_mr_become_one_ranked_list() {
        let f = |code: Code, id: Option<&str>| Finding::new(code, "m", "n").suggest(id);
        let findings = [
            f(Code::AlreadyExists, Some("projects/p/rrsets/a")),
            f(Code::CreateIncomplete, None),
            f(Code::OrphanCandidate, Some("projects/p/rrsets/b")),
            f(Code::ExternalNameMissing, Some("projects/p/rrsets/a")),
        ];
        let got: Vec<(String, Confidence)> =
            from_findings(&findings).into_iter().map(|c| (c.id, c.confidence)).collect();
        assert_eq!(got, [("projects/p/rrsets/a".to_string(), High), ("projects/p/rrsets/b".to_string(), High)]);
        assert_eq!(from_findings(&findings)[0].source, "AlreadyExists", "the first source named keeps its name");
        assert!(from_findings(&findings)[0].evidence.ends_with("; also ExternalNameMissing"));
    }

    #[test]
    fn a_create_the_cloud_s_record_ties_to_the_mr_outranks_derived_ids() {
        let f = |code: Code, id: &str| Finding::new(code, "m", "n").suggest(Some(id));
        // A template's or a peer's prediction comes first in the findings, the observed create last.
        let findings = [f(Code::AlreadyExists, "predicted"), f(Code::CloudAuditOrphan, "Z0C3PAYS6H7JQ2V9D")];
        let ranked = from_findings(&findings);
        assert_eq!((ranked[0].id.as_str(), ranked[0].confidence), ("Z0C3PAYS6H7JQ2V9D", High));
        assert_eq!((ranked[1].id.as_str(), ranked[1].confidence), ("predicted", Medium));
        for code in [Code::CloudAuditOrphan, Code::CloudAuditDuplicate, Code::CloudAuditAlreadyExists] {
            assert_eq!(code.id_confidence(), High, "{code}");
        }
    }

    #[test]
    fn ranks_by_confidence_merges_same_ids_and_keeps_conflicts() {
        const CASES: &[(&[(&str, &str, Confidence)], &[(&str, Confidence, &str)])] = &[
            (&[], &[]),
            (&[(" ", "x", High)], &[]),
            (&[("a", "template", Medium), ("b", "log", High)], &[("b", High, ""), ("a", Medium, "")]),
            (&[("a", "template", Medium), ("a", "log", High)], &[("a", High, "; also log")]),
            (&[("a", "s1", Low), ("b", "s2", Low)], &[("a", Low, ""), ("b", Low, "")]),
        ];
        for (input, want) in CASES {
            let got = rank(input.iter().map(|(id, s, c)| Candidate::new(*id, *s, *c, "e")));
            assert_eq!(got.len(), want.len(), "{input:?}");
            for (g, (id, conf, tail)) in got.iter().zip(want.iter()) {
                assert_eq!((g.id.as_str(), g.confidence), (*id, *conf), "{input:?}");
                assert!(g.evidence.ends_with(tail), "{input:?}: {}", g.evidence);
            }
        }
    }

    #[test]
    fn a_journaled_suggestion_ranks_first() {
        let f = |code: Code, id: &str| Finding::new(code, "m", "n").suggest(Some(id));
        let journaled =
            f(Code::AlreadyExists, "vpc-0a1b").with(crate::journal::EVIDENCE_KEY, "external-name seen at t");
        let findings = [f(Code::OrphanCandidate, "vpc-logged"), journaled];
        let ranked = from_findings(&findings);
        assert_eq!(
            (ranked[0].id.as_str(), ranked[0].source.as_str(), ranked[0].confidence),
            ("vpc-0a1b", "journal (AlreadyExists)", High)
        );
        assert_eq!(ranked[1].id, "vpc-logged");
    }
}
