//! An MR deleted with `deletionPolicy: Orphan` and applied again without its external-name, as a
//! real reconciler round showed it: provider-upjet-aws's Queue, whose cloud name Terraform
//! generates (`terraform-…`) when `forProvider.name` is unset. doctor with `--inventory` names the
//! kind of an object whose MR is gone as the run serves it, with the ID its kind's rule gives,
//! and says (and counts) that the re-applied MR's next reconcile creates a second queue.

use crate::support::NO_GUARD;
use crate::support::{Cluster, upjet};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

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

/// A snapshot of two healthy Queues and `orders` as given (re-applied: no external-name, no status
/// yet), and an inventory that lists all three objects and `legacy`'s, whose MR is gone, written
/// into `dir`: the paths of the snapshot and of the inventory.
fn queues_and_inventory(dir: &Path, orders: Value) -> (PathBuf, PathBuf) {
    let snapshot = dir.join("queues.json");
    let items = json!([healthy("billing"), healthy("invoices"), orders]);
    std::fs::write(&snapshot, json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()).unwrap();
    let inventory = dir.join("aws.json");
    let objects = json!([
        tagged("billing", "billing"),
        tagged("invoices", "invoices"),
        tagged(ORDERS, "orders"),
        tagged(LEGACY, "legacy")
    ]);
    std::fs::write(&inventory, json!({"ResourceTagMappingList": objects}).to_string()).unwrap();
    (snapshot, inventory)
}

#[test]
fn an_object_without_its_mr_is_named_by_the_served_kind_and_its_kind_s_id_rule() {
    let dir = tempfile::tempdir().unwrap();
    let (snapshot, inventory) = queues_and_inventory(dir.path(), queue("orders", "uid-orders-2"));
    let run = upjet().arg("doctor").json().from(&snapshot).arg("--inventory").arg(&inventory).status(1).stderr_contains("inventory: 4 objects tagged for a crossplane MR, 3 matched to 3 MRs, 1 without an MR").stderr_contains("1 kinds scanned, 3 managed resources, 1 errors, 2 warnings, 0 info, 1 would be created again by a provider restart").run();
    let report = run.report();
    let gone = report.finding("InventoryObjectWithoutMr", "legacy");
    assert_eq!(
        (&gone["resource"]["apiVersion"], &gone["resource"]["kind"]),
        (&json!(SQS), &json!("Queue")),
        "{gone:#}"
    );
    assert_eq!(gone["evidence"]["servedKind"], "Queue.sqs.aws.upbound.io/v1beta1");
    let adopt = format!("kubectl upjet adopt queue.sqs.aws.upbound.io/legacy --id {} --import", url(LEGACY));
    assert!(gone["next"].as_str().unwrap().contains(&adopt), "{gone:#}");
    assert!(gone["evidence"]["idRule"].as_str().unwrap().contains("agreed by 2 of 2"), "{gone:#}");
}

/// On a live cluster the kind comes from discovery, even with no MR of it left to show it.
#[test]
fn on_a_live_cluster_discovery_names_the_kind_of_an_object_without_its_mr() {
    let c = Cluster::builder().crd_files("provider-upjet-aws", &["sqs.aws.upbound.io_queues.yaml"]).start();
    let inventory = c.dir().join("aws.json");
    std::fs::write(&inventory, json!({"ResourceTagMappingList": [tagged(LEGACY, "legacy")]}).to_string()).unwrap();
    let run = c
        .upjet()
        .arg("doctor")
        .json()
        .arg("--inventory")
        .arg(&inventory)
        .stderr_contains(NO_GUARD)
        .stderr_contains("1 kinds scanned, 0 managed resources, 0 errors, 1 warnings, 0 info")
        .run();
    let r = run.report();
    let gone = r["findings"].as_array().unwrap().iter().find(|f| f["code"] == "InventoryObjectWithoutMr");
    let gone = gone.unwrap_or_else(|| panic!("{:#} {}", r.0, run.stderr));
    assert_eq!(
        (&gone["resource"]["apiVersion"], &gone["resource"]["kind"]),
        (&json!(SQS), &json!("Queue")),
        "{gone:#}"
    );
    // No healthy Queue teaches its ID rule: the command leaves the ID to the user, and says why.
    assert!(gone["next"].as_str().unwrap().contains("--id <external-name>"), "{gone:#}");
    assert!(gone["evidence"]["idRule"].as_str().unwrap().contains("no healthy MR of this kind"), "{gone:#}");
}

