//! The composition tree: a v1 claim → XR → MRs tree whose XR was deleted and created again (a new
//! UID, every resource composed anew), one resource garbage-collected, one filled twice and one
//! whose external-name the composition sets; and a v2 namespaced XR beside it. doctor reads the
//! XRDs, XRs and claims (live, or beside the MRs in a snapshot), says each composition code on
//! the MR it concerns, none on the healthy composed MR, and names the XR and claim of each
//! finding.

use crate::support::{Cluster, NO_GUARD, upjet};
use serde_json::{Value, json};
use std::collections::BTreeSet;

const QUEUE: &str = "sqs.aws.upbound.io/v1beta1";
const XR_API: &str = "platform.example.org/v1alpha1";
/// The XR `orders` now (created again) and before.
const XR_UID: &str = "2f0e8a8c-0000-4000-8000-000000000002";
const OLD_XR_UID: &str = "2f0e8a8c-0000-4000-8000-000000000001";
/// The composite's field manager for XR `orders` of `XDatabase.platform.example.org`:
/// `printf ordersXDatabase.platform.example.org | sha256sum`.
const MANAGER: &str =
    "apiextensions.crossplane.io/composed/de307daba892b5b0e42c164b208a1dcd9f3bdaf07265daf71db4e309b4c6d476";

/// The XRD of `XDatabase` with its claim `Database` (Crossplane v1's only kind of XR).
fn xrd() -> Value {
    json!({"apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositeResourceDefinition",
        "metadata": {"name": "xdatabases.platform.example.org"},
        "spec": {"group": "platform.example.org", "scope": "LegacyCluster",
            "names": {"kind": "XDatabase", "plural": "xdatabases"},
            "claimNames": {"kind": "Database", "plural": "databases"},
            "versions": [{"name": "v1alpha1", "served": true, "referenceable": true}]}})
}

/// The XR, created again: it lists the resources its functions desire now.
fn xr() -> Value {
    let refs: Vec<Value> = ["orders-k2m4p", "orders-c9v8b", "orders-t5y6u", "orders-n1b2v"]
        .iter()
        .map(|n| json!({"apiVersion": QUEUE, "kind": "Queue", "name": n}))
        .collect();
    json!({"apiVersion": XR_API, "kind": "XDatabase",
        "metadata": {"name": "orders", "uid": XR_UID, "creationTimestamp": "2024-11-30T10:00:00Z",
            "labels": {"crossplane.io/composite": "orders", "crossplane.io/claim-name": "orders",
                "crossplane.io/claim-namespace": "team-a"}},
        "spec": {"compositionRef": {"name": "xdatabases-aws"}, "resourceRefs": refs,
            "claimRef": {"apiVersion": XR_API, "kind": "Database", "name": "orders", "namespace": "team-a"}},
        "status": {"conditions": [{"type": "Ready", "status": "False", "reason": "Creating"},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]}})
}

/// The claim bound to it.
fn claim() -> Value {
    json!({"apiVersion": XR_API, "kind": "Database",
        "metadata": {"name": "orders", "namespace": "team-a", "uid": "c1a1m000-0000-4000-8000-000000000001"},
        "spec": {"compositionRef": {"name": "xdatabases-aws"},
            "resourceRef": {"apiVersion": XR_API, "kind": "XDatabase", "name": "orders"}}})
}

/// A Queue composed as `resource` by the XR of `xr_uid`, holding `id` (none: composed bare).
fn queue(name: &str, resource: &str, xr_uid: &str, id: Option<&str>) -> Value {
    let mut q = json!({"apiVersion": QUEUE, "kind": "Queue",
        "metadata": {"name": name, "uid": format!("uid-{name}"), "creationTimestamp": "2024-11-30T09:00:00Z",
            "labels": {"crossplane.io/composite": "orders", "crossplane.io/claim-name": "orders",
                "crossplane.io/claim-namespace": "team-a"},
            "annotations": {"crossplane.io/composition-resource-name": resource},
            "ownerReferences": [{"apiVersion": XR_API, "kind": "XDatabase", "name": "orders", "uid": xr_uid,
                "controller": true, "blockOwnerDeletion": true}],
            "finalizers": ["finalizer.managedresource.crossplane.io"]},
        "spec": {"forProvider": {"region": "us-east-1"}, "deletionPolicy": "Delete"},
        "status": {"conditions": [
            {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T09:05:00Z"},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T09:05:00Z"}]}});
    match id {
        Some(id) => {
            q["metadata"]["annotations"]["crossplane.io/external-name"] = json!(id);
            q["status"]["atProvider"] = json!({"arn": format!("arn:aws:sqs:us-east-1:111122223333:{id}")});
        }
        None => {
            q["status"]["conditions"] = json!([{"type": "Synced", "status": "True", "reason": "ReconcileSuccess",
                "lastTransitionTime": "2024-11-30T10:00:05Z"}]);
            q["metadata"]["creationTimestamp"] = json!("2024-11-30T10:00:02Z");
        }
    }
    q
}

