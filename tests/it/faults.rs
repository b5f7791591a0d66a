//! doctor under a struggling API server: transient failures are retried and the result is right;
//! persistent ones are reported per kind with the "incomplete" exit code, never as a healthy fleet.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr, codes};
use testapi::{Fault, Method};

const RS: &str = "dns.gcp.upbound.io/v1beta2";

fn fleet() -> Cluster {
    let c = Cluster::builder()
        .crd_files(
            "provider-upjet-gcp",
            &[
                "dns.gcp.upbound.io_recordsets.yaml",
                "dns.gcp.upbound.io_managedzones.yaml",
                "dns.gcp.upbound.io_policies.yaml",
            ],
        )
        .start();
    for i in 0..1_100 {
        c.add(Mr::provisioned(RS, "RecordSet", &format!("rs-{i:04}")).json());
    }
    c.add(Mr::provisioned(RS, "RecordSet", "zz-blocked").create_incomplete().json());
    c
}

fn status(path: &str, code: u16, reason: &str, times: Option<u32>, retry_after: Option<u32>) -> Fault {
    Fault::Status {
        method: Some(Method::GET),
        path_contains: path.into(),
        code,
        reason: reason.into(),
        times,
        retry_after_secs: retry_after,
    }
}

/// The result every transient fault must still produce.
fn assert_complete(c: &Cluster, extra: &[&str]) -> serde_json::Value {
    let out = c
        .upjet()
        .args(["doctor", "-o", "json", "--only", "CreateIncomplete"])
        .args(extra)
        .status(1)
        .stderr(format!("{NO_GUARD}\n3 kinds scanned, 1101 managed resources, 1 errors, 0 warnings, 0 info\n"))
        .run();
    let r = out.json();
    assert_eq!(r["summary"]["kindsSkipped"], serde_json::json!([]), "{}", out.stderr);
    assert_eq!(r["summary"]["resourcesScanned"], 1_101);
    assert_eq!(r["summary"]["complete"], true);
    assert_eq!(codes(&r), vec![("CreateIncomplete".to_string(), "zz-blocked".to_string())]);
    r
}

#[test]
fn transient_server_errors_are_retried() {
    let c = fleet();
    c.api.fault(status("recordsets", 500, "InternalError", Some(2), None));
    c.api.fault(status("continue=", 502, "InternalError", Some(1), None));
    assert_complete(&c, &[]);
}

#[test]
fn throttling_honours_retry_after() {
    let c = fleet();
    c.api.fault(status("recordsets", 429, "TooManyRequests", Some(1), Some(1)));
    c.api.fault(status("managedzones", 503, "ServiceUnavailable", Some(1), Some(1)));
    let start = std::time::Instant::now();
    assert_complete(&c, &[]);
    assert!(start.elapsed() >= std::time::Duration::from_millis(900), "waited for Retry-After: {:?}", start.elapsed());
}

#[test]
fn connection_reset_mid_list_is_retried() {
    let c = fleet();
    c.api.fault(Fault::ResetConnection { path_contains: "continue=".into(), times: Some(1) });
    assert_complete(&c, &[]);
}

