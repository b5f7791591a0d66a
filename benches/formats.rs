//! CI, HTML and kubectl output forms at scale (issue 27): `doctor --from FLEET -o FORMAT` by the
//! release binary on a generated snapshot whose MRs each stop at the create gate (so every MR
//! has findings), timed from spawn to exit, with the output's size. `-o json` is the baseline:
//! the difference is what the format costs. Prints a markdown table; asserts nothing.
//!
//! ```text
//! cargo bench --bench formats                       # 4,000 MRs
//! UPJET_BENCH_MRS=20000 cargo bench --bench formats
//! ```

use serde_json::{Value, json};
use std::process::{Command, Stdio};
use std::time::Instant;

fn mr(i: usize) -> Value {
    json!({
        "apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket",
        "metadata": {"name": format!("bucket-{i:05}"), "uid": format!("00000000-0000-4000-8000-{i:012}"),
            "creationTimestamp": "2024-11-30T10:00:00Z",
            "annotations": {"crossplane.io/external-create-pending": "2024-11-30T10:20:05Z"}},
        "spec": {"forProvider": {"region": "eu-west-1"}, "providerConfigRef": {"name": "default"}},
        "status": {"conditions": [{"type": "Synced", "status": "True", "reason": "ReconcileSuccess",
            "lastTransitionTime": "2024-11-30T10:20:05Z"}]},
    })
}

fn main() {
    let count: usize = std::env::var("UPJET_BENCH_MRS").ok().and_then(|v| v.parse().ok()).unwrap_or(4000);
    let dir = tempfile::tempdir().expect("scratch dir");
    let fleet = dir.path().join("fleet.json");
    let items: Vec<Value> = (0..count).map(mr).collect();
    std::fs::write(&fleet, json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()).expect("fleet");
    let bin = env!("CARGO_BIN_EXE_kubectl-upjet");
    let findings = {
        let out =
            Command::new(bin).args(["doctor", "--from"]).arg(&fleet).args(["-o", "json"]).output().expect("doctor");
        let report: Value = serde_json::from_slice(&out.stdout).expect("report");
        report["findings"].as_array().map_or(0, Vec::len)
    };
    println!("{count} MRs, {findings} findings\n");
    println!("| -o | wall (ms, best of 3) | output |");
    println!("| --- | ---: | ---: |");
    let forms = [
        "json",
        "sarif",
        "junit",
        "html",
        "name",
        r#"jsonpath={range .findings[*]}{.code}{"\t"}{.resource.name}{"\n"}{end}"#,
        "custom-columns=CODE:.code,MR:.resource.name,ID:.suggestedId",
    ];
    for form in forms {
        let mut best = f64::MAX;
        let mut size = 0;
        for _ in 0..3 {
            let start = Instant::now();
            let out = Command::new(bin)
                .args(["doctor", "--from"])
                .arg(&fleet)
                .args(["-o", form])
                .stderr(Stdio::null())
                .output()
                .expect("doctor");
            best = best.min(start.elapsed().as_secs_f64() * 1000.0);
            size = out.stdout.len();
        }
        let label = form.split('=').next().unwrap_or(form);
        println!("| {label} | {best:.0} | {:.1} KiB |", size as f64 / 1024.0);
    }
}
