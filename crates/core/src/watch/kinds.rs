//! The life of one MR kind under watch, as one enum and one pure function, after kube-runtime's
//! watcher: a kind is looked at (one `limit=1` list at start and each resync) until a look finds
//! MRs, then waits for one of the [`FIRST_LISTS`] first-list slots, then its watcher follows it
//! (a list, a watch, a relist after a 410 or a failure). [`next`] answers each event with the
//! kind's next [`Phase`] and what the shell must do ([`Effect`]). The [`State`] keeps one phase
//! per kind, hands the slots out in the order kinds queued, and reads readiness (`/readyz`) and
//! `upjet_watch_synced` off the phases; the shell only starts and stops the watchers and the
//! looks it is told to.

use super::{Change, KindId, MrKey, State};
use std::collections::BTreeSet;

/// Kinds in their first list at once, the others wait their turn: the list pages in flight are
/// what the watch's memory peaks at, and the allocator keeps a peak long after the pages are gone.
pub const FIRST_LISTS: usize = 8;

/// What the watch knows of a kind's MRs: what readiness and sync read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// Nothing yet: readiness waits for the kind.
    Nothing,
    /// Judged: a list returned every MR in scope, or a look found none.
    Judged,
    /// The API server refused to list it (403): named, not waited for, and the watch is blind
    /// to it. `judged`: it was judged before, so its next list counts as a relist.
    Refused {
        /// Judged before the refusal.
        judged: bool,
    },
}

impl Known {
    /// Whether the kind was ever judged: a list from now on is a relist.
    pub fn judged(self) -> bool {
        matches!(self, Known::Judged | Known::Refused { judged: true })
    }

    /// The same knowledge, refused.
    fn refused(self) -> Known {
        Known::Refused { judged: self.judged() }
    }
}

/// Why a relist happened, the `reason` label of `upjet_watch_relists_total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relist {
    /// The API server answered 410 on the watch: its history was compacted past the watch.
    Expired,
    /// A failed list or watch.
    Error,
}

impl Relist {
    /// The label value.
    pub fn label(self) -> &'static str {
        match self {
            Relist::Expired => "expired",
            Relist::Error => "error",
        }
    }
}

/// A kind its watcher follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watcher {
    /// What the watch knows of its MRs.
    pub known: Known,
    /// During a (re)list: the MRs it returned so far. The watch is blind to the kind meanwhile.
    pub listing: Option<BTreeSet<MrKey>>,
    /// It holds a first-list slot: its first list has neither ended nor failed.
    pub slot: bool,
    /// What its next list counts as: what its last failure since its last list began says; `None`
    /// until one of this watcher's lists has ended, so that its first list (after a failed try,
    /// too) is no relist, even of a kind found empty before it held MRs.
    pub next_list: Option<Relist>,
}

/// Where one kind is in its life under watch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No watcher: looked at at start and each resync; what the looks found so far.
    Looked(Known),
    /// It holds MRs: its watcher waits for a first-list slot, `ticket` its place in line.
    Queued {
        /// Lower goes first.
        ticket: u64,
        /// What the looks found before.
        known: Known,
    },
    /// Its watcher runs.
    Watched(Watcher),
}

/// What a look (`limit=1`, metadata only) at a kind found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// At least one MR in scope (or its CRD was just installed: MRs are about to come).
    Populated,
    /// None in scope, or no such resource any more (404).
    Empty,
    /// The API server refused (403).
    Refused,
    /// Another failure: its watcher takes over, retrying with a growing pause and naming what
    /// fails.
    Failed,
}

/// How a watcher failed (it tries again on its own, after a growing pause).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The API server refused (403).
    Refused,
    /// The watch answered 410: the watcher relists.
    Expired,
    /// Any other failure.
    Other,
}

/// What happens to a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A look at it answered.
    Look(Look),
    /// A first-list slot is its now (the [`State`] hands them out).
    Turn,
    /// Its watcher begins a (re)list.
    Listing,
    /// Its watcher's list ended.
    ListDone,
    /// Its watcher failed.
    Failed(Failure),
}

