//! Provider-log parsing benchmark (issue: evidence). Prints a table; asserts nothing.
//!
//!   cargo bench --bench logs            # 256 MiB in memory ×3, then a 1 GiB file through the binary
//!   UPJET_BENCH_LOG_MIB=64 cargo bench --bench logs   # smaller, for a quick look
//!
//! 1. Throughput: the synthetic zap-JSON stream (debug level, mostly reconciler lines with
//!    `uid`/`external-name`, some `Async create ended.` lines) scanned on one core by the same
//!    scanner doctor uses.
//! 2. Memory: a 1 GiB log file written to a temp dir, scanned by the real release binary
//!    (`doctor --from examples/fleet --log-file FILE`); peak RSS of that process via getrusage.

use kubectl_upjet::evidence::logs::bench_support::{measure, synthetic_zap_json};
use std::io::Write;
use std::time::Instant;

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
    {
        let chunk = synthetic_zap_json(64 * 1024 * 1024);
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("log file"));
        let mut written = 0;
        while written < file_mib * 1024 * 1024 {
            f.write_all(&chunk).expect("write");
            written += chunk.len();
        }
        f.flush().expect("flush");
    }
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let bin = env!("CARGO_BIN_EXE_kubectl-upjet");
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fleet");
    let start = Instant::now();
    let out = std::process::Command::new(bin)
        .args(["doctor", "--from", examples, "-o", "json", "--fail-on", "never", "--log-file"])
        .arg(&path)
        .output()
        .expect("run doctor");
    let secs = start.elapsed().as_secs_f64();
    // SAFETY: getrusage writes into the struct we pass; RUSAGE_CHILDREN covers the finished child.
    let maxrss_kib = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru);
        ru.ru_maxrss
    };
    println!(
        "| doctor --log-file, {:.2} GiB file ({}) | {secs:.1} s, {:.0} MB/s, peak RSS {:.1} MiB |",
        size as f64 / (1u64 << 30) as f64,
        if out.status.success() { "ok" } else { "FAILED" },
        size as f64 / 1e6 / secs,
        maxrss_kib as f64 / 1024.0
    );
}
