use super::*;
use Effect::{Ignored, NoAction};
use Known::{Judged, Nothing};

const R0: Known = Known::Refused { judged: false };
const R1: Known = Known::Refused { judged: true };
/// The place in line [`next`] is given in the table.
const TICKET: u64 = 7;

/// Every event, in the order of a row's answers.
const EVENTS: [Event; 10] = [
    Event::Look(Look::Populated),
    Event::Look(Look::Empty),
    Event::Look(Look::Refused),
    Event::Look(Look::Failed),
    Event::Turn,
    Event::Listing,
    Event::ListDone,
    Event::Failed(Failure::Refused),
    Event::Failed(Failure::Expired),
    Event::Failed(Failure::Other),
];

fn keys(names: &[&str]) -> BTreeSet<MrKey> {
    names.iter().map(|n| MrKey { group: "g".into(), kind: "K".into(), namespace: None, name: n.to_string() }).collect()
}

fn looked(known: Known) -> Phase {
    Phase::Looked(known)
}

fn queued(ticket: u64, known: Known) -> Phase {
    Phase::Queued { ticket, known }
}

/// A watched kind: what is known, the MRs its list returned so far (`None`: no list running),
/// whether it holds a slot, what its next list counts as.
fn watched(known: Known, listing: Option<&[&str]>, slot: bool, next_list: Option<Relist>) -> Phase {
    Phase::Watched(Watcher { known, listing: listing.map(keys), slot, next_list })
}

/// A phase that takes none of these events: each leaves it as it is, ignored.
fn ignores(phase: &Phase) -> (Phase, Effect) {
    (phase.clone(), Ignored)
}

/// One phase and its answer to each of [`EVENTS`], in order.
struct Row {
    name: &'static str,
    phase: Phase,
    answers: [(Phase, Effect); 10],
}

/// A phase without a watcher: the looks' answers (populated, empty, refused, failed); every
/// other event is ignored.
fn looked_row(name: &'static str, known: Known, refused: Known) -> Row {
    let phase = looked(known);
    let i = ignores(&phase);
    Row {
        name,
        answers: [
            (queued(TICKET, known), NoAction),
            (looked(Judged), NoAction),
            (looked(refused), NoAction),
            (queued(TICKET, known), NoAction),
            i.clone(),
            i.clone(),
            i.clone(),
            i.clone(),
            i.clone(),
            i,
        ],
        phase,
    }
}

/// A queued phase: only its turn moves it, to a watcher holding the slot.
fn queued_row(name: &'static str, known: Known) -> Row {
    let phase = queued(2, known);
    let i = ignores(&phase);
    let started = (watched(known, None, true, None), Effect::Start);
    Row {
        name,
        answers: [i.clone(), i.clone(), i.clone(), i.clone(), started, i.clone(), i.clone(), i.clone(), i.clone(), i],
        phase,
    }
}

/// A watched phase: looks and turns are ignored; the watcher's events answer as given
/// (listing, list done, refused, expired, other failure).
fn watched_row(name: &'static str, phase: Phase, answers: [(Phase, Effect); 5]) -> Row {
    let i = ignores(&phase);
    let [listing, done, refused, expired, other] = answers;
    Row {
        name,
        answers: [i.clone(), i.clone(), i.clone(), i.clone(), i, listing, done, refused, expired, other],
        phase,
    }
}

/// Every phase worth telling apart, with its answer to every event.
fn table() -> Vec<Row> {
    let mut rows = vec![
        looked_row("not looked at yet", Nothing, R0),
        looked_row("found empty", Judged, R1),
        looked_row("refused, never judged", R0, R0),
        looked_row("refused after it was found empty", R1, R1),
        queued_row("queued at start", Nothing),
        queued_row("queued after a refusal", R1),
        queued_row("queued after it was found empty", Judged),
    ];
    rows.extend(before_a_list());
    rows.extend(after_a_list());
    rows
}