/// What the shell must do after an event, besides keeping the next phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The event is not one of this phase's (a look at a kind a watcher follows, a late message
    /// from a watcher that is gone): nothing changed.
    Ignored,
    /// Nothing to do.
    NoAction,
    /// Start the kind's watcher.
    Start,
    /// A relist began: count it under this reason.
    Relist(Relist),
    /// A list ended, having returned these MRs (`None` when the list's start went unseen): the
    /// kind's other MRs were deleted while the watch was blind.
    Listed(Option<BTreeSet<MrKey>>),
}

/// The one transition: a kind's next phase after `event`, and what the shell must do. `ticket`
/// is the place in line of a kind that queues now.
pub fn next(phase: Phase, event: Event, ticket: u64) -> (Phase, Effect) {
    use Effect::NoAction;
    match (phase, event) {
        (Phase::Looked(known), Event::Look(Look::Populated | Look::Failed)) => {
            (Phase::Queued { ticket, known }, NoAction)
        }
        (Phase::Looked(_), Event::Look(Look::Empty)) => (Phase::Looked(Known::Judged), NoAction),
        (Phase::Looked(known), Event::Look(Look::Refused)) => (Phase::Looked(known.refused()), NoAction),
        (Phase::Queued { known, .. }, Event::Turn) => {
            let watcher = Watcher { known, listing: None, slot: true, next_list: None };
            (Phase::Watched(watcher), Effect::Start)
        }
        (Phase::Watched(mut w), Event::Listing) => {
            let effect = match w.next_list {
                Some(reason) if w.known.judged() => Effect::Relist(reason),
                _ => NoAction,
            };
            w.listing = Some(BTreeSet::new());
            w.next_list = w.next_list.map(|_| Relist::Error);
            (Phase::Watched(w), effect)
        }
        (Phase::Watched(mut w), Event::ListDone) => {
            let listed = w.listing.take();
            w.known = Known::Judged;
            w.slot = false;
            w.next_list = w.next_list.or(Some(Relist::Error));
            (Phase::Watched(w), Effect::Listed(listed))
        }
        (Phase::Watched(mut w), Event::Failed(failure)) => {
            w.slot = false;
            let reason = if failure == Failure::Expired { Relist::Expired } else { Relist::Error };
            w.next_list = w.next_list.map(|_| reason);
            if failure == Failure::Refused {
                w.known = w.known.refused();
                w.listing = None;
            }
            (Phase::Watched(w), NoAction)
        }
        (phase, _) => (phase, Effect::Ignored),
    }
}

impl Phase {
    /// What the watch knows of the kind's MRs.
    pub fn known(&self) -> Known {
        match self {
            Phase::Looked(known) | Phase::Queued { known, .. } => *known,
            Phase::Watched(w) => w.known,
        }
    }

    /// Blind to the kind: refused, or relisting (changes made meanwhile are seen late).
    pub fn blind(&self) -> bool {
        matches!(self.known(), Known::Refused { .. }) || matches!(self, Phase::Watched(w) if w.listing.is_some())
    }

    /// It holds MRs, so a watcher follows it or is about to: it exports series of its own.
    pub fn watched(&self) -> bool {
        !matches!(self, Phase::Looked(_))
    }

    /// No watcher runs for it: a round of looks looks at it.
    pub fn looked_at(&self) -> bool {
        !matches!(self, Phase::Watched(_))
    }

    /// It holds a first-list slot.
    pub(crate) fn holds_slot(&self) -> bool {
        matches!(self, Phase::Watched(w) if w.slot)
    }

    /// Its place in line for a first-list slot, while it waits.
    pub(crate) fn ticket(&self) -> Option<u64> {
        match self {
            Phase::Queued { ticket, .. } => Some(*ticket),
            _ => None,
        }
    }
}

/// One kind under watch: its phase, and how many MRs it holds.
#[derive(Clone, Debug)]
pub(super) struct KindState {
    pub(super) phase: Phase,
    pub(super) count: usize,
}

impl Default for KindState {
    /// A kind not looked at yet, holding no MR.
    fn default() -> KindState {
        KindState { phase: Phase::Looked(Known::Nothing), count: 0 }
    }
}

impl KindState {
    /// Whether the kind gets per-kind series: a watcher follows it, or it still holds MRs.
    pub(super) fn exported(&self) -> bool {
        self.phase.watched() || self.count > 0
    }
}

