//! What the other manifests of a lint show about one (`upjet_core::lint::facts`, handed by
//! `manifests::lint`): its external-name off its kind's format, references to no manifest,
//! annotations a provider writes.

use super::EvidenceSource;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::{DesiredFacts, MrEvidence};

impl EvidenceSource for DesiredFacts {
    fn fill(&self, _: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.desired = Some(self.clone());
    }
}
