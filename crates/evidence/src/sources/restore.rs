//! A Velero backup's restore model (`restore-plan`): what restoring each MR depends on beyond
//! the object (`upjet_core::restore::RestoreModel`, built by `commands::backup`).

use super::EvidenceSource;
use upjet_core::managed::ManagedResource;
use upjet_core::restore::RestoreModel;
use upjet_core::rules::MrEvidence;

impl EvidenceSource for RestoreModel {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.restore = Some(self.for_mr(mr));
    }
}
