//! Everything gathered for a run (provider logs, provider starts per MR kind), indexed so that
//! each MR's share can be handed to the rules: the one place that decides what evidence an MR gets.

use super::audit::AuditIndex;
use super::cloud_audit::CloudRecord;
use super::correlate::LogEvidence;
use crate::domain::changelog::ChangeLogIndex;
use crate::domain::cloud_audit::CloudAuditCheck;
use crate::domain::finding::Finding;
use crate::domain::gotime::GoTime;
use crate::domain::inventory::CrossCheck;
use crate::domain::inventory::matching::mr_key;
use crate::domain::managed::ManagedResource;
use crate::domain::report::ResourceState;
use crate::domain::restore::RestoreModel;
use crate::domain::rules::{self, LogSource, MrEvidence, ProviderStarts};
use std::collections::HashMap;

/// The evidence of one run, looked up by MR.
#[derive(Debug, Default)]
pub struct EvidenceIndex {
    /// Log evidence, when any source was read.
    pub logs: Option<LogEvidence>,
    /// Provider starts by (API group, kind) of the kinds each provider serves.
    pub starts: HashMap<(String, String), ProviderStarts>,
    /// The inventory cross-check, set once every MR is known (`doctor --inventory`).
    pub inventory: std::sync::OnceLock<CrossCheck>,
    /// The audit-log writes, when `--audit-log` files were read.
    pub audit: Option<AuditIndex>,
    /// By (API group, kind), whether the kind's CRD declares `status.lastHandledReconcileAt`
    /// (crossplane-runtime ≥ v2.3), for the kinds whose CRD was read.
    pub acknowledges_requests: HashMap<(String, String), bool>,
    /// When the MRs come from a Velero backup: what restoring each depends on.
    pub restore: Option<RestoreModel>,
    /// The cloud's audit record, when `--cloud-audit` files were read.
    pub cloud_record: Option<CloudRecord>,
    /// The record tied to the MRs, set once every MR is known.
    pub cloud_audit: std::sync::OnceLock<CloudAuditCheck>,
    /// The providers' change-log entries, when any were read.
    pub changelog: ChangeLogIndex,
}

impl EvidenceIndex {
    /// What was gathered about one MR, or `None` when nothing beyond objects was gathered.
    pub fn evidence_for(&self, mr: &ManagedResource) -> Option<MrEvidence> {
        let inventory = self.inventory.get();
        let nothing_read = self.logs.is_none() && self.starts.is_empty() && self.acknowledges_requests.is_empty();
        let cloud = self.cloud_record.is_some() || self.cloud_audit.get().is_some() || !self.changelog.is_empty();
        if nothing_read && inventory.is_none() && self.audit.is_none() && self.restore.is_none() && !cloud {
            return None;
        }
        let kind = (mr.group().to_string(), mr.kind.clone());
        let starts = self.starts.get(&kind).cloned();
        let mut evidence = match &self.logs {
            Some(logs) => logs.mr_evidence(mr, starts),
            None => MrEvidence { provider_starts: starts, ..MrEvidence::default() },
        };
        evidence.inventory = inventory.and_then(|c| c.per_mr.get(&mr_key(mr))).cloned();
        evidence.audit = self.audit.as_ref().and_then(|a| a.for_mr(mr));
        evidence.acknowledges_requests = self.acknowledges_requests.get(&kind).copied();
        evidence.restore = self.restore.as_ref().map(|m| m.for_mr(mr));
        evidence.cloud_audit = self.cloud_audit.get().and_then(|c| c.for_mr(mr)).cloned();
        evidence.changelog = self.changelog.for_mr(mr);
        Some(evidence)
    }

    /// Every rule's findings for one MR and its evidence, judged at `now` (`Settings::now`).
    pub fn findings(&self, mr: &ManagedResource, now: GoTime) -> Vec<Finding> {
        rules::findings_with(mr, self.evidence_for(mr).as_ref(), now)
    }

    /// The MR's identity state, with the last provider-logged ID when logs were read.
    pub fn state(&self, mr: &ManagedResource) -> ResourceState {
        let mut s = ResourceState::of(mr);
        s.last_logged_id = self.logs.as_ref().and_then(|l| l.last_logged_ref(&mr.uid));
        s
    }

    /// What the audit files held, and which appear to come from another cluster.
    pub fn audit_notes(&self) -> Vec<String> {
        self.audit.as_ref().map(AuditIndex::notes).unwrap_or_default()
    }

    /// What the cloud audit files held, and what tying them to the MRs learned and left open.
    pub fn cloud_notes(&self) -> Vec<String> {
        let mut notes = self.cloud_record.as_ref().map(CloudRecord::notes).unwrap_or_default();
        notes.extend(self.cloud_audit.get().into_iter().flat_map(|c| c.notes.iter().cloned()));
        notes
    }

    /// The log sources read, for the rules about sources as a whole.
    pub fn log_sources(&self) -> Vec<LogSource> {
        self.logs.as_ref().map(LogEvidence::log_sources).unwrap_or_default()
    }
}
