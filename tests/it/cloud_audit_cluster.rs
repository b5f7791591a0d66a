//! `--cloud-audit` against a live cluster: the real binary and the real kube client over HTTP to
//! the in-process API server. doctor ties the record to every MR listed; history and adopt, which
//! read one MR, list its kind for the peers that teach who the provider is. The record is written
//! here as CloudTrail Lake JSON lines in CloudTrail's documented record schema.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr};
use serde_json::{Value, json};

const VPC: &str = "ec2.aws.upbound.io/v1beta1";
const ROLE: &str = "arn:aws:iam::111122223333:role/crossplane-provider-aws";

fn cluster() -> Cluster {
    Cluster::builder().crd_files("provider-upjet-aws", &["ec2.aws.upbound.io_vpcs.yaml"]).start()
}

/// A VPC created at `created` with CIDR `cidr`.
fn vpc(mr: Mr, created: &str, cidr: &str) -> Value {
    let mut v = mr.json();
    v["metadata"]["creationTimestamp"] = json!(created);
    v["spec"]["forProvider"]["cidrBlock"] = json!(cidr);
    v
}

/// The provider's `CreateVpc` at `t` for `cidr`, answered with `id`.
fn create(t: &str, cidr: &str, id: &str) -> String {
    json!({"eventVersion": "1.09", "eventTime": t, "eventSource": "ec2.amazonaws.com", "eventName": "CreateVpc",
        "userIdentity": {"type": "AssumedRole", "arn": "arn:aws:sts::111122223333:assumed-role/crossplane-provider-aws/1732960800",
            "accountId": "111122223333", "sessionContext": {"sessionIssuer": {"type": "Role", "arn": ROLE}}},
        "awsRegion": "eu-west-1", "requestParameters": {"cidrBlock": cidr},
        "responseElements": {"vpc": {"vpcId": id, "cidrBlock": cidr, "state": "pending"}},
        "requestID": format!("r-{id}"), "eventID": format!("e-{id}"), "readOnly": false,
        "managementEvent": true, "recipientAccountId": "111122223333"})
    .to_string()
}

#[test]
fn doctor_history_and_adopt_read_the_record_of_a_live_cluster() {
    let c = cluster();
    c.add(vpc(
        Mr::provisioned(VPC, "VPC", "core").external_name("vpc-0core").at_provider_id("vpc-0core"),
        "2024-11-30T09:00:00Z",
        "10.1.0.0/16",
    ));
    c.add(vpc(
        Mr::provisioned(VPC, "VPC", "edge").external_name("vpc-0edge").at_provider_id("vpc-0edge"),
        "2024-11-30T09:10:00Z",
        "10.2.0.0/16",
    ));
    let mut lost = vpc(
        Mr::provisioned(VPC, "VPC", "payments").without_annotation("crossplane.io/external-name").create_incomplete(),
        "2024-11-30T11:00:00Z",
        "10.3.0.0/16",
    );
    lost["status"]["atProvider"] = json!({});
    c.add(lost);
    let trail = [
        create("2024-11-30T09:00:02Z", "10.1.0.0/16", "vpc-0core"),
        create("2024-11-30T09:10:02Z", "10.2.0.0/16", "vpc-0edge"),
        create("2024-11-30T11:00:06Z", "10.3.0.0/16", "vpc-0pay"),
    ]
    .join("\n");
    let path = c.dir().join("trail.jsonl");
    std::fs::write(&path, trail + "\n").unwrap();
    c.api.reset_stats();

    let out = c
        .upjet()
        .args(["doctor", "-o", "json", "--fail-on", "never", "--cloud-audit"])
        .arg(&path)
        .stderr_contains(NO_GUARD)
        .stderr_contains("1 kinds scanned, 3 managed resources, 3 errors, 1 warnings, 0 info")
        .run();
    let r = out.json();
    let orphan = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "CloudAuditOrphan")
        .unwrap_or_else(|| panic!("{r:#}"));
    assert_eq!(
        (orphan["resource"]["name"].as_str(), orphan["suggestedId"].as_str()),
        (Some("payments"), Some("vpc-0pay"))
    );
    assert!(orphan["evidence"]["providerIdentity"].as_str().unwrap().starts_with(ROLE));

    let out =
        c.upjet().args(["history", "vpc.ec2.aws.upbound.io/payments", "--no-logs", "--cloud-audit"]).arg(&path).run();
    let text = &out.stdout;
    assert!(
        text.contains("made \"vpc-0pay\", which this MR does not track"),
        "the peers listed from the cluster teach: {text}"
    );
    assert!(
        text.contains(
            "adopt the best candidate: kubectl upjet adopt vpc.ec2.aws.upbound.io/payments --id vpc-0pay --import"
        ),
        "{text}"
    );

    let out = c
        .upjet()
        .args(["adopt", "vpc.ec2.aws.upbound.io/payments", "--dry-run", "--yes", "--force", "--cloud-audit"])
        .arg(&path)
        .stderr_contains("note: cloud audit: 2 healthy MRs of 1 kind(s) have their create in the record; 2 creates tied to MRs by their ID, 1 by their request; 0 not tied (reported on the MRs they name)").run();
    let stderr = &out.stderr;
    assert!(stderr.contains("using vpc-0pay from the cloud's audit record"), "{stderr}");

    let stats = c.api.stats();
    let writes: Vec<&(String, String)> =
        stats.recent.iter().filter(|(m, p)| m != "GET" && !p.contains("dryRun")).collect();
    assert!(writes.is_empty(), "nothing but dry runs written: {writes:?}");
}
