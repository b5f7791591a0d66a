//! The cloud inventory (`--inventory`), once tied over the fleet: the objects tagged for each MR
//! and what the cross-check says of them (`upjet_core::inventory::CrossCheck`, built by
//! `fleet::FleetInputs::tie` from `commands::fleet_inputs::read_inventories`).

use super::EvidenceSource;
use upjet_core::inventory::CrossCheck;
use upjet_core::inventory::matching::mr_key;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

impl EvidenceSource for CrossCheck {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.inventory = self.per_mr.get(&mr_key(mr)).cloned();
    }
}
