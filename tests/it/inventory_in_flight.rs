//! `doctor --inventory` during a healthy async create: the queue exists in the cloud (and in the
//! export, tagged for its MR) some 25 seconds before the MR holds its ID. That object is the one
//! being created — info, nothing to adopt — until the create is known to have ended without
//! recording it: then it is the MR's lost object again.

use crate::support::upjet::NOW;
use crate::support::{Run, Upjet, upjet};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const SQS: &str = "sqs.aws.upbound.io/v1beta1";
const ORDERS_ARN: &str = "arn:aws:sqs:eu-west-1:123456789012:orders";
const PAYMENTS_ARN: &str = "arn:aws:sqs:eu-west-1:123456789012:payments";
/// When the create started: 25 seconds before [`NOW`].
const CREATED: &str = "2024-11-30T11:59:35Z";

/// A healthy Queue, and one 25 s into its create as upjet's Terraform CLI mode leaves it: the
/// reconciler wrote pending and succeeded in one second once `Create` returned (`ApplyAsync`
/// started), then Ready=False/Creating and Synced=True; the next `Observe` found the apply
/// running and set AsyncOperation=False/Ongoing (`pkg/controller/external.go`).
fn fleet(dir: &Path) -> PathBuf {
    let payments = json!({"apiVersion": SQS, "kind": "Queue",
        "metadata": {"name": "payments", "uid": "1b2c3d4e-0000-4000-8000-000000000001", "creationTimestamp": "2024-11-29T09:00:00Z",
            "annotations": {"crossplane.io/external-name": "https://sqs.eu-west-1.amazonaws.com/123456789012/payments"}},
        "spec": {"forProvider": {"region": "eu-west-1"}, "providerConfigRef": {"name": "default"}},
        "status": {"atProvider": {"arn": PAYMENTS_ARN, "id": "https://sqs.eu-west-1.amazonaws.com/123456789012/payments"},
            "conditions": [
                {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-29T09:00:40Z"},
                {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-29T09:00:05Z"},
                {"type": "AsyncOperation", "status": "True", "reason": "Finished", "lastTransitionTime": "2024-11-29T09:00:40Z"}]}});
    let orders = json!({"apiVersion": SQS, "kind": "Queue",
        "metadata": {"name": "orders", "uid": "5a0e7b43-3c5e-4d1b-9f7a-2f1c0d9e8b71", "creationTimestamp": CREATED,
            "annotations": {"crossplane.io/external-create-pending": CREATED, "crossplane.io/external-create-succeeded": CREATED}},
        "spec": {"forProvider": {"region": "eu-west-1"}, "providerConfigRef": {"name": "default"}},
        "status": {"atProvider": {}, "conditions": [
            {"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": CREATED},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": CREATED},
            {"type": "AsyncOperation", "status": "False", "reason": "Ongoing", "lastTransitionTime": "2024-11-30T11:59:36Z"}]}});
    let path = dir.join("fleet.json");
    std::fs::write(&path, json!({"apiVersion": "v1", "kind": "List", "items": [payments, orders]}).to_string())
        .unwrap();
    path
}

/// `aws resourcegroupstaggingapi get-resources`: both queues, with the tags crossplane-runtime's
/// `GetExternalTags` stamps on them.
fn inventory(dir: &Path) -> PathBuf {
    let queue = |arn: &str, name: &str| {
        json!({"ResourceARN": arn, "Tags": [
            {"Key": "crossplane-kind", "Value": "queue.sqs.aws.upbound.io"},
            {"Key": "crossplane-name", "Value": name},
            {"Key": "crossplane-providerconfig", "Value": "default"}]})
    };
    let path = dir.join("inventory.json");
    let export = json!({"ResourceTagMappingList": [queue(PAYMENTS_ARN, "payments"), queue(ORDERS_ARN, "orders")]});
    std::fs::write(&path, export.to_string()).unwrap();
    path
}

/// doctor over the fleet and the inventory written in `dir`, with `extra`.
fn doctor(dir: &Path, extra: &[&str]) -> Upjet {
    let mut cmd = upjet();
    cmd.arg("doctor").json().from(fleet(dir)).arg("--inventory").arg(inventory(dir)).args(extra);
    cmd
}

fn orphan(run: &Run) -> Value {
    run.report().finding("InventoryOrphan", "orders").clone()
}

#[test]
fn an_object_tagged_for_an_mr_whose_create_is_in_flight_is_the_one_being_created() {
    assert_eq!(NOW, "2024-11-30T12:00:00Z", "the times are relative to it");
    let dir = tempfile::tempdir().unwrap();
    let run = doctor(dir.path(), &[])
        .stderr_contains("inventory: 2 objects tagged for a crossplane MR, 2 matched to 2 MRs, 0 without an MR")
        .stderr_contains("1 kinds scanned, 2 managed resources, 0 errors, 0 warnings, 2 info")
        .run();
    run.report().finding("AsyncInFlight", "orders");
    let f = orphan(&run);
    assert_eq!(f["severity"], "info", "{f}");
    assert!(f.get("suggestedId").is_none(), "{f}");
    assert!(!f["next"].as_str().unwrap().contains("adopt"), "{f}");
    assert!(f["message"].as_str().unwrap().contains("most likely the object being created"), "{f}");
    assert_eq!(f["evidence"]["inventoryId"], ORDERS_ARN);
    // The table says it too, and the fleet counts no lost object.
    let table = upjet()
        .arg("doctor")
        .from(fleet(dir.path()))
        .arg("--inventory")
        .arg(inventory(dir.path()))
        .stderr_contains("inventory: 2 objects tagged for a crossplane MR, 2 matched to 2 MRs, 0 without an MR")
        .stderr_contains("1 kinds scanned, 2 managed resources, 0 errors, 0 warnings, 2 info")
        .run();
    let line = table.stdout.lines().find(|l| l.contains("InventoryOrphan")).expect("a table row");
    assert!(line.contains("INFO") && line.contains("orders"), "{line}");
}

/// The same objects once a new provider process started after the create began (its workspace
/// under /tmp went with the old one): the create ended without recording its queue.
#[test]
fn once_a_restart_ended_the_create_the_object_is_the_mr_s_lost_object() {
    let dir = tempfile::tempdir().unwrap();
    let controller = r#""controller": "managed/sqs.aws.upbound.io/v1beta1, kind=queue", "controllerGroup": "sqs.aws.upbound.io", "controllerKind": "Queue""#;
    let log = dir.path().join("provider.log");
    let t = "2024-11-30T11:59:50Z";
    std::fs::write(
        &log,
        format!(
            "{t}\tINFO\tStarting EventSource\t{{{controller}, \"source\": \"kind source: *v1beta1.Queue\"}}\n\
             {t}\tINFO\tStarting Controller\t{{{controller}}}\n\
             {t}\tINFO\tStarting workers\t{{{controller}, \"worker count\": 10}}\n"
        ),
    )
    .unwrap();
    let run = doctor(dir.path(), &["--log-file", log.to_str().unwrap()]).status(1).stderr_contains("read 1 log sources (3 lines)").stderr_contains("1 kinds scanned, 2 managed resources, 2 errors, 0 warnings, 1 info, 1 would be created again by a provider restart").run();
    let f = orphan(&run);
    assert_eq!(f["severity"], "error", "{f}");
    assert!(f["message"].as_str().unwrap().contains("it is the object this MR lost"), "{f}");
    assert!(run.report().find("AsyncInFlight", "orders").is_none(), "{}", run.stdout);
    let lost = run.report().finding("ExternalNameMissing", "orders").clone();
    assert!(lost["message"].as_str().unwrap().contains("restarted at 2024-11-30T11:59:50Z"), "{lost}");
}
