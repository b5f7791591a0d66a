//! Provider-log parsing benchmark (issue: evidence). Prints a table; asserts nothing.
//!
//!   cargo bench --bench logs            # 256 MiB in memory ×3, then a 1 GiB file through the binary
//!   UPJET_BENCH_LOG_MIB=64 cargo bench --bench logs   # smaller, for a quick look
//!
//! 1. Throughput: the synthetic zap-JSON stream (debug level, mostly reconciler lines with
//!    `uid`/`external-name`, some `Async create ended.` lines) scanned on one core by the same
//!    scanner doctor uses.
//! 2. Memory: a 1 GiB log file written to a temp dir, scanned by the real release binary
//!    (`doctor --from examples/fleet --log-file FILE`); peak RSS of that process (its VmHWM).

#[path = "support/child.rs"]
mod child;
#[path = "logs/measure.rs"]
mod measure;
#[path = "logs/synthetic.rs"]
mod synthetic;

use child::{run_measured, write_repeated};
use measure::measure;
use synthetic::synthetic_zap_json;

fn main() {
    let mib: usize = std::env::var("UPJET_BENCH_LOG_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    let data = synthetic_zap_json(mib * 1024 * 1024);
    println!("| measurement | value |");
    println!("|---|---|");
    let mut best = 0f64;
    for run in 1..=3 {
        let (scan, mbps) = measure(&data);
        best = best.max(mbps);
        println!(
            "| zap JSON scan, run {run} ({} MB, {} lines, {} evidence items) | {mbps:.0} MB/s |",
            data.len() / 1_000_000,
            scan.lines,
            scan.evidence().len()
        );
    }
    println!("| zap JSON scan, best of 3 | {best:.0} MB/s |");
    drop(data);

    let file_mib: usize = std::env::var("UPJET_BENCH_FILE_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(1024);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("provider.log");
    write_repeated(&path, &synthetic_zap_json(64 * 1024 * 1024), file_mib);
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-upjet"));
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fleet");
    cmd.args(["doctor", "--from", examples, "-o", "json", "--fail-on", "never", "--log-file"]).arg(&path);
    let run = run_measured(cmd);
    println!(
        "| doctor --log-file, {:.2} GiB file ({}) | {:.1} s, {:.0} MB/s, peak RSS {:.1} MiB |",
        size as f64 / (1u64 << 30) as f64,
        if run.ok { "ok" } else { "FAILED" },
        run.secs,
        size as f64 / 1e6 / run.secs,
        run.peak_mib
    );
}