#[test]
fn a_reapplied_mr_that_will_duplicate_says_so_and_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let (snapshot, inventory) = queues_and_inventory(dir.path(), queue("orders", "uid-orders-2"));
    let run = upjet().arg("doctor").json().from(&snapshot).arg("--inventory").arg(&inventory).status(1).stderr_contains("inventory: 4 objects tagged for a crossplane MR, 3 matched to 3 MRs, 1 without an MR").stderr_contains("1 kinds scanned, 3 managed resources, 1 errors, 2 warnings, 0 info, 1 would be created again by a provider restart").run();
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
    let (snapshot, inventory) = queues_and_inventory(dir.path(), paused);
    let run = upjet()
        .arg("doctor")
        .json()
        .from(&snapshot)
        .arg("--inventory")
        .arg(&inventory)
        .status(1)
        .stderr_contains("inventory: 4 objects tagged for a crossplane MR, 3 matched to 3 MRs, 1 without an MR")
        .stderr_contains("1 kinds scanned, 3 managed resources, 1 errors, 2 warnings, 1 info")
        .run();
    let report = run.report();
    let orphan = report.finding("InventoryOrphan", "orders");
    assert!(!orphan["message"].as_str().unwrap().contains("second object"), "{orphan:#}");
    assert_eq!(report["summary"]["restartDuplicates"], Value::Null, "{}", run.stderr);
}

/// One change-log entry as the changelogs sidecar prints it, about `name`, the snapshot carrying
/// the UID of the MR it was built from.
fn entry(ts: &str, kind: &str, name: &str, op: &str, external_name: &str, uid: &str, error: Option<&str>) -> String {
    let api_version = if kind == "Queue" { SQS } else { "s3.aws.upbound.io/v1beta1" };
    let mut e = json!({"timestamp": ts, "provider": "provider-aws-sqs:v1.21.0", "apiVersion": api_version,
        "kind": kind, "name": name, "externalName": external_name, "operation": format!("OPERATION_TYPE_{op}"),
        "snapshot": {"apiVersion": api_version, "kind": kind, "metadata": {"name": name, "uid": uid}}});
    if let Some(error) = error {
        e["errorMessage"] = json!(error);
    }
    format!("{e}\n")
}

/// The re-applied Queue `orders` (created 2024-11-30T10:30:00Z) and Bucket `audit-logs`, and the
/// sidecar's entries about their earlier selves: the Queue's first create failed, the second made
/// the queue whose URL shows in the next entry; the Bucket's name was chosen before its create.
fn reapplied_with_change_log(dir: &Path) -> (PathBuf, PathBuf) {
    let mut orders = queue("orders", "uid-orders-2");
    orders["metadata"]["creationTimestamp"] = json!("2024-11-30T10:30:00Z");
    let mut bucket = orders.clone();
    bucket["apiVersion"] = json!("s3.aws.upbound.io/v1beta1");
    bucket["kind"] = json!("Bucket");
    bucket["metadata"]["name"] = json!("audit-logs");
    bucket["metadata"]["uid"] = json!("uid-bucket-2");
    let snapshot = dir.join("mrs.json");
    let list = json!({"apiVersion": "v1", "kind": "List", "items": [orders, bucket]});
    std::fs::write(&snapshot, list.to_string()).unwrap();
    let refused = "creating SQS Queue: operation error SQS: CreateQueue, api error RequestThrottled";
    let log = [
        entry("2024-11-30T09:00:00Z", "Queue", "orders", "CREATE", "", "uid-orders-1", Some(refused)),
        entry("2024-11-30T09:00:30Z", "Queue", "orders", "CREATE", "", "uid-orders-1", None),
        entry("2024-11-30T09:20:00Z", "Queue", "orders", "UPDATE", &url(ORDERS), "uid-orders-1", None),
        entry("2024-11-30T09:01:00Z", "Bucket", "audit-logs", "CREATE", "audit-logs", "uid-bucket-1", None),
    ]
    .concat();
    let sidecar = dir.join("changelogs-sidecar.log");
    std::fs::write(&sidecar, log).unwrap();
    (snapshot, sidecar)
}