/// A watcher whose kind was never judged: its first list is no relist.
fn before_a_list() -> Vec<Row> {
    use Relist::Error;
    vec![
        watched_row(
            "watched, its first list not begun",
            watched(Nothing, None, true, None),
            [
                (watched(Nothing, Some(&[]), true, None), NoAction),
                (watched(Judged, None, false, Some(Error)), Effect::Listed(None)),
                (watched(R0, None, false, None), NoAction),
                (watched(Nothing, None, false, None), NoAction),
                (watched(Nothing, None, false, None), NoAction),
            ],
        ),
        watched_row(
            "in its first list",
            watched(Nothing, Some(&["a"]), true, None),
            [
                (watched(Nothing, Some(&[]), true, None), NoAction),
                (watched(Judged, None, false, Some(Error)), Effect::Listed(Some(keys(&["a"])))),
                (watched(R0, None, false, None), NoAction),
                (watched(Nothing, Some(&["a"]), false, None), NoAction),
                (watched(Nothing, Some(&["a"]), false, None), NoAction),
            ],
        ),
        watched_row(
            "its first list failed, retrying without a slot",
            watched(Nothing, None, false, None),
            [
                (watched(Nothing, Some(&[]), false, None), NoAction),
                (watched(Judged, None, false, Some(Error)), Effect::Listed(None)),
                (watched(R0, None, false, None), NoAction),
                (watched(Nothing, None, false, None), NoAction),
                (watched(Nothing, None, false, None), NoAction),
            ],
        ),
        watched_row(
            "its watcher refused, never judged",
            watched(R0, None, false, None),
            [
                (watched(R0, Some(&[]), false, None), NoAction),
                (watched(Judged, None, false, Some(Error)), Effect::Listed(None)),
                (watched(R0, None, false, None), NoAction),
                (watched(R0, None, false, None), NoAction),
                (watched(R0, None, false, None), NoAction),
            ],
        ),
        watched_row(
            "watched after it was found empty: its first list is no relist",
            watched(Judged, None, true, None),
            [
                (watched(Judged, Some(&[]), true, None), NoAction),
                (watched(Judged, None, false, Some(Error)), Effect::Listed(None)),
                (watched(R1, None, false, None), NoAction),
                (watched(Judged, None, false, None), NoAction),
                (watched(Judged, None, false, None), NoAction),
            ],
        ),
    ]
}

/// A watcher whose kind was judged: each list is a relist, counted under what its last failure said.
fn after_a_list() -> Vec<Row> {
    use Relist::{Error, Expired};
    vec![
        watched_row(
            "watching, listed",
            watched(Judged, None, false, Some(Error)),
            [
                (watched(Judged, Some(&[]), false, Some(Error)), Effect::Relist(Error)),
                (watched(Judged, None, false, Some(Error)), Effect::Listed(None)),
                (watched(R1, None, false, Some(Error)), NoAction),
                (watched(Judged, None, false, Some(Expired)), NoAction),
                (watched(Judged, None, false, Some(Error)), NoAction),
            ],
        ),
        watched_row(
            "its watch expired (410)",
            watched(Judged, None, false, Some(Expired)),
            [
                (watched(Judged, Some(&[]), false, Some(Error)), Effect::Relist(Expired)),
                (watched(Judged, None, false, Some(Expired)), Effect::Listed(None)),
                (watched(R1, None, false, Some(Error)), NoAction),
                (watched(Judged, None, false, Some(Expired)), NoAction),
                (watched(Judged, None, false, Some(Error)), NoAction),
            ],
        ),
        watched_row(
            "relisting",
            watched(Judged, Some(&["a"]), false, Some(Error)),
            [
                (watched(Judged, Some(&[]), false, Some(Error)), Effect::Relist(Error)),
                (watched(Judged, None, false, Some(Error)), Effect::Listed(Some(keys(&["a"])))),
                (watched(R1, None, false, Some(Error)), NoAction),
                (watched(Judged, Some(&["a"]), false, Some(Expired)), NoAction),
                (watched(Judged, Some(&["a"]), false, Some(Error)), NoAction),
            ],
        ),
        watched_row(
            "its watcher refused after a list",
            watched(R1, None, false, Some(Error)),
            [
                (watched(R1, Some(&[]), false, Some(Error)), Effect::Relist(Error)),
                (watched(Judged, None, false, Some(Error)), Effect::Listed(None)),
                (watched(R1, None, false, Some(Error)), NoAction),
                (watched(R1, None, false, Some(Expired)), NoAction),
                (watched(R1, None, false, Some(Error)), NoAction),
            ],
        ),
    ]
}

#[test]
fn every_phase_answers_every_event() {
    for row in table() {
        for (event, want) in EVENTS.iter().zip(row.answers) {
            assert_eq!(next(row.phase.clone(), *event, TICKET), want, "{} × {event:?}", row.name);
        }
    }
}

