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
        .output();
    assert_eq!(out.status.code(), Some(1), "errors found");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The cloud's audit records come with a small fleet of their own (examples/cloud-audit).
    let cloud = upjet()
        .args(["doctor", "-o", "json", "--from", "examples/cloud-audit/fleet.json"])
        .args(["--cloud-audit", "examples/cloud-audit/cloudtrail.jsonl"])
        .args(["--cloud-audit", "examples/cloud-audit/gcp-audit.json"])
        .args(["--cloud-audit", "examples/cloud-audit/azure-activity.json"])
        .output();
    let cloud: serde_json::Value = serde_json::from_slice(&cloud.stdout).unwrap();
    // The change-log codes come with the sidecar log of a small fleet (examples/changelogs).
    let changelog = upjet()
        .args(["doctor", "-o", "json", "--from", "examples/changelogs/fleet.json"])
        .args(["--log-file", "examples/changelogs/changelogs-sidecar.log"])
        .output();
    let changelog: serde_json::Value = serde_json::from_slice(&changelog.stdout).unwrap();
    // The lint codes come with a small repository of manifests (examples/lint).
    let lint = upjet().args(["doctor", "-o", "json", "--from", "examples/lint"]).output();
    let lint: serde_json::Value = serde_json::from_slice(&lint.stdout).unwrap();
    // What hand migrations to the namespaced kinds leave behind (examples/migrate).
    let half_done = upjet().args(["doctor", "-o", "json", "--from", "examples/migrate/half-done.json"]).output();
    let half_done: serde_json::Value = serde_json::from_slice(&half_done.stdout).unwrap();
    // A v1 claim's tree and a v2 namespaced XR's (examples/compositions).
    let trees = upjet().args(["doctor", "-o", "json", "--from", "examples/compositions"]).output();
    let trees: serde_json::Value = serde_json::from_slice(&trees.stdout).unwrap();
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
