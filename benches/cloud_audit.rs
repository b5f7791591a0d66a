//! Cloud-audit benchmark (issue 21). Prints a table; asserts nothing.
//!
//!   cargo bench --bench cloud_audit                                   # 256 MiB in memory ×3, then 1 GiB files
//!   UPJET_BENCH_CLOUD_MIB=64 UPJET_BENCH_FILE_MIB=256 cargo bench --bench cloud_audit   # quicker
//!   UPJET_BENCH_CLOUD_DIR=/tmp/cloud cargo bench --bench cloud_audit   # keep the snapshot and the files
//!
//! The fleet: 20,000 MRs of four AWS kinds whose IDs the cloud assigns or the provider names
//! (VPCs, security groups, Route 53 zones, KMS keys), 16,000 healthy and 4,000 stopped at the
//! create-incomplete gate with no external-name (every 50th of those created twice, across a
//! restart). The record: CloudTrail log files as delivered to S3 (`{"Records":[…]}`, one
//! document per line, as `zcat *.json.gz` joins them), each MR's create by the provider's IRSA
//! role among the reads its polls make (`Describe*`, `Get*`, `List*`) and other principals'
//! traffic, then only such traffic up to the size asked for.
//!
//! 1. Throughput: the reader doctor uses, on one core, over a buffer in memory.
//! 2. The release binary reading the files (plain and gzip) with the example fleet, as the audit
//!    and log benchmarks do: `doctor --from examples/fleet --cloud-audit FILE -o json`, wall
//!    time, MB/s of the (decompressed) record and peak RSS (VmHWM): the reader's cost.
//! 3. The plan for the 20,000 MRs: `doctor --from SNAPSHOT --cloud-audit FILE --plan plan.json
//!    -o json`, wall time, peak RSS (the whole fleet is kept until the record is tied to it)
//!    and the plan's items.

// Shared with the other file benchmarks; this one writes its files with `write_file`.
#[allow(dead_code)]
#[path = "support/child.rs"]
mod child;

use child::{run_measured, write_file};
use std::path::Path;
use std::time::Instant;
use upjet_evidence::cloud_audit::read_slice;

const MRS: usize = 20_000;
const ACCOUNT: &str = "111122223333";
const T0: i64 = 1_732_780_800; // 2024-11-28T08:00:00Z
const CREATE_INCOMPLETE: &str = "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed";

fn ts(secs: i64) -> String {
    let (d, s) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let day = 28 + (d - T0.div_euclid(86_400));
    format!("2024-11-{day:02}T{:02}:{:02}:{:02}Z", s / 3600, s % 3600 / 60, s % 60)
}

/// The four kinds: (Kind, group, eventSource, create action, read actions).
const KINDS: [(&str, &str, &str, &str, [&str; 2]); 4] = [
    ("VPC", "ec2.aws.upbound.io", "ec2.amazonaws.com", "CreateVpc", ["DescribeVpcs", "DescribeVpcAttribute"]),
    (
        "SecurityGroup",
        "ec2.aws.upbound.io",
        "ec2.amazonaws.com",
        "CreateSecurityGroup",
        ["DescribeSecurityGroups", "DescribeSecurityGroupRules"],
    ),
    (
        "Zone",
        "route53.aws.upbound.io",
        "route53.amazonaws.com",
        "CreateHostedZone",
        ["GetHostedZone", "ListResourceRecordSets"],
    ),
    ("Key", "kms.aws.upbound.io", "kms.amazonaws.com", "CreateKey", ["DescribeKey", "GetKeyPolicy"]),
];

/// MR `i`: its kind, name, when it was created, whether it lost its object.
struct Mr {
    kind: usize,
    name: String,
    created: i64,
    broken: bool,
}

fn mr(i: usize) -> Mr {
    let kind = i % 4;
    Mr {
        kind,
        name: format!("{}-{i:05}", KINDS[kind].0.to_lowercase()),
        created: T0 + 9 * i as i64,
        broken: i.is_multiple_of(5),
    }
}

/// The cloud's ID of MR `i`'s create number `n`, and its external-name.
fn ids(i: usize, n: usize) -> (String, String) {
    let h = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (n as u64) << 40;
    match i % 4 {
        0 => (format!("vpc-0{:016x}", h), format!("vpc-0{:016x}", h)),
        1 => (format!("sg-0{:016x}", h), format!("sg-0{:016x}", h)),
        2 => (format!("/hostedzone/Z0{:015X}", h >> 4), format!("Z0{:015X}", h >> 4)),
        _ => {
            let u = format!(
                "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                h >> 32,
                h >> 16 & 0xffff,
                h & 0xfff,
                h >> 20 & 0xfff,
                h & 0xffff_ffff_ffff
            );
            (u.clone(), u)
        }
    }
}

