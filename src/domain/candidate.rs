//! Candidate cloud IDs for one MR, from every source that can name one, in one ranked list.
//!
//! Logged IDs, inventory matches, peer templates, user templates, `status.atProvider.id`, events
//! and workspace state all produce a [`Candidate`]; [`rank`] merges the same ID named by several
//! sources and orders the rest by confidence, keeping conflicting IDs side by side so that a
//! human (or `adopt --probe`) sees every one, never a silent merge.

use serde::Serialize;

/// How much a source's word is worth before the provider has confirmed the ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// A guess worth trying (a template only a supermajority of peers agrees on).
    Low,
    /// Derived, not observed: a template every healthy peer agrees on, a user template, an event.
    Medium,
    /// Observed for this very MR: a logged create, `status.atProvider.id`, an inventory tag match.
    High,
}

impl std::fmt::Display for Confidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        })
    }
}

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

/// Merges candidates naming the same ID (the best confidence wins, the other sources are named in
/// its evidence) and orders them by confidence, keeping the given order among equals. Blank IDs
/// are dropped. Different IDs are never merged: a conflict stays visible as two entries.
pub fn rank(candidates: impl IntoIterator<Item = Candidate>) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for c in candidates {
        if c.id.trim().is_empty() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use Confidence::*;

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
}
