//! `LateInitializeMissing` and the external-name, by how upjet runs the kind. upjet's Terraform
//! CLI client saves the critical annotations itself when the policies lack LateInitialize
//! (`pkg/controller/external.go`, `Observe`: `SetCriticalAnnotations`, then its own
//! `kube.Update`); its in-process clients leave the write to crossplane-runtime's
//! late-initialization update, which those policies forbid. doctor says which applies from what
//! the cluster shows — the MR's AsyncOperation condition, its provider's `Running terraform`
//! lines — and both when nothing does.

use crate::support::{Run, Upjet, upjet};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const SQS: &str = "sqs.aws.upbound.io/v1beta1";
const UID: &str = "5a0e7b43-3c5e-4d1b-9f7a-2f1c0d9e8b71";
const CREATED: &str = "2024-11-30T11:59:00Z";
const URL: &str = "https://sqs.eu-west-1.amazonaws.com/123456789012/orders";

/// A Queue with `["Observe","Create","Update","Delete"]` right after upjet's CLI client's
/// critical-annotation update: its `Observe` found the apply done, set the external-name and
/// `upjet.crossplane.io/provider-meta`, and wrote them with its own `kube.Update` (the policies
/// lack LateInitialize); the status written before still shows Creating and AsyncOperation
/// Ongoing, until this reconcile's status update marks it Available.
fn after_cli_update() -> Value {
    json!({"apiVersion": SQS, "kind": "Queue",
        "metadata": {"name": "orders", "uid": UID, "creationTimestamp": CREATED,
            "annotations": {"crossplane.io/external-create-pending": CREATED, "crossplane.io/external-create-succeeded": CREATED,
                "crossplane.io/external-name": URL,
                "upjet.crossplane.io/provider-meta": "{\"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0\":{\"create\":1800000000000,\"delete\":1800000000000}}"}},
        "spec": {"forProvider": {"region": "eu-west-1"}, "providerConfigRef": {"name": "default"},
            "managementPolicies": ["Observe", "Create", "Update", "Delete"]},
        "status": {"atProvider": {}, "conditions": [
            {"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": CREATED},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": CREATED},
            {"type": "AsyncOperation", "status": "False", "reason": "Ongoing", "lastTransitionTime": "2024-11-30T11:59:01Z"}]}})
}

fn snapshot(dir: &Path, mr: Value) -> PathBuf {
    let path = dir.join("mr.json");
    std::fs::write(&path, json!({"apiVersion": "v1", "kind": "List", "items": [mr]}).to_string()).unwrap();
    path
}

/// doctor over a snapshot of `mr` written in `dir`, with `extra`.
fn doctor(dir: &Path, mr: Value, extra: &[&str]) -> Upjet {
    let mut cmd = upjet();
    cmd.arg("doctor").json().from(snapshot(dir, mr)).args(extra);
    cmd
}

fn late_init(run: &Run) -> Option<String> {
    run.report().find("LateInitializeMissing", "orders").map(|f| f["message"].as_str().unwrap().to_string())
}

#[test]
fn upjet_s_cli_client_saves_the_external_name_without_late_initialize() {
    let dir = tempfile::tempdir().unwrap();
    let run = doctor(dir.path(), after_cli_update(), &[])
        .stderr("1 kinds scanned, 1 managed resources, 0 errors, 0 warnings, 1 info\n")
        .run();
    assert_eq!(late_init(&run), None, "{}", run.stdout);

    // The same MR a moment earlier, its status not yet written: no AsyncOperation condition, no
    // external-name. Its provider's log shows the workspace running `terraform apply`.
    let mut earlier = after_cli_update();
    earlier["metadata"]["annotations"].as_object_mut().unwrap().remove("crossplane.io/external-name");
    earlier["status"] = json!({});
    let log = dir.path().join("provider.log");
    std::fs::write(
        &log,
        format!(
            "2024-11-30T11:59:00Z\tDEBUG\tprovider-aws\tRunning terraform\t{{\"workspace\": \"/tmp/{UID}\", \"args\": [\"apply\", \"-auto-approve\", \"-input=false\", \"-lock=false\", \"-json\"]}}\n"
        ),
    )
    .unwrap();
    let run = doctor(dir.path(), earlier.clone(), &["--log-file", log.to_str().unwrap()]).status(1).stderr("read 1 log sources (1 lines)\n1 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 1 info, 1 would be created again by a provider restart\n").run();
    assert_eq!(late_init(&run), None, "{}", run.stdout);

    // Nothing shows the client: both are said.
    let run = doctor(dir.path(), earlier, &[]).status(1).stderr("1 kinds scanned, 1 managed resources, 1 errors, 1 warnings, 1 info, 1 would be created again by a provider restart\n").run();
    let message = late_init(&run).expect("LateInitializeMissing when the client is not shown");
    assert!(message.contains("upjet's in-process clients (upjet v1 and later) never save"), "{message}");
    assert!(message.contains("its Terraform CLI client saves it itself"), "{message}");
    assert!(message.contains("`Running terraform` log lines mean the CLI"), "{message}");
}

/// The in-process clients' async tracker lines show the loss the warning describes.
#[test]
fn upjet_s_in_process_clients_never_save_it_without_late_initialize() {
    let dir = tempfile::tempdir().unwrap();
    let mut creating = after_cli_update();
    creating["metadata"]["annotations"].as_object_mut().unwrap().remove("crossplane.io/external-name");
    creating["status"]["conditions"].as_array_mut().unwrap().pop();
    let log = dir.path().join("provider.log");
    std::fs::write(
        &log,
        format!(
            "2024-11-30T11:59:00Z\tDEBUG\tprovider-aws\tAsync create starting...\t{{\"trackerUID\": \"{UID}\", \"resourceName\": \"orders\", \"gvk\": \"sqs.aws.upbound.io/v1beta1, Kind=Queue\", \"tfID\": \"\"}}\n"
        ),
    )
    .unwrap();
    let run = doctor(dir.path(), creating, &["--log-file", log.to_str().unwrap()])
        .stderr("read 1 log sources (1 lines)\n1 kinds scanned, 1 managed resources, 0 errors, 1 warnings, 1 info\n")
        .run();
    let message = late_init(&run).expect("LateInitializeMissing on an in-process kind");
    assert!(message.contains("so upjet will never save an external-name"), "{message}");
    assert!(message.contains("upjet runs this kind in-process, shown by its provider's log"), "{message}");
}
