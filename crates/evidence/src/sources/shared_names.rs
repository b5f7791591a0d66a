//! The index of cloud objects several MRs hold (`upjet_core::shared_names`): the other acting
//! holders of an MR's external-name, and the healthy twin of a parked legacy MR. Built from
//! every MR of a run (`SharedNames`, in `fleet::FleetFacts`), or already one MR's (`SharedWith`:
//! the watch keeps the index event by event; a lint's set computes it).

use super::EvidenceSource;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;
use upjet_core::shared_names::{MrKey, SharedNames, SharedWith};

impl EvidenceSource for SharedNames {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        if self.is_empty() {
            return;
        }
        let SharedWith { fighting, twin } = self.about(&MrKey::of(mr));
        (evidence.shared_external_name, evidence.migration_twin) = (fighting, twin);
    }
}

/// What the index says of this very MR.
impl EvidenceSource for SharedWith {
    fn fill(&self, _: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.shared_external_name.clone_from(&self.fighting);
        evidence.migration_twin.clone_from(&self.twin);
    }
}
