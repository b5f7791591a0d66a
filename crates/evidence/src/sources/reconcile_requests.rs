//! Whether an MR's kind acknowledges reconcile requests: its CRD declares
//! `status.lastHandledReconcileAt` (crossplane-runtime ≥ v2.3). Read from a backup's CRDs, or
//! from the one kind's CRD live when an MR carries a request not yet acknowledged
//! (`commands::evidence::acknowledges_requests`).

use super::{EvidenceSource, KindKey, by_kind};
use std::collections::HashMap;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

/// What each kind's CRD, where read, says of reconcile requests.
#[derive(Debug, Default)]
pub struct AcknowledgesRequests(pub HashMap<KindKey, bool>);

impl EvidenceSource for AcknowledgesRequests {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.acknowledges_requests = by_kind(&self.0, mr).copied();
    }
}
