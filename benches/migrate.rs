//! Migration plan benchmark (issue 26). Prints what it measured; asserts nothing (not a timed
//! test).
//!
//! A generated snapshot of legacy MRs spread over the first 100 namespaced kinds of the real
//! provider-upjet-aws CRDs (../shared/fixtures, read in place), then the release binary's time
//! and peak memory for `migrate plan --all --to-namespace infra` offline, given the snapshot and
//! the whole CRD folder (2,000+ files: each namespaced twin's CRD is decoded, the others only
//! scanned for their group).
//!
//! Then `migrate apply --parallel 16` of legacy Subnets through the in-process API server, with
//! the simulated provider of the adopt benchmark answering each reconcile of a namespaced twin
//! after a random delay: the time against the provider's delay floor (one Observe per MR waited
//! for, 16 at a time).
//!
//! ```text
//! cargo bench --bench migrate                          # plan 10,000 MRs over 100 kinds; apply 1,000 at 1–5 s
//! UPJET_BENCH_MIGRATE_N=1000 UPJET_BENCH_MIGRATE_APPLY=200 UPJET_BENCH_ADOPT_DELAY_MS=100-500 cargo bench --bench migrate
//! ```

#[path = "support/child.rs"]
#[allow(dead_code)]
mod child;
#[path = "support/provider.rs"]
#[allow(dead_code)]
mod provider;
#[path = "../tests/it/support/cluster.rs"]
mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

fn bin() -> PathBuf {
    std::env::var_os("UPJET_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_kubectl-upjet")))
}

/// (legacy group, kind) of the first `n` namespaced kinds whose legacy twin is in the folder.
fn kinds(n: usize) -> Vec<(String, String)> {
    let dir = support::crd_dir("provider-upjet-aws");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if !name.contains(".aws.m.upbound.io_")
            || !dir.join(name.replace(".aws.m.upbound.io_", ".aws.upbound.io_")).exists()
        {
            continue;
        }
        let crd: Value = serde_saphyr::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let group = crd["spec"]["group"].as_str().unwrap().replace(".m.", ".");
        out.push((group, crd["spec"]["names"]["kind"].as_str().unwrap().to_string()));
        if out.len() == n {
            break;
        }
    }
    out
}

