//! The kinds going away: their CRD or MRD being deleted, which deletes every MR of them
//! (`upjet_core::kind_removal::KindRemovals`, read by `commands::kind_removal` and kept in
//! `fleet::FleetFacts`).

use super::EvidenceSource;
use upjet_core::kind_removal::KindRemovals;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

impl EvidenceSource for KindRemovals {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.kind_removal = self.of(mr.group(), &mr.kind).cloned();
    }
}