fn cidr(i: usize) -> String {
    format!("10.{}.{}.0/24", i / 256 % 256, i % 256)
}

fn identity(session: &str, principal: &str) -> String {
    format!(
        r#"{{"type":"AssumedRole","principalId":"AROAEXAMPLEPROVIDER7:{session}","arn":"arn:aws:sts::{ACCOUNT}:assumed-role/{principal}/{session}","accountId":"{ACCOUNT}","accessKeyId":"ASIAEXAMPLE{session}","sessionContext":{{"sessionIssuer":{{"type":"Role","principalId":"AROAEXAMPLEPROVIDER7","arn":"arn:aws:iam::{ACCOUNT}:role/{principal}","accountId":"{ACCOUNT}","userName":"{principal}"}},"webIdFederationData":{{"federatedProvider":"arn:aws:iam::{ACCOUNT}:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/5C7F0D8A3B2E4F6A","attributes":{{}}}},"attributes":{{"creationDate":"2024-11-28T08:00:00Z","mfaAuthenticated":"false"}}}}}}"#
    )
}

fn record(source: &str, name: &str, t: &str, principal: &str, read_only: bool, req: &str, resp: &str) -> String {
    format!(
        r#"{{"eventVersion":"1.09","userIdentity":{},"eventTime":"{t}","eventSource":"{source}","eventName":"{name}","awsRegion":"eu-west-1","sourceIPAddress":"10.0.12.7","userAgent":"APN/1.0 HashiCorp/1.0 Terraform/1.5.7 (+https://www.terraform.io) terraform-provider-aws/5.86.0 (+https://registry.terraform.io/providers/hashicorp/aws) aws-sdk-go-v2/1.36.3 os/linux lang/go#1.23.6 md/GOOS#linux md/GOARCH#amd64","requestParameters":{req},"responseElements":{resp},"requestID":"{t}-{name}","eventID":"e-{t}-{name}","readOnly":{read_only},"eventType":"AwsApiCall","managementEvent":true,"recipientAccountId":"{ACCOUNT}","eventCategory":"Management","tlsDetails":{{"tlsVersion":"TLSv1.3","cipherSuite":"TLS_AES_128_GCM_SHA256","clientProvidedHostHeader":"{source}"}}}}"#,
        identity("1732780800118", principal)
    )
}