fn main() {
    let n: usize = std::env::var("UPJET_BENCH_MIGRATE_N").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let kinds = kinds(100);
    let dir = tempfile::tempdir().unwrap();
    let items: Vec<Value> = (0..n)
        .map(|i| {
            let (group, kind) = &kinds[i % kinds.len()];
            json!({
                "apiVersion": format!("{group}/v1beta1"), "kind": kind,
                "metadata": {"name": format!("mr-{i:06}"), "generation": 1, "uid": format!("uid-{i}"),
                    "labels": {"team": format!("team-{}", i % 7)},
                    "annotations": {"crossplane.io/external-name": format!("id-{i:012x}"),
                        "upjet.crossplane.io/provider-meta": "{\"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0\":{\"create\":1800000000000}}"}},
                "spec": {"forProvider": {"region": "eu-west-1"}, "providerConfigRef": {"name": "default"}, "deletionPolicy": "Orphan"},
                "status": {"atProvider": {"id": format!("id-{i:012x}")}, "conditions": [
                    {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T10:00:00Z"},
                    {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T10:00:00Z"}]}
            })
        })
        .collect();
    let fleet = dir.path().join("fleet.json");
    std::fs::write(&fleet, json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()).unwrap();
    let mib = std::fs::metadata(&fleet).unwrap().len() as f64 / (1024.0 * 1024.0);
    println!("snapshot: {n} legacy MRs over {} kinds, {mib:.1} MiB", kinds.len());
    let mut cmd = Command::new(bin());
    cmd.env_clear().env("HOME", dir.path()).env("NO_COLOR", "1").current_dir(dir.path());
    cmd.args([
        "migrate",
        "plan",
        "--all",
        "--to-namespace",
        "infra",
        "-o",
        "plan.json",
        "--from",
        "fleet.json",
        "--from",
    ]);
    cmd.arg(support::crd_dir("provider-upjet-aws"));
    let run = child::run_measured(cmd);
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("plan.json")).unwrap_or_default())
        .unwrap_or_default();
    println!(
        "migrate plan (offline, whole CRD folder): {:.2} s, peak {:.0} MiB, {} planned, {} refused, exit ok: {} (targets: < 5 s, < 200 MB)",
        run.secs,
        run.peak_mib,
        plan["items"].as_array().map_or(0, Vec::len),
        plan["refused"].as_array().map_or(0, Vec::len),
        run.ok
    );
    apply_bench();
}

/// `migrate apply --parallel 16` of `UPJET_BENCH_MIGRATE_APPLY` legacy Subnets (default 1,000).
fn apply_bench() {
    const LEGACY: &str = "ec2.aws.upbound.io/v1beta1";
    const TWIN: &str = "ec2.aws.m.upbound.io/v1beta1";
    let n: usize = std::env::var("UPJET_BENCH_MIGRATE_APPLY").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    if n == 0 {
        return;
    }
    let delay = std::env::var("UPJET_BENCH_ADOPT_DELAY_MS")
        .ok()
        .and_then(|v| v.split_once('-').and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?))))
        .unwrap_or((1000, 5000));
    let dir = tempfile::tempdir().unwrap();
    let api = testapi::TestApi::new();
    let crds = support::crd_dir("provider-upjet-aws");
    let files = [crds.join("ec2.aws.upbound.io_subnets.yaml"), crds.join("ec2.aws.m.upbound.io_subnets.yaml")];
    for f in &files {
        api.add_crd_yaml(&std::fs::read_to_string(f).unwrap()).unwrap();
    }
    api.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "infra"}}));
    let mut items = Vec::with_capacity(n);
    for k in 0..n {
        let name = format!("subnet-{k:05}");
        let mut obj = support::Mr::provisioned(LEGACY, "Subnet", &name).external_name(&format!("{name}-id")).json();
        obj["metadata"]["generation"] = json!(1);
        obj["metadata"].as_object_mut().unwrap().remove("finalizers");
        obj["spec"].as_object_mut().unwrap().remove("managementPolicies");
        items.push(api.insert(obj));
    }
    std::fs::write(
        dir.path().join("legacy.json"),
        json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string(),
    )
    .unwrap();
    let drawn = provider::provider_in(&api, (TWIN, "Subnet"), Some("infra"), delay);
    let server = api.start_blocking().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    server.write_kubeconfig(&kubeconfig, None).unwrap();
    let mut plan = Command::new(bin());
    plan.env_clear().env("HOME", dir.path()).env("NO_COLOR", "1").current_dir(dir.path());
    plan.args(["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "plan.json", "--from", "legacy.json"]);
    for f in &files {
        plan.arg("--from").arg(f);
    }
    assert!(plan.stdout(Stdio::null()).status().unwrap().success(), "the plan of the apply benchmark");
    let stdout = dir.path().join("stdout.txt");
    let start = Instant::now();
    let status = Command::new(bin())
        .env_clear()
        .env("HOME", dir.path())
        .env("KUBECONFIG", &kubeconfig)
        .env("NO_COLOR", "1")
        .current_dir(dir.path())
        .args(["migrate", "apply", "-f", "plan.json", "--yes", "--parallel", "16", "--timeout", "5m"])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let secs = start.elapsed().as_secs_f64();
    let out = std::fs::read_to_string(&stdout).unwrap_or_default();
    let migrated =
        api.list(TWIN, "Subnet", Some("infra")).iter().filter(|o| o["spec"]["managementPolicies"].is_null()).count();
    let legacy_left = api.list(LEGACY, "Subnet", None).len();
    // Two writes of each twin queue a reconcile (the reconcile request and the final policies:
    // the in-process API server runs no write hooks on a create); the request's is waited for,
    // 16 MRs at a time.
    let floor = drawn.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1000.0 / 2.0 / 16.0;
    println!("migrate apply --parallel 16: {n} MRs, Observe answered after {}–{} ms", delay.0, delay.1);
    println!(
        "  exit code {:?}, {secs:.1} s; {migrated} migrated, {legacy_left} legacy left; {}",
        status.code(),
        out.lines().last().unwrap_or_default()
    );
    println!("  provider delay floor: {floor:.1} s; ratio {:.2} (target <= 1.2)", secs / floor);
}
