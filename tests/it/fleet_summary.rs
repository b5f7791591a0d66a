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

fn doctor(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let path = dir.join("fleet.json");
    std::fs::write(&path, fleet().to_string()).unwrap();
    upjet().current_dir(dir).env_remove("NO_COLOR").args(["doctor", "--from", "fleet.json"]).args(extra).output()
}

#[test]
fn summary_groups_the_fleet_worst_first_with_one_command_each() {
    let dir = tempfile::tempdir().unwrap();
    let out = doctor(dir.path(), &["-o", "summary"]);
    assert_eq!(out.status.code(), Some(1), "errors found: {}", String::from_utf8_lossy(&out.stderr));
    insta::assert_snapshot!("fleet_summary", String::from_utf8(out.stdout).unwrap());
}

#[test]
fn without_a_terminal_doctor_prints_the_table_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let default = doctor(dir.path(), &[]);
    let table = doctor(dir.path(), &["-o", "table"]);
    assert_eq!(default.stdout, table.stdout);
    let text = String::from_utf8(default.stdout).unwrap();
    assert_eq!(text.lines().count(), 111, "header + 110 findings: {text}");
    assert!(text.starts_with("RESOURCE"), "{text}");
}
