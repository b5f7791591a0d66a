//! `--audit-log` against a live cluster: the real binary and the real kube client over HTTP to
//! the in-process API server, the groups to read taken from discovery. The audit log is written
//! here in the documented `audit.k8s.io/v1` schema, with the UID the server gave the MR.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr};
use serde_json::{Value, json};

const VPC: &str = "ec2.aws.upbound.io/v1beta1";
const PROVIDER: &str = "system:serviceaccount:crossplane-system:provider-aws-ec2-4b8f2c1a9d3e";

fn cluster() -> Cluster {
    Cluster::builder().crd_files("provider-upjet-aws", &["ec2.aws.upbound.io_vpcs.yaml"]).start()
}

/// One completed write to VPC `name` (uid `uid`) whose response shows `external_name`.
fn event(line: u32, verb: &str, user: &str, name: &str, uid: &str, external_name: Option<&str>) -> String {
    let annotations = match external_name {
        Some(n) => json!({"crossplane.io/external-name": n}),
        None => json!({}),
    };
    let object = json!({"apiVersion": VPC, "kind": "VPC",
        "metadata": {"name": name, "uid": uid, "annotations": annotations},
        "spec": {"managementPolicies": ["*"], "deletionPolicy": "Delete"}});
    let t = format!("2024-11-30T10:{line:02}:00.000000Z");
    json!({"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "RequestResponse",
        "auditID": format!("a-{line}"), "stage": "ResponseComplete",
        "requestURI": format!("/apis/{VPC}/vpcs/{name}"), "verb": verb,
        "user": {"username": user, "groups": ["system:authenticated"]},
        "sourceIPs": ["10.0.12.7"], "userAgent": "provider-aws-ec2/v1.16.0",
        "objectRef": {"resource": "vpcs", "name": name, "apiGroup": "ec2.aws.upbound.io", "apiVersion": "v1beta1"},
        "responseStatus": {"metadata": {}, "code": 200},
        "requestObject": object, "responseObject": object,
        "requestReceivedTimestamp": t, "stageTimestamp": t})
    .to_string()
}

#[test]
fn doctor_and_history_read_the_audit_log_of_a_live_cluster_and_write_nothing() {
    let c = cluster();
    let stored = c.add(Mr::provisioned(VPC, "VPC", "core").external_name("vpc-new").at_provider_id("vpc-new").json());
    let uid = stored["metadata"]["uid"].as_str().expect("the server gives a uid").to_string();
    // Another group's write and a read of the MR: skipped before decoding.
    let noise = r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"n","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/shop/pods/web","verb":"patch","user":{"username":"kubelet"},"objectRef":{"resource":"pods","namespace":"shop","name":"web","apiVersion":"v1"},"responseStatus":{"code":200}}"#;
    let log = [
        event(1, "create", "alice@example.com", "core", &uid, None),
        noise.to_string(),
        event(2, "update", PROVIDER, "core", &uid, Some("vpc-old")),
        event(3, "update", PROVIDER, "core", &uid, Some("vpc-new")),
    ]
    .join("\n");
    let path = c.dir().join("audit.log");
    std::fs::write(&path, log + "\n").unwrap();
    c.api.reset_stats();

    let out = c
        .upjet()
        .args(["doctor", "-o", "json", "--fail-on", "never", "--audit-log"])
        .arg(&path)
        .stderr_contains(NO_GUARD)
        .stderr_contains("1 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 0 info")
        .run();
    let r = out.json();
    let overwritten: Vec<&Value> =
        r["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "ExternalNameOverwritten").collect();
    assert_eq!(overwritten.len(), 1, "{r}");
    assert_eq!(overwritten[0]["evidence"]["previousExternalName"], "vpc-old");
    assert!(overwritten[0]["suggestedId"].is_null(), "the MR works on its new ID: report only");

    let text =
        c.upjet().args(["history", "vpc.ec2.aws.upbound.io/core", "--no-logs", "--audit-log"]).arg(&path).run().stdout;
    assert!(text.contains(r#"external-name changed from "vpc-old" to "vpc-new" by "#), "{text}");
    assert!(text.contains("(the provider)"), "{text}");

    let stats = c.api.stats();
    let methods: Vec<&String> = stats.recent.iter().map(|(m, _)| m).filter(|m| m.as_str() != "GET").collect();
    assert!(stats.requests > 0, "the cluster was read");
    assert!(methods.is_empty(), "reading an audit log writes nothing: {methods:?}");
}
