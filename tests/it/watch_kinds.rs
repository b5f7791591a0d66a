//! Which kinds `kubectl upjet watch` follows and how: a kind without MRs is looked at each
//! resync instead of watched, a kind the role may not list is named while the others go on,
//! and one unreadable MR does not blind the watch to its kind.

use crate::support::{Cluster, Mr};
use crate::watch::{BUCKET, QUEUE, Watch, bucket};
use serde_json::json;
use testapi::Fault;

fn queue(name: &str) -> Mr {
    Mr::provisioned("sqs.aws.upbound.io/v1beta1", "Queue", name)
}

#[test]
fn a_kind_without_mrs_is_not_watched_until_a_resync_finds_one() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET, QUEUE]).start();
    cluster.add(bucket("b").json());
    let mut w = Watch::start(&cluster, &["-o", "json", "--no-journal"]);
    w.wait_ready();
    let said = w.stderr_until(|l| l.contains("every first list judged"));
    assert!(said.contains("watching 1 managed resource kind") && said.contains("1 more without MRs"), "{said}");
    let body = w.metrics_until(|b| b.contains("upjet_watch_kinds 2"));
    assert!(body.contains("upjet_managed_resources{group=\"s3.aws.upbound.io\",kind=\"Bucket\"} 1"), "{body}");
    assert!(!body.contains("kind=\"Queue\""), "a kind without MRs exports no series:\n{body}");
    let recent = cluster.api.stats().recent;
    assert!(!recent.iter().any(|(_, p)| p.contains("/queues?") && p.contains("watch=true")), "{recent:?}");
    assert!(recent.iter().any(|(_, p)| p.contains("/queues?") && p.contains("limit=1")), "looked at: {recent:?}");

    // An MR of that kind appears: the next resync's look finds it and a watch follows the kind.
    cluster.add(queue("orders").create_incomplete().json());
    let e = w.event_until(|e| e["event"] == "appeared" && e["name"] == "orders");
    assert_eq!((e["kind"].as_str(), e["code"].as_str()), (Some("Queue"), Some("CreateIncomplete")));
    w.metrics_until(|b| b.contains("upjet_managed_resources{group=\"sqs.aws.upbound.io\",kind=\"Queue\"} 1"));
    // Watched from now on: a change reaches it without waiting for a resync.
    cluster.add(queue("second").create_incomplete().json());
    w.event_until(|e| e["event"] == "appeared" && e["name"] == "second");
    let recent = cluster.api.stats().recent;
    assert!(recent.iter().any(|(_, p)| p.contains("/queues?") && p.contains("watch=true")), "{recent:?}");
}

#[test]
fn a_kind_the_role_may_not_list_is_named_and_the_others_go_on() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET, QUEUE]).start();
    cluster.add(bucket("stuck").create_incomplete().json());
    cluster.add(queue("q").json());
    cluster.api.fault(Fault::Status {
        method: None,
        path_contains: "/queues".into(),
        code: 403,
        reason: "Forbidden".into(),
        times: None,
        retry_after_secs: None,
    });
    let mut w = Watch::start(&cluster, &["-o", "json", "--no-journal"]);
    let named = w.stderr_until(|l| l.contains("queue.sqs.aws.upbound.io"));
    assert!(named.contains("watch of queue.sqs.aws.upbound.io"), "{named}");
    w.wait_ready();
    w.event_until(|e| e["event"] == "appeared" && e["name"] == "stuck");
    let body = w.metrics_until(|b| b.contains("upjet_watch_synced"));
    assert!(body.contains("upjet_watch_synced 0"), "blind to one kind: not synced\n{body}");
    assert_eq!(w.get("/readyz").0, 200);
}

#[test]
fn an_unreadable_mr_is_named_and_the_rest_of_its_kind_judged() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    let mut garbled = bucket("garbled").json();
    garbled["status"] = json!({"conditions": "not a list"});
    cluster.add(garbled);
    cluster.add(bucket("stuck").create_incomplete().json());
    let mut w = Watch::start(&cluster, &["-o", "json", "--no-journal"]);
    w.wait_ready();
    w.stderr_until(|l| l.contains("\"garbled\""));
    w.event_until(|e| e["event"] == "appeared" && e["name"] == "stuck");
    let body = w.metrics_until(|b| b.contains("upjet_watch_synced 1"));
    assert!(body.contains("upjet_managed_resources{group=\"s3.aws.upbound.io\",kind=\"Bucket\"} 1"), "{body}");
}
