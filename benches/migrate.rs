//! Migration plan benchmark (issue 26). Prints what it measured; asserts nothing (not a timed
//! test).
//!
//! A generated snapshot of legacy MRs spread over the first 100 namespaced kinds of the real
//! provider-upjet-aws CRDs (../shared/fixtures, read in place), then the release binary's time
//! and peak memory for `migrate plan --all --to-namespace infra` offline, given the snapshot and
//! the whole CRD folder (2,000+ files: each namespaced twin's CRD is decoded, the others only
//! scanned for their group).
//!
//! ```text
//! cargo bench --bench migrate                          # 10,000 MRs over 100 kinds
//! UPJET_BENCH_MIGRATE_N=1000 cargo bench --bench migrate
//! ```

#[path = "support/child.rs"]
#[allow(dead_code)]
mod child;
#[path = "../tests/support/mod.rs"]
#[allow(dead_code)]
mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

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
}
