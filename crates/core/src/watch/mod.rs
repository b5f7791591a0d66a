//! The pure state of `kubectl upjet watch`: per MR only its compact view and the codes it was
//! last judged with, per kind its phase ([`kinds`]: looked at, queued for a first list, or
//! followed by its watcher), and the fleet-wide facts a single object cannot tell (external-names
//! held twice). Every event goes through [`judge`], which is doctor's rule book
//! (`rules::findings_with`): the watch writes no rule of its own, and builds no evidence of its
//! own either: what it knows beyond the object becomes `MrEvidence` through the constructor the
//! shell hands it ([`EvidenceOf`]).
//!
//! The state answers each event with the findings that appeared or cleared ([`Change`]); the
//! shell prints them and the exposition ([`exposition`]) turns the state into metrics.

pub mod events;
pub mod exposition;
mod guard;
pub mod kinds;
pub mod restarts;

use super::create_marks::CreateMarks;
use super::finding::{Code, Finding, Severity};
use super::gotime::GoTime;
use super::identity::{Peers, Sample};
use super::managed::ManagedResource;
use super::reconcile_timeout::{JudgedAt, ReconcileTimeout};
use super::rules::{self, MrEvidence, ProviderStarts};
use super::shared_names::{Holder, SharedNames, SharedWith};
use kinds::{KindState, Phase, Watcher};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// An MR kind by API group and kind (`("s3.aws.upbound.io", "Bucket")`).
pub type KindId = (String, String);

/// Judges one MR with the same rule book as doctor, at `at`, with what the watch knows beyond
/// the object. The one place the watch asks for findings.
pub fn judge(mr: &ManagedResource, evidence: Option<&MrEvidence>, at: JudgedAt) -> Vec<Finding> {
    rules::findings_with(mr, evidence, at)
}

/// How what the watch knows of one MR beyond the object (when its provider's pods started, what
/// the shared-names index says of it) becomes the rules' evidence: `None` when there is nothing
/// to tell. The shell hands the state the one constructor under `evidence/` ([`State::judging_with`]);
/// a state without one judges the object alone.
pub(crate) type EvidenceOf = fn(&ManagedResource, Option<ProviderStarts>, SharedWith) -> Option<MrEvidence>;

/// The evidence of a state given no constructor: nothing beyond the object.
fn object_alone(_: &ManagedResource, _: Option<ProviderStarts>, _: SharedWith) -> Option<MrEvidence> {
    None
}

pub use super::shared_names::MrKey;

/// A finding as the watch remembers it between events: enough to say what cleared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The code.
    pub code: Code,
    /// Its severity.
    pub severity: Severity,
    /// The message when it was last judged.
    pub message: String,
    /// The next command.
    pub next: String,
}

/// One MR under watch.
#[derive(Clone, Debug)]
struct Tracked {
    /// Boxed: the map's empty buckets then cost a pointer, not a whole MR.
    mr: Box<ManagedResource>,
    findings: Vec<Seen>,
}

/// Whether a finding appeared or cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transition {
    /// It is present now and was not before.
    Appeared,
    /// It was present and is not any more (or its MR or kind is gone).
    Cleared,
}

/// A finding that appeared or cleared on one MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Appeared or cleared.
    pub transition: Transition,
    /// The MR.
    pub key: MrKey,
    /// The MR's ProviderConfig, when it names one.
    pub provider_config: Option<String>,
    /// The finding.
    pub finding: Seen,
}

