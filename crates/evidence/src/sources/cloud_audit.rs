//! The cloud's own audit record (`--cloud-audit`), once tied to the MRs and their peers: the
//! creates attributed to each MR and its object's deletes (`upjet_core::cloud_audit::
//! CloudAuditCheck`, built by `fleet::FleetInputs::tie`, or for one MR by
//! `commands::cloud_audit::for_one`).

use super::EvidenceSource;
use upjet_core::cloud_audit::CloudAuditCheck;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

impl EvidenceSource for CloudAuditCheck {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.cloud_audit = self.for_mr(mr).cloned();
    }
}
