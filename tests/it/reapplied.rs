//! An MR deleted with `deletionPolicy: Orphan` and applied again without its external-name, as a
//! real reconciler round showed it: provider-upjet-aws's Queue, whose cloud name Terraform
//! generates (`terraform-…`) when `forProvider.name` is unset. doctor with `--inventory` names the
//! kind of an object whose MR is gone as the run serves it, with the ID its kind's rule gives,
//! and says (and counts) that the re-applied MR's next reconcile creates a second queue.

use crate::support::{Run, upjet};
use serde_json::{Value, json};

const SQS: &str = "sqs.aws.upbound.io/v1beta1";
const ACCOUNT: &str = "111122223333";
/// Terraform's name for the re-applied Queue's object, and for the deleted one's.
const ORDERS: &str = "terraform-20260110090000000000000001";
const LEGACY: &str = "terraform-20251201000000000000000002";

fn url(name: &str) -> String {
    format!("https://sqs.us-east-1.amazonaws.com/{ACCOUNT}/{name}")
}

fn arn(name: &str) -> String {
    format!("arn:aws:sqs:us-east-1:{ACCOUNT}:{name}")
}

fn queue(name: &str, uid: &str) -> Value {
    json!({"apiVersion": SQS, "kind": "Queue",
        "metadata": {"name": name, "uid": uid, "creationTimestamp": "2024-11-30T09:00:00Z", "annotations": {}},
        "spec": {"forProvider": {"region": "us-east-1"}, "providerConfigRef": {"name": "default"},
                 "deletionPolicy": "Orphan"}})
}

/// A healthy Queue: its URL as external-name, Ready and Synced.
fn healthy(name: &str) -> Value {
    let mut q = queue(name, &format!("uid-{name}"));
    q["metadata"]["annotations"]["crossplane.io/external-name"] = json!(url(name));
    q["status"] = json!({"atProvider": {"arn": arn(name)}, "conditions": [
        {"type": "Ready", "status": "True", "reason": "Available"},
        {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]});
    q
}

/// The AWS tagging API's listing of one queue tagged for `name`.
fn tagged(object: &str, name: &str) -> Value {
    json!({"ResourceARN": arn(object), "Tags": [
        {"Key": "crossplane-kind", "Value": "queue.sqs.aws.upbound.io"},
        {"Key": "crossplane-name", "Value": name},
        {"Key": "crossplane-providerconfig", "Value": "default"}]})
}

/// doctor over two healthy Queues, `orders` as given (re-applied: no external-name, no status
/// yet), and an inventory that lists all three objects and `legacy`'s, whose MR is gone.
fn doctor(orders: Value) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = dir.path().join("queues.json");
    let items = json!([healthy("billing"), healthy("invoices"), orders]);
    std::fs::write(&snapshot, json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()).unwrap();
    let inventory = dir.path().join("aws.json");
    let objects = json!([
        tagged("billing", "billing"),
        tagged("invoices", "invoices"),
        tagged(ORDERS, "orders"),
        tagged(LEGACY, "legacy")
    ]);
    std::fs::write(&inventory, json!({"ResourceTagMappingList": objects}).to_string()).unwrap();
    upjet().arg("doctor").json().from(&snapshot).arg("--inventory").arg(&inventory).run()
}

#[test]
fn an_object_without_its_mr_is_named_by_the_served_kind_and_its_kind_s_id_rule() {
    let run = doctor(queue("orders", "uid-orders-2"));
    let report = run.report();
    let gone = report.finding("InventoryObjectWithoutMr", "legacy");
    assert_eq!(
        (&gone["resource"]["apiVersion"], &gone["resource"]["kind"]),
        (&json!(SQS), &json!("Queue")),
        "{gone:#}"
    );
    assert_eq!(gone["evidence"]["servedKind"], "Queue.sqs.aws.upbound.io/v1beta1");
    let adopt = format!("kubectl upjet adopt queue.sqs.aws.upbound.io/legacy --id '{}' --import", url(LEGACY));
    assert!(gone["next"].as_str().unwrap().contains(&adopt), "{gone:#}");
    assert!(gone["evidence"]["idRule"].as_str().unwrap().contains("agreed by 2 of 2"), "{gone:#}");
}

#[test]
fn a_reapplied_mr_that_will_duplicate_says_so_and_is_counted() {
    let run = doctor(queue("orders", "uid-orders-2"));
    let report = run.report();
    let orphan = report.finding("InventoryOrphan", "orders");
    let message = orphan["message"].as_str().unwrap();
    assert!(message.contains("the provider's next reconcile creates a second object"), "{message}");
    assert!(message.contains("no name initializer finds it"), "{message}");
    assert_eq!(orphan["suggestedId"], url(ORDERS));
    assert_eq!(report["summary"]["restartDuplicates"], 1, "{}", run.stderr);
    assert!(run.stderr.contains("1 would be created again"), "{}", run.stderr);

    // Paused, it creates nothing: neither said nor counted.
    let mut paused = queue("orders", "uid-orders-2");
    paused["metadata"]["annotations"]["crossplane.io/paused"] = json!("true");
    let run = doctor(paused);
    let report = run.report();
    let orphan = report.finding("InventoryOrphan", "orders");
    assert!(!orphan["message"].as_str().unwrap().contains("second object"), "{orphan:#}");
    assert_eq!(report["summary"]["restartDuplicates"], Value::Null, "{}", run.stderr);
}
