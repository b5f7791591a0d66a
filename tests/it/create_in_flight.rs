//! A create in flight is not stuck: what a real crossplane-runtime reconciler leaves while its
//! synchronous Create runs (the pending mark on a fresh MR, no status written yet), judged by the
//! real binary against the in-process API server, the reconcile timeout's boundary both ways —
//! doctor, adopt's refusal and the watch, which judges it again the moment its result is due.

use crate::support::NO_GUARD;
use crate::support::upjet::NOW;
use crate::support::{Cluster, Mr};
use crate::watch::{QUEUE, Watch};
use serde_json::{Value, json};

const SQS: &str = "sqs.aws.upbound.io/v1beta1";
const PENDING: &str = "crossplane.io/external-create-pending";

fn cluster() -> Cluster {
    Cluster::builder().crd_files("provider-upjet-aws", &[QUEUE]).start()
}

/// A Queue whose reconcile marked its create pending at `marked` and is inside Create: the
/// name initializer has run, nothing has written status yet.
fn creating(name: &str, marked: &str) -> Value {
    let mut obj = Mr::provisioned(SQS, "Queue", name).annotation(PENDING, marked).json();
    obj["metadata"]["creationTimestamp"] = json!(marked);
    obj.as_object_mut().unwrap().remove("status");
    obj
}

/// The (code, severity) pairs doctor reports on one MR.
fn judged(report: &Value, name: &str) -> Vec<(String, String)> {
    let findings = report["findings"].as_array().unwrap().iter().filter(|f| f["resource"]["name"] == name);
    findings.map(|f| (f["code"].as_str().unwrap().into(), f["severity"].as_str().unwrap().into())).collect()
}

fn pair(code: &str, severity: &str) -> (String, String) {
    (code.into(), severity.into())
}

