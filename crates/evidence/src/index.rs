//! Everything gathered about the MRs of one run, indexed so that each MR's share can be handed to
//! the rules: the one place that decides what evidence an MR gets. [`EvidenceIndex`] holds what
//! can be looked up MR by MR (logs, provider starts, audit writes, CRDs, a backup's restore
//! model); what only the whole fleet tells is [`super::fleet::FleetFacts`], handed to the judge
//! beside it. Both are built once, before any MR is judged, so judging one MR needs no other.
//!
//! [`mr_evidence`] is the one constructor of the rules' [`MrEvidence`]: every source's share of
//! one MR ([`Shares`]), each field filled the same way whoever asks — a fleet or one MR through
//! [`EvidenceIndex::evidence_for`] (doctor, restore-plan, history), the cloud's record alone
//! (adopt), a lint's facts (`manifests::lint`), or what a watch keeps (provider starts, the
//! shared-names index). A new evidence source is a field of [`Shares`] and one line here.

use super::audit::AuditIndex;
use super::correlate::LogEvidence;
use super::fleet::FleetFacts;
use std::collections::HashMap;
use upjet_core::changelog::ChangeLogIndex;
use upjet_core::cloud_audit::CloudAuditCheck;
use upjet_core::finding::Finding;
use upjet_core::inventory::CrossCheck;
use upjet_core::inventory::matching::mr_key;
use upjet_core::journal::JournalIndex;
use upjet_core::managed::ManagedResource;
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_core::report::ResourceState;
use upjet_core::restore::RestoreModel;
use upjet_core::rules::{self, DesiredFacts, Facts, LogSource, MrEvidence, ProviderStarts};
use upjet_core::shared_names::SharedWith;

/// A kind's key in the per-kind maps: (API group, kind).
pub type KindKey = (String, String);

/// What was read about the MRs of one run, each piece as its reader left it. Built by the one
/// evidence constructor of the shell (`commands::evidence::collect`), which decides from the
/// run's request which pieces to read.
#[derive(Debug, Default)]
pub struct EvidenceParts {
    /// Log evidence, when any source was read.
    pub logs: Option<LogEvidence>,
    /// Provider starts by the kinds each provider serves.
    pub starts: HashMap<KindKey, ProviderStarts>,
    /// The audit-log writes, when `--audit-log` files were read.
    pub audit: Option<AuditIndex>,
    /// Whether each kind's CRD declares `status.lastHandledReconcileAt` (crossplane-runtime ≥
    /// v2.3), for the kinds whose CRD was read.
    pub acknowledges_requests: HashMap<KindKey, bool>,
    /// When the MRs come from a Velero backup: what restoring each depends on.
    pub restore: Option<RestoreModel>,
    /// The providers' change-log entries, when any were read.
    pub changelog: ChangeLogIndex,
    /// What the ID journal (`kubectl upjet watch`) recorded, by MR uid.
    pub journal: JournalIndex,
}

/// The evidence of one run, looked up by MR. Its fields are private: what an MR gets is decided
/// here, in [`EvidenceIndex::evidence_for`], for every flow alike.
#[derive(Debug, Default)]
pub struct EvidenceIndex {
    parts: EvidenceParts,
}

impl EvidenceIndex {
    /// Indexes what was read.
    pub fn new(parts: EvidenceParts) -> EvidenceIndex {
        EvidenceIndex { parts }
    }

    /// The ID journal read: the composition tree looks up what earlier composed MRs held in it.
    pub fn journal(&self) -> &JournalIndex {
        &self.parts.journal
    }

    /// What was gathered about one MR, its share of the fleet's facts included. Nothing read
    /// means empty evidence, which every rule treats as no evidence.
    pub fn evidence_for(&self, mr: &ManagedResource, fleet: &FleetFacts) -> MrEvidence {
        let p = &self.parts;
        let shares = Shares {
            logs: p.logs.as_ref(),
            starts: by_kind(&p.starts, mr).cloned(),
            audit: p.audit.as_ref(),
            acknowledges_requests: by_kind(&p.acknowledges_requests, mr).copied(),
            restore: p.restore.as_ref(),
            changelog: Some(&p.changelog),
            journal: Some(&p.journal),
            inventory: fleet.inventory(),
            cloud_audit: fleet.cloud_audit(),
            shared: fleet.shared(mr),
            desired: None,
            kind_removal: fleet.kind_removal(mr),
            composition: fleet.composition(mr),
        };
        mr_evidence(mr, shares)
    }

    /// Every rule's findings for one MR, its evidence and its share of `fleet`, judged at `at`
    /// (`Settings::judged_at`). An MR judged before (or without) the whole fleet gets
    /// `FleetFacts::default()`.
    pub fn findings(&self, mr: &ManagedResource, fleet: &FleetFacts, at: JudgedAt) -> Vec<Finding> {
        rules::findings_with(mr, Some(&self.evidence_for(mr, fleet)), at)
    }

