//! When the provider serving an MR's kind (re)started, from its pods' container starts: per kind
//! for a run ([`StartsByKind`], `commands::evidence::EvidenceRequest::read`), or the one kind's
//! starts a watch or adopt already holds (`ProviderStarts`).

use super::{EvidenceSource, KindKey, by_kind};
use std::collections::HashMap;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::{MrEvidence, ProviderStarts};

/// The starts of the provider serving each kind judged, as the live pods showed them.
#[derive(Debug, Default)]
pub struct StartsByKind(pub HashMap<KindKey, ProviderStarts>);

impl EvidenceSource for StartsByKind {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.provider_starts = by_kind(&self.0, mr).cloned();
    }
}

/// One kind's starts, already the MR's (the watch's, adopt's).
impl EvidenceSource for ProviderStarts {
    fn fill(&self, _: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.provider_starts = Some(self.clone());
    }
}
