//! `watch --events` under real RBAC: the watcher holds the read-only doctor role and the events
//! role of deploy/ and nothing else; an error finding that appears becomes a Warning Event on the
//! MR (reason = code), and the same finding appearing again raises that Event's count instead of
//! adding another, as client-go's recorder does.

use crate::support::{Cluster, Mr};
use crate::watch::Watch;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const BUCKET: &str = "s3.aws.upbound.io_buckets.yaml";
const API: &str = "s3.aws.upbound.io/v1beta1";
const PENDING: &str = "crossplane.io/external-create-pending";

fn deploy(file: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy").join(file);
    std::fs::read_to_string(path).unwrap().split("\n---\n").map(|d| serde_saphyr::from_str(d).unwrap()).collect()
}

/// The Events about `name` (cluster-scoped MRs record them in `default`).
fn events_of(cluster: &Cluster, name: &str) -> Vec<Value> {
    cluster
        .api
        .list("v1", "Event", Some("default"))
        .into_iter()
        .filter(|e| e["involvedObject"]["name"] == name)
        .collect()
}

fn events_until(cluster: &Cluster, name: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let events = events_of(cluster, name);
        if pred(&events) {
            return events;
        }
        assert!(Instant::now() < deadline, "events never matched: {events:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_error_finding_becomes_one_event_whose_count_grows_each_time_it_appears_again() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    cluster.add(Mr::provisioned(API, "Bucket", "healthy").json());
    let stuck = cluster.add(Mr::provisioned(API, "Bucket", "stuck").create_incomplete().json());
    // What Crossplane's RBAC manager makes for the provider revision, the shipped roles, a watcher.
    cluster.add(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "crossplane:provider:provider-aws-s3-abc:aggregate-to-view",
                     "labels": {"rbac.crossplane.io/aggregate-to-view": "true"}},
        "rules": [{"apiGroups": ["s3.aws.upbound.io"], "resources": ["buckets"], "verbs": ["get", "list", "watch"]}]}));
    for doc in ["clusterrole-doctor.yaml", "clusterrole-watch-events.yaml"].into_iter().flat_map(deploy) {
        cluster.add(doc);
    }
    cluster.api.enable_rbac();
    cluster.api.add_user("watcher-token", "watcher", &[]);
    for role in ["kubectl-upjet-doctor", "kubectl-upjet-watch-events"] {
        cluster.add(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
            "metadata": {"name": format!("{role}-watcher")},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
            "subjects": [{"kind": "User", "name": "watcher", "apiGroup": "rbac.authorization.k8s.io"}]}));
    }
    let kubeconfig = cluster.dir().join("watcher.kubeconfig");
    std::fs::write(&kubeconfig, cluster.server.kubeconfig_with_token(None, "watcher-token")).unwrap();

    let mut w = Watch::start(
        &cluster,
        &["-o", "json", "--no-journal", "--events", "--kubeconfig", kubeconfig.to_str().unwrap()],
    );
    w.wait_ready();
    w.event_until(|e| e["event"] == "appeared" && e["code"] == "CreateIncomplete" && e["name"] == "stuck");
    let events = events_until(&cluster, "stuck", |e| e.iter().any(|e| e["reason"] == "CreateIncomplete"));
    let first = events.iter().find(|e| e["reason"] == "CreateIncomplete").unwrap().clone();
    assert_eq!((first["type"].as_str(), first["count"].as_u64()), (Some("Warning"), Some(1)), "{first}");
    assert_eq!(first["involvedObject"]["uid"], stuck["metadata"]["uid"]);
    let api_version = first["involvedObject"]["apiVersion"].as_str().unwrap();
    assert!(api_version.starts_with("s3.aws.upbound.io/"), "the version the watch lists: {api_version}");
    assert_eq!(first["source"]["component"], "kubectl-upjet-watch");
    assert!(events.iter().all(|e| e["type"] == "Warning"), "only error findings: {events:?}");
    assert!(events_of(&cluster, "healthy").is_empty());

    // The create finishes (the finding clears), then a new create is left pending (it appears
    // again with the same message): the one Event is patched, count 2.
    let pending = stuck["metadata"]["annotations"][PENDING].clone();
    cluster
        .api
        .modify(API, "Bucket", None, "stuck", |o| {
            o["metadata"]["annotations"].as_object_mut().unwrap().remove(PENDING);
        })
        .unwrap();
    w.event_until(|e| e["event"] == "cleared" && e["code"] == "CreateIncomplete");
    cluster
        .api
        .modify(API, "Bucket", None, "stuck", |o| o["metadata"]["annotations"][PENDING] = pending.clone())
        .unwrap();
    w.event_until(|e| e["event"] == "appeared" && e["code"] == "CreateIncomplete");
    let events =
        events_until(&cluster, "stuck", |e| e.iter().any(|e| e["reason"] == "CreateIncomplete" && e["count"] == 2));
    let again: Vec<&Value> = events.iter().filter(|e| e["reason"] == "CreateIncomplete").collect();
    assert_eq!(again.len(), 1, "one Event, not two: {again:?}");
    assert_eq!(again[0]["metadata"]["name"], first["metadata"]["name"]);
    assert_eq!(again[0]["firstTimestamp"], first["firstTimestamp"]);
    assert!(w.terminate().success());
}
