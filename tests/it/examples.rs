//! The bundled example fleet, logs, inventory and audit log (README's first command), and the
//! cloud audit records with their own small fleet, show every finding code that
//! offline data can show; ProviderRestartedDuringCreate needs live pod status and is covered by
//! tests/it/evidence_cluster.rs, the guard's codes a live cluster's admission policies
//! (tests/it/guard_findings.rs).

use crate::support::upjet;
use upjet_core::codes::Family;
use upjet_core::finding::Code;

#[test]
fn example_fleet_shows_every_code() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = upjet()
        .args(["doctor", "-o", "json", "--from"])
        .arg(format!("{root}/examples/fleet"))
        .arg("--log-file")
        .arg(format!("{root}/examples/logs/provider-aws-kms-debug.log"))
        .arg("--log-file")
        .arg(format!("{root}/examples/logs/provider-aws-elbv2-debug.log"))
        .arg("--log-file")
        .arg(format!("{root}/examples/logs/provider-azure-production.jsonl"))
        .arg("--inventory")
        .arg(format!("{root}/examples/inventory/aws.json"))
        .arg("--audit-log")
        .arg(format!("{root}/examples/audit/kube-apiserver-audit.log"))
        .status(1).stderr_contains("read 3 log sources (21 lines)").stderr_contains("24 kinds scanned, 51 managed resources, 22 errors, 27 warnings, 6 info, 8 would be created again by a provider restart").run();
    let report: serde_json::Value = out.json();
    // The cloud's audit records come with a small fleet of their own (examples/cloud-audit).
    let cloud = upjet()
        .args(["doctor", "-o", "json", "--from", "examples/cloud-audit/fleet.json"])
        .args(["--cloud-audit", "examples/cloud-audit/cloudtrail.jsonl"])
        .args(["--cloud-audit", "examples/cloud-audit/gcp-audit.json"])
        .args(["--cloud-audit", "examples/cloud-audit/azure-activity.json"])
        .status(1).stderr_contains("cloud audit examples/cloud-audit/cloudtrail.jsonl: 9 records examined, 6 creates and 0 deletes kept, 3 skipped by byte checks (reads and other calls); decoded 6 CloudTrail").stderr_contains("5 kinds scanned, 13 managed resources, 6 errors, 5 warnings, 0 info").run();
    let cloud: serde_json::Value = cloud.json();
    // The change-log codes come with the sidecar log of a small fleet (examples/changelogs).
    let changelog = upjet()
        .args(["doctor", "-o", "json", "--from", "examples/changelogs/fleet.json"])
        .args(["--log-file", "examples/changelogs/changelogs-sidecar.log"])
        .status(1).stderr("read 0 log sources (0 lines)\nread change log examples/changelogs/changelogs-sidecar.log: 9 entries\n1 kinds scanned, 3 managed resources, 3 errors, 1 warnings, 1 info, 1 would be created again by a provider restart\n").run();
    let changelog: serde_json::Value = changelog.json();
    // The lint codes come with a small repository of manifests (examples/lint).
    let lint = upjet().args(["doctor", "-o", "json", "--from", "examples/lint"]).status(1).stderr("linted 16 managed resources from 13 files with 11 rules (51 need a cluster)\n4 kinds scanned, 16 managed resources, 2 errors, 4 warnings, 0 info\n").run();
    let lint: serde_json::Value = lint.json();
    // What hand migrations to the namespaced kinds leave behind (examples/migrate).
    let half_done = upjet()
        .args(["doctor", "-o", "json", "--from", "examples/migrate/half-done.json"])
        .status(1)
        .stderr("4 kinds scanned, 4 managed resources, 2 errors, 1 warnings, 1 info\n")
        .run();
    let half_done: serde_json::Value = half_done.json();
    // A v1 claim's tree and a v2 namespaced XR's (examples/compositions).
    let trees = upjet().args(["doctor", "-o", "json", "--from", "examples/compositions"]).status(1).stderr("composition tree read beside the managed resources: 2 XRD(s), 2 XR(s), 1 claim(s)\n2 kinds scanned, 8 managed resources, 5 errors, 1 warnings, 1 info\n").run();
    let trees: serde_json::Value = trees.json();
    let mut by_code = report["summary"]["byCode"].as_object().unwrap().clone();
    by_code.extend(cloud["summary"]["byCode"].as_object().unwrap().clone());
    by_code.extend(changelog["summary"]["byCode"].as_object().unwrap().clone());
    by_code.extend(lint["summary"]["byCode"].as_object().unwrap().clone());
    by_code.extend(half_done["summary"]["byCode"].as_object().unwrap().clone());
    by_code.extend(trees["summary"]["byCode"].as_object().unwrap().clone());
    // The restore verdicts need a Velero backup: tests/it/velero.rs reads examples/velero.
    // tests/it/runtime_reads.rs and tests/it/kind_going.rs show the codes of a poll interval, a
    // deletion that waits, Terraform's identity change and a kind going away.
    let elsewhere = |c: &Code| {
        matches!(
            c,
            Code::ProviderRestartedDuringCreate
                | Code::PollIntervalTooShort
                | Code::DeletionWaitsForFinalizers
                | Code::UnexpectedIdentityChange
                | Code::KindBeingDeleted
        ) || c.family() == Family::Guard
    };
    for code in Code::ALL.iter().filter(|c| !elsewhere(c) && !c.as_str().starts_with("Restore")) {
        assert!(by_code.contains_key(code.as_str()), "{code} missing from the examples: {by_code:?}");
    }
    assert_eq!(report["summary"]["resourcesScanned"], 51);
    let orphan = report["findings"].as_array().unwrap().iter().find(|f| f["code"] == "OrphanCandidate").unwrap();
    assert_eq!(orphan["evidence"]["loggedId"], "mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8");
}
