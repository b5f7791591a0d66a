use super::*;
use crate::testing::Mr;

fn peers(names: &[(&str, &str)]) -> Peers {
    let mut p = Peers::default();
    for (name, ext) in names {
        p.observe(&Mr::new("Bucket", name).external_name(ext).at_provider_id(ext).healthy().build());
    }
    p.learn();
    p
}

/// upjet `pkg/config/externalname.go`: `NameAsIdentifier` keeps the name initializer
/// (external-name = metadata.name), `IdentifierFromProvider` disables it; peers show which.
#[test]
fn the_kind_s_peers_tell_whether_its_names_are_initialized() {
    let kind = || [("dns.gcp.upbound.io".to_string(), "Bucket".to_string())];
    let by_name = peers(&[("a", "a"), ("b", "b"), ("c", "c")]);
    let assigned = peers(&[("a", "vpc-0a1"), ("b", "vpc-9zz"), ("c", "vpc-77q")]);
    let few = peers(&[("a", "a")]);
    let mr = Mr::new("Bucket", "x").build();
    for (p, want) in [(by_name, Some(true)), (assigned, Some(false)), (few, None)] {
        assert_eq!(RestoreModel::new(&p, kind()).for_mr(&mr).name_initialized, want);
    }
    assert_eq!(name_initialized(None), None);
}

#[test]
fn source_trackers_are_found_by_kind_and_external_name() {
    let mut model = RestoreModel::default();
    let live = Mr::new("VPC", "main").external_name("vpc-1").healthy().build();
    model.track(&live, "prod");
    model.track(&Mr::new("VPC", "none").build(), "ignored: no external-name");
    let restored = |ext: &str| Mr::new("VPC", "other-name").external_name(ext).build();
    let tracker = model.for_mr(&restored("vpc-1")).source_tracker.expect("tracked");
    assert_eq!(tracker.to_string(), format!("prod: {}", live.reference()));
    assert_eq!(
        tracker.pause().to_string(),
        format!("kubectl annotate --context prod {} crossplane.io/paused=true", live.reference())
    );
    assert_eq!(model.for_mr(&restored("vpc-2")).source_tracker, None);
    assert_eq!(
        model.for_mr(&Mr::new("Subnet", "s").external_name("vpc-1").build()).source_tracker,
        None,
        "another kind"
    );
}

#[test]
fn only_a_source_mr_that_can_write_is_a_fight() {
    let base = || Mr::new("VPC", "main").external_name("vpc-1").healthy();
    assert!(can_change_cloud(&base().build()));
    assert!(!can_change_cloud(&base().annotation(keys::PAUSED, "true").build()));
    assert!(!can_change_cloud(&base().policies(&["Observe"]).build()));
    assert!(!can_change_cloud(&base().policies(&[]).build()));
    assert!(can_change_cloud(&base().policies(&["Observe", "Delete"]).build()));
}