#[test]
fn doctor_tells_a_create_in_flight_from_a_stuck_one_by_the_reconcile_timeout() {
    assert_eq!(NOW, "2024-11-30T12:00:00Z", "the times below are relative to it");
    let c = cluster();
    c.add(creating("slow", "2024-11-30T11:59:00Z"));
    c.add(creating("dead", "2024-11-30T11:50:00Z"));
    // A later reconcile already stopped at the gate: stuck however young the mark.
    let mut gated = creating("gated", "2024-11-30T11:59:55Z");
    gated["status"] = json!({"conditions": [
        {"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": "2024-11-30T11:59:56Z"},
        {"type": "Synced", "status": "False", "reason": "ReconcileError", "lastTransitionTime": "2024-11-30T11:59:56Z",
         "message": "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed"}]});
    c.add(gated);

    let report = c
        .upjet()
        .args(["doctor", "-o", "json"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n1 kinds scanned, 3 managed resources, 2 errors, 2 warnings, 2 info\n"))
        .run()
        .report();
    // upjet's 3m: marked a minute ago, its result is due at 12:02:31. Info only, as kstatus's
    // "no conditions yet" is on an MR younger than one reconcile.
    assert_eq!(judged(&report, "slow"), [pair("CreateInFlight", "info"), pair("KstatusMisleading", "info")]);
    let slow = report.finding("CreateInFlight", "slow");
    assert_eq!(slow["evidence"]["resultDue"], "2024-11-30T12:02:31Z");
    assert_eq!(judged(&report, "dead"), [pair("CreateIncomplete", "error"), pair("KstatusMisleading", "warning")]);
    assert_eq!(judged(&report, "gated")[0], pair("CreateIncomplete", "error"));

    // The boundary both ways: due = mark + 1 s + timeout + 30 s grace; now is 12:00:00.
    let with = |timeout: &str, status: i32| {
        let run =
            c.upjet().args(["doctor", "queue/slow", "-o", "json", "--create-timeout", timeout]).status(status).run();
        judged(&run.report(), "slow")
    };
    assert_eq!(with("30s", 0)[0], pair("CreateInFlight", "info"), "due at 12:00:01");
    assert_eq!(with("29s", 1)[0], pair("CreateIncomplete", "error"), "due at 12:00:00");

    // The one-MR view says the same: the marks are incomplete but may still be running, and a
    // delete waits for that reconcile instead of hanging at the gate.
    let detail = c.upjet().args(["doctor", "queue/slow"]).run().stdout;
    assert!(
        detail.contains("but the create may still be running: its result is due by 2024-11-30T12:02:31Z"),
        "{detail}"
    );
    assert!(detail.contains("On delete:       nothing until the create in flight records its result"), "{detail}");

    // Only info on a fleet whose one create is in flight: nothing for CI to fail on.
    let only = cluster();
    only.add(creating("slow", "2024-11-30T11:59:00Z"));
    only.upjet()
        .args(["doctor", "-o", "json"])
        .stderr(format!("{NO_GUARD}\n1 kinds scanned, 1 managed resources, 0 errors, 0 warnings, 2 info\n"))
        .run();
}

#[test]
fn a_zero_create_timeout_is_refused_when_parsed() {
    let run = crate::support::upjet()
        .args(["doctor", "--from", "examples/fleet", "--create-timeout", "0"])
        .status(2)
        .stderr_contains("For more information, try '--help'.")
        .run();
    assert!(run.stderr.contains("--create-timeout") && run.stderr.contains("more than zero"), "{}", run.stderr);
}

#[test]
fn adopt_refuses_a_create_in_flight_and_goes_on_past_it() {
    let c = cluster();
    c.add(creating("slow", "2024-11-30T11:59:00Z"));
    let refused =
        c.upjet().args(["adopt", "queue/slow", "--id", "slow-queue", "--yes", "--dry-run"]).status(5).stderr_contains("); adopting now races it. Wait and check with `kubectl upjet doctor queue.sqs.aws.upbound.io/slow`, or pass --force").run();
    assert!(refused.stderr.contains("may still be running"), "{}", refused.stderr);
    assert!(refused.stderr.contains("2024-11-30T12:02:31Z"), "names when its result is due: {}", refused.stderr);
    let past = ["adopt", "queue/slow", "--id", "slow-queue", "--yes", "--dry-run", "--create-timeout", "29s"];
    let run = c.upjet().args(past).run();
    assert!(!run.stderr.contains("may still be running"), "{}", run.stderr);
}

/// The watch judges a create in flight again the moment its result is due, with no resync to
/// wait for: the finding turns from CreateInFlight to CreateIncomplete and only then does the
/// pending age (what the alert reads) appear.
#[test]
fn the_watch_turns_a_create_in_flight_into_a_stuck_one_when_its_result_is_due() {
    let c = cluster();
    // 1 s timeout: due = 11:59:30 + 1 + 1 + 30 = 12:00:02, two seconds into the watch's clock.
    c.add(creating("slow", "2024-11-30T11:59:30Z"));
    let mut w = Watch::start(&c, &["-o", "json", "--no-journal", "--create-timeout", "1s", "--resync", "1h"]);
    w.wait_ready();
    let first = w.event_until(|e| e["event"] == "appeared" && e["name"] == "slow" && e["code"] != "KstatusMisleading");
    assert_eq!((first["code"].as_str(), first["severity"].as_str()), (Some("CreateInFlight"), Some("info")));
    let metrics = w.metrics_until(|b| b.contains("code=\"CreateInFlight\""));
    assert!(!metrics.contains("upjet_managed_resource_create_pending_seconds{"), "no age while in flight:\n{metrics}");

    let stuck = w.event_until(|e| e["event"] == "appeared" && e["code"] == "CreateIncomplete");
    assert_eq!(stuck["name"], "slow");
    let body = w.metrics_until(|b| b.contains("upjet_managed_resource_create_pending_seconds{"));
    assert!(!body.contains("code=\"CreateInFlight\""), "{body}");
    assert!(w.terminate().success());
}
