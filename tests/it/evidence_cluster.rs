//! Evidence against the in-process API server: provider pods with restarts, current and previous
//! container logs, events with the recorder's external-name annotation, and the exec workspace.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr, codes};
use serde_json::json;
use std::io::Write;

const RS: &str = "dns.gcp.upbound.io/v1beta2";

fn cluster() -> Cluster {
    Cluster::builder()
        .crd_files(
            "provider-upjet-gcp",
            &["dns.gcp.upbound.io_recordsets.yaml", "storage.gcp.upbound.io_defaultobjectaccesscontrols.yaml"],
        )
        .start()
}

fn provider_pod(c: &Cluster, provider: &str, name: &str, restarted: bool) {
    let mut status = json!({
        "phase": "Running", "startTime": "2024-11-30T09:00:00Z",
        "containerStatuses": [{"name": "package-runtime", "restartCount": 0, "ready": true,
                               "state": {"running": {"startedAt": "2024-11-30T09:00:00Z"}}}]
    });
    if restarted {
        status["containerStatuses"][0]["restartCount"] = json!(1);
        status["containerStatuses"][0]["state"] = json!({"running": {"startedAt": "2024-11-30T11:00:10Z"}});
        status["containerStatuses"][0]["lastState"] = json!({"terminated": {"startedAt": "2024-11-30T09:00:00Z", "finishedAt": "2024-11-30T11:00:08Z", "reason": "OOMKilled", "exitCode": 137}});
    }
    c.add(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "upbound-system",
                     "labels": {"pkg.crossplane.io/provider": provider, "pkg.crossplane.io/revision": format!("{provider}-abc")}},
        "spec": {"containers": [{"name": "package-runtime", "image": "xpkg.upbound.io/upbound/provider-gcp-dns:v1"}]},
        "status": status}));
}

fn debug_line(ts: &str, msg: &str, fields: serde_json::Value) -> String {
    format!("{ts}\tDEBUG\tprovider-gcp\t{msg}\t{fields}\n")
}

/// An MR blocked mid-create, whose provider died after the async create returned an ID.
fn blocked_with_orphan(c: &Cluster) -> String {
    let mr = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation("crossplane.io/external-name")
            .at_provider_id("")
            .create_incomplete()
            .json(),
    );
    let uid = mr["metadata"]["uid"].as_str().unwrap().to_string();
    let previous = debug_line(
        "2024-11-30T11:00:05Z",
        "Async create starting...",
        json!({"trackerUID": uid, "resourceName": "www", "tfID": ""}),
    ) + &debug_line(
        "2024-11-30T11:00:07Z",
        "Async create ended.",
        json!({"trackerUID": uid, "resourceName": "www", "tfID": "projects/p/managedZones/z/rrsets/www.example.com./A"}),
    );
    let current = debug_line(
        "2024-11-30T11:00:12Z",
        "Instance state not found in cache, reconstructing...",
        json!({"uid": uid, "name": "www"}),
    ) + &debug_line(
        "2024-11-30T11:00:12Z",
        "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed",
        json!({"controller": "managed/dns.gcp.upbound.io/v1beta2, kind=recordset", "request": {"name": "www"}, "uid": uid, "version": "9", "external-name": ""}),
    );
    provider_pod(c, "provider-gcp-dns", "provider-gcp-dns-1", true);
    c.api.set_pod_log("upbound-system", "provider-gcp-dns-1", "package-runtime", true, &previous);
    c.api.set_pod_log("upbound-system", "provider-gcp-dns-1", "package-runtime", false, &current);
    uid
}

