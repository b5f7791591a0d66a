//! Fleet-scale benchmark (issue 6): `kubectl-upjet doctor -A -o json` against the in-process
//! test API server holding every provider-upjet-aws CRD (2,043) plus Crossplane's core CRDs, with
//! seeded fleets of MRs. Prints markdown tables; asserts nothing (it is not a timed test).
//!
//! ```text
//! cargo bench --bench fleet                                     # 0, 5k, 22k, 50k MRs, kubectl once per size
//! UPJET_BENCH_SIZES=0,5000 UPJET_BENCH_KUBECTL=0 cargo bench --bench fleet   # a quick look
//! ```
//!
//! Environment:
//! - `UPJET_BENCH_SIZES` (default `0,5000,22000,50000`): fleet sizes, seeded cumulatively;
//! - `UPJET_BENCH_RUNS` (default 3): runs of doctor and of the floor per case; the median is shown;
//! - `UPJET_BENCH_LATENCY_MS` (default 20; 0 skips): latency injected per request for the second pass;
//! - `UPJET_BENCH_CONCURRENCY` (default 16, doctor's default): requests in flight, doctor and floor;
//! - `UPJET_BENCH_KUBECTL` (default 1; 0 skips) and `UPJET_BENCH_KUBECTL_CAP_SECS` (default 900):
//!   `kubectl get managed -A -o json` once per size, killed at the cap;
//! - `UPJET_BENCH_CRDS` (default the shared fixtures): colon-separated CRD folders.
//! - `UPJET_BENCH_BIN` (default the binary cargo built for this bench): the kubectl-upjet to measure.
//! - `UPJET_BENCH_HOLD_SECS`: afterwards, keep the seeded server up this long (to attach a profiler).
//! - `UPJET_BENCH_PEAK_AT` (default 22000; 0 skips): the fleet size whose `doctor -A` peak RSS is
//!   printed on a line of its own (the median of the cold runs, with their range), added to the
//!   sizes when missing: issue 33's fleet, whose peak is watched from round to round.
//!
//! Measured per fleet:
//! - doctor: the real release binary, spawned; wall time from spawn to exit; peak RSS from the
//!   child's `VmHWM` (as doctor reports it on exit, else sampled while it runs); requests, bytes
//!   and most requests in flight from the test server's counters; discovery / listing / analysis
//!   split from the binary's `UPJET_TIMINGS` line. Cold runs pass `--refresh-discovery`; one
//!   more run shows a warm discovery cache.
//! - the floor: the same paginated LISTs (page size 500, continue tokens) of every managed kind,
//!   in discovery order, with the same concurrency, through the same kube client in this
//!   process, each body read and dropped (the continue token is found without parsing the page).
//! - kubectl: `kubectl get managed -A -o json` with a fresh `--cache-dir`, stdout to a file.

#[path = "fleet/seed.rs"]
mod seed;

use futures::StreamExt;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use testapi::{Fault, TestApi};
use upjet_cluster::kinds::ApiKind;

const PAGE: u32 = 500;

