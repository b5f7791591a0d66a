//! The ID journal `kubectl upjet watch` keeps: what it recorded for each MR's uid, best ID first
//! (`upjet_core::journal::JournalIndex`, read by `commands::journal::read`).

use super::EvidenceSource;
use upjet_core::journal::JournalIndex;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

impl EvidenceSource for JournalIndex {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        if !self.is_empty() {
            evidence.journal = self.for_uid(&mr.uid);
        }
    }
}