#[test]
fn doctor_logs_reads_current_and_previous_containers_in_any_namespace() {
    let c = cluster();
    let uid = blocked_with_orphan(&c);
    // A second provider that only logs at info level.
    provider_pod(&c, "provider-gcp-storage", "provider-gcp-storage-1", false);
    c.api.set_pod_log(
        "upbound-system",
        "provider-gcp-storage-1",
        "package-runtime",
        false,
        "2024-11-30T09:00:01Z\tINFO\tprovider-gcp\tStarting provider\t{}\n",
    );
    let out = c.upjet().args(["doctor", "--logs", "-o", "json"]).status(1).stderr(format!("read 3 log sources (5 lines)\n{NO_GUARD}\n2 kinds scanned, 1 managed resources, 3 errors, 2 warnings, 1 info\n")).run();
    let r = out.json();
    let got = codes(&r);
    for want in [
        ("OrphanCandidate", "www"),
        ("ProviderRestartedDuringCreate", "www"),
        ("CreateIncomplete", "www"),
        ("DebugLogsMissing", "provider-gcp-storage"),
    ] {
        assert!(got.contains(&(want.0.to_string(), want.1.to_string())), "{want:?} missing in {got:?}\n{}", out.stderr);
    }
    assert!(!got.iter().any(|(c, n)| c == "DebugLogsMissing" && n == "provider-gcp-dns"), "dns logs at debug level");
    let orphan = r["findings"].as_array().unwrap().iter().find(|f| f["code"] == "OrphanCandidate").unwrap();
    assert_eq!(orphan["suggestedId"], "projects/p/managedZones/z/rrsets/www.example.com./A");
    assert_eq!(orphan["resource"]["uid"], uid.as_str());
    assert_eq!(orphan["state"]["lastLoggedId"]["id"], "projects/p/managedZones/z/rrsets/www.example.com./A");
    assert_eq!(orphan["state"]["lastLoggedId"]["time"], "2024-11-30T11:00:07Z");
    let restart =
        r["findings"].as_array().unwrap().iter().find(|f| f["code"] == "ProviderRestartedDuringCreate").unwrap();
    assert_eq!(restart["evidence"]["restartedAt"], "2024-11-30T11:00:10Z");
    let logs_read: Vec<String> =
        c.api.stats().recent.iter().map(|r| format!("{r:?}")).filter(|r| r.contains("/log")).collect();
    assert!(logs_read.iter().any(|r| r.contains("previous=true")), "previous container read: {logs_read:?}");
    // The plan carries the orphan's ID.
    let plan = c.dir().join("plan.json");
    c.upjet()
        .args(["doctor", "--logs", "-o", "json", "--plan"])
        .arg(&plan)
        .status(1)
        .stderr_contains("read 3 log sources (5 lines)")
        .stderr_contains("2 kinds scanned, 1 managed resources, 3 errors, 2 warnings, 1 info")
        .run();
    let items: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    assert_eq!(
        items,
        json!([{"cluster": "test", "resource": "recordset.dns.gcp.upbound.io/www", "id": "projects/p/managedZones/z/rrsets/www.example.com./A", "reason": "OrphanCandidate"}])
    );
    // --provider-namespace that holds no provider: said, not fatal.
    let out = c
        .upjet()
        .args(["doctor", "--logs", "--provider-namespace", "crossplane-system", "-o", "json"])
        .status(1)
        .stderr_contains("read 0 log sources (0 lines)")
        .stderr_contains("2 kinds scanned, 1 managed resources, 2 errors, 1 warnings, 0 info")
        .run();
    assert!(out.stderr.contains("no provider pods found"));
}

#[test]
fn log_files_gzip_and_stdin() {
    let c = cluster();
    let mr = c.add(Mr::provisioned(RS, "RecordSet", "api").without_annotation("crossplane.io/external-name").json());
    let uid = mr["metadata"]["uid"].as_str().unwrap();
    let line =
        debug_line("2024-11-30T11:00:07Z", "Async create ended.", json!({"trackerUID": uid, "tfID": "rrset-api"}));
    let gz = c.dir().join("provider.log.gz");
    let mut enc = flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::default());
    enc.write_all(b"garbage \xff\xfe not a log line\n").unwrap();
    enc.write_all(line.as_bytes()).unwrap();
    enc.finish().unwrap();
    let out = c
        .upjet()
        .args(["doctor", "-o", "json", "--only", "OrphanCandidate,ExternalNameMissing", "--log-file"])
        .arg(&gz)
        .status(1)
        .stderr_contains("read 1 log sources (2 lines)")
        .stderr_contains("2 kinds scanned, 1 managed resources, 1 errors, 1 warnings, 0 info")
        .run();
    assert_eq!(
        codes(&out.json()),
        vec![("ExternalNameMissing".into(), "api".into()), ("OrphanCandidate".into(), "api".into())]
    );
    assert!(out.stderr.contains("1 of 2 lines were not provider log records"));
    let out =
        c.upjet().args(["doctor", "-o", "json", "--only", "OrphanCandidate", "--log-file", "-"]).stdin(line).status(1).stderr(format!("read 1 log sources (1 lines)\n{NO_GUARD}\n2 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 0 info\n")).run();
    assert_eq!(codes(&out.json()), vec![("OrphanCandidate".into(), "api".into())]);
    c.upjet()
        .args(["doctor", "--log-file", "/nonexistent.log"])
        .status(2)
        .stderr_contains("cannot read log file /nonexistent.log")
        .run();
}