struct Config {
    sizes: Vec<u64>,
    runs: usize,
    latency_ms: u64,
    concurrency: usize,
    kubectl: bool,
    kubectl_cap: Duration,
    crd_dirs: Vec<PathBuf>,
    peak_at: Option<u64>,
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

impl Config {
    fn from_env() -> Config {
        let mut sizes: Vec<u64> = std::env::var("UPJET_BENCH_SIZES")
            .ok()
            .map(|v| v.split(',').filter_map(|s| s.trim().replace('_', "").parse().ok()).collect())
            .filter(|v: &Vec<u64>| !v.is_empty())
            .unwrap_or_else(|| vec![0, 5_000, 22_000, 50_000]);
        let peak_at = Some(env_num("UPJET_BENCH_PEAK_AT", 22_000)).filter(|&n| n > 0);
        sizes.extend(peak_at);
        sizes.sort_unstable();
        sizes.dedup();
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/crds");
        let crd_dirs = std::env::var("UPJET_BENCH_CRDS")
            .ok()
            .map(|v| std::env::split_paths(&v).collect())
            .unwrap_or_else(|| vec![fixtures.join("provider-upjet-aws"), fixtures.join("crossplane")]);
        Config {
            sizes,
            runs: env_num("UPJET_BENCH_RUNS", 3).max(1) as usize,
            latency_ms: env_num("UPJET_BENCH_LATENCY_MS", 20),
            concurrency: env_num("UPJET_BENCH_CONCURRENCY", 16).clamp(1, 256) as usize,
            kubectl: env_num("UPJET_BENCH_KUBECTL", 1) != 0,
            kubectl_cap: Duration::from_secs(env_num("UPJET_BENCH_KUBECTL_CAP_SECS", 900)),
            crd_dirs,
            peak_at,
        }
    }
}

/// One measured run.
#[derive(Clone, Default)]
struct Run {
    wall: Duration,
    cpu: Option<Duration>,
    rss_kib: Option<i64>,
    requests: u64,
    discovery_requests: u64,
    list_requests: u64,
    bytes: u64,
    max_in_flight: usize,
    timings: BTreeMap<String, String>,
    check: String,
}

/// One table row: the median of the runs of one case.
struct Row {
    size: u64,
    latency_ms: u64,
    client: String,
    run: Run,
    runs: usize,
    floor: Option<Duration>,
}

/// A finished child process: exit status, and its own resource usage.
struct Exited {
    code: Option<i32>,
    /// User + system CPU time of the child (unaffected by the vfork effect on `ru_maxrss`).
    cpu: Duration,
    wall: Duration,
    rss_kib: i64,
    timed_out: bool,
}

/// `VmHWM` (peak RSS, KiB) of a running process, from `/proc/PID/status`.
fn vm_hwm_kib(pid: libc::pid_t) -> Option<i64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}

/// Spawns `cmd`, polls it every `poll` and reaps it with `wait4`; with a `cap`, kills it when it
/// runs longer. Peak RSS is the last `VmHWM` read while it ran, not `ru_maxrss`: Rust spawns
/// children with `posix_spawn` (vfork), and Linux then records the *parent's* peak RSS — this
/// benchmark's, hundreds of MB with the test server's data — in the child's `ru_maxrss`. Doctor
/// reports its own `VmHWM` just before exiting (`UPJET_TIMINGS`), which the caller prefers.
fn run_child(cmd: &mut Command, cap: Option<Duration>, poll: Duration) -> std::io::Result<Exited> {
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut timed_out = false;
    let mut hwm = 0;
    loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value; wait4 writes into the two locals we pass.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if timed_out { 0 } else { libc::WNOHANG };
        // SAFETY: `pid` is our own unreaped child; the pointers are to live locals.
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut ru) };
        if r == pid {
            let wall = start.elapsed();
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            let tv = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
            let cpu = tv(ru.ru_utime) + tv(ru.ru_stime);
            return Ok(Exited { code, cpu, wall, rss_kib: hwm, timed_out });
        }
        hwm = hwm.max(vm_hwm_kib(pid).unwrap_or(0));
        if r < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if cap.is_some_and(|c| start.elapsed() > c) && !timed_out {
            timed_out = true;
            let _ = child.kill();
            continue;
        }
        std::thread::sleep(poll);
    }
}

/// The median of the runs' peak RSS, KiB, with the lowest and the highest.
fn peak_median(runs: &[Run]) -> Option<(i64, i64, i64)> {
    let mut peaks: Vec<i64> = runs.iter().filter_map(|r| r.rss_kib).collect();
    peaks.sort_unstable();
    Some((*peaks.get(peaks.len() / 2)?, *peaks.first()?, *peaks.last()?))
}

fn median(mut runs: Vec<Run>) -> Run {
    runs.sort_by_key(|r| r.wall);
    runs.swap_remove(runs.len() / 2)
}

/// The test server's traffic since the last reset, into a run.
fn traffic(api: &TestApi, run: &mut Run) {
    let s = api.stats();
    run.requests = s.requests;
    run.discovery_requests = s.class("discovery");
    run.list_requests = s.class("list");
    run.bytes = s.response_bytes;
    run.max_in_flight = s.max_in_flight;
}