/// What a composite's server-side apply leaves in `managedFields`: its manager owns these paths.
fn applied_by_composite(mut q: Value, fields: Value) -> Value {
    q["metadata"]["managedFields"] = json!([
        {"manager": MANAGER, "operation": "Apply", "apiVersion": QUEUE, "time": "2024-11-30T10:00:02Z",
            "fieldsType": "FieldsV1", "fieldsV1": fields},
        {"manager": "provider-aws-sqs", "operation": "Update", "apiVersion": QUEUE, "time": "2024-11-30T10:00:05Z",
            "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:conditions": {}}}, "subresource": "status"}]);
    q
}

/// The v1 tree's MRs: what each tells, by name.
fn queues() -> Vec<Value> {
    let mut collected = queue("orders-d7e8f", "dead-letter", XR_UID, Some("orders-dlq"));
    collected["metadata"]["labels"].as_object_mut().unwrap().remove("crossplane.io/composite");
    collected["metadata"]["deletionTimestamp"] = json!("2024-11-30T10:00:03Z");
    let owned = applied_by_composite(
        queue("orders-n1b2v", "events", XR_UID, Some("orders-events")),
        json!({"f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {},
            "f:crossplane.io/composition-resource-name": {}}}, "f:spec": {"f:deletionPolicy": {}}}),
    );
    vec![
        // The earlier XR's queue: still there, holding the ID, controlled by a UID that is gone.
        queue("orders-a1b2c", "queue", OLD_XR_UID, Some("orders-queue")),
        // The XR created again composed `queue` anew, bare.
        queue("orders-k2m4p", "queue", XR_UID, None),
        // `dead-letter` dropped by a function: garbage-collected, its deletion deletes the queue.
        collected,
        // `cache` filled twice.
        queue("orders-c9v8b", "cache", XR_UID, Some("orders-cache")),
        queue("orders-c0x1z", "cache", XR_UID, Some("orders-cache-2")),
        // The healthy one.
        queue("orders-t5y6u", "audit", XR_UID, Some("orders-audit")),
        owned,
    ]
}

/// Every object of the v1 tree, as `kubectl get xrd,xdatabase,database,queue -A -o json` lists them.
fn v1_tree() -> Vec<Value> {
    [vec![xrd(), xr(), claim()], queues()].concat()
}