#[test]
fn slow_pages_beyond_request_timeout_are_retried_then_reported() {
    let c = fleet();
    c.api.fault(Fault::Delay { path_contains: "policies".into(), millis: 2_000 });
    let out = c
        .upjet()
        .args(["doctor", "-o", "json", "--request-timeout", "300ms", "--fail-on", "never", "--retry-budget", "1s"])
        .status(4)
        .stderr_contains("2 kinds scanned, 1101 managed resources, 1 errors, 1 warnings, 0 info, 1 kinds skipped")
        .run();
    let r = out.json();
    let skipped = r["summary"]["kindsSkipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["resource"], "policies.dns.gcp.upbound.io");
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert!(reason.contains("timed out") && reason.ends_with("(after 10 attempts)"), "{skipped:?}");
    assert_eq!(r["summary"]["complete"], false);
    assert_eq!(r["summary"]["resourcesScanned"], 1_101, "the other kinds were read in full");
}

#[test]
fn persistent_errors_never_look_healthy() {
    let c = fleet();
    c.api.fault(status("recordsets", 500, "InternalError", None, None));
    let out = c.upjet().args(["doctor", "-o", "json", "--retry-budget", "1s"]).status(4).stderr(format!("skipped recordsets.dns.gcp.upbound.io: failed (500): Internal error occurred: injected fault (after 10 attempts)\n{NO_GUARD}\n2 kinds scanned, 0 managed resources, 0 errors, 0 warnings, 0 info, 1 kinds skipped\n")).run();
    let r = out.json();
    assert_eq!(r["summary"]["kindsSkipped"][0]["resource"], "recordsets.dns.gcp.upbound.io");
    assert!(out.stderr.contains("1 kinds skipped"));
}

#[test]
fn never_more_requests_in_flight_than_concurrency() {
    let c = Cluster::builder().crds("provider-upjet-gcp").start();
    c.api.fault(Fault::Delay { path_contains: "limit=500".into(), millis: 30 });
    c.api.reset_stats();
    c.upjet()
        .args(["doctor", "--concurrency", "3", "-o", "json"])
        .stderr(format!("{NO_GUARD}\n153 kinds scanned, 0 managed resources, 0 errors, 0 warnings, 0 info\n"))
        .run();
    let stats = c.api.stats();
    assert!(stats.max_in_flight <= 3, "max in flight {}", stats.max_in_flight);
    assert!(stats.max_in_flight >= 2, "the scan does run concurrently: {}", stats.max_in_flight);
}

#[test]
fn unreadable_objects_are_counted_not_fatal() {
    let c = fleet();
    // Stored as-is by the test server: a paused value that is not a string.
    let mut bad = Mr::provisioned(RS, "RecordSet", "zz-bad").json();
    bad["metadata"]["annotations"]["crossplane.io/paused"] = serde_json::json!(true);
    c.add(bad);
    let out = c.upjet().args(["doctor", "-o", "json", "--only", "CreateIncomplete"]).status(1).stderr(format!("recordsets.dns.gcp.upbound.io unreadable object \"zz-bad\": invalid type: boolean `true`, expected a string at line 1 column 155\n{NO_GUARD}\n3 kinds scanned, 1101 managed resources, 1 errors, 0 warnings, 0 info, 1 unreadable objects\n")).run();
    let r = out.json();
    assert_eq!(r["summary"]["resourcesScanned"], 1_101);
    let unreadable = r["summary"]["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1);
    assert!(unreadable[0].as_str().unwrap().contains("\"zz-bad\""), "{unreadable:?}");
    c.upjet().args(["doctor", "-o", "json", "--only", "Paused"]).status(4).stderr(format!("recordsets.dns.gcp.upbound.io unreadable object \"zz-bad\": invalid type: boolean `true`, expected a string at line 1 column 155\n{NO_GUARD}\n3 kinds scanned, 1101 managed resources, 0 errors, 0 warnings, 0 info, 1 unreadable objects\n")).run();
}

#[test]
fn crd_deleted_mid_scan_is_reported_precisely() {
    let c = fleet();
    // The first page succeeds, then the kind disappears (404 on the continue page).
    c.api.fault(status("recordsets?&limit=500&continue=", 404, "NotFound", None, None));
    let out = c.upjet().args(["doctor", "-o", "json"]).status(4).stderr(format!("skipped recordsets.dns.gcp.upbound.io: not found (404): recordsets.dns.gcp.upbound.io \"\" not found\n{NO_GUARD}\n2 kinds scanned, 500 managed resources, 0 errors, 0 warnings, 0 info, 1 kinds skipped\n")).run();
    let r = out.json();
    let skipped = r["summary"]["kindsSkipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0]["resource"], "recordsets.dns.gcp.upbound.io");
    assert!(skipped[0]["reason"].as_str().unwrap().starts_with("not found (404)"));
}

#[test]
fn objects_deleted_between_pages_are_not_errors() {
    let c = fleet();
    c.api.fault(Fault::Delay { path_contains: "continue=".into(), millis: 700 });
    let api = c.api.clone();
    let deleter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        for i in 900..1_000 {
            api.remove(RS, "RecordSet", None, &format!("rs-{i:04}"));
        }
    });
    let out = c
        .upjet()
        .args(["doctor", "-o", "json", "--only", "CreateIncomplete"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n3 kinds scanned, 1001 managed resources, 1 errors, 0 warnings, 0 info\n"))
        .run();
    deleter.join().unwrap();
    let r = out.json();
    assert_eq!(r["summary"]["kindsSkipped"], serde_json::json!([]));
    assert_eq!(
        r["summary"]["resourcesScanned"], 1_001,
        "the 100 objects deleted before their page was read are simply gone"
    );
    assert_eq!(codes(&r), vec![("CreateIncomplete".to_string(), "zz-blocked".to_string())]);
}

#[test]
fn fail_on_incomplete_lets_ci_demand_a_complete_scan() {
    let c = fleet();
    c.api.fault(status("policies", 403, "Forbidden", None, None));
    let doctor = |extra: &[&str]| {
        let mut cmd = c.upjet();
        cmd.args(["doctor", "-o", "json", "--only", "CreateIncomplete"]).args(extra);
        cmd
    };
    // By default an error finding wins over an incomplete scan.
    let r = doctor(&[]).status(1).stderr("skipped policies.dns.gcp.upbound.io: forbidden (403): policies.dns.gcp.upbound.io is forbidden: User \"test\" cannot list resource \"policies\" in API group \"dns.gcp.upbound.io\" at the cluster scope — missing permission: list on policies (dns.gcp.upbound.io); the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --user=test\ncannot tell whether kubectl upjet guard is installed: cannot list its admission policies: forbidden (403): validatingadmissionpolicies.admissionregistration.k8s.io is forbidden: User \"test\" cannot list resource \"validatingadmissionpolicies\" in API group \"admissionregistration.k8s.io\" at the cluster scope — missing permission: list on validatingadmissionpolicies (admissionregistration.k8s.io); the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --user=test\n2 kinds scanned, 1101 managed resources, 1 errors, 0 warnings, 0 info, 1 kinds skipped\n").run().json();
    assert_eq!(r["summary"]["complete"], false, "but the JSON says the scan was partial");
    assert_eq!(r["summary"]["kindsSkipped"][0]["resource"], "policies.dns.gcp.upbound.io");
    // --fail-on-incomplete: incomplete wins.
    let r = doctor(&["--fail-on-incomplete"]).status(4).stderr("skipped policies.dns.gcp.upbound.io: forbidden (403): policies.dns.gcp.upbound.io is forbidden: User \"test\" cannot list resource \"policies\" in API group \"dns.gcp.upbound.io\" at the cluster scope — missing permission: list on policies (dns.gcp.upbound.io); the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --user=test\ncannot tell whether kubectl upjet guard is installed: cannot list its admission policies: forbidden (403): validatingadmissionpolicies.admissionregistration.k8s.io is forbidden: User \"test\" cannot list resource \"validatingadmissionpolicies\" in API group \"admissionregistration.k8s.io\" at the cluster scope — missing permission: list on validatingadmissionpolicies (admissionregistration.k8s.io); the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --user=test\n2 kinds scanned, 1101 managed resources, 1 errors, 0 warnings, 0 info, 1 kinds skipped\n").run().json();
    assert_eq!(codes(&r).len(), 1, "the findings are still reported");
    c.api.clear_faults();
    let r = doctor(&["--fail-on-incomplete"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n3 kinds scanned, 1101 managed resources, 1 errors, 0 warnings, 0 info\n"))
        .run()
        .json();
    assert_eq!(r["summary"]["complete"], serde_json::json!(true));
}

#[test]
fn retry_budget_zero_turns_retries_off() {
    let c = fleet();
    c.api.fault(status("continue=", 500, "InternalError", Some(1), None));
    let out = c.upjet().args(["doctor", "-o", "json", "--retry-budget", "0"]).status(4).stderr(format!("skipped recordsets.dns.gcp.upbound.io: failed (500): Internal error occurred: injected fault\n{NO_GUARD}\n2 kinds scanned, 500 managed resources, 0 errors, 0 warnings, 0 info, 1 kinds skipped\n")).run();
    let r = out.json();
    assert_eq!(r["summary"]["kindsSkipped"][0]["resource"], "recordsets.dns.gcp.upbound.io");
    assert!(r["summary"]["kindsSkipped"][0]["reason"].as_str().unwrap().starts_with("failed (500)"), "{r}");
}

#[test]
fn a_server_that_is_not_there_is_reported_at_once() {
    let c = fleet();
    // Nothing listens on port 1; TLS to a plain-HTTP server fails its handshake. Neither is a
    // transient fault worth the retry budget at first contact: exit 3 at once, as kubectl does.
    for server in ["http://127.0.0.1:1", &c.server.url.replace("http://", "https://")] {
        let config = c.dir().join("elsewhere");
        std::fs::write(&config, c.server.kubeconfig(None).replace(&c.server.url, server)).unwrap();
        let start = std::time::Instant::now();
        c.upjet()
            .arg("doctor")
            .env("KUBECONFIG", &config)
            .status(3)
            .stderr_contains(format!("error: cannot reach the API server at {server}/ while discovering API groups: "))
            .run();
        assert!(start.elapsed() < std::time::Duration::from_secs(3), "{server}: {:?}", start.elapsed());
    }
}