struct Bench {
    cfg: Config,
    api: TestApi,
    bin: PathBuf,
    dir: tempfile::TempDir,
    kubeconfig: PathBuf,
    rt: tokio::runtime::Runtime,
    conn: upjet_cluster::connect::Connection,
    managed: Vec<ApiKind>,
}

impl Bench {
    fn doctor(&self, size: u64, extra: &[&str], refresh: bool) -> Run {
        let out = self.dir.path().join("doctor.json");
        let err = self.dir.path().join("doctor.err");
        let mut cmd = Command::new(&self.bin);
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.path())
            .env("NO_COLOR", "1")
            .env("UPJET_TIMINGS", "1")
            .args(["doctor", "-A", "-o", "json", "--fail-on", "never", "--concurrency"])
            .arg(self.cfg.concurrency.to_string())
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).expect("doctor stdout file"))
            .stderr(std::fs::File::create(&err).expect("doctor stderr file"));
        if refresh {
            cmd.arg("--refresh-discovery");
        }
        self.api.reset_stats();
        let exited = run_child(&mut cmd, None, Duration::from_millis(2)).expect("run doctor");
        let mut run = Run { wall: exited.wall, cpu: Some(exited.cpu), rss_kib: Some(exited.rss_kib), ..Run::default() };
        traffic(&self.api, &mut run);
        let stderr = std::fs::read_to_string(&err).unwrap_or_default();
        if let Some(line) = stderr.lines().find(|l| l.starts_with("upjet-timings")) {
            run.timings = line
                .split_whitespace()
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            if let Some(kib) = run.timings.get("peak_rss_kib").and_then(|v| v.parse().ok()) {
                run.rss_kib = Some(kib);
            }
        }
        let report: serde_json::Value =
            std::fs::read(&out).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
        let scanned = report["summary"]["resourcesScanned"].as_u64();
        let skipped = report["summary"]["kindsSkipped"].as_array().map_or(0, Vec::len);
        let findings = report["findings"].as_array().map_or(0, Vec::len);
        run.check = match (exited.code, scanned) {
            (Some(0), Some(n)) if extra.is_empty() && n != size => format!("MISMATCH: scanned {n} of {size}"),
            (Some(0), Some(n)) if skipped == 0 => format!("{n} MRs scanned, {findings} findings"),
            _ => format!(
                "FAILED: exit {:?}, {skipped} kinds skipped: {}",
                exited.code,
                stderr.lines().rev().take(3).collect::<Vec<_>>().join(" / ")
            ),
        };
        run
    }

    fn floor(&self) -> Run {
        self.api.reset_stats();
        let client = self.conn.client.clone();
        let (wall, requests, bytes, errors) = self.rt.block_on(floor(client, &self.managed, self.cfg.concurrency));
        let mut run = Run { wall, ..Run::default() };
        traffic(&self.api, &mut run);
        run.check = if errors == 0 {
            format!("{requests} LISTs, {:.1} MB read", bytes as f64 / 1e6)
        } else {
            format!("FAILED: {errors} kinds failed")
        };
        run
    }

    fn kubectl(&self) -> Run {
        let out = self.dir.path().join("kubectl.json");
        let err = self.dir.path().join("kubectl.err");
        let cache = tempfile::tempdir_in(self.dir.path()).expect("kubectl cache dir");
        let mut cmd = Command::new("kubectl");
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.path())
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .arg("--cache-dir")
            .arg(cache.path())
            .args(["get", "managed", "-A", "-o", "json"])
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out).expect("kubectl stdout file"))
            .stderr(std::fs::File::create(&err).expect("kubectl stderr file"));
        self.api.reset_stats();
        let mut run = Run::default();
        match run_child(&mut cmd, Some(self.cfg.kubectl_cap), Duration::from_millis(20)) {
            Ok(exited) => {
                run.wall = exited.wall;
                run.cpu = Some(exited.cpu);
                run.rss_kib = Some(exited.rss_kib);
                traffic(&self.api, &mut run);
                let size = std::fs::metadata(&out).map_or(0, |m| m.len());
                run.check = if exited.timed_out {
                    format!("KILLED at the {:?} cap", self.cfg.kubectl_cap)
                } else if exited.code == Some(0) {
                    format!("{:.1} MB of JSON written", size as f64 / 1e6)
                } else {
                    let e = std::fs::read_to_string(&err).unwrap_or_default();
                    format!("FAILED: exit {:?}: {}", exited.code, e.lines().last().unwrap_or_default())
                };
            }
            Err(e) => run.check = format!("FAILED: cannot run kubectl: {e}"),
        }
        run
    }
}

