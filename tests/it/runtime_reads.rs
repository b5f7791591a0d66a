//! What crossplane-runtime and upjet really do with a poll interval, a deletion that holds
//! another controller's finalizer, and Terraform's "Unexpected Identity Change", judged by the
//! real binary over a snapshot; and `history`'s mark on upjet's "Missing Resource Identity" line.

use crate::support::upjet;
use serde_json::{Value, json};

const SG: &str = "ec2.aws.upbound.io/v1beta1";
const UID: &str = "3f0c9d2e-8a41-4b7e-9c55-1d2e3f4a5b6c";

/// A healthy cluster-scoped SecurityGroupIngressRule named `name`.
fn rule(name: &str) -> Value {
    json!({"apiVersion": SG, "kind": "SecurityGroupIngressRule",
        "metadata": {"name": name, "uid": format!("uid-{name}"), "creationTimestamp": "2024-11-30T10:00:00Z",
                     "annotations": {"crossplane.io/external-name": format!("sgr-{name}")},
                     "finalizers": ["finalizer.managedresource.crossplane.io"]},
        "spec": {"forProvider": {"region": "us-east-1"}, "managementPolicies": ["*"], "deletionPolicy": "Delete"},
        "status": {"atProvider": {"id": format!("sgr-{name}")}, "conditions": [
            {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T10:00:00Z"},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T10:00:00Z"}]}})
}

/// Writes `items` as a `kubectl get -o json` List and returns its path.
fn snapshot(dir: &std::path::Path, items: Vec<Value>) -> std::path::PathBuf {
    let path = dir.join("fleet.json");
    std::fs::write(&path, json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()).unwrap();
    path
}

#[test]
fn a_sub_second_poll_interval_is_used_as_it_is_and_a_zero_one_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let mut fast = rule("fast");
    fast["metadata"]["annotations"]["crossplane.io/poll-interval"] = json!("100ms");
    let mut zero = rule("zero");
    zero["metadata"]["annotations"]["crossplane.io/poll-interval"] = json!("0s");
    let mut second = rule("second");
    second["metadata"]["annotations"]["crossplane.io/poll-interval"] = json!("1s");
    let path = snapshot(dir.path(), vec![fast, zero, second]);
    let report = upjet()
        .arg("doctor")
        .from(&path)
        .json()
        .stderr("1 kinds scanned, 3 managed resources, 0 errors, 2 warnings, 0 info\n")
        .run()
        .report();

    let f = report.finding("PollIntervalTooShort", "fast");
    assert_eq!(f["severity"], "warning");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("\"100ms\" is used as it is"), "{message}");
    assert!(message.contains("up to about 10 times a second"), "{message}");
    assert!(message.contains("rate limits"), "{message}");
    assert_eq!(
        f["next"],
        "kubectl annotate securitygroupingressrule.ec2.aws.upbound.io fast crossplane.io/poll-interval-"
    );
    assert!(report.find("MalformedAnnotation", "fast").is_none(), "100ms is not raised to any minimum");

    let ignored = report.finding("MalformedAnnotation", "zero");
    let why = ignored["evidence"]["crossplane.io/poll-interval"].as_str().unwrap();
    assert!(why.contains("ignores it and polls at the controller's default interval"), "{why}");
    assert!(why.contains("older runtimes ignore the annotation altogether"), "{why}");
    assert!(report.find("PollIntervalTooShort", "zero").is_none());
    assert!(report.codes().iter().all(|(_, name)| name != "second"), "1s is no finding: {:?}", report.codes());
}

