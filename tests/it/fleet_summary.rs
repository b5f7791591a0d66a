//! `doctor -o summary`: the fleet view folds a fleet's findings into one row per code × kind ×
//! provider config, with the command for each group; without `-o` and without a terminal, doctor
//! still prints the table byte for byte (scripts depend on it).

use crate::support::upjet;
use serde_json::{Value, json};

const EXISTS: &str = "create failed: async create failed: failed to create the resource: [{0 Error creating \
ResourceRecordSet: googleapi: Error 409: The resource 'entity.change.additions[0]' already exists, alreadyExists  []}]";

fn recordset(name: &str, pc: &str) -> Value {
    json!({"apiVersion": "dns.gcp.upbound.io/v1beta1", "kind": "RecordSet",
           "metadata": {"name": name, "uid": format!("uid-{name}"), "annotations": {}},
           "spec": {"forProvider": {"managedZone": "zone", "type": "A"}, "providerConfigRef": {"name": pc}},
           "status": {"conditions": []}})
}

/// 40 RecordSets refused with 409 under `prod`, 2 under `staging`, 20 Ready RecordSets without an
/// external-name whose atProvider.id is known, and 3 paused Buckets without a provider config.
fn fleet() -> Value {
    let mut items = Vec::new();
    for (i, pc) in (0..42).map(|i| (i, if i < 40 { "prod" } else { "staging" })) {
        let mut mr = recordset(&format!("lost-{i:02}"), pc);
        mr["status"]["conditions"] =
            json!([{"type": "Synced", "status": "False", "reason": "ReconcileError", "message": EXISTS}]);
        items.push(mr);
    }
    for i in 0..20 {
        let mut mr = recordset(&format!("unnamed-{i:02}"), "prod");
        mr["status"] = json!({"atProvider": {"id": format!("projects/p/managedZones/zone/rrsets/unnamed-{i:02}./A")},
            "conditions": [{"type": "Ready", "status": "True", "reason": "Available"}]});
        items.push(mr);
    }
    for i in 0..3 {
        items.push(json!({"apiVersion": "storage.gcp.upbound.io/v1beta1", "kind": "Bucket",
            "metadata": {"name": format!("b-{i}"), "uid": format!("uid-b-{i}"), "annotations": {"crossplane.io/paused": "true"}},
            "spec": {"forProvider": {}}, "status": {"conditions": []}}));
    }
    json!({"apiVersion": "v1", "kind": "List", "items": items})
}

/// A scratch folder holding [`fleet`] as `fleet.json`: a run from there names it by that relative
/// path, as a user in that folder would.
fn fleet_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fleet.json"), fleet().to_string()).unwrap();
    dir
}

#[test]
fn summary_groups_the_fleet_worst_first_with_one_command_each() {
    let dir = fleet_dir();
    // Errors found: exit 1. NO_COLOR removed: this is what a pipe gets.
    let run = upjet()
        .current_dir(dir.path())
        .env_remove("NO_COLOR")
        .arg("doctor")
        .from("fleet.json")
        .args(["-o", "summary"])
        .status(1)
        .stderr("2 kinds scanned, 65 managed resources, 62 errors, 45 warnings, 3 info, 20 would be created again by a provider restart\n").run();
    insta::assert_snapshot!("fleet_summary", run.stdout);
}

#[test]
fn without_a_terminal_doctor_prints_the_table_byte_for_byte() {
    let dir = fleet_dir();
    let [default, table] = [&[][..], &["-o", "table"]].map(|output| {
        let mut run = upjet();
        run.current_dir(dir.path()).env_remove("NO_COLOR").arg("doctor").from("fleet.json").args(output);
        run.status(1).stderr("2 kinds scanned, 65 managed resources, 62 errors, 45 warnings, 3 info, 20 would be created again by a provider restart\n").run().stdout
    });
    assert_eq!(default, table);
    assert_eq!(default.lines().count(), 111, "header + 110 findings: {default}");
    assert!(default.starts_with("RESOURCE"), "{default}");
}