impl Bench {
    /// Single-core decode throughput on one real 500-item page of the most popular kind: where
    /// doctor's CPU goes, without a profiler. `None` when that kind has no full page.
    fn decode_profile(&self, fleet: &seed::Fleet) -> Option<String> {
        use upjet_core::managed::ManagedResource;
        #[derive(serde::Deserialize)]
        struct RawPage<'a> {
            #[serde(borrow)]
            items: Vec<&'a serde_json::value::RawValue>,
        }
        let kind = fleet.kind_of(0).clone();
        let path = format!("{}?limit={PAGE}", kind.collection_path(None));
        let req = http::Request::get(path).body(Vec::new()).ok()?;
        let body = self.rt.block_on(self.conn.client.request_text(req)).ok()?;
        let items: Vec<&str> = serde_json::from_str::<RawPage>(&body).ok()?.items.iter().map(|r| r.get()).collect();
        if items.len() < PAGE as usize {
            return None;
        }
        let mb = body.len() as f64 / 1e6;
        let rounds = 20;
        let time = |f: &dyn Fn()| {
            let t = Instant::now();
            for _ in 0..rounds {
                f();
            }
            let per = t.elapsed().as_secs_f64() / f64::from(rounds);
            format!("{:.2} ms ({:.0} MB/s)", per * 1e3, mb / per)
        };
        let rows = [
            (
                "serde_json: whole page, every value skipped (IgnoredAny)",
                time(&|| {
                    std::hint::black_box(serde_json::from_str::<serde::de::IgnoredAny>(&body).ok());
                }),
            ),
            (
                "serde_json: page into borrowed RawValue items (the old first pass)",
                time(&|| {
                    std::hint::black_box(serde_json::from_str::<RawPage>(&body).ok());
                }),
            ),
            (
                "scan::decode_page: items delimited by the bracket splitter (the new first pass)",
                time(&|| {
                    std::hint::black_box(upjet_cluster::scan::decode_page(&body).ok());
                }),
            ),
            (
                "ManagedResource::from_json on each of the 500 items (the second pass)",
                time(&|| {
                    for i in &items {
                        std::hint::black_box(ManagedResource::from_json(i).ok());
                    }
                }),
            ),
            (
                "doctor's whole page decode: decode_page + from_json",
                time(&|| {
                    if let Ok((items, _)) = upjet_cluster::scan::decode_page(&body) {
                        for i in items {
                            std::hint::black_box(ManagedResource::from_json(i).ok());
                        }
                    }
                }),
            ),
            (
                "floor: find the continue token",
                time(&|| {
                    std::hint::black_box(continue_token(&body));
                }),
            ),
        ];
        let mut out = format!(
            "Decode profile, one core, one page of {} ({} items, {mb:.2} MB), mean of {rounds}:\n\n| step | time per page |\n|---|---:|\n",
            kind.resource_name(),
            items.len()
        );
        for (what, t) in rows {
            out.push_str(&format!("| {what} | {t} |\n"));
        }
        Some(out)
    }
}

