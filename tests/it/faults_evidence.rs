//! The reads behind `--logs` and `history` under transient faults: a provider log or an event
//! list cut off mid-body is read again from the start, and the result equals the clean read
//! (nothing counted twice, nothing silently truncated). Library-level, through the real kube
//! client, with the retry delays shrunk so the tests stay fast.

use crate::support::Cluster;
use kubectl_upjet::commands::evidence::read_pod_log_with;
use serde_json::json;
use testapi::Fault;
use upjet_cluster::logs::LogLimits;
use upjet_cluster::request;
use upjet_cluster::retry::RetryPolicy;
use upjet_evidence::events::parse_events;
use upjet_evidence::logs::Retention;
use upjet_evidence::pods::ProviderPod;

fn cluster() -> Cluster {
    Cluster::builder().crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml"]).start()
}

fn fast() -> RetryPolicy {
    RetryPolicy::within(std::time::Duration::from_millis(500))
}

fn provider_log(c: &Cluster) -> ProviderPod {
    c.add(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "provider-gcp-dns-1", "namespace": "upbound-system",
                     "labels": {"pkg.crossplane.io/provider": "provider-gcp-dns"}},
        "spec": {"containers": [{"name": "package-runtime", "image": "xpkg.upbound.io/upbound/provider-gcp-dns:v1"}]},
        "status": {"phase": "Running"}}));
    let mut log = String::new();
    for i in 0..2_000 {
        let fields = json!({"trackerUID": format!("uid-{i}"), "resourceName": format!("rs-{i}"), "tfID": format!("projects/p/rrsets/rs-{i}")});
        log.push_str(&format!("2024-11-30T11:00:05Z\tDEBUG\tprovider-gcp\tAsync create ended.\t{fields}\n"));
    }
    c.api.set_pod_log("upbound-system", "provider-gcp-dns-1", "package-runtime", false, &log);
    ProviderPod {
        provider: "provider-gcp-dns".into(),
        namespace: "upbound-system".into(),
        name: "provider-gcp-dns-1".into(),
        container: "package-runtime".into(),
        pod_started: None,
        container_started: None,
        restart_count: 0,
        last_termination: None,
        changelog: None,
        revision: None,
        image: None,
        service_account: "default".into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_cut_off_mid_body_is_read_again_whole() {
    let c = cluster();
    let pod = provider_log(&c);
    let conn = c.connect().await;
    let limits = LogLimits { since_seconds: None, limit_bytes: Some(256 * 1024 * 1024) };
    let policy = fast();
    let read = || read_pod_log_with(&conn, &pod, false, limits, Retention::Full, &policy);
    let (clean, clean_summary) = read().await.unwrap();
    assert_eq!(clean_summary.lines, 2_000);
    for seed in [11, 12, 13] {
        c.api.fault(Fault::Chance {
            percent: 100,
            seed,
            fault: Box::new(Fault::CutBody { path_contains: "/log".into(), times: Some(1), framed: false }),
        });
    }
    c.api.fault(Fault::ResetConnection { path_contains: "/log".into(), times: Some(1) });
    c.api.reset_stats();
    let (evidence, summary) = read().await.unwrap();
    assert_eq!(c.api.stats().class("log"), 5, "four failed attempts, then the whole log");
    assert_eq!(summary, clean_summary);
    assert_eq!(evidence, clean);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_that_keeps_failing_is_an_error_not_a_short_log() {
    let c = cluster();
    let pod = provider_log(&c);
    let conn = c.connect().await;
    c.api.fault(Fault::CutBody { path_contains: "/log".into(), times: None, framed: false });
    let limits = LogLimits { since_seconds: None, limit_bytes: None };
    let err = read_pod_log_with(&conn, &pod, false, limits, Retention::Full, &fast()).await.unwrap_err();
    assert!(!err.reason().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_list_cut_short_is_read_again() {
    let c = cluster();
    for i in 0..50 {
        c.add(json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": format!("www.{i}"), "namespace": "default",
                         "annotations": {"crossplane.io/external-name": "www"}},
            "involvedObject": {"kind": "RecordSet", "name": "www", "uid": "u-1", "apiVersion": "dns.gcp.upbound.io/v1beta2"},
            "reason": "CreatedExternalResource", "message": format!("event {i}"), "type": "Normal",
            "count": 1, "firstTimestamp": "2024-11-30T11:00:00Z", "lastTimestamp": "2024-11-30T11:00:00Z"}));
    }
    let conn = c.connect().await;
    let path = "/api/v1/namespaces/default/events?fieldSelector=involvedObject.uid%3Du-1";
    let policy = fast();
    let read = || request::read(&conn, path, "application/json", &policy, parse_events);
    let clean = read().await.unwrap();
    assert_eq!(clean.len(), 50);
    c.api.fault(Fault::CutBody { path_contains: "/events".into(), times: Some(1), framed: true });
    c.api.fault(Fault::CutBody { path_contains: "/events".into(), times: Some(1), framed: false });
    c.api.fault(Fault::Status {
        method: None,
        path_contains: "/events".into(),
        code: 500,
        reason: "InternalError".into(),
        times: Some(1),
        retry_after_secs: None,
    });
    assert_eq!(read().await.unwrap(), clean);
    c.api.fault(Fault::Status {
        method: None,
        path_contains: "/events".into(),
        code: 403,
        reason: "Forbidden".into(),
        times: Some(1),
        retry_after_secs: None,
    });
    assert_eq!(read().await.unwrap_err().status_code(), Some(403), "a definite answer is not retried");
}
