//! The guard's other rules evaluated as the API server evaluates them: external-name format,
//! management policies and LateInitialize (compared with doctor's own rules over every policy
//! set), pending resolved by hand, placeholder.

use crate::guard::{EXT, M, SUCCEEDED, judge, kinds, refused};
use crate::support::guard_cel::Outcome;
use serde_json::json;
use upjet_core::finding::Code;
use upjet_core::gotime::GoTime;
use upjet_core::guard::kind::GuardKind;
use upjet_core::guard::rule::GuardRule;
use upjet_core::guard::settings::GuardSettings;
use upjet_core::guard::{GuardSet, build};
use upjet_core::identity::Template;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::{Facts, findings};

const PENDING: &str = "crossplane.io/external-create-pending";
const FAILED: &str = "crossplane.io/external-create-failed";

fn guard() -> GuardSet {
    build(&kinds(), &GuardSettings::default(), &[])
}

fn record_sets() -> Vec<GuardKind> {
    let mut rs = GuardKind::new("dns.gcp.upbound.io", "RecordSet", "recordsets", false);
    rs.id_templates = vec![
        Template::parse(
            "projects/p1/managedZones/{forProvider.managedZone}/rrsets/{forProvider.name}/{forProvider.type}",
        )
        .unwrap(),
        Template::parse("{forProvider.ttl}/{name}").unwrap(),
    ];
    let mut vpc = GuardKind::new("ec2.aws.m.upbound.io", "VPC", "vpcs", true);
    vpc.id_templates = vec![Template::parse("{namespace}-{name}").unwrap()];
    let mut unusable = GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false);
    unusable.id_templates = vec![Template::parse("arn:{providerConfig.accountID}:{name}").unwrap()];
    vec![rs, vpc, unusable]
}

fn record_set(name: &str, zone: Option<&str>) -> M {
    let mut fp = json!({"name": "www", "type": "A", "ttl": 300});
    if let Some(z) = zone {
        fp["managedZone"] = json!(z);
    }
    M(json!({"apiVersion": "dns.gcp.upbound.io/v1beta1", "kind": "RecordSet", "metadata": {"name": name},
        "spec": {"forProvider": fp}}))
}

#[test]
fn external_name_format_warns_when_the_known_format_gives_another_id() {
    let set = build(&record_sets(), &GuardSettings::default(), &[]);
    let off = record_set("www", Some("z1")).ext("projects/p2/managedZones/z1/rrsets/www/A");
    refused(
        &judge(&set, GuardRule::ExternalNameFormat, &[], &off.create()),
        "Warn",
        &[
            "recordsets.dns.gcp.upbound.io/www does not follow projects/p1/managedZones/{forProvider.managedZone}/rrsets/{forProvider.name}/{forProvider.type} or {forProvider.ttl}/{name}",
            "which gives \"projects/p1/managedZones/z1/rrsets/www/A\" here",
            "kubectl upjet doctor recordsets.dns.gcp.upbound.io/www",
            "This write: \"projects/p2/",
        ],
    );
    let vpc = M::namespaced("team-a", "web").ext("team-b-web");
    refused(
        &judge(&set, GuardRule::ExternalNameFormat, &[], &vpc.create()),
        "Warn",
        &["which gives \"team-a-web\" here"],
    );
    let fine = |m: M| judge(&set, GuardRule::ExternalNameFormat, &[], &m.create());
    assert_eq!(fine(record_set("www", Some("z1")).ext("projects/p1/managedZones/z1/rrsets/www/A")), Outcome::Allowed);
    assert_eq!(fine(record_set("www", None).ext("300/www")), Outcome::Allowed, "the second format, from an int");
    assert_eq!(fine(M::namespaced("team-a", "web").ext("team-a-web")), Outcome::Allowed);
    assert_eq!(
        fine(M::namespaced("team-a", "web").ext("sgr-stub")),
        Outcome::Allowed,
        "the placeholder rule's business"
    );
    assert_eq!(fine(M::namespaced("team-a", "web")), Outcome::Allowed, "no external-name yet");
    assert_eq!(
        fine(M::cluster("main").ext("anything")),
        Outcome::NotMatched,
        "a format no MR can render covers nothing"
    );
    let no_fields = record_set("www", None).set("/spec/forProvider", json!({"name": "www"})).ext("whatever");
    assert_eq!(fine(no_fields), Outcome::Allowed, "a format whose fields are unset judges nothing");
    let kept = record_set("www", Some("z1")).ext("legacy-id");
    assert_eq!(
        judge(&set, GuardRule::ExternalNameFormat, &[], &kept.update_to(&kept.clone().label("a", "b"))),
        Outcome::Allowed
    );
    let renamed = kept.update_to(&kept.clone().ext("other-id"));
    refused(&judge(&set, GuardRule::ExternalNameFormat, &[], &renamed), "Warn", &["other-id"]);
    assert!(
        guard().validating.iter().all(|p| p.rule != GuardRule::ExternalNameFormat),
        "no kind with a format, no policy"
    );
}

