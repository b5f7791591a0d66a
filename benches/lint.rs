//! The lint of GitOps manifests at scale (issue 27): `doctor --from REPO` by the release binary
//! on a generated repository of multi-document YAML files (ten manifests per file by default,
//! as a kustomize base holds them), timed from spawn to exit with its peak memory. A tenth of
//! the manifests carry a problem a lint finds (an Observe-only MR without external-name, a
//! policy set without LateInitialize, a reference to an MR no manifest defines); every other
//! manifest's external-name follows its kind's format, so the format is learned over them all.
//! Prints a markdown table; asserts nothing.
//!
//! ```text
//! cargo bench --bench lint                                  # 20,000 manifests, 10 per file
//! UPJET_BENCH_MANIFESTS=50000 UPJET_BENCH_PER_FILE=1 cargo bench --bench lint
//! ```

// Only the timed run of the shared child module is used here.
#[allow(dead_code)]
#[path = "support/child.rs"]
mod child;

use std::fmt::Write as _;
use std::process::Command;

/// One manifest: a bucket named after its index, its external-name `{region}-{name}`; every
/// tenth one has a problem the lint reports.
fn manifest(i: usize) -> String {
    let mut m = String::from("---\n# generated\napiVersion: s3.aws.upbound.io/v1beta1\nkind: Bucket\nmetadata:\n");
    let _ = writeln!(m, "  name: bucket-{i:06}\n  annotations:");
    match i % 30 {
        0 => m.push_str("    team: a\nspec:\n  managementPolicies: [Observe]\n"),
        10 => {
            let _ = writeln!(m, "    crossplane.io/external-name: eu-west-1-bucket-{i:06}");
            m.push_str("spec:\n  managementPolicies: [Observe, Create, Update, Delete]\n");
        }
        _ => {
            let _ = writeln!(m, "    crossplane.io/external-name: eu-west-1-bucket-{i:06}");
            m.push_str("spec:\n");
        }
    }
    m.push_str("  forProvider:\n    region: eu-west-1\n    tags:\n      owner: platform\n");
    if i % 30 == 20 {
        m.push_str("    kmsKeyIdRef:\n      name: key-not-in-repo\n");
    }
    m
}

fn main() {
    let env = |name: &str, default: usize| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (count, per_file) = (env("UPJET_BENCH_MANIFESTS", 20_000), env("UPJET_BENCH_PER_FILE", 10).max(1));
    let dir = tempfile::tempdir().expect("scratch dir");
    let repo = dir.path().join("repo");
    for (f, start) in (0..count).step_by(per_file).enumerate() {
        let folder = repo.join(format!("team-{:03}", f % 100));
        std::fs::create_dir_all(&folder).expect("folder");
        let text: String = (start..(start + per_file).min(count)).map(manifest).collect();
        std::fs::write(folder.join(format!("buckets-{f:05}.yaml")), text).expect("file");
    }
    let bin = env!("CARGO_BIN_EXE_kubectl-upjet");
    let out = Command::new(bin).args(["doctor", "--from"]).arg(&repo).args(["-o", "json"]).output().expect("doctor");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("report");
    let lint = &report["summary"]["lint"];
    println!(
        "{} manifests in {} files, {} findings\n",
        lint["manifests"],
        lint["files"],
        report["findings"].as_array().map_or(0, Vec::len)
    );
    println!("| -o | wall (ms, best of 3) | peak memory |");
    println!("| --- | ---: | ---: |");
    for form in ["json", "sarif"] {
        let runs: Vec<child::Run> = (0..3)
            .map(|_| {
                let mut cmd = Command::new(bin);
                cmd.args(["doctor", "--from"]).arg(&repo).args(["-o", form]);
                child::run_measured(cmd)
            })
            .collect();
        let best = runs.iter().map(|r| r.secs).fold(f64::MAX, f64::min);
        let peak = runs.iter().map(|r| r.peak_mib).fold(0.0, f64::max);
        println!("| {form} | {:.0} | {peak:.0} MiB |", best * 1000.0);
    }
}