/// What doctor reports on the composition codes: `(code, name)`, sorted.
fn composition_codes(report: &Value) -> Vec<(String, String)> {
    let mut codes: Vec<(String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"].as_str().unwrap().starts_with("Compos"))
        .map(|f| (f["code"].as_str().unwrap().to_string(), f["resource"]["name"].as_str().unwrap().to_string()))
        .collect();
    codes.sort();
    codes
}

/// The codes the v1 tree holds, each once where it belongs, none on `orders-t5y6u`.
fn expected() -> Vec<(String, String)> {
    let mut want: Vec<(String, String)> = [
        ("ComposedDuplicate", "orders-c0x1z"),
        ("ComposedDuplicate", "orders-c9v8b"),
        ("ComposedGarbageCollected", "orders-d7e8f"),
        ("ComposedOrphan", "orders-a1b2c"),
        ("ComposedRecreated", "orders-k2m4p"),
        ("CompositionOwnsIdentity", "orders-n1b2v"),
    ]
    .iter()
    .map(|(c, n)| (c.to_string(), n.to_string()))
    .collect();
    want.sort();
    want
}

/// The findings' shared checks: the adoption the re-created MR needs, the XR and claim named.
fn check_report(report: &Value) {
    assert_eq!(composition_codes(report), expected(), "{report:#}");
    let find = |code: &str, name: &str| {
        report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["code"] == code && f["resource"]["name"] == name)
            .unwrap()
    };
    let recreated = find("ComposedRecreated", "orders-k2m4p");
    assert_eq!(recreated["next"], "kubectl upjet adopt queue.sqs.aws.upbound.io/orders-k2m4p --id orders-queue");
    assert_eq!(recreated["evidence"]["earlierMr"], "queue.sqs.aws.upbound.io/orders-a1b2c");
    let orphan = find("ComposedOrphan", "orders-a1b2c");
    assert_eq!(orphan["severity"], "error", "the collector deletes it, and its provider the queue");
    assert!(orphan["next"].as_str().unwrap().contains(r#"{"spec":{"deletionPolicy":"Orphan"}}"#), "{orphan:#}");
    let collected = find("ComposedGarbageCollected", "orders-d7e8f");
    assert!(collected["next"].as_str().unwrap().starts_with("kubectl patch queue.sqs.aws.upbound.io orders-d7e8f"));
    let owned = find("CompositionOwnsIdentity", "orders-n1b2v");
    assert_eq!(owned["evidence"]["composite"], "xdatabase.platform.example.org/orders");
    assert_eq!(owned["evidence"]["fieldManager"], MANAGER);
    // Every finding of the tree names its XR and claim; the summary counts one tree.
    for f in report["findings"].as_array().unwrap().iter().filter(|f| f["code"].as_str().unwrap().starts_with("Compos"))
    {
        assert_eq!(f["state"]["claim"]["name"], "orders", "{f:#}");
        assert_eq!(f["state"]["claim"]["namespace"], "team-a", "{f:#}");
        assert_eq!(f["state"]["composite"]["name"], "orders", "{f:#}");
    }
    assert_eq!(report["summary"]["treesWithFindings"], 1, "{:#}", report["summary"]);
}

#[test]
fn a_snapshot_holding_the_tree_shows_each_composition_code_where_it_belongs() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = dir.path().join("tree.json");
    std::fs::write(&snapshot, json!({"apiVersion": "v1", "kind": "List", "items": v1_tree()}).to_string()).unwrap();
    let run = upjet()
        .args(["doctor", "-o", "json"])
        .from(&snapshot)
        .status(1)
        .stderr(format!(
            "{}\n{}\n",
            tree_read(1, 1, 1),
            "1 kinds scanned, 7 managed resources, 5 errors, 1 warnings, 1 info"
        ))
        .run();
    check_report(&run.json());

    // Without the XRs and claims, nothing is said that needs them: the earlier MR's XR is
    // unknown, not gone, and no healthy MR gets a composition code.
    let bare = dir.path().join("bare.json");
    std::fs::write(&bare, json!({"apiVersion": "v1", "kind": "List", "items": queues()}).to_string()).unwrap();
    let codes = composition_codes(
        &upjet()
            .args(["doctor", "-o", "json"])
            .from(&bare)
            .status(1)
            .stderr("1 kinds scanned, 7 managed resources, 4 errors, 1 warnings, 1 info\n")
            .run()
            .json(),
    );
    assert!(!codes.iter().any(|(c, _)| c == "ComposedOrphan"), "{codes:?}");
    assert!(!codes.iter().any(|(_, n)| n == "orders-t5y6u"), "{codes:?}");
}

#[test]
fn doctor_over_a_cluster_lists_the_xrds_xrs_and_claims_and_judges_the_tree() {
    let c = Cluster::builder()
        .crd_files("provider-upjet-aws", &["sqs.aws.upbound.io_queues.yaml"])
        .crd_files("crossplane", &["apiextensions.crossplane.io_compositeresourcedefinitions.yaml"])
        .start();
    c.api.add_crd_yaml(XR_CRDS).unwrap();
    for obj in v1_tree() {
        c.add(obj);
    }
    let run = c
        .upjet()
        .args(["doctor", "-o", "json"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n1 kinds scanned, 7 managed resources, 5 errors, 1 warnings, 1 info\n"))
        .run();
    check_report(&run.json());
}

/// The CRDs Crossplane makes of the XRD: the XR's (cluster-scoped) and the claim's.
const XR_CRDS: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: xdatabases.platform.example.org}
spec:
  group: platform.example.org
  names: {kind: XDatabase, plural: xdatabases, singular: xdatabase, listKind: XDatabaseList, categories: [composite]}
  scope: Cluster
  versions:
  - {name: v1alpha1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: databases.platform.example.org}
spec:
  group: platform.example.org
  names: {kind: Database, plural: databases, singular: database, listKind: DatabaseList, categories: [claim]}
  scope: Namespaced
  versions:
  - {name: v1alpha1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
"#;

/// The tree `crossplane resource trace database orders -n team-a -o json` prints: the claim, its
/// XR, and the resources the XR lists.
fn trace() -> Value {
    let listed = ["orders-k2m4p", "orders-c9v8b", "orders-t5y6u", "orders-n1b2v"];
    let children: Vec<Value> = queues()
        .into_iter()
        .filter(|q| listed.contains(&q["metadata"]["name"].as_str().unwrap()))
        .map(|q| json!({"object": q, "children": []}))
        .collect();
    json!({"object": claim(), "children": [{"object": xr(), "children": children}]})
}

#[test]
fn a_trace_beside_the_other_mrs_reads_as_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("trace.json"), trace().to_string()).unwrap();
    let unlisted: Vec<Value> = queues()
        .into_iter()
        .filter(|q| ["orders-a1b2c", "orders-c0x1z", "orders-d7e8f"].contains(&q["metadata"]["name"].as_str().unwrap()))
        .collect();
    std::fs::write(
        dir.path().join("mrs.json"),
        json!({"apiVersion": "v1", "kind": "List", "items": unlisted}).to_string(),
    )
    .unwrap();
    // No XRD: the trace's objects say by their shape which is the claim and which the XR.
    let run = upjet()
        .args(["doctor", "-o", "json"])
        .from(dir.path())
        .status(1)
        .stderr(format!(
            "{}\n{}\n",
            tree_read(0, 1, 1),
            "1 kinds scanned, 7 managed resources, 5 errors, 1 warnings, 1 info"
        ))
        .run();
    check_report(&run.json());
}

#[test]
fn doctor_on_one_composed_mr_judges_it_with_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = dir.path().join("tree.json");
    std::fs::write(&snapshot, json!({"apiVersion": "v1", "kind": "List", "items": v1_tree()}).to_string()).unwrap();
    let one = |name: &str, status: i32| {
        let target = format!("queue.sqs.aws.upbound.io/{name}");
        let doc = upjet()
            .args(["doctor", &target, "-o", "json"])
            .from(&snapshot)
            .status(status)
            .stderr(format!("{}\n", tree_read(1, 1, 1)))
            .run()
            .json();
        let codes: Vec<String> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_string())
            .filter(|c| c.starts_with("Compos"))
            .collect();
        codes
    };
    assert_eq!(one("orders-k2m4p", 1), ["ComposedRecreated"]);
    assert_eq!(one("orders-a1b2c", 1), ["ComposedOrphan"]);
    assert!(one("orders-t5y6u", 0).is_empty());
}

