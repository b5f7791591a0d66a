//! Audit-log reading benchmark. Prints a table; asserts nothing.
//!
//!   cargo bench --bench audit                              # 256 MiB in memory ×3, then a 1 GiB file
//!   UPJET_BENCH_AUDIT_MIB=64 UPJET_BENCH_FILE_MIB=256 cargo bench --bench audit   # quicker
//!   UPJET_BENCH_AUDIT_FILE=/tmp/audit.log cargo bench --bench audit   # keep the 1 GiB file
//!
//! 1. Throughput: a synthetic API-server audit log (audit.k8s.io/v1, one event per line) that is
//!    mostly noise — pod, lease, configmap and event traffic at Metadata and RequestResponse
//!    level, both stages — with about 3% of events about MR groups (the provider's gets and
//!    watches, and its writes at RequestResponse), read on one core by the same reader doctor uses.
//! 2. Memory: a 1 GiB file of it in a temp dir, read by the real release binary
//!    (`doctor --from examples/fleet --audit-log FILE`); peak RSS of that process (its VmHWM).
//! 3. The worst case for memory: a 1 GiB file in which every event is a provider's
//!    RequestResponse write to one of 20,000 MRs; repeated writes fold into runs, so memory
//!    follows the number of MRs written to.

#[path = "support/child.rs"]
mod child;

use child::{run_measured, write_repeated};
use std::time::Instant;
use upjet_evidence::audit::{Groups, read_slice};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

fn ts(ms: u64) -> String {
    let secs = 1_732_960_800 + ms / 1000;
    format!("2024-11-30T{:02}:{:02}:{:02}.{:06}Z", (secs / 3600) % 24, (secs / 60) % 60, secs % 60, (ms % 1000) * 1000)
}

#[allow(clippy::too_many_arguments)]
fn event(
    level: &str,
    stage: &str,
    verb: &str,
    user: &str,
    group: &str,
    resource: &str,
    ns: &str,
    name: &str,
    t: &str,
    body: &str,
) -> String {
    let api = if group.is_empty() { "/api/v1".to_string() } else { format!("/apis/{group}/v1") };
    format!(
        r#"{{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"{level}","auditID":"{t}-{name}","stage":"{stage}","requestURI":"{api}/namespaces/{ns}/{resource}/{name}","verb":"{verb}","user":{{"username":"{user}","uid":"5b7c1d2e-9f3a-4c6b-8d1e-2f3a4b5c6d7e","groups":["system:serviceaccounts","system:serviceaccounts:{ns}","system:authenticated"],"extra":{{"authentication.kubernetes.io/pod-name":["{user}-7d9f8b6c5-x2k4p"]}}}},"sourceIPs":["10.0.{}.{}"],"userAgent":"{user}/v1.31.2 (linux/amd64) kubernetes/5864a46","objectRef":{{"resource":"{resource}","namespace":"{ns}","name":"{name}","apiGroup":"{group}","apiVersion":"v1"}},"responseStatus":{{"metadata":{{}},"code":200}},{body}"requestReceivedTimestamp":"{t}","stageTimestamp":"{t}","annotations":{{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":"RBAC: allowed by ClusterRoleBinding \"system:controller\" of ClusterRole \"system:controller\" to ServiceAccount \"{user}/{ns}\""}}}}"#,
        name.len() % 250,
        t.len() % 250
    )
}