/// The watch's state over every kind of one cluster.
#[derive(Debug)]
pub struct State {
    mrs: HashMap<Arc<MrKey>, Tracked>,
    /// By kind: its phase and how many MRs it holds.
    kinds: BTreeMap<KindId, KindState>,
    /// The next place in line for a first-list slot.
    tickets: u64,
    /// By MR: when its create was marked pending, for each MR whose create has no result yet
    /// (kept as events arrive, so a scrape does not read every MR's annotations), whether it may
    /// still be running or is stuck.
    pending: BTreeMap<MrKey, GoTime>,
    /// The providers' reconcile timeout: until a pending create's result is due it may still be
    /// running, and it is judged again at that time.
    reconcile_timeout: ReconcileTimeout,
    /// By cloud object (kind, the legacy and `.m.` groups as one, and external-name): the MRs
    /// that hold it.
    names: SharedNames,
    /// By kind: when its provider's pods (re)started.
    starts: HashMap<KindId, ProviderStarts>,
    /// By API group: MRs a provider restart would create twice, as of the last [`State::resync`].
    restart_duplicates: BTreeMap<String, usize>,
    /// The kinds to watch are known (discovery answered): before, no kind can be waited for.
    discovered: bool,
    /// What the watch knows beyond an MR object, as the rules' evidence.
    evidence: EvidenceOf,
    /// Findings about the cluster rather than an MR (the guard, its lock: [`State::guard`]),
    /// under the resource each names.
    others: BTreeMap<MrKey, Vec<Seen>>,
}

impl Default for State {
    fn default() -> State {
        State::new(ReconcileTimeout::default())
    }
}

impl State {
    /// An empty state whose rules allow the providers' reconciles `reconcile_timeout`.
    pub fn new(reconcile_timeout: ReconcileTimeout) -> State {
        State {
            mrs: HashMap::new(),
            kinds: BTreeMap::new(),
            tickets: 0,
            pending: BTreeMap::new(),
            reconcile_timeout,
            names: SharedNames::default(),
            starts: HashMap::new(),
            restart_duplicates: BTreeMap::new(),
            discovered: false,
            evidence: object_alone,
            others: BTreeMap::new(),
        }
    }

    /// The same state, judging each MR with what the watch knows beyond the object, turned into
    /// evidence by `evidence`.
    pub fn judging_with(self, evidence: EvidenceOf) -> State {
        State { evidence, ..self }
    }

    /// The earliest time a create now judged in flight has its result due: then it is judged
    /// again ([`State::due`]), and becomes CreateIncomplete if no result came.
    pub fn next_due(&self) -> Option<GoTime> {
        self.pending
            .iter()
            .filter(|(key, _)| self.holds(key, Code::CreateInFlight))
            .map(|(_, pending)| self.reconcile_timeout.result_due(*pending))
            .min()
    }

    /// Judges again the MRs whose create was in flight and whose result is due at `now`.
    pub fn due(&mut self, now: GoTime) -> Vec<Change> {
        let due: Vec<MrKey> = self
            .pending
            .iter()
            .filter(|(key, pending)| {
                self.holds(key, Code::CreateInFlight) && !now.before(&self.reconcile_timeout.result_due(**pending))
            })
            .map(|(key, _)| key.clone())
            .collect();
        due.iter().flat_map(|k| self.rejudge(k, now)).collect()
    }

    /// The creates stuck at the create-incomplete gate now, with when each was marked pending:
    /// those judged CreateIncomplete, and those whose result came due since they were judged.
    pub(crate) fn stuck_creates(&self, now: GoTime) -> impl Iterator<Item = (&MrKey, GoTime)> {
        self.pending
            .iter()
            .filter(move |(key, pending)| {
                self.holds(key, Code::CreateIncomplete) || !now.before(&self.reconcile_timeout.result_due(**pending))
            })
            .map(|(key, pending)| (key, *pending))
    }

    /// Whether the MR was last judged with a finding of `code`.
    fn holds(&self, key: &MrKey, code: Code) -> bool {
        self.mrs.get(key).is_some_and(|t| t.findings.iter().any(|f| f.code == code))
    }