#[test]
fn history_joins_events_pods_logs_and_workspace() {
    let c = cluster();
    let uid = blocked_with_orphan(&c);
    c.add(json!({"apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "www.1", "namespace": "default", "annotations": {"external-name": "www-old"}},
        "involvedObject": {"apiVersion": RS, "kind": "RecordSet", "name": "www", "uid": uid},
        "type": "Warning", "reason": "CannotInitializeManagedResource",
        "message": "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed",
        "firstTimestamp": "2024-11-30T11:00:12Z", "lastTimestamp": "2024-11-30T11:20:00Z", "count": 7}));
    c.add(json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "other.1", "namespace": "default"},
        "involvedObject": {"kind": "RecordSet", "name": "other", "uid": "someone-else"}, "type": "Normal", "reason": "X", "message": "not ours"}));
    c.api.set_exec_file("upbound-system", "provider-gcp-dns-1", &format!("/tmp/{uid}/terraform.tfstate"),
        &json!({"version": 4, "lineage": uid, "resources": [{"mode": "managed", "type": "google_dns_record_set", "name": "www",
            "instances": [{"attributes": {"id": "projects/p/managedZones/z/rrsets/www.example.com./A"}}]}]}).to_string());
    let out = c.upjet().args(["history", "recordset.dns.gcp.upbound.io/www", "--workspace"]).run();
    let text = out.stdout;
    for needle in [
        "provider container provider-gcp-dns-1 terminated: OOMKilled (exit 137)",
        "AsyncCreateEnded: Async create ended. [id \"projects/p/managedZones/z/rrsets/www.example.com./A\"]",
        "Warning CannotInitializeManagedResource",
        "(×7, last 2024-11-30T11:20:00Z) [external-name \"www-old\"]",
        "Terraform workspace in upbound-system/provider-gcp-dns-1 holds id",
        "! provider restarted at 2024-11-30T11:00:10Z, between create-pending (2024-11-30T11:00:05Z) and any result",
        "! create ended with tfID \"projects/p/managedZones/z/rrsets/www.example.com./A\" but the MR has no external-name",
        "! creation incomplete",
    ] {
        assert!(text.contains(needle), "missing {needle:?}:\n{text}");
    }
    assert!(!text.contains("not ours"), "events of other objects are not shown");
    let pos = |s: &str| text.find(s).unwrap();
    assert!(
        pos("Async create ended") < pos("terminated: OOMKilled")
            && pos("terminated: OOMKilled") < pos("Warning CannotInitialize"),
        "time order:\n{text}"
    );
    let json_out = c.upjet().args(["history", "recordset.dns.gcp.upbound.io/www", "-o", "json", "--no-logs"]).run();
    let doc: serde_json::Value = json_out.json();
    assert_eq!(doc["kind"], "History");
    assert_eq!(doc["timeline"]["externalNames"][0]["value"], "www-old");
    assert!(doc["lastLoggedId"].is_null(), "--no-logs reads no logs");
}

#[test]
fn workspace_problems_are_explained() {
    let c = cluster();
    let _uid = blocked_with_orphan(&c);
    let out = c.upjet().args(["history", "recordset.dns.gcp.upbound.io/www", "--workspace", "--no-logs"]).run();
    let text = out.stdout;
    assert!(text.contains("note: workspace: no workspace file"), "{text}");
    c.api.fault(testapi::Fault::Status {
        method: None,
        path_contains: "/exec".into(),
        code: 403,
        reason: "Forbidden".into(),
        times: None,
        retry_after_secs: None,
    });
    let out = c.upjet().args(["history", "recordset.dns.gcp.upbound.io/www", "--workspace", "--no-logs"]).run();
    assert!(out.stdout.contains("no permission to exec into upbound-system/provider-gcp-dns-1"));
}