#[test]
fn the_change_log_of_an_earlier_mr_names_the_id_a_re_apply_dropped_and_the_plan_offers_it() {
    let dir = tempfile::tempdir().unwrap();
    let (snapshot, sidecar) = reapplied_with_change_log(dir.path());
    let plan = dir.path().join("ids.json");
    let run =
        upjet().arg("doctor").json().from(&snapshot).arg("--log-file").arg(&sidecar).arg("--plan").arg(&plan).status(1).stderr_contains("read 0 log sources (0 lines)").stderr_contains("2 kinds scanned, 2 managed resources, 2 errors, 2 warnings, 0 info, 1 would be created again by a provider restart").run();
    let report = run.report();
    // Provider-assigned: the ID is in the first entry after the create that worked.
    let queue = report.finding("ChangeLogLostOnRecreate", "orders");
    assert_eq!(queue["suggestedId"], url(ORDERS), "{queue:#}");
    assert_eq!(queue["evidence"]["previousUid"], "uid-orders-1");
    let message = queue["message"].as_str().unwrap();
    assert!(message.contains("creates a second object"), "{message}");
    // Named before its create: the create's own entry holds it; an initializer may find it again.
    let bucket = report.finding("ChangeLogLostOnRecreate", "audit-logs");
    assert_eq!(bucket["suggestedId"], "audit-logs", "{bucket:#}");
    assert!(!bucket["message"].as_str().unwrap().contains("second object"), "{bucket:#}");
    assert_eq!(report["summary"]["restartDuplicates"], 1, "the queue only: {}", run.stderr);
    let items: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let item = items.as_array().unwrap().iter().find(|i| i["resource"].as_str().unwrap().contains("orders"));
    assert_eq!(item.map(|i| &i["id"]), Some(&json!(url(ORDERS))), "{items:#}");
}

#[test]
fn history_shows_the_earlier_mr_s_entries_and_a_failed_create_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let (snapshot, sidecar) = reapplied_with_change_log(dir.path());
    let h = upjet()
        .args(["history", "queue.sqs.aws.upbound.io/orders", "--from"])
        .arg(&snapshot)
        .arg("--log-file")
        .arg(&sidecar)
        .json()
        .run()
        .json();
    let texts: Vec<&str> = h["timeline"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["source"] == "changelog")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    let earlier = "change log, earlier MR under this name (uid uid-orders-1): ";
    assert_eq!(texts.len(), 3, "{h:#}");
    assert!(texts.iter().all(|t| t.starts_with(earlier)), "{texts:?}");
    assert!(
        texts[0].contains("failed create by provider-aws-sqs:v1.21.0 (no external-name before it): creating SQS Queue"),
        "{texts:?}"
    );
    assert!(texts[0].contains("; nothing was created"), "{texts:?}");
    assert!(texts[1].contains(": create by provider-aws-sqs:v1.21.0"), "{texts:?}");
    let matters = h["timeline"]["highlights"].as_array().unwrap();
    assert!(
        matters.iter().any(|m| m.as_str().unwrap().contains(&format!("holding {:?}", url(ORDERS)))),
        "the finding is history's highlight: {matters:?}"
    );
}
