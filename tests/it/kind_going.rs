//! A managed kind going away takes its MRs with it: a CRD deleted while its MRs hold crossplane's
//! finalizer stays Terminating and every MR of it is being deleted (the in-process API server
//! deletes a CRD as kube-apiserver does), an MRD being deleted takes its CRD next. doctor says so
//! on each MR and once per kind, live (reading a CRD's metadata only where its MRs are deleted)
//! and from a snapshot that holds the definitions.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr};
use serde_json::{Value, json};

const VPC: &str = "ec2.aws.upbound.io/v1beta1";
const BUCKET: &str = "s3.aws.m.upbound.io/v1beta1";
const VPCS_CRD: &str = "vpcs.ec2.aws.upbound.io";

fn cluster() -> Cluster {
    Cluster::builder()
        .crd_files("provider-upjet-aws", &["ec2.aws.upbound.io_vpcs.yaml", "s3.aws.m.upbound.io_buckets.yaml"])
        .crd_files("crossplane", &["apiextensions.crossplane.io_managedresourcedefinitions.yaml"])
        .start()
}

/// A legacy VPC with `deletionPolicy`.
fn vpc(name: &str, policy: &str) -> Value {
    let id = format!("vpc-{name}");
    let mut mr = Mr::provisioned(VPC, "VPC", name).external_name(&id).at_provider_id(&id).json();
    mr["spec"]["deletionPolicy"] = json!(policy);
    mr
}

/// The CRD requests the run made (paths).
fn crd_reads(c: &Cluster) -> Vec<String> {
    c.api.stats().recent.into_iter().map(|(_, p)| p).filter(|p| p.contains("/customresourcedefinitions/")).collect()
}

