//! The state's answers to MR events, readiness over the kinds' phases, and its metric families.
//! The findings that need what the watch knows beyond the object (a provider restart, a shared
//! external-name) are tested with the one evidence constructor, in `evidence::watch`.

use super::exposition::{Counters, by_context, families};
use super::fixtures::*;
use super::kinds::{Event, Look};
use super::*;
use crate::managed::keys;
use crate::testing::Mr;

fn healthy(name: &str) -> ManagedResource {
    Mr::new("RecordSet", name).external_name(name).at_provider_id(name).healthy().build()
}

/// The kind's list ends; returns what cleared.
fn list_done(s: &mut State, kind: &KindId) -> Vec<Change> {
    s.kind_event(kind, Event::ListDone).changes
}

#[test]
fn a_finding_appears_once_and_clears_once() {
    let mut s = listed();
    assert_eq!(
        summary(&s.apply(incomplete("a"), now())),
        vec![(Transition::Appeared, "a".into(), Code::CreateIncomplete)]
    );
    assert!(s.apply(incomplete("a"), now()).is_empty(), "judged again, nothing new");
    let fixed = Mr::new("RecordSet", "a")
        .annotation(keys::CREATE_PENDING, "2024-11-30T10:50:00Z")
        .annotation(keys::CREATE_SUCCEEDED, "2024-11-30T10:51:00Z")
        .external_name("a")
        .at_provider_id("a")
        .healthy()
        .build();
    assert_eq!(summary(&s.apply(fixed, now())), vec![(Transition::Cleared, "a".into(), Code::CreateIncomplete)]);
}

#[test]
fn the_watch_judges_with_doctors_rule_book() {
    for mr in [incomplete("a"), healthy("b"), Mr::new("RecordSet", "c").build()] {
        let mut s = listed();
        let codes: Vec<Code> = s.apply(mr.clone(), now()).into_iter().map(|c| c.finding.code).collect();
        let doctor: Vec<Code> =
            rules::findings_with(&mr, None, JudgedAt::upjet(now())).into_iter().map(|f| f.code).collect();
        assert_eq!(codes, doctor, "{}", mr.name);
    }
}

#[test]
fn deleting_an_mr_clears_its_findings() {
    let mut s = listed();
    s.apply(incomplete("a"), now());
    let gone = s.delete(&MrKey::of(&incomplete("a")), now());
    assert_eq!(summary(&gone), vec![(Transition::Cleared, "a".into(), Code::CreateIncomplete)]);
    assert!(s.delete(&MrKey::of(&incomplete("a")), now()).is_empty());
}

#[test]
fn readiness_waits_for_every_kinds_first_list_and_a_relist_makes_it_blind() {
    let mut s = State::default();
    assert!(!s.ready(), "nothing discovered yet");
    s.add_kind(kind());
    s.add_kind(("s3.aws.upbound.io".into(), "Bucket".into()));
    s.discovered();
    assert!(!s.ready());
    watch(&mut s, &kind());
    s.kind_event(&kind(), Event::Listing);
    list_done(&mut s, &kind());
    assert!(!s.ready(), "one kind still unlisted");
    let bucket = ("s3.aws.upbound.io".to_string(), "Bucket".to_string());
    watch(&mut s, &bucket);
    s.kind_event(&bucket, Event::Listing);
    list_done(&mut s, &bucket);
    assert!(s.ready() && s.synced());
    s.kind_event(&bucket, Event::Listing);
    assert!(s.ready() && !s.synced(), "relisting: ready, but blind");
    list_done(&mut s, &bucket);
    assert!(s.synced());
}

#[test]
fn a_relist_clears_the_mrs_deleted_while_the_watch_was_blind() {
    let mut s = listed();
    s.apply(incomplete("a"), now());
    s.apply(incomplete("b"), now());
    list_done(&mut s, &kind());
    s.kind_event(&kind(), Event::Listing);
    s.apply(incomplete("b"), now());
    let gone = list_done(&mut s, &kind());
    assert_eq!(summary(&gone), vec![(Transition::Cleared, "a".into(), Code::CreateIncomplete)]);
}

#[test]
fn a_deleted_kind_clears_every_finding_of_its_mrs() {
    let mut s = listed();
    s.apply(incomplete("a"), now());
    let gone = s.remove_kind(&kind()).changes;
    assert_eq!(summary(&gone), vec![(Transition::Cleared, "a".into(), Code::CreateIncomplete)]);
    assert_eq!(s.phase(&kind()), None);
}

