//! The Kubernetes audit log (`--audit-log`): the writes to each MR's name, every incarnation
//! (`audit::AuditIndex`, read by `commands::evidence::read_audit_logs`). Its notes are said once
//! every MR was looked up: a file whose writes no MR claimed seems to come from another cluster.

use super::EvidenceSource;
use crate::audit::AuditIndex;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;

impl EvidenceSource for AuditIndex {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        evidence.audit = self.for_mr(mr);
    }
    fn notes(&self) -> Vec<String> {
        AuditIndex::notes(self)
    }
}