/// MR `i`'s create number `n` at `at`.
fn create(i: usize, n: usize, at: i64) -> String {
    let m = mr(i);
    let (kind, _, source, action, _) = KINDS[m.kind];
    let (raw, _) = ids(i, n);
    let tags = format!(
        r#"{{"key":"crossplane-kind","value":"{}.{}"}},{{"key":"crossplane-name","value":"{}"}},{{"key":"crossplane-providerconfig","value":"default"}}"#,
        kind.to_lowercase(),
        KINDS[m.kind].1,
        m.name
    );
    let (req, resp) = match m.kind {
        0 => (
            format!(
                r#"{{"cidrBlock":"{}","tagSpecificationSet":{{"items":[{{"resourceType":"vpc","tags":[{tags}]}}]}}}}"#,
                cidr(i)
            ),
            format!(
                r#"{{"requestId":"r-{i}","vpc":{{"vpcId":"{raw}","state":"pending","cidrBlock":"{}","dhcpOptionsId":"dopt-0a1b2c3d","instanceTenancy":"default","isDefault":false}}}}"#,
                cidr(i)
            ),
        ),
        1 => (
            format!(
                r#"{{"groupName":"{}","groupDescription":"Managed by Crossplane","vpcId":"vpc-0shared","tagSpecificationSet":{{"items":[{{"resourceType":"security-group","tags":[{tags}]}}]}}}}"#,
                m.name
            ),
            format!(r#"{{"requestId":"r-{i}","_return":true,"groupId":"{raw}"}}"#),
        ),
        2 => (
            format!(
                r#"{{"name":"{}.corp.example.com","callerReference":"terraform-{i}-{n}","hostedZoneConfig":{{"comment":"Managed by Crossplane","privateZone":false}}}}"#,
                m.name
            ),
            format!(
                r#"{{"hostedZone":{{"id":"{raw}","name":"{}.corp.example.com.","resourceRecordSetCount":2}},"changeInfo":{{"id":"/change/C{i:013}","status":"PENDING"}},"location":"https://route53.amazonaws.com/2013-04-01/hostedzone{raw}"}}"#,
                m.name
            ),
        ),
        _ => (
            format!(
                r#"{{"description":"{}","keyUsage":"ENCRYPT_DECRYPT","keySpec":"SYMMETRIC_DEFAULT","tags":[{{"tagKey":"crossplane-name","tagValue":"{}"}}]}}"#,
                m.name, m.name
            ),
            format!(
                r#"{{"keyMetadata":{{"aWSAccountId":"{ACCOUNT}","keyId":"{raw}","arn":"arn:aws:kms:eu-west-1:{ACCOUNT}:key/{raw}","keyState":"Enabled","keyUsage":"ENCRYPT_DECRYPT"}}}}"#
            ),
        ),
    };
    record(source, action, &ts(at), "crossplane-provider-aws", false, &req, &resp)
}

/// A read by the provider's polls (or someone else), `j` varying it.
fn read(j: usize) -> String {
    let (_, _, source, _, reads) = KINDS[j % 4];
    let (raw, _) = ids(j % MRS, 0);
    let who = if j.is_multiple_of(7) { "platform-admin" } else { "crossplane-provider-aws" };
    let req =
        format!(r#"{{"filterSet":{{}},"resourceIdSet":{{"items":[{{"resourceId":"{raw}"}}]}},"maxResults":1000}}"#);
    record(source, reads[j % 2], &ts(T0 + 200_000 + j as i64 % 80_000), who, true, &req, "null")
}

/// `{"Records":[…]}` documents of `per` records each, one per line.
fn documents(records: impl Iterator<Item = String>, per: usize, out: &mut Vec<u8>) {
    let mut n = 0;
    for r in records {
        out.extend_from_slice(if n == 0 { b"{\"Records\":[" } else { b"," });
        out.extend_from_slice(r.as_bytes());
        n += 1;
        if n == per {
            out.extend_from_slice(b"]}\n");
            n = 0;
        }
    }
    if n > 0 {
        out.extend_from_slice(b"]}\n");
    }
}

/// Every MR's creates, each among the reads of four polls.
fn creates_section() -> Vec<u8> {
    let mut out = Vec::new();
    let mut j = 0usize;
    let records = (0..MRS).flat_map(|i| {
        let m = mr(i);
        let mut v = vec![create(i, 0, m.created + 3)];
        if m.broken && i.is_multiple_of(50) {
            v.push(create(i, 1, m.created + 2400));
        }
        v.extend((0..4).map(|_| {
            j += 1;
            read(j)
        }));
        v
    });
    documents(records, 500, &mut out);
    out
}

fn noise(target: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(target + (1 << 20));
    let mut j = 1_000_000usize;
    while out.len() < target {
        documents(
            (0..500).map(|_| {
                j += 1;
                read(j)
            }),
            500,
            &mut out,
        );
    }
    out
}

/// The snapshot: `kubectl get managed -A -o json` of the 20,000 MRs.
fn snapshot() -> String {
    let items: Vec<serde_json::Value> = (0..MRS)
        .map(|i| {
            let m = mr(i);
            let (kind, group, ..) = KINDS[m.kind];
            let (_, ext) = ids(i, 0);
            let at = ts(m.created + 2);
            let mut ann = serde_json::json!({"crossplane.io/external-create-pending": at});
            let for_provider = match m.kind {
                0 => serde_json::json!({"cidrBlock": cidr(i), "region": "eu-west-1"}),
                1 => serde_json::json!({"name": m.name, "description": "Managed by Crossplane", "vpcId": "vpc-0shared", "region": "eu-west-1"}),
                2 => serde_json::json!({"name": format!("{}.corp.example.com", m.name), "comment": "Managed by Crossplane"}),
                _ => serde_json::json!({"description": m.name, "region": "eu-west-1"}),
            };
            let (conditions, status_id) = if m.broken {
                (serde_json::json!([{"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": at},
                                    {"type": "Synced", "status": "False", "reason": "ReconcileError", "message": CREATE_INCOMPLETE, "lastTransitionTime": at}]), None)
            } else {
                ann["crossplane.io/external-create-succeeded"] = at.clone().into();
                ann["crossplane.io/external-name"] = ext.clone().into();
                (serde_json::json!([{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": at},
                                    {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": at}]), Some(ext))
            };
            serde_json::json!({
                "apiVersion": format!("{group}/v1beta1"), "kind": kind,
                "metadata": {"name": m.name, "uid": format!("00000000-0000-4000-8000-{i:012}"), "creationTimestamp": ts(m.created),
                             "generation": 1, "resourceVersion": "1", "annotations": ann},
                "spec": {"forProvider": for_provider, "providerConfigRef": {"name": "default"}, "managementPolicies": ["*"], "deletionPolicy": "Delete"},
                "status": {"atProvider": {"id": status_id}, "conditions": conditions}
            })
        })
        .collect();
    serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()
}

fn main() {
    let mib = |var: &str, default: usize| std::env::var(var).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let creates = creates_section();
    let mut data = creates.clone();
    data.extend(noise((mib("UPJET_BENCH_CLOUD_MIB", 256) << 20).saturating_sub(creates.len())));
    println!("| measurement | value |");
    println!("|---|---|");
    let mut best = 0f64;
    for run in 1..=3 {
        let start = Instant::now();
        let (read, calls) = read_slice(&data, "bench");
        let mbps = data.len() as f64 / 1e6 / start.elapsed().as_secs_f64().max(1e-9);
        best = best.max(mbps);
        println!(
            "| CloudTrail read, run {run} ({} MB, {} records, {} decoded, {} creates and deletes kept) | {mbps:.0} MB/s |",
            data.len() / 1_000_000,
            read.records,
            read.records - read.prefiltered,
            calls.len()
        );
    }
    println!("| CloudTrail read, best of 3 | {best:.0} MB/s |");
    drop(data);

    let kept = std::env::var_os("UPJET_BENCH_CLOUD_DIR").map(std::path::PathBuf::from);
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = kept.clone().unwrap_or_else(|| tmp.path().to_path_buf());
    std::fs::create_dir_all(&dir).expect("bench dir");
    let snap = dir.join("fleet.json");
    std::fs::write(&snap, snapshot()).expect("snapshot");
    let file_mib = mib("UPJET_BENCH_FILE_MIB", 1024);
    let noise_chunk = noise(64 << 20);
    let plain = dir.join("cloudtrail.json");
    let gz = dir.join("cloudtrail.json.gz");
    // Every create first, then the polls' reads until the file holds `file_mib` MiB.
    write_file(&plain, &creates, &noise_chunk, file_mib, false);
    write_file(&gz, &creates, &noise_chunk, file_mib, true);
    let size = std::fs::metadata(&plain).map(|m| m.len()).unwrap_or(0);
    let examples = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fleet"));
    for (file, what) in [(&plain, "plain"), (&gz, "gzip")] {
        doctor_on(examples, file, size, &format!("{what}, the example fleet (51 MRs): the reader's memory"), None);
    }
    for (file, what) in [(&plain, "plain"), (&gz, "gzip")] {
        doctor_on(
            &snap,
            file,
            size,
            &format!("{what}, 20,000 MRs (4,000 broken) --plan"),
            Some(&dir.join(format!("plan-{what}.json"))),
        );
    }
}

/// `doctor --from SNAPSHOT --cloud-audit FILE -o json [--plan PLAN]` by the release binary: wall
/// time, MB/s of the record, peak RSS, and the plan's items.
fn doctor_on(snap: &Path, file: &Path, size: u64, what: &str, plan: Option<&Path>) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-upjet"));
    cmd.env("UPJET_NOW", "2024-11-30T12:00:00Z");
    cmd.args(["doctor", "-o", "json", "--fail-on", "never", "--from"]).arg(snap).arg("--cloud-audit").arg(file);
    if let Some(p) = plan {
        cmd.arg("--plan").arg(p);
    }
    let run = run_measured(cmd);
    let items: Vec<serde_json::Value> = plan
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let recorded = items.iter().filter(|i| i["reason"].as_str().is_some_and(|r| r.starts_with("CloudAudit"))).count();
    let plan_note = match plan {
        Some(_) => format!("; plan: {} items, {recorded} from the record", items.len()),
        None => String::new(),
    };
    println!(
        "| doctor --cloud-audit, {:.2} GiB of CloudTrail for 20,000 MRs, {what} ({}) | {:.1} s, {:.0} MB/s, peak RSS {:.1} MiB{plan_note} |",
        size as f64 / (1u64 << 30) as f64,
        if run.ok { "ok" } else { "FAILED" },
        run.secs,
        size as f64 / 1e6 / run.secs,
        run.peak_mib
    );
}
