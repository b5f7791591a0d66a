//! Change-log reading benchmark. Prints a table; asserts nothing.
//!
//!   cargo bench --bench changelog               # 128 MiB in memory ×3, then a 512 MiB file through the binary
//!   UPJET_BENCH_LOG_MIB=32 UPJET_BENCH_FILE_MIB=64 cargo bench --bench changelog   # a quick look
//!
//! 1. Throughput: synthetic sidecar lines (protojson `ChangeLogEntry`, each with a ~1.5 KB MR
//!    snapshot; creates, updates and deletes of 5,000 MRs) read by the same reader doctor uses.
//! 2. Memory: a sidecar log file of that content read by the real release binary
//!    (`doctor --from examples/fleet --log-file FILE`); peak RSS of that process. Every entry is
//!    kept (a fleet run keeps all), so memory grows with the entries, not with their snapshots.

#[path = "support/child.rs"]
mod child;

use child::{run_measured, write_repeated};
use upjet_evidence::changelog;

/// About `bytes` of sidecar output.
fn synthetic(bytes: usize) -> Vec<u8> {
    let filler = "x".repeat(1200);
    let mut out = Vec::with_capacity(bytes + 4096);
    let mut i = 0usize;
    while out.len() < bytes {
        let (op, ext) = match i % 3 {
            0 => ("CREATE", String::new()),
            1 => ("UPDATE", format!("vpc-{:017x}", i / 3)),
            _ => ("DELETE", format!("vpc-{:017x}", i / 3)),
        };
        let name = format!("vpc-{}", (i / 3) % 5000);
        let line = format!(
            r#"{{"timestamp":"2025-04-25T08:{:02}:{:02}Z","provider":"provider-aws-ec2:v1.21.0","apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"VPC","name":"{name}","externalName":"{ext}","operation":"OPERATION_TYPE_{op}","snapshot":{{"apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"VPC","metadata":{{"name":"{name}","uid":"u-{i}","annotations":{{"crossplane.io/external-name":"{ext}"}}}},"spec":{{"forProvider":{{"region":"eu-west-1","cidrBlock":"10.0.0.0/16","note":"{filler}"}}}}}}}}"#,
            (i / 60) % 60,
            i % 60
        );
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
        i += 1;
    }
    out
}

fn main() {
    let mib: usize = std::env::var("UPJET_BENCH_LOG_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(128);
    let data = synthetic(mib * 1024 * 1024);
    println!("| measurement | value |");
    println!("|---|---|");
    let mut best = 0f64;
    for run in 1..=3 {
        let start = std::time::Instant::now();
        let read = changelog::read(data.as_slice(), "bench", |_| true).expect("reads");
        let mbps = data.len() as f64 / 1e6 / start.elapsed().as_secs_f64();
        best = best.max(mbps);
        println!(
            "| change-log read, run {run} ({} MB, {} entries) | {mbps:.0} MB/s |",
            data.len() / 1_000_000,
            read.found
        );
    }
    println!("| change-log read, best of 3 | {best:.0} MB/s |");
    drop(data);

    let file_mib: usize = std::env::var("UPJET_BENCH_FILE_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(512);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("changelogs-sidecar.log");
    write_repeated(&path, &synthetic(32 * 1024 * 1024), file_mib);
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-upjet"));
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fleet");
    cmd.args(["doctor", "--from", examples, "-o", "json", "--fail-on", "never", "--log-file"]).arg(&path);
    let run = run_measured(cmd);
    println!(
        "| doctor --log-file, {:.2} GiB sidecar log ({}) | {:.1} s, {:.0} MB/s, peak RSS {:.1} MiB |",
        size as f64 / (1u64 << 30) as f64,
        if run.ok { "ok" } else { "FAILED" },
        run.secs,
        size as f64 / 1e6 / run.secs,
        run.peak_mib
    );
}
