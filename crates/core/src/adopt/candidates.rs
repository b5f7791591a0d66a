//! The candidate cloud IDs an interactive user picks from, best evidence first.

use super::finding::Finding;
use super::managed::ManagedResource;
pub use crate::candidate::{Candidate, Confidence};

/// The `external-name` annotation the managed reconciler puts on every Event it emits for an MR
/// (`WithAnnotations("external-name", …)`): the name the MR had when the event happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventName {
    /// The annotation's value.
    pub id: String,
    /// The event reason.
    pub reason: String,
    /// When it was last seen (RFC3339), for ordering and display.
    pub time: Option<String>,
    /// The event message.
    pub message: String,
}

/// The candidate IDs for an interactive adoption, best evidence first, each ID once: the IDs the
/// ID journal recorded for this very MR (`journaled`, its records), then IDs the
/// findings suggest (log evidence such as OrphanCandidate first, by severity), then
/// `status.atProvider.id`, then event annotations (newest first).
/// `extra` candidates (provider logs, workspace state) come last, merged into an existing entry
/// when they name the same ID.
pub fn candidates(
    mr: &ManagedResource,
    findings: &[Finding],
    events: &[EventName],
    extra: Vec<Candidate>,
    journaled: &[crate::journal::Record],
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut add = |id: &str, source: String, confidence: Confidence, evidence: String| {
        if !crate::candidate::usable(id) {
            return;
        }
        if let Some(c) = out.iter_mut().find(|c| c.id == id) {
            c.evidence.push_str(&format!("; also {source}"));
            c.confidence = c.confidence.max(confidence);
            return;
        }
        out.push(Candidate { id: id.to_string(), source, confidence, evidence });
    };
    for c in crate::candidate::journaled(journaled) {
        add(&c.id, c.source, c.confidence, c.evidence);
    }
    let mut ranked: Vec<&Finding> = findings.iter().filter(|f| f.suggested_id.is_some()).collect();
    // Observed IDs (a logged create, a create the cloud's record ties to the MR) before derived
    // ones, then by severity: the one ranking of `domain::candidate`.
    ranked.sort_by_key(|f| (std::cmp::Reverse(f.code.id_confidence()), std::cmp::Reverse(f.severity)));
    for f in ranked {
        add(
            f.suggested_id.as_deref().unwrap_or_default(),
            format!("doctor {}", f.code),
            f.code.id_confidence(),
            f.message.clone(),
        );
    }
    if let Some(id) = &mr.at_provider_id {
        add(
            id,
            "status.atProvider.id".into(),
            Confidence::High,
            "the ID the provider last observed for this MR".into(),
        );
    }
    let mut evs: Vec<&EventName> = events.iter().collect();
    evs.sort_by(|a, b| b.time.cmp(&a.time));
    for e in evs {
        let when = e.time.as_deref().map(|t| format!(" at {t}")).unwrap_or_default();
        add(
            &e.id,
            format!("event {}", e.reason),
            Confidence::Medium,
            format!("external-name on a {} event{when}: {}", e.reason, e.message),
        );
    }
    for c in extra {
        add(&c.id, c.source, c.confidence, c.evidence);
    }
    if let Some(current) = mr.external_name() {
        for c in out.iter_mut().filter(|c| c.id == current) {
            c.evidence.push_str(" (this is the current external-name)");
        }
    }
    out
}
