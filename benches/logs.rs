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

#[path = "logs/measure.rs"]
mod measure;
#[path = "logs/synthetic.rs"]
mod synthetic;

use measure::measure;
use std::io::Write;
use std::time::Instant;
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
    let mut child = std::process::Command::new(bin)
        .args(["doctor", "--from", examples, "-o", "json", "--fail-on", "never", "--log-file"])
        .arg(&path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run doctor");
    // Peak RSS of the child's own address space (VmHWM). getrusage(RUSAGE_CHILDREN) would also
    // count this benchmark's memory: the child is spawned with vfork, and Linux folds the shared
    // pre-exec address space's high-water mark into the child's maxrss.
    let mut hwm_kib = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
            && let Some(v) = text.lines().find_map(|l| l.strip_prefix("VmHWM:"))
        {
            hwm_kib = hwm_kib.max(v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0));
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let secs = start.elapsed().as_secs_f64();
    let out_ok = status.success();
    let maxrss_kib = hwm_kib as i64;
    println!(
        "| doctor --log-file, {:.2} GiB file ({}) | {secs:.1} s, {:.0} MB/s, peak RSS {:.1} MiB |",
        size as f64 / (1u64 << 30) as f64,
        if out_ok { "ok" } else { "FAILED" },
        size as f64 / 1e6 / secs,
        maxrss_kib as f64 / 1024.0
    );
}