/// `doctor CLAIM` over the bundled examples: the claim's tree, drawn as `crossplane resource
/// trace` draws it with each MR's ID and codes, then the findings of that tree alone.
#[test]
fn doctor_on_a_claim_draws_its_tree_and_keeps_its_findings() {
    let run = upjet()
        .args(["doctor", "database.platform.example.org/orders", "-n", "team-a"])
        .from("examples/compositions")
        .status(1)
        .stderr(EXAMPLES_STDERR)
        .run();
    insta::assert_snapshot!("doctor_claim_tree", run.stdout);
    let json = upjet()
        .args(["doctor", "app/storefront", "-n", "shop", "-o", "json"])
        .from("examples/compositions")
        .status(1)
        .stderr(EXAMPLES_STDERR)
        .run()
        .json();
    let names: BTreeSet<String> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["resource"]["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        BTreeSet::from(["storefront-a8s7d".to_string(), "storefront-m3d1a".into(), "storefront-z2x4c".into()])
    );
}

/// What doctor says on stderr of the composition tree it read beside a snapshot's MRs.
fn tree_read(xrds: usize, xrs: usize, claims: usize) -> String {
    format!("composition tree read beside the managed resources: {xrds} XRD(s), {xrs} XR(s), {claims} claim(s)")
}

/// doctor's stderr over `examples/compositions`.
const EXAMPLES_STDERR: &str = "composition tree read beside the managed resources: 2 XRD(s), 2 XR(s), 1 claim(s)\n\
    2 kinds scanned, 8 managed resources, 5 errors, 1 warnings, 1 info\n";
