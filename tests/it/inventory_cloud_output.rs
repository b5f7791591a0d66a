//! `doctor --from SNAPSHOT --inventory EXPORT` over what real cloud output looks like: healthy SQS
//! queues whose external-name is the queue URL while the tagging API lists their ARNs, a queue
//! whose object is gone, an export cut by `--max-items`, and the public cloud-custodian SQS
//! sample (`../shared/fixtures/inventory`, untagged queues) read beside a tagged export.

use crate::support::upjet;
use serde_json::{Value, json};
use std::path::Path;

const ACCOUNT: &str = "644160558196";
const REGION: &str = "us-east-1";

fn url(name: &str) -> String {
    format!("https://sqs.{REGION}.amazonaws.com/{ACCOUNT}/{name}")
}

fn arn(name: &str) -> String {
    format!("arn:aws:sqs:{REGION}:{ACCOUNT}:{name}")
}

/// A healthy legacy Queue tracking its URL, as provider-upjet-aws keeps it.
fn queue(name: &str) -> Value {
    json!({
        "apiVersion": "sqs.aws.upbound.io/v1beta1", "kind": "Queue",
        "metadata": {"name": name, "uid": format!("uid-{name}"), "annotations": {"crossplane.io/external-name": url(name)}},
        "spec": {"forProvider": {"region": REGION}, "providerConfigRef": {"name": "default"}},
        "status": {"atProvider": {"id": url(name), "url": url(name)}, "conditions": [
            {"type": "Ready", "status": "True", "reason": "Available"},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]}
    })
}

fn tagged(name: &str) -> Value {
    json!({"ResourceARN": arn(name), "Tags": [
        {"Key": "crossplane-kind", "Value": "queue.sqs.aws.upbound.io"},
        {"Key": "crossplane-name", "Value": name},
        {"Key": "crossplane-providerconfig", "Value": "default"}]})
}

/// Writes the snapshot and a tagged export (ending with `token` when given) into `dir`.
fn write(dir: &Path, queues: &[&str], listed: &[&str], token: Option<&str>) -> (String, String) {
    let snapshot = dir.join("fleet.json");
    let items: Vec<Value> = queues.iter().map(|q| queue(q)).collect();
    std::fs::write(&snapshot, json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()).unwrap();
    let mut page = json!({"ResourceTagMappingList": listed.iter().map(|q| tagged(q)).collect::<Vec<_>>()});
    if let Some(t) = token {
        page["NextToken"] = json!(t);
    }
    let export = dir.join("sqs.json");
    std::fs::write(&export, page.to_string()).unwrap();
    (snapshot.display().to_string(), export.display().to_string())
}

#[test]
fn healthy_queues_are_not_orphans_and_a_missing_one_seems_gone() {
    let dir = tempfile::tempdir().unwrap();
    let (snapshot, export) = write(dir.path(), &["orders", "billing", "vanished"], &["orders", "billing"], None);
    let report =
        upjet().arg("doctor").json().from(&snapshot).args(["--inventory", &export]).stderr_contains("inventory: 2 objects tagged for a crossplane MR, 2 matched to 2 MRs, 0 without an MR; 1 MRs whose object it should list seem gone").stderr_contains("1 kinds scanned, 3 managed resources, 0 errors, 1 warnings, 0 info").run().report();
    assert_eq!(report.codes(), [("InventoryObjectGone".to_string(), "vanished".to_string())]);
    let f = &report["findings"][0];
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["evidence"]["region"], REGION);
    assert!(f["message"].as_str().unwrap().contains("the provider will create it again"), "{f}");
    assert!(f["evidence"]["idRule"].as_str().unwrap().contains("{region}.amazonaws.com/{account}/{resource}"), "{f}");
    assert_eq!(report["summary"]["complete"], true);
}

#[test]
fn an_untagged_queue_in_a_public_export_is_listed_not_gone() {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/fixtures/inventory/aws-get-resources-custodian-sqs-empty-tags.json"
    );
    assert!(Path::new(sample).exists(), "{sample}: the shared fixtures sit beside the project");
    let dir = tempfile::tempdir().unwrap();
    // bar_dlq is in the public sample (no crossplane tags), vanished nowhere.
    let (snapshot, export) =
        write(dir.path(), &["orders", "billing", "bar_dlq", "vanished"], &["orders", "billing"], None);
    let report = upjet()
        .arg("doctor")
        .json()
        .from(&snapshot)
        .args(["--inventory", &export, "--inventory", sample])
        .stderr_contains("aws-get-resources-custodian-sqs-empty-tags.json (AWS get-resources): 4 records, 0 tagged for a crossplane MR").stderr_contains("1 kinds scanned, 4 managed resources, 0 errors, 1 warnings, 0 info").run()
        .report();
    assert_eq!(report.codes(), [("InventoryObjectGone".to_string(), "vanished".to_string())]);
}

#[test]
fn an_export_cut_by_max_items_is_named_and_the_report_is_partial() {
    let dir = tempfile::tempdir().unwrap();
    let (snapshot, export) =
        write(dir.path(), &["orders", "billing", "vanished"], &["orders", "billing"], Some("eyJOZXh0VG9rZW4iOiAxfQ=="));
    // A partial report: exit 4.
    let run = upjet()
        .arg("doctor")
        .json()
        .from(&snapshot)
        .args(["--inventory", &export])
        .status(4)
        .stderr_contains("inventory: 2 objects tagged for a crossplane MR, 2 matched to 2 MRs, 0 without an MR")
        .stderr_contains("1 kinds scanned, 3 managed resources, 0 errors, 0 warnings, 0 info, 1 inputs cut short")
        .run();
    let (report, stderr) = (run.report(), run.stderr);
    assert!(stderr.contains("ends with NextToken") && stderr.contains("--max-items"), "{stderr}");
    assert_eq!(report["summary"]["complete"], false);
    let cut = report["summary"]["inputsTruncated"][0].as_str().unwrap();
    assert!(cut.contains("sqs.json") && cut.contains("cut short"), "{cut}");
    // Nothing is said to be gone from a cut export: it may be on a missing page.
    assert!(report.codes().is_empty(), "{:?}", report.codes());
}