#[test]
fn a_terminating_crd_and_a_deleted_mrd_are_said_on_each_mr_and_once_per_kind() {
    let c = cluster();
    c.add(vpc("core", "Delete"));
    c.add(vpc("kept", "Orphan"));
    c.add(Mr::provisioned(BUCKET, "Bucket", "assets").namespace("team-a").json());
    // Crossplane v2: the Bucket's MRD is being deleted (held by a finalizer), its CRD not yet.
    c.add(json!({"apiVersion": "apiextensions.crossplane.io/v1alpha1", "kind": "ManagedResourceDefinition",
        "metadata": {"name": "buckets.s3.aws.m.upbound.io", "finalizers": ["example.com/hold"]},
        "spec": {"group": "s3.aws.m.upbound.io", "names": {"kind": "Bucket", "plural": "buckets"}, "scope": "Namespaced", "state": "Active"}}));
    c.api.delete(
        "apiextensions.crossplane.io/v1alpha1",
        "ManagedResourceDefinition",
        None,
        "buckets.s3.aws.m.upbound.io",
    );

    // Before the CRD is deleted: the VPCs are healthy, no CRD is read at all.
    c.api.reset_stats();
    let clean = c.upjet().args(["doctor", "-o", "json", "--kind", "vpc"]).stderr(format!("0 of 1 ManagedResourceDefinitions are inactive: no CRD is served for their kinds until activated (spec.state Active, or a ManagedResourceActivationPolicy)\n{NO_GUARD}\n1 kinds scanned, 2 managed resources, 0 errors, 0 warnings, 0 info\n")).run().report();
    assert!(clean.codes().is_empty(), "{:?}", clean.codes());
    assert!(crd_reads(&c).is_empty(), "nothing is deleted: no CRD is asked for");

    let terminating = c.api.delete("apiextensions.k8s.io/v1", "CustomResourceDefinition", None, VPCS_CRD).unwrap();
    assert!(terminating["metadata"]["deletionTimestamp"].is_string(), "held by its VPCs' finalizers");
    let since = terminating["metadata"]["deletionTimestamp"].as_str().unwrap().to_string();
    assert!(c.api.get(VPC, "VPC", None, "core").unwrap()["metadata"]["deletionTimestamp"].is_string());

    c.api.reset_stats();
    let run = c.upjet().args(["doctor", "-o", "json"]).status(1).stderr_contains("0 of 1 ManagedResourceDefinitions are inactive: no CRD is served for their kinds until activated (spec.state Active, or a ManagedResourceActivationPolicy)").stderr_contains("2 kinds scanned, 3 managed resources, 2 errors, 1 warnings, 0 info").run();
    let report = run.report();
    let core = report.finding("KindBeingDeleted", "core");
    assert_eq!(core["severity"], "error");
    assert_eq!(core["evidence"]["cloudObject"], "deleted");
    let message = core["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("its CustomResourceDefinition {VPCS_CRD} is being deleted (since {since})")),
        "{message}"
    );
    assert!(message.contains("this one is being deleted"), "{message}");
    assert_eq!(
        core["next"],
        r#"kubectl patch vpc.ec2.aws.upbound.io core --type merge -p '{"spec":{"deletionPolicy":"Orphan"}}'"#
    );
    let kept = report.finding("KindBeingDeleted", "kept");
    assert_eq!((kept["severity"].as_str(), kept["evidence"]["cloudObject"].as_str()), (Some("warning"), Some("kept")));
    let assets = report.finding("KindBeingDeleted", "assets");
    assert!(
        assets["message"]
            .as_str()
            .unwrap()
            .contains("its ManagedResourceDefinition buckets.s3.aws.m.upbound.io is being deleted"),
        "{assets:#}"
    );
    assert!(assets["message"].as_str().unwrap().contains("this one will be deleted"), "{assets:#}");
    assert_eq!(
        assets["next"],
        r#"kubectl patch bucket.s3.aws.m.upbound.io assets -n team-a --type merge -p '{"spec":{"managementPolicies":["Observe","Create","Update","LateInitialize"]}}'"#
    );

    let kinds = report["summary"]["kindsBeingDeleted"].as_array().unwrap();
    let counts: Vec<(&str, u64, u64)> = kinds
        .iter()
        .map(|k| {
            (
                k["kind"].as_str().unwrap(),
                k["managedResources"].as_u64().unwrap(),
                k["deleteCloudObjects"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(counts, [("bucket.s3.aws.m.upbound.io", 1, 1), ("vpc.ec2.aws.upbound.io", 2, 1)]);
    assert!(
        run.stderr.contains("vpc.ec2.aws.upbound.io is going away: its CustomResourceDefinition"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("MRs deleted with it: 2, deleting their cloud object: 1; to keep them, patch each MR"),
        "{}",
        run.stderr
    );
    assert_eq!(
        crd_reads(&c),
        [format!("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{VPCS_CRD}")],
        "one CRD, the deleted MRs' kind"
    );

    // One MR says the same.
    let one = c.upjet().args(["doctor", "vpc.ec2.aws.upbound.io/core", "-o", "json"]).status(1).run().report();
    assert_eq!(one.finding("KindBeingDeleted", "core")["evidence"]["cloudObject"], "deleted");

    // Once the last VPC lets go of its finalizer, the CRD is gone and so is the kind.
    for name in ["core", "kept"] {
        c.api.modify(VPC, "VPC", None, name, |o| o["metadata"]["finalizers"] = json!([]));
    }
    c.api.delete(VPC, "VPC", None, "core");
    c.api.delete(VPC, "VPC", None, "kept");
    assert!(c.api.get("apiextensions.k8s.io/v1", "CustomResourceDefinition", None, VPCS_CRD).is_none());
}

#[test]
fn a_snapshot_holding_a_terminating_crd_says_its_kind_is_going_away() {
    let dir = tempfile::tempdir().unwrap();
    let mut core = vpc("core", "Delete");
    core["metadata"]["deletionTimestamp"] = json!("2024-11-30T11:00:00Z");
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": VPCS_CRD, "deletionTimestamp": "2024-11-30T11:00:00Z", "finalizers": ["customresourcecleanup.apiextensions.k8s.io"]},
        "spec": {"group": "ec2.aws.upbound.io", "names": {"kind": "VPC", "plural": "vpcs"}, "scope": "Cluster",
                 "versions": [{"name": "v1beta1", "served": true, "storage": true}]}});
    std::fs::write(
        dir.path().join("mrs.json"),
        json!({"apiVersion": "v1", "kind": "List", "items": [core]}).to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("crds.json"),
        json!({"apiVersion": "v1", "kind": "List", "items": [crd]}).to_string(),
    )
    .unwrap();
    let run = crate::support::upjet()
        .arg("doctor")
        .from(dir.path())
        .json()
        .status(1)
        .stderr_contains(
            "1 CustomResourceDefinitions are not managed resources and were not diagnosed (1 being deleted)",
        )
        .stderr_contains("1 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 0 info")
        .run();
    let report = run.report();
    let f = report.finding("KindBeingDeleted", "core");
    assert!(f["evidence"]["definitions"].as_str().unwrap().contains("(since 2024-11-30T11:00:00Z)"), "{f:#}");
    assert_eq!(report["summary"]["resourcesScanned"], 1, "the CRD is not judged as an MR");
    assert!(
        run.stderr
            .contains("1 CustomResourceDefinitions are not managed resources and were not diagnosed (1 being deleted)"),
        "{}",
        run.stderr
    );
}