/// Finds `"continue":"…"` in the list metadata, which the API server writes before `items`, so
/// the page need not be parsed; falls back to parsing when the layout differs.
fn continue_token(body: &str) -> Option<String> {
    let head_end = memchr::memmem::find(body.as_bytes(), b"\"items\":").unwrap_or(body.len());
    let head = &body[..head_end];
    if let Some(p) = memchr::memmem::find(head.as_bytes(), b"\"continue\":\"") {
        let rest = &head[p + 12..];
        return rest.find('"').map(|e| rest[..e].to_string()).filter(|t| !t.is_empty());
    }
    if head_end < body.len() {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Meta {
        #[serde(rename = "continue", default)]
        continue_: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Page {
        metadata: Meta,
    }
    serde_json::from_str::<Page>(body).ok()?.metadata.continue_.filter(|t| !t.is_empty())
}

/// The floor: every kind's paginated LIST, `concurrency` at once, bodies read and dropped.
async fn floor(client: kube::Client, kinds: &[ApiKind], concurrency: usize) -> (Duration, u64, u64, u64) {
    let start = Instant::now();
    let per_kind = futures::stream::iter(kinds.iter().map(|k| k.collection_path(None)))
        .map(|path| {
            let client = client.clone();
            async move {
                let (mut requests, mut bytes) = (0u64, 0u64);
                let mut token: Option<String> = None;
                loop {
                    let mut lp = kube::api::ListParams::default().limit(PAGE);
                    if let Some(t) = &token {
                        lp = lp.continue_token(t);
                    }
                    let Ok(req) = kube::core::Request::new(&path).list(&lp) else { return (requests, bytes, 1) };
                    requests += 1;
                    let Ok(body) = client.request_text(req).await else { return (requests, bytes, 1) };
                    bytes += body.len() as u64;
                    token = continue_token(&body);
                    drop(body);
                    if token.is_none() {
                        return (requests, bytes, 0);
                    }
                }
            }
        })
        .buffer_unordered(concurrency);
    let (requests, bytes, errors) =
        per_kind.fold((0, 0, 0), |acc, (r, b, e)| async move { (acc.0 + r, acc.1 + b, acc.2 + e) }).await;
    (start.elapsed(), requests, bytes, errors)
}

/// The line issue 33 asks for: `doctor -A`'s peak RSS at the watched fleet size, per latency pass
/// (MB as well as MiB: the issue's figures are in MB).
fn print_peaks(at: u64, runs: usize, peaks: &[(u64, (i64, i64, i64))]) {
    if peaks.is_empty() {
        return;
    }
    let mib = |kib: i64| kib as f64 / 1024.0;
    let each = peaks.iter().map(|(latency, (median, lo, hi))| {
        let mb = *median as f64 * 1024.0 / 1e6;
        format!("{:.1} MiB ({mb:.1} MB; {:.1}–{:.1} MiB) at {latency} ms latency", mib(*median), mib(*lo), mib(*hi))
    });
    println!("doctor -A peak RSS at {at} MRs, median of {runs} cold runs: {}.\n", each.collect::<Vec<_>>().join("; "));
}

fn secs(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64())
}

/// The 1/5/15-minute load averages: the benchmark shares the machine, so the table says how busy it was.
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn main() {
    let load_before = loadavg();
    let cfg = Config::from_env();
    let api = TestApi::new();
    let t = Instant::now();
    let mut crds = 0;
    for dir in &cfg.crd_dirs {
        crds += api.add_crds_from_dir(dir).unwrap_or_else(|e| panic!("loading CRDs from {}: {e}", dir.display()));
    }
    eprintln!("loaded {crds} CRDs in {:.1}s", t.elapsed().as_secs_f64());
    for ns in seed::Fleet::namespaces() {
        api.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}));
    }
    let server = api.start_blocking().expect("test API server starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("kubeconfig");
    server.write_kubeconfig(&kubeconfig, None).expect("kubeconfig");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime");
    let flags = upjet_cluster::connect::ConnectOptions::kubeconfig(kubeconfig.clone());
    let (conn, managed) = rt.block_on(async {
        let conn = upjet_cluster::connect::connect(&flags).await.expect("connect");
        let (managed, _) = upjet_cluster::discover::discover_managed(&conn, 16).await.expect("discovery");
        (conn, managed)
    });
    let fleet = seed::Fleet::new(&managed);
    let bench = Bench {
        bin: std::env::var_os("UPJET_BENCH_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_kubectl-upjet"))),
        cfg,
        api,
        dir,
        kubeconfig,
        rt,
        conn,
        managed,
    };
    let one_kind = fleet.kind_of(0).resource_name();

    let mut rows: Vec<Row> = Vec::new();
    let mut seeded = 0u64;
    let (mut broken, mut sizes_sum, mut sizes_n, mut size_min, mut size_max) =
        (0u64, 0usize, 0usize, usize::MAX, 0usize);
    let mut populated = std::collections::HashMap::<String, u64>::new();
    let mut peaks: Vec<(u64, (i64, i64, i64))> = Vec::new();
    for (si, &size) in bench.cfg.sizes.iter().enumerate() {
        let t = Instant::now();
        while seeded < size {
            let obj = fleet.object(seeded);
            if seeded.is_multiple_of(25) {
                let n = serde_json::to_vec(&obj).map_or(0, |v| v.len());
                sizes_sum += n;
                sizes_n += 1;
                size_min = size_min.min(n);
                size_max = size_max.max(n);
            }
            broken += u64::from(seed::mix(seeded) % 100 < seed::BROKEN_PERCENT);
            *populated.entry(fleet.kind_of(seeded).resource_name()).or_default() += 1;
            bench.api.insert(obj);
            seeded += 1;
        }
        eprintln!("seeded {size} MRs ({:.1}s)", t.elapsed().as_secs_f64());
        let latencies: Vec<u64> =
            std::iter::once(0).chain((bench.cfg.latency_ms > 0).then_some(bench.cfg.latency_ms)).collect();
        for &latency in &latencies {
            if latency > 0 {
                bench.api.fault(Fault::Delay { path_contains: String::new(), millis: latency });
            }
            let floor = median((0..bench.cfg.runs).map(|_| bench.floor()).collect());
            eprintln!("  {size} MRs, +{latency} ms: floor {}s ({})", secs(floor.wall), floor.check);
            let doctors: Vec<Run> = (0..bench.cfg.runs).map(|_| bench.doctor(size, &[], true)).collect();
            if bench.cfg.peak_at == Some(size) {
                peaks.extend(peak_median(&doctors).map(|p| (latency, p)));
            }
            let doctor = median(doctors);
            eprintln!("  {size} MRs, +{latency} ms: doctor {}s ({})", secs(doctor.wall), doctor.check);
            let warm = bench.doctor(size, &[], false);
            let fw = floor.wall;
            rows.push(Row {
                size,
                latency_ms: latency,
                client: "floor (LISTs only)".into(),
                run: floor,
                runs: bench.cfg.runs,
                floor: Some(fw),
            });
            rows.push(Row {
                size,
                latency_ms: latency,
                client: "doctor".into(),
                run: doctor,
                runs: bench.cfg.runs,
                floor: Some(fw),
            });
            rows.push(Row {
                size,
                latency_ms: latency,
                client: "doctor, discovery cached".into(),
                run: warm,
                runs: 1,
                floor: Some(fw),
            });
            if si == 0 && latency == 0 {
                let one = bench.doctor(size, &["--kind", &one_kind], true);
                rows.push(Row {
                    size,
                    latency_ms: 0,
                    client: format!("doctor --kind {one_kind} (1 kind)"),
                    run: one,
                    runs: 1,
                    floor: None,
                });
            }
            bench.api.clear_faults();
        }
        if bench.cfg.kubectl {
            eprintln!("  {size} MRs: kubectl get managed -A -o json (cap {:?})…", bench.cfg.kubectl_cap);
            let k = bench.kubectl();
            eprintln!("  {size} MRs: kubectl {}s ({})", secs(k.wall), k.check);
            rows.push(Row {
                size,
                latency_ms: 0,
                client: "kubectl get managed -A -o json".into(),
                run: k,
                runs: 1,
                floor: None,
            });
        }
    }

    let decode = bench.decode_profile(&fleet);
    let kinds_with_objects = populated.len();
    let mut top: Vec<(String, u64)> = populated.into_iter().collect();
    top.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    println!(
        "Fleet: {crds} CRDs, {} managed kinds; {seeded} MRs in {kinds_with_objects} kinds (top: {}); \
         {broken} broken ({:.1}%); object size avg {:.1} KB, min {:.1} KB, max {:.1} KB (sampled 1 in 25); \
         concurrency {}, page size {PAGE}, median of {} runs; load average {load_before} before, {} after.\n",
        bench.managed.len(),
        top.iter().take(3).map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", "),
        broken as f64 * 100.0 / seeded.max(1) as f64,
        sizes_sum as f64 / sizes_n.max(1) as f64 / 1e3,
        if sizes_n > 0 { size_min as f64 / 1e3 } else { 0.0 },
        size_max as f64 / 1e3,
        bench.cfg.concurrency,
        bench.cfg.runs,
        loadavg(),
    );
    println!(
        "| MRs | latency | client | wall s | × floor | CPU s | peak RSS MiB | requests (discovery + list) | MB received | max in flight | check |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---|");
    for r in &rows {
        let ratio = match r.floor {
            Some(f) if !r.client.starts_with("floor") => {
                format!("{:.2}", r.run.wall.as_secs_f64() / f.as_secs_f64().max(1e-9))
            }
            _ => "".into(),
        };
        let ratio = if r.client.starts_with("kubectl") {
            rows.iter()
                .find(|d| d.size == r.size && d.latency_ms == 0 && d.client == "doctor")
                .map(|d| {
                    format!("doctor is {:.0}× faster", r.run.wall.as_secs_f64() / d.run.wall.as_secs_f64().max(1e-9))
                })
                .unwrap_or_default()
        } else {
            ratio
        };
        println!(
            "| {} | {} ms | {}{} | {} | {} | {} | {} | {} ({} + {}) | {:.1} | {} | {} |",
            r.size,
            r.latency_ms,
            r.client,
            if r.runs > 1 { format!(" (median of {})", r.runs) } else { String::new() },
            secs(r.run.wall),
            ratio,
            r.run.cpu.map_or("–".into(), secs),
            r.run.rss_kib.map_or("–".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
            r.run.requests,
            r.run.discovery_requests,
            r.run.list_requests,
            r.run.bytes as f64 / 1e6,
            r.run.max_in_flight,
            r.run.check,
        );
    }
    println!();
    if let Some(at) = bench.cfg.peak_at {
        print_peaks(at, bench.cfg.runs, &peaks);
    }
    println!(
        "Where doctor's time goes (from its UPJET_TIMINGS line; decode and diagnose are CPU time summed over threads, inside listing):\n"
    );
    println!(
        "| MRs | latency | client | connect ms | discovery ms (requests) | listing ms | decode CPU ms | diagnose CPU ms | report ms | output ms | total ms |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows.iter().filter(|r| !r.run.timings.is_empty()) {
        let t = |k: &str| r.run.timings.get(k).cloned().unwrap_or_default();
        println!(
            "| {} | {} ms | {} | {} | {} ({}{}) | {} | {} | {} | {} | {} | {} |",
            r.size,
            r.latency_ms,
            r.client,
            t("connect_ms"),
            t("discovery_ms"),
            t("discovery_requests"),
            if t("discovery_cached") == "true" { ", cached" } else { "" },
            t("listing_ms"),
            t("decode_cpu_ms"),
            t("analysis_cpu_ms"),
            t("report_ms"),
            t("output_ms"),
            t("total_ms"),
        );
    }
    if let Some(d) = decode {
        println!("\n{d}");
    }
    if let Some(hold) = std::env::var("UPJET_BENCH_HOLD_SECS").ok().and_then(|v| v.parse().ok()) {
        // Keeps the seeded server up for a profiler: `perf record kubectl-upjet doctor --kubeconfig …`.
        eprintln!("serving {} with kubeconfig {} for {hold}s", server.url, bench.kubeconfig.display());
        std::thread::sleep(Duration::from_secs(hold));
    }
    drop(server);
}
