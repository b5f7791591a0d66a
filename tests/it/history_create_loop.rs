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
        .run();
    let text = out.stdout;
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

/// A VPC reconciled by upjet's Terraform CLI client over three provider runs, the first killed
/// mid-create (its workspace under /tmp went with it), the second creating again and finishing,
/// the third a plain restart. Every run starts with controller-runtime's lines
/// (`Controller.Start`, no logger name: the provider hands controller-runtime its unnamed zap
/// logger); CLI mode logs no "Instance state not found in cache".
mod restarts {
    pub const UID: &str = "0f4e2a9c-7d51-4c3b-b1e8-6a2d9c0e5f17";
    pub const FIRST: &str = "vpc-0a1b2c3d4e5f60718";
    pub const SECOND: &str = "vpc-0f9e8d7c6b5a40312";
    const CONTROLLER: &str = r#""controller": "managed/ec2.aws.upbound.io/v1beta1, kind=vpc", "controllerGroup": "ec2.aws.upbound.io", "controllerKind": "VPC""#;

    fn start(t: &str) -> String {
        format!(
            "{t}\tINFO\tStarting EventSource\t{{{CONTROLLER}, \"source\": \"kind source: *v1beta1.VPC\"}}\n\
             {t}\tINFO\tStarting Controller\t{{{CONTROLLER}}}\n\
             {t}\tINFO\tStarting workers\t{{{CONTROLLER}, \"worker count\": 10}}\n"
        )
    }

    fn reconciler(t: &str, msg: &str, name: &str) -> String {
        format!(
            "{t}\tDEBUG\tprovider-aws\t{msg}\t{{\"controller\": \"managed/ec2.aws.upbound.io/v1beta1, kind=vpc\", \"request\": {{\"name\":\"main\"}}, \"uid\": \"{UID}\", \"version\": \"4412\", \"external-name\": \"{name}\"}}\n"
        )
    }

    fn requested(t: &str) -> String {
        format!(
            "{t}\tDEBUG\tprovider-aws\tSuccessfully requested creation of external resource\t{{\"controller\": \"managed/ec2.aws.upbound.io/v1beta1, kind=vpc\", \"request\": {{\"name\":\"main\"}}, \"uid\": \"{UID}\", \"version\": \"4412\", \"external-name\": \"\", \"external-name\": \"\"}}\n\
             {t}\tDEBUG\tprovider-aws\tRunning terraform\t{{\"workspace\": \"/tmp/{UID}\", \"args\": [\"apply\", \"-auto-approve\", \"-input=false\", \"-lock=false\", \"-json\"]}}\n"
        )
    }

    fn applied(t: &str, id: &str) -> String {
        let out = format!(
            "{{\"@level\":\"info\",\"@message\":\"aws_vpc.main: Creation complete after 12s [id={id}]\",\"@module\":\"terraform.ui\",\"hook\":{{\"resource\":{{\"addr\":\"aws_vpc.main\",\"resource_type\":\"aws_vpc\",\"resource_name\":\"main\"}},\"action\":\"create\",\"id_key\":\"id\",\"id_value\":\"{id}\",\"elapsed_seconds\":12}},\"type\":\"apply_complete\"}}\n"
        );
        let fields = serde_json::json!({"workspace": format!("/tmp/{UID}"), "out": out});
        format!("{t}\tDEBUG\tprovider-aws\tapply async ended\t{fields}\n")
    }

    pub fn log() -> String {
        [
            start("2024-11-30T10:00:00Z"),
            reconciler("2024-11-30T10:00:04Z", "Reconciling", ""),
            requested("2024-11-30T10:00:05Z"),
            start("2024-11-30T10:00:20Z"),
            requested("2024-11-30T10:00:26Z"),
            applied("2024-11-30T10:00:38Z", SECOND),
            reconciler("2024-11-30T10:00:40Z", "External resource is up to date", SECOND),
            start("2024-11-30T10:05:00Z"),
            reconciler("2024-11-30T10:05:04Z", "External resource is up to date", SECOND),
        ]
        .concat()
    }
}

