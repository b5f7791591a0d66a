//! `history --log-file` says what matters: the create loop against an existing object, that no ID
//! was ever logged, the ranked candidate IDs and the command adopting the best one.

use crate::support::upjet;
use serde_json::json;

const UID: &str = "93250b67-47e4-4feb-81bc-e15b4a2329a1";
const REAL_LOG: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/fixtures/logs/xbench-gcp-18-10-2023-benchmarksix11-console.log");
const EXISTS: &str = "Error creating ResourceRecordSet: googleapi: Error 409: The resource \
'entity.change.additions[benchmarksix11.telco.orange.com.][A]' named 'benchmarksix11.telco.orange.com. (A)' already exists, alreadyExists";

/// The RecordSet of the benchmark log, refused with 409, with no external-name (our own object).
fn snapshot(dir: &std::path::Path, at_provider_id: Option<&str>) -> std::path::PathBuf {
    let mut mr = json!({"apiVersion": "dns.gcp.upbound.io/v1beta1", "kind": "RecordSet",
        "metadata": {"name": "benchmarksix11", "uid": UID, "creationTimestamp": "2023-10-11T14:05:47Z", "annotations": {}},
        "spec": {"forProvider": {"managedZone": "telco-zone-dns", "type": "A"}, "providerConfigRef": {"name": "default"}},
        "status": {"conditions": [{"type": "Synced", "status": "False", "reason": "ReconcileError",
            "message": format!("create failed: async create failed: failed to create the resource: [{{0 {EXISTS}  []}}]")}]}});
    if let Some(id) = at_provider_id {
        mr["status"]["atProvider"] = json!({"id": id});
    }
    let path = dir.join("mr.json");
    std::fs::write(&path, json!({"apiVersion": "v1", "kind": "List", "items": [mr]}).to_string()).unwrap();
    path
}

/// A Terraform-CLI-mode create loop in the provider's own line shapes: every reconcile requests a
/// create with an empty external-name, and every `apply async ended` carries the 409 diagnostic.
fn loop_log(requests: usize, refused: usize) -> String {
    let mut log = String::new();
    for i in 0..requests {
        let t = format!("2023-10-11T15:{:02}:01Z", 10 + 2 * i);
        let fields = json!({"controller": "managed/dns.gcp.upbound.io/v1beta1, kind=recordset",
            "request": {"name": "benchmarksix11"}, "uid": UID, "version": "1", "external-name": ""});
        log.push_str(&format!(
            "{t}\tDEBUG\tprovider-gcp\tSuccessfully requested creation of external resource\t{fields}\n"
        ));
        if i < refused {
            let diag = json!({"@level": "error", "@message": format!("Error: {EXISTS}"), "@module": "terraform.ui",
                "diagnostic": {"severity": "error", "summary": EXISTS, "detail": ""}, "type": "diagnostic"});
            let fields = json!({"workspace": format!("/tmp/{UID}"), "out": format!("{diag}\n")});
            let t = format!("2023-10-11T15:{:02}:05Z", 10 + 2 * i);
            log.push_str(&format!("{t}\tDEBUG\tprovider-gcp\tapply async ended\t{fields}\n"));
        }
    }
    log
}

fn history(mr: &std::path::Path, log: &std::path::Path) -> String {
    let out = upjet()
        .env("UPJET_NOW", "2023-10-11T16:00:00Z")
        .args(["history", "recordset/benchmarksix11", "--from"])
        .arg(mr)
        .arg("--log-file")
        .arg(log)
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_once("What matters:").expect("a What matters section").1.to_string()
}

#[test]
fn a_create_loop_with_no_logged_id_is_named_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("provider.log");
    std::fs::write(&log, loop_log(16, 11)).unwrap();
    let matters = history(&snapshot(dir.path(), None), &log);
    assert!(!matters.contains("nothing unusual"), "{matters}");
    assert!(
        matters.contains(
            "create loop against an object that already exists: 16 create requests and 11 creates refused because it \
             already exists, from 2023-10-11T15:10:01Z to 2023-10-11T15:40:01Z"
        ),
        "{matters}"
    );
    assert!(matters.contains("no external ID was ever logged"), "{matters}");
    assert!(matters.contains("no adoptable candidate ID"), "{matters}");
    assert!(matters.contains("--id-template recordset.dns.gcp.upbound.io=TEMPLATE`"), "{matters}");
    assert!(matters.contains("--inventory EXPORT.json"), "{matters}");

    let id = "projects/p/managedZones/telco-zone-dns/rrsets/benchmarksix11.telco.orange.com./A";
    let matters = history(&snapshot(dir.path(), Some(id)), &log);
    assert!(matters.contains(&format!("candidate ID 1: {id:?} from ")), "{matters}");
    assert!(
        matters.contains(&format!("adopt the best candidate: kubectl upjet adopt recordset.dns.gcp.upbound.io/benchmarksix11 --id {id} --import")),
        "{matters}"
    );
}

#[test]
fn on_the_real_benchmark_log_history_names_the_logged_id_to_adopt() {
    let dir = tempfile::tempdir().unwrap();
    let matters = history(&snapshot(dir.path(), None), std::path::Path::new(REAL_LOG));
    let id =
        "projects/sbx-31371-7bnts707l94ejkf4dv7n/managedZones/telco-zone-dns/rrsets/benchmarksix11.telco.orange.com./A";
    assert!(!matters.contains("nothing unusual"), "{matters}");
    assert!(!matters.contains("create loop"), "one create, which worked, is no loop: {matters}");
    assert!(!matters.contains("no external ID was ever logged"), "{matters}");
    assert!(matters.contains(&format!("candidate ID 1: {id:?}")), "{matters}");
    assert!(!matters.contains("REDACTED\" from"), "a masked ID is never offered: {matters}");
    assert!(matters.contains(&format!("--id {id} --import")), "{matters}");
}