#[test]
fn a_deletion_waiting_on_another_finalizer_names_it_and_an_orphan_does_not_wait() {
    let dir = tempfile::tempdir().unwrap();
    let deleting = |name: &str, finalizers: Value, policy: &str| {
        let mut mr = rule(name);
        mr["metadata"]["deletionTimestamp"] = json!("2024-11-30T11:00:00Z");
        mr["metadata"]["finalizers"] = finalizers;
        mr["spec"]["deletionPolicy"] = json!(policy);
        mr
    };
    let path = snapshot(
        dir.path(),
        vec![
            deleting(
                "waits",
                json!(["finalizer.managedresource.crossplane.io", "backup.example.com/pre-delete"]),
                "Delete",
            ),
            deleting("alone", json!(["finalizer.managedresource.crossplane.io"]), "Delete"),
            deleting(
                "orphan",
                json!(["finalizer.managedresource.crossplane.io", "backup.example.com/pre-delete"]),
                "Orphan",
            ),
        ],
    );
    let report = upjet()
        .arg("doctor")
        .from(&path)
        .json()
        .stderr("1 kinds scanned, 3 managed resources, 0 errors, 0 warnings, 1 info\n")
        .run()
        .report();
    let f = report.finding("DeletionWaitsForFinalizers", "waits");
    assert_eq!(f["severity"], "info");
    assert_eq!(f["evidence"]["otherFinalizers"], "backup.example.com/pre-delete");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("holds \"backup.example.com/pre-delete\""), "{message}");
    assert!(message.contains("the object is not deleted yet"), "{message}");
    assert!(report.find("DeletionWaitsForFinalizers", "alone").is_none(), "a deletion simply in progress");
    assert!(report.find("DeletionWaitsForFinalizers", "orphan").is_none(), "the orphan fast path does not wait");
}

/// The Synced message as upjet and crossplane-runtime write it (provider-upjet-aws#2135).
const IDENTITY_CHANGE: &str = "observe failed: read resource request failed: Unexpected Identity Change: During the read operation, the Terraform Provider unexpectedly returned a different identity then the previously stored one.\n\nThis is always a problem with the provider and should be reported to the provider developer.\n\nCurrent Identity: cty.ObjectVal(map[string]cty.Value{\"id\":cty.NullVal(cty.String)})\n\nNew Identity: cty.ObjectVal(map[string]cty.Value{\"id\":cty.StringVal(\"sgr-stuck\")})";

#[test]
fn an_unexpected_identity_change_says_restart_and_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let mut stuck = rule("stuck");
    stuck["status"]["conditions"] = json!([
        {"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": "2024-11-30T10:00:00Z"},
        {"type": "Synced", "status": "False", "reason": "ReconcileError", "lastTransitionTime": "2024-11-30T11:00:00Z",
         "message": IDENTITY_CHANGE}]);
    let path = snapshot(dir.path(), vec![stuck]);
    let report = upjet()
        .arg("doctor")
        .from(&path)
        .json()
        .status(1)
        .stderr("1 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 0 info\n")
        .run()
        .report();
    let f = report.finding("UnexpectedIdentityChange", "stuck");
    assert_eq!(f["severity"], "error");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("restart it"), "{message}");
    assert!(message.contains("provider-upjet-aws v2.7.0"), "{message}");
    assert!(f["next"].as_str().unwrap().starts_with("kubectl delete pods -A -l pkg.crossplane.io/provider="), "{f:#}");
}

#[test]
fn history_marks_a_missing_identity_read_as_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut mr = rule("lifecycle");
    mr["metadata"]["uid"] = json!(UID);
    let path = snapshot(dir.path(), vec![mr]);
    // upjet's plugin-framework client, as it logs the read it treats as not found.
    let fields = json!({"uid": UID, "name": "lifecycle", "gvk": "ec2.aws.upbound.io/v1beta1, Kind=SecurityGroupIngressRule",
        "skippedDiags": "Missing Resource Identity After Read: The Terraform Provider unexpectedly returned no resource identity data after having no errors in the resource read."});
    let log = format!(
        "2024-11-30T11:00:00Z\tDEBUG\tprovider-aws\tTF ReadResource returned Missing Resource Identity diagnostic, treating as resource not found\t{fields}\n"
    );
    let file = dir.path().join("provider.log");
    std::fs::write(&file, log).unwrap();
    let h = upjet()
        .args(["history", "securitygroupingressrule.ec2.aws.upbound.io/lifecycle", "--from"])
        .arg(&path)
        .arg("--log-file")
        .arg(&file)
        .json()
        .run()
        .json();
    let entry = h["timeline"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["source"] == "log")
        .unwrap_or_else(|| panic!("no log entry: {h:#}"));
    let text = entry["text"].as_str().unwrap();
    assert!(
        text.starts_with("MissingIdentityNotFound: TF ReadResource returned Missing Resource Identity diagnostic"),
        "{text}"
    );
    assert!(text.contains("▸ not found"), "{text}");
    assert!(text.contains("creates the object where the policies allow Create"), "{text}");
    let highlights: Vec<&str> =
        h["timeline"]["highlights"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(
        highlights
            .iter()
            .any(|l| l.starts_with("upjet read the object as not found 1 time (last 2024-11-30T11:00:00Z)")),
        "{highlights:?}"
    );
}