#[test]
fn the_format_of_each_of_many_kinds_is_found_by_its_own_key() {
    let kinds: Vec<GuardKind> = (0..40)
        .map(|i| {
            let mut k = GuardKind::new(
                &format!("g{}.example.io", i % 7),
                &format!("Kind{i:02}"),
                &format!("kind{i:02}s"),
                false,
            );
            k.id_templates = vec![Template::parse(&format!("k{i:02}-{{name}}")).unwrap()];
            k
        })
        .collect();
    let set = build(&kinds, &GuardSettings::default(), &[]);
    for i in [0usize, 1, 7, 8, 19, 20, 38, 39] {
        let mr = |ext: &str| {
            M(json!({"apiVersion": format!("g{}.example.io/v1", i % 7), "kind": format!("Kind{i:02}"),
                "metadata": {"name": "x", "annotations": {EXT: ext}}, "spec": {"forProvider": {}}}))
        };
        let req = |m: M| crate::support::guard_cel::Request::create(m.0, &format!("kind{i:02}s"));
        assert_eq!(
            judge(&set, GuardRule::ExternalNameFormat, &[], &req(mr(&format!("k{i:02}-x")))),
            Outcome::Allowed,
            "Kind{i:02}"
        );
        let other = format!("k{:02}-x", (i + 1) % 40);
        refused(
            &judge(&set, GuardRule::ExternalNameFormat, &[], &req(mr(&other))),
            "Warn",
            &[&format!("follow k{i:02}-{{name}},"), &format!("gives \"k{i:02}-x\"")],
        );
    }
}

const UNIVERSE: [&str; 6] = ["*", "Observe", "Create", "Update", "LateInitialize", "Delete"];

fn now() -> GoTime {
    GoTime::parse_rfc3339("2024-12-01T00:00:00Z").unwrap()
}

fn doctor_says(object: &serde_json::Value, code: Code) -> bool {
    let mr = ManagedResource::from_value(object).unwrap();
    findings(&Facts::of(&mr, upjet_core::reconcile_timeout::JudgedAt::upjet(now()))).iter().any(|f| f.code == code)
}

/// Every subset of the six values, in order, reversed with a duplicate, and with a value the
/// enum does not know.
fn every_set() -> Vec<Vec<&'static str>> {
    let mut out = Vec::new();
    for mask in 0..64u32 {
        let set: Vec<&str> =
            UNIVERSE.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, a)| *a).collect();
        let mut shuffled: Vec<&str> = set.iter().rev().copied().collect();
        shuffled.extend(set.first());
        out.push(shuffled);
        out.push(set.clone());
        if mask % 7 == 0 {
            out.push([set, vec!["Obsrve"]].concat());
        }
    }
    out
}

#[test]
fn management_policies_refuses_exactly_the_sets_doctor_calls_unsupported() {
    let set = guard();
    let mut refusals = 0;
    for policies in every_set() {
        let mr = M::cluster("main").set("/spec/managementPolicies", json!(policies));
        let outcome = judge(&set, GuardRule::ManagementPolicies, &[], &mr.create());
        let doctor = doctor_says(&mr.0, Code::UnsupportedManagementPolicies);
        assert_eq!(matches!(outcome, Outcome::Failed { .. }), doctor, "{policies:?}: {outcome:?}");
        if doctor {
            refusals += 1;
            refused(
                &outcome,
                "Deny",
                &[
                    "spec.managementPolicies of vpcs.ec2.aws.upbound.io/main is not a set",
                    "kubectl upjet doctor vpcs.ec2.aws.upbound.io/main",
                ],
            );
        }
    }
    assert!(refusals > 50, "{refusals}");
    let bad = M::cluster("main").set("/spec/managementPolicies", json!(["Delete"]));
    let edit = bad.update_to(&bad.clone().label("a", "b"));
    assert_eq!(
        judge(&set, GuardRule::ManagementPolicies, &[], &edit),
        Outcome::Allowed,
        "an MR already holding a bad set can be edited"
    );
    let long = M::cluster("main").set("/spec/managementPolicies", json!(vec!["Delete"; 65]));
    assert_eq!(judge(&set, GuardRule::ManagementPolicies, &[], &long.create()), Outcome::Allowed, "beyond the bound");
    assert_eq!(
        judge(&set, GuardRule::ManagementPolicies, &[], &M::cluster("main").create()),
        Outcome::Allowed,
        "absent: [*]"
    );
}

