//! `watch` following the providers: with `--logs` each ID a provider logs as created is journaled;
//! a container restart or a new revision is counted, the provider's MRs are judged again, and the
//! MRs whose ID now lives only in the journal are named — the real binary against the in-process
//! API server, which serves the provider pods and their logs.

use crate::support::{Cluster, Mr};
use crate::watch::Watch;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const BUCKET: &str = "s3.aws.upbound.io_buckets.yaml";
const NS: &str = "crossplane-system";
const ID: &str = "pending-bucket-7f3a";
const EXT: &str = "crossplane.io/external-name";

fn pod(name: &str, revision: &str, restarts: i64) -> Value {
    let mut status = json!({"phase": "Running", "startTime": "2024-11-30T09:00:00Z",
        "containerStatuses": [{"name": "package-runtime", "restartCount": restarts, "ready": true,
            "state": {"running": {"startedAt": "2024-11-30T09:00:00Z"}}}]});
    if restarts > 0 {
        status["containerStatuses"][0]["state"] = json!({"running": {"startedAt": "2024-11-30T11:58:00Z"}});
        status["containerStatuses"][0]["lastState"] = json!({"terminated": {"startedAt": "2024-11-30T09:00:00Z",
            "finishedAt": "2024-11-30T11:57:58Z", "reason": "OOMKilled", "exitCode": 137}});
    }
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": NS,
            "labels": {"pkg.crossplane.io/provider": "provider-aws-s3", "pkg.crossplane.io/revision": revision}},
        "spec": {"containers": [{"name": "package-runtime", "image": "xpkg.upbound.io/upbound/provider-aws-s3:v1"}]},
        "status": status})
}

fn created_line(uid: &str) -> String {
    let fields = json!({"trackerUID": uid, "resourceName": "pending", "tfID": ID});
    format!("2024-11-30T11:50:07Z\tDEBUG\tprovider-aws\tAsync create ended.\t{fields}\n")
}

fn journal_has(dir: &std::path::Path, source: &str, id: &str) -> bool {
    std::fs::read_to_string(dir.join("journal.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .any(|r| r["source"] == source && r["id"] == id && r["name"] == "pending")
}

#[test]
fn logged_ids_are_journaled_and_a_restart_is_counted_judged_and_names_what_only_the_journal_knows() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    let mr = cluster.add(
        Mr::provisioned("s3.aws.upbound.io/v1beta1", "Bucket", "pending")
            .without_annotation(EXT)
            .at_provider_id("")
            .create_incomplete()
            .json(),
    );
    let uid = mr["metadata"]["uid"].as_str().unwrap().to_string();
    cluster.add(pod("provider-aws-s3-a", "provider-aws-s3-1", 0));
    cluster.api.set_pod_log(NS, "provider-aws-s3-a", "package-runtime", false, &created_line(&uid));
    let journal = cluster.dir().join("journal");
    let mut w = Watch::start(&cluster, &["-o", "json", "--logs", "--journal", journal.to_str().unwrap()]);
    w.wait_ready();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !journal_has(&journal, "log", ID) {
        assert!(Instant::now() < deadline, "the logged ID was never journaled");
        std::thread::sleep(Duration::from_millis(50));
    }

    // The container restarts: counted, the provider's MRs judged with the new start, and the
    // MR that never got its external-name is named with the ID only the journal holds.
    cluster
        .api
        .modify("v1", "Pod", Some(NS), "provider-aws-s3-a", |o| {
            o["status"] = pod("provider-aws-s3-a", "provider-aws-s3-1", 1)["status"].clone();
        })
        .expect("the pod exists");
    let e = w.event_until(|e| e["event"] == "providerRestarted");
    assert_eq!((e["provider"].as_str(), e["restarts"].as_u64()), (Some("provider-aws-s3"), Some(1)), "{e}");
    let named = w.event_until(|e| e["event"] == "identityOnlyInJournal");
    assert_eq!((named["name"].as_str(), named["id"].as_str()), (Some("pending"), Some(ID)), "{named}");
    assert!(named["next"].as_str().unwrap().ends_with(&format!("--id {ID}")), "{named}");
    w.event_until(|e| {
        e["event"] == "appeared" && e["code"] == "ProviderRestartedDuringCreate" && e["name"] == "pending"
    });
    w.metrics_until(|b| b.contains("upjet_provider_restarts_total{provider=\"provider-aws-s3\"} 1"));

    // A new revision rolls out: its pod replaces the old one.
    cluster.api.remove("v1", "Pod", Some(NS), "provider-aws-s3-a");
    cluster.add(pod("provider-aws-s3-b", "provider-aws-s3-2", 0));
    let e = w.event_until(|e| e["event"] == "providerRestarted");
    assert_eq!(e["newRevisions"], json!(["provider-aws-s3-2"]), "{e}");
    w.metrics_until(|b| b.contains("upjet_provider_restarts_total{provider=\"provider-aws-s3\"} 2"));
    assert!(w.terminate().success());
}

/// Safe-start: a provider whose Deployment Crossplane keeps at zero replicas runs no pod; the
/// watch says so once, and its first pod, once one of its MRDs is active, is its start — no
/// restart, no new revision — while a pod replaced after it is a restart.
#[test]
fn the_first_pod_of_a_provider_scaled_to_zero_is_no_restart() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    cluster.add(bucket_mr("healthy"));
    let mut deployment = crate::guard_cluster::scaled_to_zero_deployment();
    let labels =
        json!({"pkg.crossplane.io/provider": "provider-aws-s3", "pkg.crossplane.io/revision": "provider-aws-s3-1"});
    deployment["metadata"]["name"] = json!("provider-aws-s3-1");
    deployment["spec"]["selector"]["matchLabels"] = labels.clone();
    deployment["spec"]["template"]["metadata"]["labels"] = labels;
    cluster.add(deployment);
    let mut w = Watch::start(&cluster, &["-o", "json"]);
    w.wait_ready();
    w.stderr_until(|l| l.contains("provider-aws-s3: its Deployment crossplane-system/provider-aws-s3-1 runs no pod"));

    // An MRD is activated: Crossplane scales the Deployment to one, its pod starts.
    cluster
        .api
        .modify("apps/v1", "Deployment", Some(NS), "provider-aws-s3-1", |d| d["spec"]["replicas"] = json!(1))
        .expect("the Deployment exists");
    cluster.add(pod("provider-aws-s3-a", "provider-aws-s3-1", 0));
    std::thread::sleep(Duration::from_secs(3));
    // Then the pod is replaced: that is a restart, and the only one.
    cluster.api.remove("v1", "Pod", Some(NS), "provider-aws-s3-a");
    cluster.add(pod("provider-aws-s3-b", "provider-aws-s3-1", 0));
    let e = w.event_until(|e| e["event"] == "providerRestarted");
    assert_eq!((e["restarts"].as_u64(), &e["newRevisions"]), (Some(1), &json!([])), "the replaced pod: {e}");
    w.metrics_until(|b| b.contains("upjet_provider_restarts_total{provider=\"provider-aws-s3\"} 1"));
    assert!(w.terminate().success());
}

fn bucket_mr(name: &str) -> Value {
    Mr::provisioned("s3.aws.upbound.io/v1beta1", "Bucket", name).json()
}