    /// The MR's identity state, with the last provider-logged ID when logs were read.
    pub fn state(&self, mr: &ManagedResource) -> ResourceState {
        let mut s = ResourceState::of(mr);
        s.last_logged_id = self.parts.logs.as_ref().and_then(|l| l.last_logged_ref(&mr.uid));
        s
    }

    /// The logs read, when any were: their sources close the report.
    pub fn logs(&self) -> Option<&LogEvidence> {
        self.parts.logs.as_ref()
    }

    /// What the audit files held, and which appear to come from another cluster.
    pub fn audit_notes(&self) -> Vec<String> {
        self.parts.audit.as_ref().map(AuditIndex::notes).unwrap_or_default()
    }

    /// The log sources read, for the rules about sources as a whole.
    pub fn log_sources(&self) -> Vec<LogSource> {
        self.parts.logs.as_ref().map(LogEvidence::log_sources).unwrap_or_default()
    }
}

/// The entry of `mr`'s kind; an empty map answers without building the key (most runs read no
/// provider pods, and 20,000 MRs would pay two allocations each).
fn by_kind<'a, T>(map: &'a HashMap<KindKey, T>, mr: &ManagedResource) -> Option<&'a T> {
    if map.is_empty() {
        return None;
    }
    map.get(&(mr.group().to_string(), mr.kind.clone()))
}

/// Every source's share of one MR, as [`mr_evidence`] takes them: the readers' indexes (looked up
/// for the MR there), and what is already the MR's own (its kind's provider starts and CRD, what
/// the shared-names index and a lint's set say of it). A source not read is `None` (or empty).
#[derive(Default)]
pub struct Shares<'a> {
    /// The provider logs read.
    pub logs: Option<&'a LogEvidence>,
    /// When the provider serving the MR's kind (re)started.
    pub starts: Option<ProviderStarts>,
    /// The audit-log writes read (`--audit-log`).
    pub audit: Option<&'a AuditIndex>,
    /// Whether the MR's kind acknowledges reconcile requests, when its CRD was read.
    pub acknowledges_requests: Option<bool>,
    /// A backup's restore model.
    pub restore: Option<&'a RestoreModel>,
    /// The providers' change-log entries read.
    pub changelog: Option<&'a ChangeLogIndex>,
    /// The ID journal read.
    pub journal: Option<&'a JournalIndex>,
    /// The inventory cross-check, once tied over the fleet.
    pub inventory: Option<&'a CrossCheck>,
    /// The cloud's record, once tied to the MR and its peers.
    pub cloud_audit: Option<&'a CloudAuditCheck>,
    /// What the index of objects several MRs hold says of it (`domain::shared_names`).
    pub shared: SharedWith,
    /// What the other manifests of a lint show about it.
    pub desired: Option<DesiredFacts>,
    /// Its kind going away (its CRD or MRD being deleted), when the run read them.
    pub kind_removal: Option<upjet_core::kind_removal::KindRemoval>,
    /// What the composition tree says of it (`upjet_core::composition`).
    pub composition: Option<upjet_core::composition::MrComposition>,
}

/// The one constructor of an MR's [`MrEvidence`]: each source's share of it, looked up and
/// filled the same way for one MR or a fleet.
pub fn mr_evidence(mr: &ManagedResource, s: Shares) -> MrEvidence {
    let mut evidence = MrEvidence { provider_starts: s.starts, ..MrEvidence::default() };
    if let Some(logs) = s.logs {
        logs.fill(mr, &mut evidence);
    }
    evidence.inventory = s.inventory.and_then(|c| c.per_mr.get(&mr_key(mr))).cloned();
    evidence.audit = s.audit.and_then(|a| a.for_mr(mr));
    evidence.acknowledges_requests = s.acknowledges_requests;
    evidence.restore = s.restore.map(|m| m.for_mr(mr));
    evidence.cloud_audit = s.cloud_audit.and_then(|c| c.for_mr(mr)).cloned();
    evidence.changelog = s.changelog.and_then(|c| c.for_mr(mr));
    evidence.journal = s.journal.filter(|j| !j.is_empty()).map(|j| j.for_uid(&mr.uid)).unwrap_or_default();
    evidence.shared_external_name = s.shared.fighting;
    evidence.migration_twin = s.shared.twin;
    evidence.desired = s.desired;
    evidence.kind_removal = s.kind_removal;
    evidence.composition = s.composition;
    evidence
}

/// The findings that logs and provider restarts support for one MR, without the ones its object
/// alone supports: what `adopt` adds to its diagnosis when choosing an ID.
pub fn log_findings(
    mr: &ManagedResource,
    logs: Option<&LogEvidence>,
    starts: Option<&ProviderStarts>,
    at: JudgedAt,
) -> Vec<Finding> {
    let evidence = mr_evidence(mr, Shares { logs, starts: starts.cloned(), ..Shares::default() });
    rules::evidence_findings(&Facts::with_evidence(mr, Some(&evidence), at))
}
