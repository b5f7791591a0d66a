//! `history --log-file` folds a run of provider log lines into one timeline entry only while they
//! say the same thing: a paused MR's lines and the up-to-date lines after them carry the same
//! external-name, yet each message keeps its own entry, count and last time.

use crate::support::upjet;
use serde_json::{Value, json};

const UID: &str = "7d4f2c1e-5b6a-4c3d-9e8f-0a1b2c3d4e5f";
const URL: &str = "https://sqs.us-east-1.amazonaws.com/111122223333/orders";
const PAUSED: &str = "Reconciliation is paused either through the `spec.managementPolicies` or the pause annotation";
const UP: &str = "External resource is up to date";

/// One managed-reconciler debug line as crossplane-runtime logs it, in zap's console encoding.
fn line(minute: usize, msg: &str) -> String {
    let fields = json!({"controller": "managed/sqs.aws.upbound.io/v1beta1, kind=queue",
        "request": {"name": "orders"}, "uid": UID, "version": "7", "external-name": URL});
    format!("2026-01-10T10:{minute:02}:00Z\tDEBUG\tprovider-aws\t{msg}\t{fields}\n")
}

#[test]
fn paused_and_up_to_date_lines_under_one_id_stay_apart() {
    let dir = tempfile::tempdir().unwrap();
    let mr = json!({"apiVersion": "sqs.aws.upbound.io/v1beta1", "kind": "Queue",
        "metadata": {"name": "orders", "uid": UID, "creationTimestamp": "2026-01-10T09:00:00Z",
                     "annotations": {"crossplane.io/external-name": URL}},
        "spec": {"forProvider": {"region": "us-east-1"}, "providerConfigRef": {"name": "default"}},
        "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "Available"},
                                  {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]}});
    let snapshot = dir.path().join("queue.json");
    std::fs::write(&snapshot, json!({"apiVersion": "v1", "kind": "List", "items": [mr]}).to_string()).unwrap();
    // Three paused lines and twenty up-to-date ones, interleaved: 2 paused, 10 up to date, 1 paused, 10 up to date.
    let messages = [[PAUSED; 2].as_slice(), &[UP; 10], &[PAUSED], &[UP; 10]].concat();
    let log: String = messages.iter().enumerate().map(|(i, m)| line(i, m)).collect();
    let file = dir.path().join("provider.log");
    std::fs::write(&file, log).unwrap();

    let h = upjet()
        .args(["history", "queue.sqs.aws.upbound.io/orders", "--from"])
        .arg(&snapshot)
        .arg("--log-file")
        .arg(&file)
        .json()
        .run()
        .json();
    let logged: Vec<(String, String)> = h["timeline"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["source"] == "log")
        .map(|e| (e["time"].as_str().unwrap_or_default().to_string(), text(e)))
        .collect();
    let id = format!("[id {URL:?}]");
    let want = [
        ("2026-01-10T10:00:00Z", format!("Reconciler: {PAUSED} {id} (×2, last 2026-01-10T10:01:00Z)")),
        ("2026-01-10T10:02:00Z", format!("Reconciler: {UP} {id} (×10, last 2026-01-10T10:11:00Z)")),
        ("2026-01-10T10:12:00Z", format!("Reconciler: {PAUSED} {id}")),
        ("2026-01-10T10:13:00Z", format!("Reconciler: {UP} {id} (×10, last 2026-01-10T10:22:00Z)")),
    ];
    let want: Vec<(String, String)> = want.into_iter().map(|(t, s)| (t.to_string(), s)).collect();
    assert_eq!(logged, want, "{h:#}");
}

fn text(e: &Value) -> String {
    e["text"].as_str().unwrap_or_default().to_string()
}
