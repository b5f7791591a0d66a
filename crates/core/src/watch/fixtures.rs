//! What the watch state's tests start from, shared with the tests of the crates above (the
//! evidence crate's watch constructor is tested against the same state).

use super::kinds::{Event, Look};
use super::*;
use crate::managed::keys;
use crate::testing::Mr;

const GROUP: &str = "dns.gcp.upbound.io";

/// The instant every case judges at.
pub fn now() -> GoTime {
    GoTime::parse_rfc3339("2024-11-30T11:00:00Z").unwrap()
}

/// The one kind the cases follow.
pub fn kind() -> KindId {
    (GROUP.to_string(), "RecordSet".to_string())
}

/// An MR stuck at the create gate, reported as such.
pub fn incomplete(name: &str) -> ManagedResource {
    Mr::new("RecordSet", name)
        .annotation(keys::CREATE_PENDING, "2024-11-30T10:50:00Z")
        .cond("Ready", "False", "Creating", "")
        .cond("Synced", "False", "ReconcileError", "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed")
        .build()
}

/// A state following one kind, found to hold MRs and in its watcher's first list.
pub fn listed() -> State {
    let mut s = State::default();
    s.add_kind(kind());
    s.discovered();
    watch(&mut s, &kind());
    s.kind_event(&kind(), Event::Listing);
    s
}

/// A look at the kind finds MRs: its watcher starts (a first-list slot is free).
pub fn watch(s: &mut State, kind: &KindId) {
    assert_eq!(s.kind_event(kind, Event::Look(Look::Populated)).start, std::slice::from_ref(kind));
}

/// The changes, without `KstatusMisleading`, which accompanies every stuck create (kstatus reads
/// it as still in progress).
pub fn summary(changes: &[Change]) -> Vec<(Transition, String, Code)> {
    changes
        .iter()
        .filter(|c| c.finding.code != Code::KstatusMisleading)
        .map(|c| (c.transition, c.key.name.clone(), c.finding.code))
        .collect()
}