#[test]
fn only_mrs_with_findings_get_series_of_their_own() {
    let mut s = listed();
    for i in 0..500 {
        s.apply(healthy(&format!("ok-{i}")), now());
    }
    s.apply(incomplete("bad"), now());
    list_done(&mut s, &kind());
    s.resync(now());
    let fams = families(&s, &Counters::default(), now());
    let total: usize = fams.iter().map(|f| f.series.len()).sum();
    assert!(total < 20, "{total} series for 501 MRs");
    let finding = fams.iter().find(|f| f.name == "upjet_managed_resource_finding").unwrap();
    assert_eq!(finding.series.len(), 2, "CreateIncomplete and KstatusMisleading of one MR");
    let labels: Vec<&str> = finding.series[0].labels.iter().map(|(k, _)| *k).collect();
    assert_eq!(labels, ["code", "severity", "group", "kind", "namespace", "name", "provider_config"]);
    let pending = fams.iter().find(|f| f.name == "upjet_managed_resource_create_pending_seconds").unwrap();
    assert_eq!(pending.series[0].value, 600.0);
    let count = fams.iter().find(|f| f.name == "upjet_managed_resources").unwrap();
    assert_eq!(count.series[0].value, 501.0);
    let synced = fams.iter().find(|f| f.name == "upjet_watch_synced").unwrap();
    assert_eq!(synced.series[0].value, 1.0);
}

#[test]
fn a_kind_found_empty_is_judged_without_a_list_and_exports_no_series_until_watched() {
    let other: KindId = ("s3.aws.upbound.io".into(), "Bucket".into());
    let mut s = listed();
    s.add_kind(other.clone());
    s.apply(healthy("a"), now());
    list_done(&mut s, &kind());
    assert!(!s.ready(), "the other kind has not been looked at yet");
    s.kind_event(&other, Event::Look(Look::Empty));
    assert!(s.ready() && s.synced(), "a kind found empty is judged: nothing to judge");
    assert!(s.phase(&kind()).is_some_and(Phase::watched) && !s.phase(&other).is_some_and(Phase::watched));
    let fams = families(&s, &Counters::default(), now());
    let count = fams.iter().find(|f| f.name == "upjet_managed_resources").unwrap();
    let kinds: Vec<&str> = count.series.iter().map(|x| x.labels[1].1.as_str()).collect();
    assert_eq!(kinds, ["RecordSet"], "only watched kinds get per-kind series");
    let shared = fams.iter().find(|f| f.name == "upjet_external_name_shared").unwrap();
    assert_eq!(shared.series.len(), 1);
    let followed = fams.iter().find(|f| f.name == "upjet_watch_kinds").unwrap();
    assert_eq!(followed.series[0].value, 2.0, "both kinds are followed");

    // A later look finds MRs: once watched, its first list is awaited like any other's.
    watch(&mut s, &other);
    s.kind_event(&other, Event::Listing);
    assert!(!s.synced(), "blind while its list runs");
    list_done(&mut s, &other);
    let fams = families(&s, &Counters::default(), now());
    let count = fams.iter().find(|f| f.name == "upjet_managed_resources").unwrap();
    assert_eq!(count.series.len(), 2);
}

#[test]
fn the_pending_create_ages_follow_the_events_not_a_scan() {
    let mut s = listed();
    s.apply(incomplete("a"), now());
    s.apply(incomplete("b"), now());
    let ages = |s: &State| -> Vec<String> {
        let fams = families(s, &Counters::default(), now());
        let pending = fams.iter().find(|f| f.name == "upjet_managed_resource_create_pending_seconds").unwrap();
        pending.series.iter().map(|x| x.labels[3].1.clone()).collect()
    };
    assert_eq!(ages(&s), ["a", "b"]);
    s.apply(healthy("a"), now());
    s.delete(&MrKey::of(&incomplete("b")), now());
    assert!(ages(&s).is_empty(), "a finished create and a deleted MR leave no age behind");
}