/// About `target` bytes of audit log, deterministic.
fn synthetic(target: usize) -> Vec<u8> {
    let mut out = String::with_capacity(target + 16 * 1024);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let pod_body = format!(
        r#""responseObject":{{"kind":"Pod","apiVersion":"v1","metadata":{{"name":"web","namespace":"shop","labels":{{"app":"web"}},"annotations":{{"kubectl.kubernetes.io/restartedAt":"2024-11-30T10:00:00Z"}}}},"spec":{{"containers":[{{"name":"web","image":"registry.example.com/web:1.2.3","env":{}}}]}},"status":{{"phase":"Running"}}}},"#,
        serde_json_env()
    );
    let mr_body = r#""requestObject":{"apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"VPC","metadata":{"name":"vpc-1","uid":"0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b","annotations":{"crossplane.io/external-name":"vpc-0a1b2c3d4e5f60718","crossplane.io/external-create-pending":"2024-11-30T10:00:00Z","crossplane.io/external-create-succeeded":"2024-11-30T10:00:01Z"}},"spec":{"forProvider":{"cidrBlock":"10.0.0.0/16","region":"eu-west-1"},"managementPolicies":["*"],"deletionPolicy":"Delete"}},"responseObject":{"apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"VPC","metadata":{"name":"vpc-1","uid":"0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b","annotations":{"crossplane.io/external-name":"vpc-0a1b2c3d4e5f60718"}},"spec":{"managementPolicies":["*"],"deletionPolicy":"Delete"}},"#;
    let mut ms = 0u64;
    while out.len() < target {
        ms += rng.below(20);
        let t = ts(ms);
        let n = rng.below(1000);
        let line = match rng.below(100) {
            0..=29 => event(
                "Metadata",
                "ResponseComplete",
                "get",
                "kube-controller-manager",
                "",
                "pods",
                "shop",
                &format!("web-{n}"),
                &t,
                "",
            ),
            30..=49 => event(
                "Metadata",
                "ResponseComplete",
                "update",
                "kube-scheduler",
                "coordination.k8s.io",
                "leases",
                "kube-system",
                "kube-scheduler",
                &t,
                "",
            ),
            50..=64 => event(
                "Metadata",
                "RequestReceived",
                "watch",
                "kubelet",
                "",
                "configmaps",
                "shop",
                &format!("cm-{n}"),
                &t,
                "",
            ),
            65..=84 => event(
                "RequestResponse",
                "ResponseComplete",
                "patch",
                "kubelet",
                "",
                "pods",
                "shop",
                &format!("web-{n}"),
                &t,
                &pod_body,
            ),
            85..=96 => event(
                "Metadata",
                "ResponseComplete",
                "create",
                "kubelet",
                "events.k8s.io",
                "events",
                "shop",
                &format!("web-{n}.18"),
                &t,
                "",
            ),
            97..=98 => event(
                "Metadata",
                "ResponseComplete",
                "get",
                "provider-aws-ec2",
                "ec2.aws.upbound.io",
                "vpcs",
                "",
                &format!("vpc-{n}"),
                &t,
                "",
            ),
            _ => event(
                "RequestResponse",
                "ResponseComplete",
                "update",
                "provider-aws-ec2",
                "ec2.aws.upbound.io",
                "vpcs",
                "",
                &format!("vpc-{n}"),
                &t,
                mr_body,
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.into_bytes()
}

fn serde_json_env() -> String {
    let vars: Vec<String> =
        (0..12).map(|i| format!(r#"{{"name":"VAR_{i}","value":"value-{i}-abcdefghijklmnop"}}"#)).collect();
    format!("[{}]", vars.join(","))
}

fn groups() -> Groups {
    Groups::of(
        ["ec2.aws.upbound.io", "kms.aws.upbound.io", "s3.aws.upbound.io", "secretsmanager.aws.upbound.io"]
            .map(String::from),
    )
}

fn main() {
    let mib: usize = std::env::var("UPJET_BENCH_AUDIT_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    let data = synthetic(mib * 1024 * 1024);
    println!("| measurement | value |");
    println!("|---|---|");
    let mut best = 0f64;
    for run in 1..=3 {
        let start = Instant::now();
        let (read, writes) = read_slice(&data, "bench", &groups());
        let mbps = data.len() as f64 / 1e6 / start.elapsed().as_secs_f64().max(1e-9);
        best = best.max(mbps);
        println!(
            "| audit log read, run {run} ({} MB, {} events, {} decoded, {} writes kept) | {mbps:.0} MB/s |",
            data.len() / 1_000_000,
            read.documents,
            read.documents - read.prefiltered,
            writes.len()
        );
    }
    println!("| audit log read, best of 3 | {best:.0} MB/s |");
    drop(data);

    let file_mib: usize = std::env::var("UPJET_BENCH_FILE_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(1024);
    // UPJET_BENCH_AUDIT_FILE keeps the mostly-noise file, to time the binary on it with other
    // tools (`/usr/bin/time -v kubectl-upjet doctor --from examples/fleet --audit-log FILE`).
    let dir = tempfile::tempdir().expect("temp dir");
    let noise = std::env::var_os("UPJET_BENCH_AUDIT_FILE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| dir.path().join("audit.log"));
    write_repeated(&noise, &synthetic(64 * 1024 * 1024), file_mib);
    doctor_on(&noise, "mostly other traffic");
    let heavy = dir.path().join("mr-heavy.log");
    write_repeated(&heavy, &mr_heavy(64 * 1024 * 1024), file_mib);
    doctor_on(&heavy, "every event a write to one of 20,000 MRs");
}

/// `doctor --from examples/fleet --audit-log FILE` by the release binary: time, MB/s, peak RSS.
fn doctor_on(path: &std::path::Path, what: &str) {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-upjet"));
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fleet");
    cmd.args(["doctor", "--from", examples, "-o", "json", "--fail-on", "never", "--audit-log"]).arg(path);
    let run = run_measured(cmd);
    println!(
        "| doctor --audit-log, {:.2} GiB file, {what} ({}) | {:.1} s, {:.0} MB/s, peak RSS {:.1} MiB |",
        size as f64 / (1u64 << 30) as f64,
        if run.ok { "ok" } else { "FAILED" },
        run.secs,
        size as f64 / 1e6 / run.secs,
        run.peak_mib
    );
}

/// About `target` bytes of the worst case for memory: every event is a provider's
/// RequestResponse write to one of 20,000 VPCs (the object or its status, alternately), each
/// carrying a whole MR of about 4 KB. Memory then follows the number of MRs, not the bytes.
fn mr_heavy(target: usize) -> Vec<u8> {
    let mut out = String::with_capacity(target + 16 * 1024);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let tags: Vec<String> = (0..40).map(|i| format!(r#""tag-{i}":"value-{i}-{}""#, "x".repeat(40))).collect();
    let tags = tags.join(",");
    let mut ms = 0u64;
    while out.len() < target {
        ms += rng.below(5);
        let n = rng.below(20_000);
        let sub = if rng.below(2) == 0 { r#","subresource":"status""# } else { "" };
        let uid = format!("0f1e2d3c-4b5a-6978-8a9b-{n:012}");
        let obj = format!(
            r#"{{"apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"VPC","metadata":{{"name":"vpc-{n}","uid":"{uid}","resourceVersion":"{ms}","annotations":{{"crossplane.io/external-name":"vpc-0{n:016x}","crossplane.io/external-create-pending":"2024-11-30T10:00:00Z","crossplane.io/external-create-succeeded":"2024-11-30T10:00:01Z"}}}},"spec":{{"forProvider":{{"cidrBlock":"10.0.0.0/16","region":"eu-west-1","tags":{{{tags}}}}},"managementPolicies":["*"],"deletionPolicy":"Delete"}},"status":{{"atProvider":{{"id":"vpc-0{n:016x}"}},"conditions":[{{"type":"Ready","status":"True"}}]}}}}"#
        );
        let t = ts(ms);
        out.push_str(&format!(
            r#"{{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"{ms}-{n}","stage":"ResponseComplete","requestURI":"/apis/ec2.aws.upbound.io/v1beta1/vpcs/vpc-{n}","verb":"update","user":{{"username":"system:serviceaccount:crossplane-system:provider-aws-ec2-4b8f2c1a9d3e","groups":["system:serviceaccounts","system:authenticated"]}},"sourceIPs":["10.0.12.7"],"userAgent":"provider-aws-ec2/v1.16.0","objectRef":{{"resource":"vpcs","name":"vpc-{n}","uid":"{uid}","apiGroup":"ec2.aws.upbound.io","apiVersion":"v1beta1"{sub}}},"responseStatus":{{"metadata":{{}},"code":200}},"requestObject":{obj},"responseObject":{obj},"requestReceivedTimestamp":"{t}","stageTimestamp":"{t}"}}"#
        ));
        out.push('\n');
    }
    out.into_bytes()
}