    /// An MR was listed, added or modified: it is judged again, with the MRs that share its
    /// external-name (they gain or lose that finding too).
    pub fn apply(&mut self, mr: ManagedResource, now: GoTime) -> Vec<Change> {
        let key = MrKey::of(&mr);
        let kind = (key.group.clone(), key.kind.clone());
        if let Some(Phase::Watched(Watcher { listing: Some(seen), .. })) =
            self.kinds.get_mut(&kind).map(|k| &mut k.phase)
        {
            seen.insert(key.clone());
        }
        // One copy of the key for the map of MRs and the shared-names index.
        let shared = match self.mrs.get_key_value(&key) {
            Some((held, _)) => held.clone(),
            None => Arc::new(key.clone()),
        };
        let holder = Holder::keyed(&mr, shared.clone());
        let marks = CreateMarks::of(&mr);
        if marks.incomplete() {
            self.pending.insert(key.clone(), marks.pending.at);
        } else {
            self.pending.remove(&key);
        }
        match self.mrs.get_mut(&key) {
            Some(held) => *held.mr = mr,
            None => {
                self.kinds.entry(kind.clone()).or_default().count += 1;
                self.mrs.insert(shared, Tracked { mr: Box::new(mr), findings: Vec::new() });
            }
        }
        let mut touched = match holder {
            Some(h) => self.names.insert(h),
            None => self.names.remove(&key),
        };
        touched.insert(key);
        touched.iter().flat_map(|k| self.rejudge(k, now)).collect()
    }

    /// An MR was deleted: its findings clear.
    pub fn delete(&mut self, key: &MrKey, now: GoTime) -> Vec<Change> {
        let peers = self.names.remove(key);
        let mut changes = self.forget(key);
        for peer in peers {
            changes.extend(self.rejudge(&peer, now));
        }
        changes
    }

    /// The provider of these kinds (re)started at `starts`: their MRs are judged again at once
    /// (a create in flight may have lost its only record). Returns the changes.
    pub fn provider_started(&mut self, kinds: &[KindId], starts: ProviderStarts, now: GoTime) -> Vec<Change> {
        for kind in kinds {
            self.starts.insert(kind.clone(), starts.clone());
        }
        let keys: Vec<MrKey> = self
            .mrs
            .keys()
            .filter(|k| kinds.iter().any(|(g, kd)| (g, kd) == (&k.group, &k.kind)))
            .map(|k| MrKey::clone(k))
            .collect();
        keys.iter().flat_map(|k| self.rejudge(k, now)).collect()
    }

    /// Judges every MR again at `now` (findings that depend on time: an async deadline passing)
    /// and recounts what a provider restart would create twice, with the identity formats
    /// learned from every healthy peer. Returns the changes.
    pub fn resync(&mut self, now: GoTime) -> Vec<Change> {
        let mut peers = Peers::default();
        for t in self.mrs.values() {
            if let Some(sample) = Sample::of(&t.mr) {
                peers.add(t.mr.group(), &t.mr.kind, sample);
            }
        }
        peers.learn();
        let mut duplicates: BTreeMap<String, usize> =
            self.kinds.iter().filter(|(_, k)| k.phase.watched()).map(|((g, _), _)| (g.clone(), 0)).collect();
        let at = JudgedAt::new(now, self.reconcile_timeout);
        for t in self.mrs.values() {
            if rules::restore_verdict::restart_duplicates(&t.mr, None, &peers, at) {
                *duplicates.entry(t.mr.group().to_string()).or_default() += 1;
            }
        }
        self.restart_duplicates = duplicates;
        let mut keys: Vec<MrKey> = self.mrs.keys().map(|k| MrKey::clone(k)).collect();
        keys.sort();
        keys.iter().flat_map(|k| self.rejudge(k, now)).collect()
    }

    /// The MR held under `key`.
    pub fn mr(&self, key: &MrKey) -> Option<&ManagedResource> {
        self.mrs.get(key).map(|t| &*t.mr)
    }

    /// Every MR held (`watch --guard-lock` sends each one's lock entry again every resync).
    pub fn mrs(&self) -> impl Iterator<Item = &ManagedResource> {
        self.mrs.values().map(|t| &*t.mr)
    }

    /// The MRs held, by uid: whom an ID a provider logged belongs to.
    pub fn mrs_by_uid(&self) -> HashMap<&str, &ManagedResource> {
        self.mrs.values().map(|t| (t.mr.uid.as_str(), &*t.mr)).collect()
    }