#[test]
fn late_initialize_warns_exactly_when_doctor_reports_late_initialize_missing() {
    let set = guard();
    let states: Vec<(&str, M)> = vec![
        ("fresh", M::cluster("main")),
        ("durable", M::cluster("main").ext("vpc-0abc").ready()),
        (
            "named, not ready",
            M::cluster("main")
                .ext("vpc-0abc")
                .set("/status/conditions", json!([{"type": "Ready", "status": "False", "reason": "Creating"}])),
        ),
        ("a placeholder is no ID", M::cluster("main").ext("sgr-stub").ready()),
    ];
    let mut warnings = 0;
    for (state, base) in &states {
        let before = base.clone().set("/spec/managementPolicies", json!(["*"]));
        for policies in every_set() {
            let after = base.clone().set("/spec/managementPolicies", json!(policies));
            let outcome = judge(&set, GuardRule::LateInitialize, &[], &before.update_to(&after));
            let doctor = doctor_says(&after.0, Code::LateInitializeMissing);
            assert_eq!(matches!(outcome, Outcome::Failed { .. }), doctor, "{state} {policies:?}: {outcome:?}");
            if doctor {
                warnings += 1;
                refused(
                    &outcome,
                    "Warn",
                    &["lack LateInitialize", "kubectl upjet doctor vpcs.ec2.aws.upbound.io/main"],
                );
            }
        }
    }
    assert!(warnings > 10, "{warnings}");
    let mut sync = GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false);
    sync.creates_async = false;
    let without_async = build(&[sync], &GuardSettings::default(), &[]);
    assert!(
        without_async.validating.iter().all(|p| p.rule != GuardRule::LateInitialize),
        "only kinds that create asynchronously"
    );
}

#[test]
fn pending_resolved_by_hand_warns_only_when_nothing_records_an_id() {
    let set = guard();
    let pending = M::cluster("main").ann(PENDING, "2024-11-30T10:53:06Z");
    let without = |m: &M| {
        let mut m = m.clone();
        m.0["metadata"]["annotations"].as_object_mut().unwrap().remove(PENDING);
        m
    };
    refused(
        &judge(&set, GuardRule::PendingResolved, &[], &pending.update_to(&without(&pending))),
        "Warn",
        &[
            "removes crossplane.io/external-create-pending from vpcs.ec2.aws.upbound.io/main",
            "kubectl upjet history vpcs.ec2.aws.upbound.io/main",
        ],
    );
    let stub = pending.clone().ext("sgr-stub");
    assert!(matches!(
        judge(&set, GuardRule::PendingResolved, &[], &stub.update_to(&without(&stub))),
        Outcome::Failed { .. }
    ));
    for (what, m) in [
        ("an external-name", pending.clone().ext("vpc-0abc")),
        ("a succeeded mark", pending.clone().ann(SUCCEEDED, "2024-11-30T10:53:06Z")),
        ("a failed mark", pending.clone().ann(FAILED, "2024-11-30T10:53:07Z")),
    ] {
        assert_eq!(
            judge(&set, GuardRule::PendingResolved, &[], &m.update_to(&without(&m))),
            Outcome::Allowed,
            "{what}"
        );
    }
    assert_eq!(
        judge(&set, GuardRule::PendingResolved, &[], &pending.update_to(&pending.clone().label("a", "b"))),
        Outcome::Allowed
    );
}

#[test]
fn placeholder_warns_when_a_write_sets_one() {
    let set = guard();
    let stub = M::namespaced("team-a", "rule").ext("sgr-stub");
    refused(
        &judge(&set, GuardRule::Placeholder, &[], &stub.create()),
        "Warn",
        &["is a placeholder", "Value: \"sgr-stub\"", "-n team-a"],
    );
    let real = M::namespaced("team-a", "rule").ext("sgr-0123456789abcdef0");
    assert_eq!(judge(&set, GuardRule::Placeholder, &[], &real.create()), Outcome::Allowed);
    assert_eq!(
        judge(&set, GuardRule::Placeholder, &[], &stub.update_to(&stub.clone().label("a", "b"))),
        Outcome::Allowed
    );
    refused(
        &judge(&set, GuardRule::Placeholder, &[], &real.update_to(&real.clone().ext("tbdeid0"))),
        "Warn",
        &["tbdeid0"],
    );
    let Outcome::Failed { reason, .. } = judge(&set, GuardRule::Placeholder, &[], &stub.create()) else {
        unreachable!()
    };
    assert_eq!(reason, "Invalid");
    assert_eq!(EXT, "crossplane.io/external-name");
}