/// What the shell does after a kind's event.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The event was one of the kind's phase (not [`Effect::Ignored`]).
    pub taken: bool,
    /// Kinds whose watcher starts now, in the order they queued.
    pub start: Vec<KindId>,
    /// A relist began: count it under this reason.
    pub relist: Option<Relist>,
    /// Findings that cleared (MRs a list did not return, every MR of a kind no longer followed).
    pub changes: Vec<Change>,
}

impl State {
    /// Follows a kind from now on (not looked at yet: readiness waits for it); no-op when it is
    /// followed already.
    pub fn add_kind(&mut self, kind: KindId) {
        self.kinds.entry(kind).or_default();
    }

    /// One event of one followed kind, through [`next`]; an event of a kind not followed is
    /// ignored. A slot let go, or a kind queued, hands the free slots out.
    pub fn kind_event(&mut self, kind: &KindId, event: Event) -> Outcome {
        let mut out = Outcome::default();
        let Some(k) = self.kinds.get_mut(kind) else { return out };
        let was = std::mem::replace(&mut k.phase, Phase::Looked(Known::Nothing));
        let (held, queued) = (was.holds_slot(), was.ticket().is_some());
        let (phase, effect) = next(was, event, self.tickets);
        let reschedule = (held && !phase.holds_slot()) || (!queued && phase.ticket().is_some());
        if !queued && phase.ticket().is_some() {
            self.tickets += 1;
        }
        k.phase = phase;
        out.taken = effect != Effect::Ignored;
        match effect {
            Effect::Start => out.start.push(kind.clone()),
            Effect::Relist(reason) => out.relist = Some(reason),
            Effect::Listed(Some(seen)) => out.changes = self.forget_unlisted(kind, &seen),
            Effect::Listed(None) | Effect::Ignored | Effect::NoAction => {}
        }
        if reschedule {
            self.hand_out_slots(&mut out.start);
        }
        out
    }

    /// Stops following a kind (its CRD was deleted): every finding of its MRs clears, and the
    /// slot it held goes to the next kind in line.
    pub fn remove_kind(&mut self, kind: &KindId) -> Outcome {
        let mut out = Outcome::default();
        let Some(gone) = self.kinds.remove(kind) else { return out };
        out.taken = true;
        if gone.count > 0 {
            let held: Vec<MrKey> = self
                .mrs
                .keys()
                .filter(|k| (&k.group, &k.kind) == (&kind.0, &kind.1))
                .map(|k| MrKey::clone(k))
                .collect();
            out.changes = held.iter().flat_map(|k| self.forget(k)).collect();
        }
        if gone.phase.holds_slot() {
            self.hand_out_slots(&mut out.start);
        }
        out
    }

    /// Gives the free first-list slots to the kinds that wait, first in line first.
    fn hand_out_slots(&mut self, start: &mut Vec<KindId>) {
        let mut busy = self.kinds.values().filter(|k| k.phase.holds_slot()).count();
        while busy < FIRST_LISTS {
            let first = self.kinds.iter().filter_map(|(id, k)| Some((k.phase.ticket()?, id))).min();
            let Some((_, id)) = first else { return };
            let id = id.clone();
            let taken = self.kind_event(&id, Event::Turn);
            start.extend(taken.start);
            busy += 1;
        }
    }

    /// The phase of a followed kind.
    pub fn phase(&self, kind: &KindId) -> Option<&Phase> {
        self.kinds.get(kind).map(|k| &k.phase)
    }

    /// The kinds a round of looks looks at: those no watcher follows.
    pub fn looked_at(&self) -> Vec<KindId> {
        self.kinds.iter().filter(|(_, k)| k.phase.looked_at()).map(|(id, _)| id.clone()).collect()
    }

    /// The kinds served at start are all added: from now on readiness waits for their lists.
    pub fn discovered(&mut self) {
        self.discovered = true;
    }

    /// Every kind is known: judged, or refused and named.
    pub fn ready(&self) -> bool {
        self.discovered && self.kinds.values().all(|k| k.phase.known() != Known::Nothing)
    }

    /// Ready, and blind to no kind: the watch sees every change as it happens.
    pub fn synced(&self) -> bool {
        self.ready() && !self.kinds.values().any(|k| k.phase.blind())
    }
}

#[cfg(test)]
#[path = "kinds_tests.rs"]
mod tests;
