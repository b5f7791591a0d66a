//! Everything gathered about the MRs of one run, indexed so that each MR's share can be handed to
//! the rules: the one place that decides what evidence an MR gets. [`EvidenceIndex`] holds the
//! sources read that can be looked up MR by MR (logs, provider starts, audit writes, CRDs, a
//! backup's restore model, change logs, the ID journal), as a list of
//! [`EvidenceSource`]s; what only the whole fleet tells is [`super::fleet::FleetFacts`], handed to
//! the judge beside it. Both are built once, before any MR is judged, so judging one MR needs no
//! other. Each MR's evidence comes out of the one constructor, [`mr_evidence`].

use super::correlate::LogEvidence;
use super::fleet::FleetFacts;
use super::sources::{EvidenceSource, mr_evidence};
use std::any::Any;
use upjet_core::finding::Finding;
use upjet_core::journal::JournalIndex;
use upjet_core::managed::ManagedResource;
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_core::report::ResourceState;
use upjet_core::rules::{self, Facts, LogSource, MrEvidence, ProviderStarts};

pub use super::sources::KindKey;

/// A source an index keeps: looked up by MR, and found again by its type (the logs close the
/// report and make `history`'s timeline).
trait Kept: EvidenceSource + Any + Send + Sync {}

impl<T: EvidenceSource + Any + Send + Sync> Kept for T {}

/// The evidence of one run, looked up by MR: the sources the shell read
/// (`commands::evidence::EvidenceRequest::read`), each added once. What an MR gets is decided
/// here, in [`EvidenceIndex::evidence_for`], for every flow alike.
#[derive(Default)]
pub struct EvidenceIndex {
    sources: Vec<Box<dyn Kept>>,
}

impl std::fmt::Debug for EvidenceIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EvidenceIndex({} sources)", self.sources.len())
    }
}

impl EvidenceIndex {
    /// Adds a source when it was read (`None`: not read, and an MR gets nothing of it).
    pub fn add<S: EvidenceSource + Any + Send + Sync>(&mut self, source: Option<S>) {
        if let Some(source) = source {
            self.sources.push(Box::new(source));
        }
    }

    /// The ID journal read, when it held records: the composition tree looks up what earlier
    /// composed MRs held in it.
    pub fn journal(&self) -> Option<&JournalIndex> {
        self.sources.iter().find_map(|s| (&**s as &dyn Any).downcast_ref())
    }

    /// What was gathered about one MR, its share of the fleet's facts included. Nothing read
    /// means empty evidence, which every rule treats as no evidence.
    pub fn evidence_for(&self, mr: &ManagedResource, fleet: &FleetFacts) -> MrEvidence {
        let mut all: Vec<&dyn EvidenceSource> = Vec::with_capacity(self.sources.len() + 1);
        all.extend(self.sources.iter().map(|s| &**s as &dyn EvidenceSource));
        all.push(fleet);
        mr_evidence(mr, &all)
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
        s.last_logged_id = self.logs().and_then(|l| l.last_logged_ref(&mr.uid));
        s
    }

    /// The logs read, when any were: their sources close the report.
    pub fn logs(&self) -> Option<&LogEvidence> {
        self.sources.iter().find_map(|s| (&**s as &dyn Any).downcast_ref())
    }

    /// What each source has to say once the MRs were looked up (which audit files appear to come
    /// from another cluster), in the order they were read.
    pub fn notes(&self) -> Vec<String> {
        self.sources.iter().flat_map(|s| s.notes()).collect()
    }

    /// The log sources read, for the rules about sources as a whole.
    pub fn log_sources(&self) -> Vec<LogSource> {
        self.logs().map(LogEvidence::log_sources).unwrap_or_default()
    }
}

/// The findings that logs and provider restarts support for one MR, without the ones its object
/// alone supports: what `adopt` adds to its diagnosis when choosing an ID.
pub fn log_findings(
    mr: &ManagedResource,
    logs: Option<&LogEvidence>,
    starts: Option<&ProviderStarts>,
    at: JudgedAt,
) -> Vec<Finding> {
    let evidence = mr_evidence(mr, &[&logs, &starts]);
    rules::evidence_findings(&Facts::with_evidence(mr, Some(&evidence), at))
}
