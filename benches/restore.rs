//! Restore benchmark (issue 20). Prints what it measured; asserts nothing (not a timed test).
//!
//! 1. A generated Velero backup (gzip tar in Velero's layout, every item also under its
//!    `-preferredversion` folder) of the real provider-upjet-aws CRDs (../shared/fixtures, YAML
//!    turned into JSON entries) and 20,000 MRs, 4,000 of them at risk: the release binary's time
//!    and peak memory for `doctor --from BACKUP -o summary` and for `restore-plan` (verdict and
//!    both files).
//! 2. `promote -f PLAN --yes --parallel 32` of 4,000 restored MRs through the in-process API
//!    server, with the simulated provider of the adopt benchmark answering each reconcile after
//!    a random delay.
//!
//! ```text
//! cargo bench --bench restore                              # 20,000 MRs; promote 4,000 at 1–5 s per Observe
//! UPJET_BENCH_RESTORE_QUICK=1 cargo bench --bench restore   # 2,000 MRs, promote 200 at 100–500 ms
//! ```
//!
//! Environment: `UPJET_BENCH_RESTORE_N` (MRs, default 20000), `UPJET_BENCH_RESTORE_PROMOTE`
//! (default 4000; 0 skips promote), `UPJET_BENCH_ADOPT_DELAY_MS` (`1000-5000`), `UPJET_BENCH_BIN`
//! (the binary).

#[path = "support/child.rs"]
#[allow(dead_code)]
mod child;
#[path = "support/provider.rs"]
mod provider;
#[path = "../tests/it/support/cluster.rs"]
mod support;

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use testapi::TestApi;

const KINDS: &[(&str, &str, &str)] = &[
    ("ec2.aws.upbound.io", "VPC", "vpcs"),
    ("ec2.aws.upbound.io", "Subnet", "subnets"),
    ("ec2.aws.upbound.io", "SecurityGroupRule", "securitygrouprules"),
    ("kms.aws.upbound.io", "Key", "keys"),
    ("iam.aws.upbound.io", "Role", "roles"),
];

fn num(k: &str, d: u64) -> u64 {
    std::env::var(k).ok().and_then(|v| v.trim().replace('_', "").parse().ok()).unwrap_or(d)
}

fn bin() -> PathBuf {
    std::env::var_os("UPJET_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_kubectl-upjet")))
}

