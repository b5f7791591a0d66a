//! Predicted cloud IDs, run as a user would: `doctor --from examples/fleet` learns each kind's ID
//! format from its healthy peers (docs/id-templates.md) and fills `suggestedId`, `--plan` carries
//! it, `--id-template` overrides it, and a provider-assigned format is never predicted.

use crate::support::FLEET_SUMMARY;
use crate::support::upjet;
use serde_json::Value;

const FLEET: &str = "examples/fleet";
const RRSET_ID: &str = "projects/crossplane-bench/managedZones/bench-zone/rrsets/benchmarksix12.bench.example.com./A";

#[test]
fn the_lost_recordset_gets_its_id_from_its_peers_and_the_secret_does_not() {
    let report = upjet().arg("doctor").json().from(FLEET).status(1).stderr(format!("{FLEET_SUMMARY}\n")).run().report();
    let rrset = report.finding("AlreadyExists", "benchmarksix12");
    assert_eq!(rrset["suggestedId"], RRSET_ID);
    let why = rrset["evidence"]["identity"].as_str().unwrap();
    assert!(
        why.starts_with("template `projects/crossplane-bench/managedZones/{forProvider.managedZone}/rrsets/{forProvider.name}/{forProvider.type}`, agreed by 12 of 12 healthy RecordSets"),
        "{why}"
    );
    assert!(why.contains("`crossplane-bench` is the same in every peer"), "{why}");
    let secret = report.finding("AlreadyExists", "orders-db-credentials");
    assert!(secret.get("suggestedId").is_none(), "{secret}");
    let why = secret["evidence"]["identity"].as_str().unwrap();
    assert!(why.starts_with("provider-assigned: the external-names of 4 healthy Secrets"), "{why}");
}

#[test]
fn the_plan_carries_the_predicted_id() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    upjet().arg("doctor").json().from(FLEET).arg("--plan").arg(&plan).status(1).stderr_contains(FLEET_SUMMARY).run();
    let items: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let item = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["resource"] == "recordset.dns.gcp.upbound.io/benchmarksix12")
        .unwrap_or_else(|| panic!("not planned: {items}"));
    assert_eq!((item["id"].as_str(), item["reason"].as_str()), (Some(RRSET_ID), Some("AlreadyExists")));
    assert!(!items.to_string().contains("orders-db-credentials"), "provider-assigned IDs are never planned");
}

#[test]
fn a_user_template_wins_and_bad_ones_are_usage_errors() {
    let t = "recordset.dns.gcp.upbound.io=projects/other/managedZones/{parameters.managed_zone}/rrsets/{forProvider.name}/{forProvider.type}";
    let report = upjet()
        .arg("doctor")
        .json()
        .from(FLEET)
        .args(["--id-template", t])
        .status(1)
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run()
        .report();
    let rrset = report.finding("AlreadyExists", "benchmarksix12");
    assert_eq!(rrset["suggestedId"], RRSET_ID.replace("crossplane-bench", "other"));
    assert!(rrset["evidence"]["identity"].as_str().unwrap().contains("given with --id-template"));
    for (bad, why) in [
        ("recordset", "not KIND=TEMPLATE"),
        ("recordset=fixed", "no placeholder"),
        ("recordset={spec.x}", "unknown field"),
    ] {
        let run = upjet()
            .arg("doctor")
            .json()
            .from(FLEET)
            .args(["--id-template", bad])
            .status(2)
            .stderr_contains("For more information, try '--help'.")
            .run();
        assert!(run.stderr.contains(why), "{bad}: {}", run.stderr);
    }
}

#[test]
fn one_mr_in_depth_learns_from_the_snapshot_too() {
    let report = upjet()
        .args(["doctor", "recordset.dns.gcp.upbound.io/benchmarksix12"])
        .json()
        .from(FLEET)
        .status(1)
        .run()
        .report();
    assert_eq!(report.finding("AlreadyExists", "benchmarksix12")["suggestedId"], RRSET_ID);
}
