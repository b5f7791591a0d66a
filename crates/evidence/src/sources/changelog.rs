//! The providers' change logs (the changelogs sidecar, `--log-file`): the entries about each MR
//! and the IDs its creates led to (`upjet_core::changelog::ChangeLogIndex`, read by
//! `commands::changelog`).

use super::EvidenceSource;
use upjet_core::changelog::ChangeLogIndex;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

impl EvidenceSource for ChangeLogIndex {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.changelog = self.for_mr(mr);
    }
}
