//! The provider logs (live pods' containers, `--log-file`): the IDs each MR's provider logged as
//! created, its failed callbacks, the restart markers and which of upjet's clients runs it
//! (`correlate::LogEvidence`, read by `commands::evidence::gather`).

use super::EvidenceSource;
use crate::correlate::LogEvidence;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

impl EvidenceSource for LogEvidence {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        LogEvidence::fill(self, mr, evidence);
    }
}
