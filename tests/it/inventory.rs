//! `doctor --inventory` as a user runs it: the example fleet and the example AWS export (from a
//! file, from stdin, gzip-compressed), and inventory files it must refuse.

use crate::support::{Upjet, upjet};
use std::io::Write;

const FLEET: &str = "examples/fleet";
const INVENTORY: &str = "examples/inventory/aws.json";

/// The example fleet's report with the example inventory, from doctor run with exit 1.
fn check_example_report(doctor: &mut Upjet) {
    let report = doctor.status(1).stderr_contains("inventory: 9 objects tagged for a crossplane MR, 8 matched to 7 MRs, 1 without an MR; 1 MRs whose object it should list seem gone").stderr_contains("24 kinds scanned, 51 managed resources, 16 errors, 26 warnings, 5 info, 8 would be created again by a provider restart").run().report();
    let secret = report.finding("InventoryOrphan", "orders-db-credentials");
    assert_eq!(
        secret["suggestedId"],
        "arn:aws:secretsmanager:eu-west-1:111122223333:secret:orders-db-credentials-Q7mR2k"
    );
    assert!(secret["evidence"]["idRule"].as_str().unwrap().contains("agreed by 2 of 2"));
    // Both AlreadyExists MRs get an ID: the Secret's from the inventory, the RecordSet's from its peers.
    let exists = report.finding("AlreadyExists", "orders-db-credentials");
    assert_eq!(exists["suggestedId"], secret["suggestedId"]);
    assert_eq!(exists["evidence"]["candidate"], "InventoryOrphan (high confidence)");
    assert!(
        report.finding("AlreadyExists", "benchmarksix12")["suggestedId"].as_str().unwrap().starts_with("projects/")
    );
    assert_eq!(report.finding("InventoryOrphan", "team-b-vpc")["suggestedId"], "vpc-0bb22cc33dd44ee55");
    let dup = report.finding("InventoryDuplicate", "team-a-vpc");
    assert_eq!(dup["evidence"]["orphans"], "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-0c4d5e6f708192a3b");
    assert_eq!(dup["evidence"]["tracked"], "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-0aa11bb22cc33dd44");
    assert!(dup.get("suggestedId").is_none());
    report.finding("InventoryObjectWithoutMr", "legacy-vpc");
    // orders-api-token's secret is not in the export that lists its healthy peers: it seems gone.
    assert_eq!(report.finding("InventoryObjectGone", "orders-api-token")["severity"], "warning");
    // Tracked objects (the KMS key by atProvider.id, the bucket, the peer) report nothing.
    for name in ["payments-data-key", "audit-logs-111122223333", "payments-api-key"] {
        assert!(
            !report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["resource"]["name"] == name && f["code"].as_str().unwrap().starts_with("Inventory"))
        );
    }
    assert_eq!(report["summary"]["byCode"]["InventoryDuplicate"], 1);
}

#[test]
fn example_inventory_from_a_file() {
    check_example_report(upjet().arg("doctor").json().from(FLEET).args(["--inventory", INVENTORY]));
}

#[test]
fn example_inventory_from_stdin_and_gzip() {
    let text = std::fs::read(INVENTORY).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).unwrap();
    for stdin in [text, gz.finish().unwrap()] {
        check_example_report(upjet().arg("doctor").json().from(FLEET).args(["--inventory", "-"]).stdin(stdin));
    }
}

#[test]
fn unknown_and_truncated_inventories_are_usage_errors() {
    for (text, words) in [
        (&br#"{"Reservations": []}"#[..], "unknown format (a JSON object with keys Reservations)"),
        (&br#"{"ResourceTagMappingList": [{"ResourceARN": "#[..], "not a complete JSON export"),
    ] {
        let out = upjet()
            .arg("doctor")
            .json()
            .from(FLEET)
            .args(["--inventory", "-"])
            .stdin(text)
            .status(2)
            .stderr_contains(words)
            .stdout("")
            .run();
        assert!(out.stderr.contains("stdin"), "{}", out.stderr);
    }
}

#[test]
fn one_mr_with_an_inventory_is_refused() {
    upjet()
        .args(["doctor", "vpc/team-a-vpc", "-n", "team-a"])
        .from(FLEET)
        .args(["--inventory", INVENTORY])
        .status(2)
        .stderr_contains("whole fleet")
        .run();
}