/// What each phase means to readiness (`/readyz` waits while the kind is not known), to sync
/// (`upjet_watch_synced` is 0 while the watch is blind to it), to the per-kind series (a kind
/// that holds MRs exports them), to the looks (a kind without a watcher is looked at each
/// resync) and to the first-list slots.
#[test]
fn what_each_phase_means() {
    use Relist::Error;
    // (phase, awaited, blind, watched, looked at, holds a slot)
    let rows = [
        (looked(Nothing), true, false, false, true, false),
        (looked(Judged), false, false, false, true, false),
        (looked(R0), false, true, false, true, false),
        (looked(R1), false, true, false, true, false),
        (queued(1, Nothing), true, false, true, true, false),
        (queued(1, Judged), false, false, true, true, false),
        (queued(1, R1), false, true, true, true, false),
        (watched(Nothing, None, true, Some(Error)), true, false, true, false, true),
        (watched(Nothing, Some(&[]), true, Some(Error)), true, true, true, false, true),
        (watched(Nothing, None, false, Some(Error)), true, false, true, false, false),
        (watched(Judged, None, false, Some(Error)), false, false, true, false, false),
        (watched(Judged, Some(&["a"]), false, Some(Error)), false, true, true, false, false),
        (watched(R0, None, false, Some(Error)), false, true, true, false, false),
        (watched(R1, Some(&[]), false, Some(Error)), false, true, true, false, false),
    ];
    for (phase, awaited, blind, watched, looked_at, slot) in rows {
        let got = (phase.known() == Nothing, phase.blind(), phase.watched(), phase.looked_at(), phase.holds_slot());
        assert_eq!(got, (awaited, blind, watched, looked_at, slot), "{phase:?}");
    }
}

fn id(n: usize) -> KindId {
    ("g".to_string(), format!("K{n:02}"))
}

/// A state following `n` kinds, every one looked at and found to hold MRs, in the order given.
fn populated(order: &[usize]) -> (State, Vec<KindId>) {
    let mut s = State::default();
    for n in order {
        s.add_kind(id(*n));
    }
    s.discovered();
    let mut started = Vec::new();
    for n in order {
        started.extend(s.kind_event(&id(*n), Event::Look(Look::Populated)).start);
    }
    (s, started)
}

#[test]
fn at_most_eight_first_lists_run_at_once_and_the_others_start_in_the_order_they_queued() {
    let order = [9, 3, 0, 7, 1, 8, 2, 6, 5, 4];
    let (mut s, started) = populated(&order);
    assert_eq!(started, order[..FIRST_LISTS].iter().map(|n| id(*n)).collect::<Vec<_>>());
    assert_eq!((s.phase(&id(5)), s.phase(&id(4))), (Some(&queued(8, Nothing)), Some(&queued(9, Nothing))));
    assert_eq!(s.looked_at(), vec![id(4), id(5)], "a kind waiting for its slot is still looked at");

    // A relist takes no slot; a first list that ends or fails lets its slot go, to the kind
    // first in line (5 queued before 4, though 4 sorts first).
    s.kind_event(&id(9), Event::Listing);
    assert_eq!(s.kind_event(&id(9), Event::ListDone).start, vec![id(5)]);
    let relist = s.kind_event(&id(9), Event::Listing);
    assert_eq!((relist.start, relist.relist), (Vec::new(), Some(Relist::Error)));
    assert_eq!(s.kind_event(&id(3), Event::Failed(Failure::Other)).start, vec![id(4)]);
    assert_eq!(s.kind_event(&id(0), Event::ListDone).start, Vec::<KindId>::new(), "nobody waits");

    // A kind whose CRD is deleted during its first list lets its slot go too.
    let (mut s, _) = populated(&order);
    let removed = s.remove_kind(&id(7));
    assert_eq!((removed.taken, removed.start), (true, vec![id(5)]));
    assert_eq!(s.remove_kind(&id(4)).start, Vec::<KindId>::new(), "a queued kind held no slot");
    assert_eq!(s.kind_event(&id(4), Event::Turn), Outcome::default(), "a kind not followed: nothing taken");
}

#[test]
fn readiness_waits_for_every_kind_a_refusal_is_named_not_waited_for_and_sync_reads_blindness() {
    let (mut s, _) = populated(&[0]);
    s.add_kind(id(1));
    s.add_kind(id(2));
    assert!(!s.ready());
    s.kind_event(&id(1), Event::Look(Look::Empty));
    s.kind_event(&id(2), Event::Look(Look::Refused));
    assert!(!s.ready(), "the watched kind's first list is still awaited");
    s.kind_event(&id(0), Event::Listing);
    assert!(s.kind_event(&id(0), Event::ListDone).taken);
    assert!(s.ready() && !s.synced(), "ready, but blind to the refused kind");
    s.kind_event(&id(2), Event::Look(Look::Empty));
    assert!(s.synced());
    let relisted = s.kind_event(&id(0), Event::Listing);
    assert_eq!(relisted.relist, Some(Relist::Error));
    assert!(s.ready() && !s.synced(), "relisting: ready, but blind");
    assert!(!s.kind_event(&id(0), Event::Look(Look::Empty)).taken, "a look at a watched kind changes nothing");
}