/// The VPC as the second run left it: tracking the second VPC.
fn vpc_snapshot(dir: &std::path::Path) -> std::path::PathBuf {
    let t = "2024-11-30T10:00:26Z";
    let mr = json!({"apiVersion": "ec2.aws.upbound.io/v1beta1", "kind": "VPC",
        "metadata": {"name": "main", "uid": restarts::UID, "creationTimestamp": "2024-11-30T10:00:03Z",
            "annotations": {"crossplane.io/external-name": restarts::SECOND,
                "crossplane.io/external-create-pending": t, "crossplane.io/external-create-succeeded": t}},
        "spec": {"forProvider": {"region": "eu-west-1", "cidrBlock": "10.0.0.0/16"}, "providerConfigRef": {"name": "default"},
            "managementPolicies": ["*"]},
        "status": {"atProvider": {"id": restarts::SECOND,
                "arn": format!("arn:aws:ec2:eu-west-1:123456789012:vpc/{}", restarts::SECOND)},
            "conditions": [
                {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T10:00:40Z"},
                {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T10:00:26Z"},
                {"type": "AsyncOperation", "status": "True", "reason": "Finished", "lastTransitionTime": "2024-11-30T10:00:40Z"}]}});
    let path = dir.join("vpc.json");
    std::fs::write(&path, json!({"apiVersion": "v1", "kind": "List", "items": [mr]}).to_string()).unwrap();
    path
}

/// `aws resourcegroupstaggingapi get-resources`: both VPCs carry the MR's tags.
fn vpc_inventory(dir: &std::path::Path) -> std::path::PathBuf {
    let vpc = |id: &str| {
        json!({"ResourceARN": format!("arn:aws:ec2:eu-west-1:123456789012:vpc/{id}"), "Tags": [
            {"Key": "crossplane-kind", "Value": "vpc.ec2.aws.upbound.io"},
            {"Key": "crossplane-name", "Value": "main"},
            {"Key": "crossplane-providerconfig", "Value": "default"}]})
    };
    let path = dir.join("inventory.json");
    let export = json!({"ResourceTagMappingList": [vpc(restarts::FIRST), vpc(restarts::SECOND)]});
    std::fs::write(&path, export.to_string()).unwrap();
    path
}

fn vpc_history(dir: &std::path::Path, extra: &[&std::ffi::OsStr]) -> String {
    let log = dir.join("provider.log");
    std::fs::write(&log, restarts::log()).unwrap();
    let out = upjet()
        .env("UPJET_NOW", "2024-11-30T10:10:00Z")
        .args(["history", "vpc/main", "--from"])
        .arg(vpc_snapshot(dir))
        .arg("--log-file")
        .arg(&log)
        .args(extra)
        .run();
    let text = out.stdout;
    text.split_once("What matters:").expect("a What matters section").1.to_string()
}

/// Three process starts, two create requests, none refused: no create loop, but a create a
/// restart cut short, the second a possible duplicate; with the inventory, the first create's
/// object named; and the ID the MR holds is not offered for adoption.
#[test]
fn a_provider_restart_during_a_create_is_told_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let matters = vpc_history(dir.path(), &[]);
    assert!(!matters.contains("create loop"), "{matters}");
    assert!(!matters.contains("refused"), "{matters}");
    assert!(
        matters.contains(
            "provider restarted during a create: a new provider process started at 2024-11-30T10:00:20Z while the create \
             requested at 2024-11-30T10:00:05Z had logged no result"
        ),
        "{matters}"
    );
    assert!(
        matters.contains("the create requested again at 2024-11-30T10:00:26Z may have made a second one"),
        "{matters}"
    );
    assert!(!matters.contains("10:05:00Z while"), "the third start cut no create short: {matters}");
    assert!(!matters.contains("adopt the best candidate"), "{matters}");
    assert!(
        matters.contains(&format!(
            "the best candidate, {:?}, is the ID this MR already tracks as its external-name: nothing to adopt",
            restarts::SECOND
        )),
        "{matters}"
    );

    let inventory = vpc_inventory(dir.path());
    let matters = vpc_history(dir.path(), &["--inventory".as_ref(), inventory.as_os_str()]);
    assert!(
        matters.contains(&format!(
            "the create requested at 2024-11-30T10:00:05Z made \"arn:aws:ec2:eu-west-1:123456789012:vpc/{}\": the inventory lists it tagged for this MR and tracked by nothing",
            restarts::FIRST
        )),
        "{matters}"
    );
}
