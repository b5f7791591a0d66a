//! The watch's share of an MR's evidence: what the watch knows of one MR beyond the object —
//! when the pods of the provider serving its kind (re)started, and what the shared-names index
//! (`domain::shared_names`, kept event by event) says of its external-name — as the `MrEvidence`
//! the rules read. The watch's state judges each MR as its events arrive and asks this one
//! constructor for the evidence (`domain::watch::State::judging_with`), so the watch fills those
//! fields exactly as the other commands do and builds no `MrEvidence` of its own.

use super::sources::mr_evidence;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::{MrEvidence, ProviderStarts};
use upjet_core::shared_names::SharedWith;

/// The evidence of one MR under watch, through the one constructor every command uses
/// ([`mr_evidence`], with the watch's two sources), or `None` when the watch knows nothing beyond
/// the object (no provider start seen, its external-name held by no other MR).
pub fn evidence(mr: &ManagedResource, starts: Option<ProviderStarts>, shared: SharedWith) -> Option<MrEvidence> {
    if starts.is_none() && shared == SharedWith::default() {
        return None;
    }
    Some(mr_evidence(mr, &[&starts, &shared]))
}

#[cfg(test)]
mod tests {
    //! The watch's state judging with this constructor: the findings that need more than the
    //! object appear and clear as the events arrive.

    use super::*;
    use upjet_core::finding::Code;
    use upjet_core::gotime::GoTime;
    use upjet_core::managed::keys;
    use upjet_core::shared_names::MrKey;
    use upjet_core::testing::Mr;
    use upjet_core::watch::exposition::{Counters, families};
    use upjet_core::watch::fixtures::{incomplete, kind, listed, now, summary};
    use upjet_core::watch::{State, Transition};

    #[test]
    fn the_watch_knows_nothing_beyond_the_object_until_a_provider_starts_or_a_name_is_shared() {
        let starts = ProviderStarts { provider: "provider-gcp-dns".into(), starts: vec![now()], package: None };
        let twin = MrKey { group: "g".into(), kind: "K".into(), namespace: Some("ns".into()), name: "a".into() };
        let mr = Mr::new("RecordSet", "a").build();
        assert_eq!(evidence(&mr, None, SharedWith::default()), None);
        let got = evidence(&mr, Some(starts.clone()), SharedWith::default()).unwrap();
        assert_eq!((got.provider_starts, got.shared_external_name, got.migration_twin), (Some(starts), vec![], None));
        let shared = SharedWith { fighting: vec!["k.g/b".into()], twin: Some(twin.clone()) };
        let got = evidence(&mr, None, shared).unwrap();
        assert_eq!(
            (got.provider_starts, got.shared_external_name, got.migration_twin),
            (None, vec!["k.g/b".into()], Some(twin))
        );
    }

    #[test]
    fn a_shared_external_name_marks_both_holders_and_clears_when_one_moves() {
        let mut s = listed().judging_with(evidence);
        let named =
            |name: &str, ext: &str| Mr::new("RecordSet", name).external_name(ext).at_provider_id(ext).healthy().build();
        assert!(s.apply(named("a", "www"), now()).is_empty());
        let both = s.apply(named("b", "www"), now());
        let mut got = summary(&both);
        got.sort_by(|x, y| x.1.cmp(&y.1));
        assert_eq!(
            got,
            vec![
                (Transition::Appeared, "a".into(), Code::ExternalNameShared),
                (Transition::Appeared, "b".into(), Code::ExternalNameShared)
            ]
        );
        let fams = families(&s, &Counters::default(), now());
        let shared = fams.iter().find(|f| f.name == "upjet_external_name_shared").unwrap();
        assert_eq!(shared.series[0].value, 1.0);
        let moved = s.apply(named("b", "api"), now());
        assert_eq!(moved.len(), 2, "both clear: {moved:?}");
        assert!(moved.iter().all(|c| c.transition == Transition::Cleared));
    }

