//! Bulk adopt benchmark (issue 13): `kubectl-upjet adopt -f plan.json --import --yes --parallel N`
//! against the in-process test API server, with a simulated provider that answers every
//! reconcile (each is an Observe of the cloud object) after a random delay. Prints what it
//! measured; asserts nothing (it is not a timed test).
//!
//! ```text
//! cargo bench --bench adopt                              # 4,000 orphans, --parallel 32, 1–5 s per Observe
//! UPJET_BENCH_ADOPT_QUICK=1 cargo bench --bench adopt    # 200 orphans, 100–500 ms: a quick look
//! ```
//!
//! Environment:
//! - `UPJET_BENCH_ADOPT_N` (default 4000; quick 200): orphans in the plan;
//! - `UPJET_BENCH_ADOPT_PARALLEL` (default 32): `--parallel`;
//! - `UPJET_BENCH_ADOPT_DELAY_MS` (default `1000-5000`; quick `100-500`): the provider's answer
//!   delay per Observe, uniform in the range;
//! - `UPJET_BENCH_BIN` (default the binary cargo built for this bench): the kubectl-upjet to measure.
//!
//! The floor: every adoption with `--import` waits for two reconciles (the Observe-only import,
//! then the one after the original policies are back), each answered after its drawn delay. An
//! item holds its `--parallel` slot through the first only (the second verifies an adoption
//! already written, without a slot), so half the delays drawn, divided by `--parallel`, is about
//! the time a client that added nothing would take; the difference is the client's overhead
//! (requests, polling every 500 ms, backups).

#[path = "support/provider.rs"]
mod provider;
#[path = "../tests/it/support/cluster.rs"]
mod support;

use provider::{ann, provider};
use serde_json::json;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use support::Mr;
use testapi::TestApi;

const RS: &str = "dns.gcp.upbound.io/v1beta2";
const EXT: &str = "crossplane.io/external-name";
const PAUSED: &str = "crossplane.io/paused";

struct Config {
    n: usize,
    parallel: u16,
    delay_ms: (u64, u64),
    bin: PathBuf,
}

impl Config {
    fn from_env() -> Config {
        let quick = std::env::var("UPJET_BENCH_ADOPT_QUICK").is_ok_and(|v| v != "0");
        let num =
            |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.trim().replace('_', "").parse().ok()).unwrap_or(d);
        let delay_ms = std::env::var("UPJET_BENCH_ADOPT_DELAY_MS")
            .ok()
            .and_then(|v| v.split_once('-').and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?))))
            .unwrap_or(if quick { (100, 500) } else { (1000, 5000) });
        Config {
            n: num("UPJET_BENCH_ADOPT_N", if quick { 200 } else { 4000 }) as usize,
            parallel: num("UPJET_BENCH_ADOPT_PARALLEL", 32).clamp(1, 64) as u16,
            delay_ms: (delay_ms.0.min(delay_ms.1), delay_ms.0.max(delay_ms.1)),
            bin: std::env::var_os("UPJET_BENCH_BIN")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_kubectl-upjet"))),
        }
    }
}

fn main() {
    let cfg = Config::from_env();
    let dir = tempfile::tempdir().unwrap();
    let api = TestApi::new();
    let crd = support::crd_dir("provider-upjet-gcp").join("dns.gcp.upbound.io_recordsets.yaml");
    api.add_crd_yaml(&std::fs::read_to_string(crd).unwrap()).unwrap();
    let mut plan = Vec::with_capacity(cfg.n);
    for k in 0..cfg.n {
        let name = format!("benchmark-{k:05}");
        api.insert(Mr::provisioned(RS, "RecordSet", &name).without_annotation(EXT).create_incomplete().json());
        plan.push(json!({"resource": format!("recordset.dns.gcp.upbound.io/{name}"), "id": format!("{name}-id")}));
    }
    let drawn = provider(&api, (RS, "RecordSet"), cfg.delay_ms);
    let server = api.start_blocking().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    server.write_kubeconfig(&kubeconfig, None).unwrap();
    let plan_path = dir.path().join("plan.json");
    std::fs::write(&plan_path, serde_json::to_string(&plan).unwrap()).unwrap();
    let backups = dir.path().join("backups");
    let (stdout, stderr) = (dir.path().join("stdout.txt"), dir.path().join("stderr.txt"));
    println!(
        "adopt -f plan.json --import --yes --parallel {}: {} orphans, Observe answered after {}–{} ms",
        cfg.parallel, cfg.n, cfg.delay_ms.0, cfg.delay_ms.1
    );
    let start = Instant::now();
    let status = Command::new(&cfg.bin)
        .env_clear()
        .env("HOME", dir.path())
        .env("KUBECONFIG", &kubeconfig)
        .env("NO_COLOR", "1")
        .args(["adopt", "-f"])
        .arg(&plan_path)
        .args(["--import", "--yes", "--timeout", "2m", "--parallel", &cfg.parallel.to_string(), "--backup-dir"])
        .arg(&backups)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout).unwrap())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .status()
        .unwrap();
    let took = start.elapsed();
    report(&cfg, &api, took, status.code(), drawn.load(Ordering::Relaxed), &stdout, &stderr, &backups);
}

#[allow(clippy::too_many_arguments)]
fn report(
    cfg: &Config,
    api: &TestApi,
    took: Duration,
    code: Option<i32>,
    drawn_ms: u64,
    stdout: &std::path::Path,
    stderr: &std::path::Path,
    backups: &std::path::Path,
) {
    let out = std::fs::read_to_string(stdout).unwrap_or_default();
    let err_lines = std::fs::read_to_string(stderr).unwrap_or_default().lines().count();
    let adopted_lines = out.lines().filter(|l| l.starts_with("adopted ")).count();
    let stored_ok = api
        .list(RS, "RecordSet", None)
        .iter()
        .filter(|o| {
            let want = format!("{}-id", o["metadata"]["name"].as_str().unwrap_or_default());
            ann(o, EXT) == Some(want.as_str())
                && ann(o, PAUSED).is_none()
                && ann(o, "kubectl-upjet.io/adoption").is_none()
        })
        .count();
    let backup_files = std::fs::read_dir(backups).map(|d| d.count()).unwrap_or(0);
    let secs = took.as_secs_f64();
    let floor = drawn_ms as f64 / 2.0 / 1000.0 / f64::from(cfg.parallel);
    println!("exit code:                {code:?}");
    println!("total time:               {secs:.1} s");
    println!("adoptions per second:     {:.2}", adopted_lines as f64 / secs);
    println!("adopted (stdout lines):   {adopted_lines} of {}", cfg.n);
    println!("adopted (stored state):   {stored_ok} of {}", cfg.n);
    println!("every backup written:     {} ({backup_files} files)", backup_files == cfg.n);
    println!("summary:                  {}", out.lines().last().unwrap_or_default());
    println!("stderr progress lines:    {err_lines}");
    println!(
        "provider delay drawn:     {:.1} s in all (two waits per adoption; a slot is held through the first); floor at --parallel {}: {floor:.1} s",
        drawn_ms as f64 / 1000.0,
        cfg.parallel
    );
    println!(
        "client overhead:          {:.1} s over the floor ({:.0} ms per adoption per slot)",
        secs - floor,
        (secs - floor) * 1000.0 * f64::from(cfg.parallel) / cfg.n.max(1) as f64
    );
}