/// One backed-up MR: healthy with its ID as external-name, or (at risk) its ID only in status.
fn mr(k: usize, at_risk: bool) -> (String, Value) {
    // Each kind gets its share of the MRs at risk (every fifth), and healthy peers besides.
    let (group, kind, plural) = KINDS[(k / 5) % KINDS.len()];
    let name = format!("mr-{k:06}");
    let id = format!("{}-{:017x}", kind.to_lowercase(), k * 7919 + 13);
    let mut ann = json!({"upjet.crossplane.io/provider-meta": "{\"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0\":{\"create\":1800000000000}}",
                         "crossplane.io/external-create-pending": "2024-11-20T10:00:00Z", "crossplane.io/external-create-succeeded": "2024-11-20T10:00:00Z"});
    if !at_risk {
        ann["crossplane.io/external-name"] = json!(id);
    }
    let obj = json!({
        "apiVersion": format!("{group}/v1beta1"), "kind": kind,
        "metadata": {"name": name, "uid": format!("00000000-0000-4000-8000-{k:012}"), "resourceVersion": "123456", "generation": 1,
                     "creationTimestamp": "2024-11-20T10:00:00Z", "annotations": ann, "finalizers": ["finalizer.managedresource.crossplane.io"]},
        "spec": {"forProvider": {"region": "eu-west-1", "tags": {"team": "platform", "env": "prod"}},
                 "managementPolicies": if at_risk { json!(["Observe", "Create", "Update", "Delete"]) } else { json!(["*"]) },
                 "deletionPolicy": "Delete", "providerConfigRef": {"name": "default"}},
        "status": {"atProvider": {"id": id, "arn": format!("arn:aws:{}:eu-west-1:123456789012:{id}", group.split('.').next().unwrap())},
                   "conditions": [{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-20T10:00:10Z"},
                                  {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-20T10:00:10Z"}]}
    });
    (format!("{plural}.{group}"), obj)
}

fn append(tar: &mut tar::Builder<impl Write>, name: &str, body: &[u8]) {
    let mut h = tar::Header::new_gnu();
    h.set_size(body.len() as u64);
    h.set_mode(0o755);
    h.set_mtime(1732917600);
    tar.append_data(&mut h, name, body).unwrap();
}

/// Writes the backup; returns (CRDs, MRs, at risk, compressed MiB).
fn write_backup(path: &Path, n: usize) -> (usize, usize, usize, f64) {
    let gz = flate2::write::GzEncoder::new(std::fs::File::create(path).unwrap(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    append(&mut tar, "metadata/version", b"1.1.0\n");
    let mut crds = 0;
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(support::crd_dir("provider-upjet-aws")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files {
        let v: Value = serde_saphyr::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let name = v["metadata"]["name"].as_str().unwrap().to_string();
        let body = serde_json::to_vec(&v).unwrap();
        let gr = "customresourcedefinitions.apiextensions.k8s.io";
        append(&mut tar, &format!("resources/{gr}/cluster/{name}.json"), &body);
        append(&mut tar, &format!("resources/{gr}/v1-preferredversion/cluster/{name}.json"), &body);
        crds += 1;
    }
    let mut risky = 0;
    for k in 0..n {
        let at_risk = k % 5 == 4;
        risky += usize::from(at_risk);
        let (gr, obj) = mr(k, at_risk);
        let body = serde_json::to_vec(&obj).unwrap();
        let name = obj["metadata"]["name"].as_str().unwrap();
        append(&mut tar, &format!("resources/{gr}/cluster/{name}.json"), &body);
        append(&mut tar, &format!("resources/{gr}/v1beta1-preferredversion/cluster/{name}.json"), &body);
    }
    tar.into_inner().unwrap().finish().unwrap();
    (crds, n, risky, std::fs::metadata(path).unwrap().len() as f64 / 1048576.0)
}

fn measured(dir: &Path, args: &[&str]) -> child::Run {
    let mut cmd = Command::new(bin());
    cmd.env_clear().env("HOME", dir).env("NO_COLOR", "1").current_dir(dir).args(args);
    child::run_measured(cmd)
}

fn main() {
    let quick = std::env::var("UPJET_BENCH_RESTORE_QUICK").is_ok_and(|v| v != "0");
    let n = num("UPJET_BENCH_RESTORE_N", if quick { 2000 } else { 20000 }) as usize;
    let dir = tempfile::tempdir().unwrap();
    let backup = dir.path().join("nightly-data.tar.gz");
    let started = Instant::now();
    let (crds, mrs, risky, mib) = write_backup(&backup, n);
    println!(
        "backup: {crds} CRDs, {mrs} MRs ({risky} at risk), {mib:.1} MiB gzip, written in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let b = backup.to_str().unwrap();
    let doctor = measured(dir.path(), &["doctor", "--from", b, "-o", "summary", "--fail-on", "never"]);
    println!(
        "doctor --from BACKUP -o summary:      {:.2} s, peak {:.0} MiB, ok {}",
        doctor.secs, doctor.peak_mib, doctor.ok
    );
    let plan = measured(dir.path(), &["restore-plan", b, "--modifiers", "modifiers.yaml", "--plan", "promote.json"]);
    println!("restore-plan (verdict + both files):  {:.2} s, peak {:.0} MiB, ok {}", plan.secs, plan.peak_mib, plan.ok);
    let items = std::fs::read_to_string(dir.path().join("promote.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .map_or(0, |p| p["items"].as_array().map_or(0, Vec::len));
    let rules =
        std::fs::read_to_string(dir.path().join("modifiers.yaml")).map_or(0, |t| t.matches("groupResource:").count());
    println!("  plan items: {items}, modifier rules: {rules}");
    promote_bench(quick);
}

/// `promote` of restored MRs (observing only, their ID as external-name) through the test API server.
fn promote_bench(quick: bool) {
    const RS: &str = "dns.gcp.upbound.io/v1beta2";
    let n = num("UPJET_BENCH_RESTORE_PROMOTE", if quick { 200 } else { 4000 }) as usize;
    if n == 0 {
        return;
    }
    let delay = std::env::var("UPJET_BENCH_ADOPT_DELAY_MS")
        .ok()
        .and_then(|v| v.split_once('-').and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?))))
        .unwrap_or(if quick { (100, 500) } else { (1000, 5000) });
    let dir = tempfile::tempdir().unwrap();
    let api = TestApi::new();
    let crd = support::crd_dir("provider-upjet-gcp").join("dns.gcp.upbound.io_recordsets.yaml");
    api.add_crd_yaml(&std::fs::read_to_string(crd).unwrap()).unwrap();
    let mut items = Vec::with_capacity(n);
    for k in 0..n {
        let name = format!("restored-{k:05}");
        let mut obj = support::Mr::provisioned(RS, "RecordSet", &name)
            .external_name(&format!("{name}-id"))
            .policies(&["Observe"])
            .json();
        obj.as_object_mut().unwrap().remove("status");
        api.insert(obj);
        items.push(json!({"resource": format!("recordset.dns.gcp.upbound.io/{name}"), "groupResource": "recordsets.dns.gcp.upbound.io",
            "verdict": "RestoreCreatesDuplicate", "id": format!("{name}-id"), "original": {"managementPolicies": ["*"]},
            "patch": {"spec": {"managementPolicies": ["Observe"]}},
            "restored": {"externalName": format!("{name}-id"), "managementPolicies": ["Observe"], "paused": false}}));
    }
    let plan = json!({"apiVersion": "upjet.doctor/v1", "kind": "PromotePlan", "backup": "nightly", "configMap": "velero/upjet-restore-nightly", "items": items});
    let plan_path = dir.path().join("promote.json");
    std::fs::write(&plan_path, plan.to_string()).unwrap();
    let drawn = provider::provider(&api, (RS, "RecordSet"), delay);
    let server = api.start_blocking().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    server.write_kubeconfig(&kubeconfig, None).unwrap();
    let stdout = dir.path().join("stdout.txt");
    let start = Instant::now();
    let status = Command::new(bin())
        .env_clear()
        .env("HOME", dir.path())
        .env("KUBECONFIG", &kubeconfig)
        .env("NO_COLOR", "1")
        .args(["promote", "--yes", "--parallel", "32", "--timeout", "2m", "-f"])
        .arg(&plan_path)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let secs = start.elapsed().as_secs_f64();
    let out = std::fs::read_to_string(&stdout).unwrap_or_default();
    let promoted = api
        .list(RS, "RecordSet", None)
        .iter()
        .filter(|o| {
            o["spec"]["managementPolicies"] == json!(["*"]) && provider::ann(o, "crossplane.io/paused").is_none()
        })
        .count();
    let drawn_s = drawn.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1000.0;
    println!("promote -f PLAN --parallel 32: {n} MRs, Observe answered after {}–{} ms", delay.0, delay.1);
    println!("  exit code {:?}, {secs:.1} s ({:.1} min), {:.1} MRs/s", status.code(), secs / 60.0, n as f64 / secs);
    println!("  promoted (stored state): {promoted} of {n}; summary: {}", out.lines().last().unwrap_or_default());
    println!(
        "  provider delay drawn: {drawn_s:.0} s; floor with a slot held through the first wait: {:.0} s",
        drawn_s / 2.0 / 32.0
    );
}