    /// An async create in flight (upjet's goroutine, its workspace or tracker in the provider's
    /// memory) ends with the process: once the watch sees the provider start again after it
    /// began, the MR is no longer in flight but without the ID the create made.
    #[test]
    fn a_provider_restart_ends_an_async_create_in_flight() {
        let mut s = listed().judging_with(evidence);
        let t = "2024-11-30T10:59:30Z";
        let creating = Mr::new("RecordSet", "a")
            .annotation(keys::CREATE_PENDING, t)
            .annotation(keys::CREATE_SUCCEEDED, t)
            .cond_at("Ready", "False", "Creating", "", t)
            .cond_at("Synced", "True", "ReconcileSuccess", "", t)
            .build();
        assert_eq!(summary(&s.apply(creating, now())), vec![(Transition::Appeared, "a".into(), Code::AsyncInFlight)]);
        let restarted = GoTime::parse_rfc3339("2024-11-30T10:59:50Z").unwrap();
        let starts = ProviderStarts { provider: "provider-gcp-dns".into(), starts: vec![restarted], package: None };
        let mut got = summary(&s.provider_started(&[kind()], starts, now()));
        got.sort_by_key(|c| c.2);
        assert_eq!(
            got,
            vec![
                (Transition::Appeared, "a".into(), Code::ExternalNameMissing),
                (Transition::Cleared, "a".into(), Code::AsyncInFlight)
            ],
        );
    }

    #[test]
    fn a_provider_restart_rejudges_its_kinds_at_once() {
        let mut s = listed().judging_with(evidence);
        assert_eq!(summary(&s.apply(incomplete("a"), now())).len(), 1);
        let starts = ProviderStarts {
            provider: "provider-gcp-dns".into(),
            starts: vec![GoTime::parse_rfc3339("2024-11-30T10:55:00Z").unwrap()],
            package: None,
        };
        let changes = s.provider_started(&[kind()], starts, now());
        assert_eq!(summary(&changes), vec![(Transition::Appeared, "a".into(), Code::ProviderRestartedDuringCreate)]);
    }

    /// A legacy MR and its namespaced `.m.` twin are one kind for the index: both acting is a
    /// fight; pausing the legacy one with `deletionPolicy: Orphan` turns it into an unfinished
    /// migration, and deleting it clears that.
    #[test]
    fn a_legacy_mr_and_its_twin_fight_then_the_parked_legacy_one_is_named() {
        let mut s = State::default().judging_with(evidence);
        let legacy = |paused: bool| {
            let mr = Mr::new("Subnet", "a").api_version("ec2.aws.upbound.io/v1beta1").external_name("subnet-1");
            let mr = mr.deletion_policy("Orphan").healthy();
            if paused { mr.annotation(keys::PAUSED, "true").build() } else { mr.build() }
        };
        let twin = Mr::new("Subnet", "a")
            .api_version("ec2.aws.m.upbound.io/v1beta1")
            .namespace("infra")
            .external_name("subnet-1")
            .healthy()
            .build();
        s.apply(legacy(false), now());
        let fight = s.apply(twin, now());
        let codes: Vec<Code> = fight.iter().map(|c| c.finding.code).collect();
        assert_eq!(codes, vec![Code::ExternalNameShared, Code::ExternalNameShared], "{fight:?}");
        let parked = s.apply(legacy(true), now());
        let got: Vec<(Transition, Code)> = parked.iter().map(|c| (c.transition, c.finding.code)).collect();
        assert!(got.contains(&(Transition::Appeared, Code::MigrationUnfinished)), "{got:?}");
        assert_eq!(got.iter().filter(|(t, c)| *t == Transition::Cleared && *c == Code::ExternalNameShared).count(), 2);
        let gone = s.delete(&MrKey::of(&legacy(true)), now());
        assert!(
            gone.iter().any(|c| c.transition == Transition::Cleared && c.finding.code == Code::MigrationUnfinished)
        );
    }

    /// Without the constructor the state judges the object alone: two holders of one name are
    /// not named, which is why the shell always hands it over.
    #[test]
    fn a_state_without_the_constructor_judges_the_object_alone() {
        let mut s = listed();
        let named =
            |name: &str| Mr::new("RecordSet", name).external_name("www").at_provider_id("www").healthy().build();
        s.apply(named("a"), now());
        assert!(s.apply(named("b"), now()).is_empty());
    }
}
