//! Every evidence source, one file each: what one MR gets of what a source read. A source is
//! read by the shell (its reader in `commands::evidence`, `commands::fleet_inputs` or the watch),
//! parsed and indexed by its module here in `evidence` (or in `upjet_core`, for the indexes the
//! rules' own modules define), and handed to [`mr_evidence`] as an [`EvidenceSource`]: each
//! fills its own fields of the rules' `MrEvidence`, so no list of sources is written twice. An
//! index of a run keeps the sources it read as a list (`index::EvidenceIndex`); a watch, a lint
//! or adopt hand the few they have.
//!
//! Adding a source: its file here (the type it reads into and what it fills), its field in
//! `upjet_core::rules::MrEvidence` (what the rule that reads it sees), its reader in the shell
//! pushing it onto the run's index (`commands::evidence::EvidenceRequest::read`; a fleet-wide
//! one, known only once every MR is, ties in `fleet.rs` instead), and the rule.

mod audit;
mod changelog;
mod cloud_audit;
mod desired;
mod inventory;
mod journal;
mod kind_removal;
mod logs;
mod provider_starts;
mod reconcile_requests;
mod restore;
mod shared_names;

pub use provider_starts::StartsByKind;
pub use reconcile_requests::AcknowledgesRequests;

use std::collections::HashMap;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

/// One source of evidence beyond the MR object, read and indexed: its share of one MR's
/// evidence. Pure: the lookup reads only what the source holds.
pub trait EvidenceSource {
    /// Fills this source's fields of `evidence`, `mr`'s, from what it read about `mr`.
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence);

    /// What the source has to say once every MR was looked up (an audit log whose writes no MR
    /// claimed), for the report's notes.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A source handed by reference (a run's index lends what it holds).
impl<T: EvidenceSource + ?Sized> EvidenceSource for &T {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        (**self).fill(mr, evidence);
    }
    fn notes(&self) -> Vec<String> {
        (**self).notes()
    }
}

/// A source that may not have been read: nothing to fill then.
impl<T: EvidenceSource> EvidenceSource for Option<T> {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        if let Some(s) = self {
            s.fill(mr, evidence);
        }
    }
    fn notes(&self) -> Vec<String> {
        self.as_ref().map(EvidenceSource::notes).unwrap_or_default()
    }
}

/// The one constructor of an MR's `MrEvidence`: each source's share of it, filled the same way
/// whoever asks — a fleet or one MR (`index::EvidenceIndex::evidence_for`: doctor, restore-plan,
/// history), the cloud's record alone (adopt), a lint's facts (`manifests::lint`) or what a watch
/// keeps (`watch::evidence`). A source not read is absent, which every rule reads as no evidence.
pub fn mr_evidence(mr: &ManagedResource, sources: &[&dyn EvidenceSource]) -> MrEvidence {
    let mut evidence = MrEvidence::default();
    for source in sources {
        source.fill(mr, &mut evidence);
    }
    evidence
}

/// A kind's key in the per-kind sources: (API group, kind).
pub type KindKey = (String, String);

/// The entry of `mr`'s kind; an empty map answers without building the key (most runs read no
/// provider pods, and 20,000 MRs would pay two allocations each).
fn by_kind<'a, T>(map: &'a HashMap<KindKey, T>, mr: &ManagedResource) -> Option<&'a T> {
    if map.is_empty() {
        return None;
    }
    map.get(&(mr.group().to_string(), mr.kind.clone()))
}