    /// The MRs of these kinds that hold no external-name (a placeholder is none), by key with
    /// their uid, in key order: after their provider restarted, whatever ID they had lives only
    /// where someone wrote it down.
    pub fn without_external_name(&self, kinds: &[KindId]) -> Vec<(MrKey, String)> {
        let mut out: Vec<(MrKey, String)> = self
            .mrs
            .iter()
            .filter(|(k, t)| {
                kinds.iter().any(|(g, kd)| (g, kd) == (&k.group, &k.kind)) && t.mr.external_name().is_none()
            })
            .map(|(k, t)| (MrKey::clone(k), t.mr.uid.clone()))
            .collect();
        out.sort();
        out
    }

    /// What the watch knows about one MR beyond the object, as evidence, or `None` when it
    /// knows nothing.
    fn evidence_for(&self, key: &MrKey, mr: &ManagedResource) -> Option<MrEvidence> {
        let starts = self.starts.get(&(key.group.clone(), key.kind.clone())).cloned();
        (self.evidence)(mr, starts, self.names.about(key))
    }

    /// Judges one held MR again and records its findings; returns what changed.
    fn rejudge(&mut self, key: &MrKey, now: GoTime) -> Vec<Change> {
        let Some(tracked) = self.mrs.get(key) else { return Vec::new() };
        let evidence = self.evidence_for(key, &tracked.mr);
        let mut fresh: Vec<Seen> = Vec::new();
        for f in judge(&tracked.mr, evidence.as_ref(), JudgedAt::new(now, self.reconcile_timeout)) {
            if !fresh.iter().any(|s| s.code == f.code) {
                fresh.push(Seen { code: f.code, severity: f.severity, message: f.message, next: f.next });
            }
        }
        let provider_config = tracked.mr.provider_config.as_ref().map(ToString::to_string);
        let old = std::mem::take(&mut self.mrs.get_mut(key).expect("held").findings);
        let change = |transition, finding: &Seen| Change {
            transition,
            key: key.clone(),
            provider_config: provider_config.clone(),
            finding: finding.clone(),
        };
        let mut changes: Vec<Change> = old
            .iter()
            .filter(|o| !fresh.iter().any(|f| f.code == o.code))
            .map(|o| change(Transition::Cleared, o))
            .collect();
        changes.extend(
            fresh.iter().filter(|f| !old.iter().any(|o| o.code == f.code)).map(|f| change(Transition::Appeared, f)),
        );
        self.mrs.get_mut(key).expect("held").findings = fresh;
        changes
    }

    /// A list of the kind ended having returned `seen`: its other MRs were deleted while the
    /// watch was blind, and their findings clear.
    fn forget_unlisted(&mut self, kind: &KindId, seen: &BTreeSet<MrKey>) -> Vec<Change> {
        if self.kinds.get(kind).is_none_or(|k| k.count == seen.len()) {
            return Vec::new();
        }
        let gone: Vec<MrKey> = self
            .mrs
            .keys()
            .filter(|k| (&k.group, &k.kind) == (&kind.0, &kind.1) && !seen.contains(&***k))
            .map(|k| MrKey::clone(k))
            .collect();
        gone.iter().flat_map(|k| self.forget(k)).collect()
    }

    /// Drops one MR: its findings clear.
    fn forget(&mut self, key: &MrKey) -> Vec<Change> {
        let Some(tracked) = self.mrs.remove(key) else { return Vec::new() };
        self.pending.remove(key);
        let kind = (key.group.clone(), key.kind.clone());
        if let Some(k) = self.kinds.get_mut(&kind) {
            k.count = k.count.saturating_sub(1);
        }
        self.names.remove(key);
        let provider_config = tracked.mr.provider_config.as_ref().map(ToString::to_string);
        tracked
            .findings
            .into_iter()
            .map(|finding| Change {
                transition: Transition::Cleared,
                key: key.clone(),
                provider_config: provider_config.clone(),
                finding,
            })
            .collect()
    }
}

#[cfg(any(test, feature = "testing"))]
pub mod fixtures;
#[cfg(test)]
mod tests;