#[test]
fn several_contexts_share_one_exposition_each_series_labelled_with_its_context() {
    let mut a = listed();
    a.apply(incomplete("stuck"), now());
    list_done(&mut a, &kind());
    let b = State::default();
    let per = vec![
        ("a".to_string(), families(&a, &Counters::default(), now())),
        ("b".to_string(), families(&b, &Counters::default(), now())),
    ];
    let names: Vec<&str> = per[0].1.iter().map(|f| f.name).collect();
    let merged = by_context(per);
    assert_eq!(merged.iter().map(|f| f.name).collect::<Vec<_>>(), names, "one family per name, in order");
    let synced = merged.iter().find(|f| f.name == "upjet_watch_synced").unwrap();
    let by_ctx: Vec<(String, f64)> = synced.series.iter().map(|s| (s.labels[0].1.clone(), s.value)).collect();
    assert_eq!(by_ctx, vec![("a".into(), 1.0), ("b".into(), 0.0)], "a context never reached is not synced");
    for family in &merged {
        for series in &family.series {
            assert_eq!(series.labels[0].0, "context", "{}: every series names its context", family.name);
        }
    }
    let finding = merged.iter().find(|f| f.name == "upjet_managed_resource_finding").unwrap();
    assert!(!finding.series.is_empty());
    assert!(finding.series.iter().all(|s| s.labels[0].1 == "a"), "only a's MR has findings");
}

/// A create within the reconcile timeout is CreateInFlight (info) and exports no pending age:
/// no alert fires. When its result comes due ([`State::next_due`], [`State::due`]) it is judged
/// again and becomes CreateIncomplete with its age; a result in time clears it quietly.
#[test]
fn a_create_in_flight_has_no_pending_series_until_its_result_is_due() {
    let marked = "2024-11-30T10:59:00Z";
    let creating = |name: &str| {
        Mr::new("RecordSet", name).created(marked).annotation(keys::CREATE_PENDING, marked).no_status().build()
    };
    let at = |s: &str| GoTime::parse_rfc3339(s).unwrap();
    let mut s = State::new(ReconcileTimeout::from_secs(60));
    s.add_kind(kind());
    s.discovered();
    let codes = |changes: &[Change]| -> Vec<(Transition, Code)> {
        changes.iter().map(|c| (c.transition, c.finding.code)).collect()
    };
    let pending = |s: &State, now: GoTime| -> Vec<(String, f64)> {
        let fams = families(s, &Counters::default(), now);
        let f = fams.iter().find(|f| f.name == "upjet_managed_resource_create_pending_seconds").unwrap();
        f.series.iter().map(|x| (x.labels[3].1.clone(), x.value)).collect()
    };
    let appeared = s.apply(creating("slow"), now());
    assert_eq!(
        codes(&appeared),
        [(Transition::Appeared, Code::CreateInFlight), (Transition::Appeared, Code::KstatusMisleading)]
    );
    assert!(appeared.iter().all(|c| c.finding.severity == Severity::Info), "{appeared:?}");
    let due = at("2024-11-30T11:00:31Z");
    assert_eq!(s.next_due(), Some(due));
    assert!(pending(&s, at("2024-11-30T11:00:30Z")).is_empty(), "one second before due: no age, no alert");
    assert!(s.due(at("2024-11-30T11:00:30Z")).is_empty(), "nothing is due yet");

    assert_eq!(pending(&s, due), [("slow".to_string(), 91.0)], "a scrape at the due time already counts it");
    let stuck = s.due(due);
    assert_eq!(
        codes(&stuck),
        [(Transition::Cleared, Code::CreateInFlight), (Transition::Appeared, Code::CreateIncomplete)]
    );
    let fams = families(&s, &Counters::default(), due);
    let finding = fams.iter().find(|f| f.name == "upjet_managed_resource_finding").unwrap();
    let severities: Vec<(&str, &str)> =
        finding.series.iter().map(|x| (x.labels[0].1.as_str(), x.labels[1].1.as_str())).collect();
    assert_eq!(severities, [("CreateIncomplete", "error"), ("KstatusMisleading", "warning")]);
    assert_eq!(s.next_due(), None, "nothing in flight any more");

    // Another create records its result in time: the in-flight finding clears, no age ever.
    s.apply(creating("quick"), now());
    let done = Mr::new("RecordSet", "quick")
        .annotation(keys::CREATE_PENDING, marked)
        .annotation(keys::CREATE_SUCCEEDED, marked)
        .external_name("quick")
        .at_provider_id("quick")
        .healthy()
        .build();
    let cleared = s.apply(done, at("2024-11-30T11:00:00Z"));
    assert!(cleared.iter().any(|c| c.transition == Transition::Cleared && c.finding.code == Code::CreateInFlight));
    assert_eq!(pending(&s, at("2024-11-30T11:05:00Z")).len(), 1, "only the stuck one");
}
