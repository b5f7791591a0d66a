//! `kubectl upjet watch` at fleet scale (issue 25's figures), against the in-process test API
//! server holding every provider-upjet-aws CRD plus Crossplane's core CRDs, seeded as the fleet
//! benchmark seeds (`fleet/seed.rs`). Prints one markdown table; asserts nothing.
//!
//! ```text
//! CARGO_PROFILE_BENCH_LTO=false CARGO_PROFILE_BENCH_CODEGEN_UNITS=16 cargo bench --bench watch
//! UPJET_BENCH_WATCH_MRS=2000 UPJET_BENCH_WATCH_CHANGES=100 UPJET_BENCH_WATCH_FINDINGS=500 \
//!   UPJET_BENCH_WATCH_LARGE=0 cargo bench --bench watch                      # a quick look
//! ```
//!
//! Environment: `UPJET_BENCH_WATCH_MRS` (22000) MRs of `UPJET_BENCH_WATCH_KINDS` (68) kinds;
//! `UPJET_BENCH_WATCH_CHANGES` (1000) single-MR changes timed to /metrics;
//! `UPJET_BENCH_WATCH_FINDINGS` (4000) finding series for the scrape timing;
//! `UPJET_BENCH_WATCH_LARGE` (50000; 0 skips) MRs for the second RSS figure;
//! `UPJET_BENCH_WATCH_RUNS` (5) runs of doctor and of the watch's start for the ready ratio;
//! `UPJET_BENCH_BIN`: the kubectl-upjet to measure (default: the one cargo built for this bench).
//!
//! Measured:
//! - ready: spawn of `watch -A --metrics-addr` to the first `200` of `/readyz` (polled every
//!   5 ms), against the wall time of `doctor -A -o json` on the same server, the two in turn
//!   `UPJET_BENCH_WATCH_RUNS` (5) times each, medians compared; both run with the
//!   discovery cache warm (one doctor run before);
//! - RSS: the watch's `VmRSS` two seconds after ready (steady: every first list judged), and its
//!   `VmHWM`;
//! - change → /metrics: a create-pending mark put on one healthy MR through the server's store
//!   (a watch event like any other), then `/metrics` polled until the MR's `CreateIncomplete`
//!   series is there; p50 / p99 / max over the changes;
//! - scrape: with at least `UPJET_BENCH_WATCH_FINDINGS` finding series, 50 scrapes of `/metrics`.

#[path = "support/child.rs"]
#[allow(dead_code)]
mod child;
#[path = "fleet/seed.rs"]
#[allow(dead_code)]
mod seed;

use serde_json::{Value, json};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use testapi::TestApi;

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.trim().replace('_', "").parse().ok()).unwrap_or(default)
}

fn bin() -> PathBuf {
    std::env::var_os("UPJET_BENCH_BIN")
        .map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_kubectl-upjet")), PathBuf::from)
}

fn command(home: &Path, kubeconfig: &Path) -> Command {
    let mut cmd = Command::new(bin());
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .stdin(Stdio::null());
    cmd
}

/// A field of `/proc/PID/status`, KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = text.lines().find_map(|l| l.strip_prefix(field)).unwrap_or("0");
    line.trim().trim_end_matches("kB").trim().parse().unwrap_or(0)
}

/// GET `path` on `addr`: status and body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let Ok(mut s) = std::net::TcpStream::connect(addr) else { return (0, String::new()) };
    let _ = write!(s, "GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
}

/// A running watch: the child and its metrics address.
struct Watch {
    child: Child,
    addr: String,
    started: Instant,
}

impl Watch {
    fn start(home: &Path, kubeconfig: &Path) -> Watch {
        let mut cmd = command(home, kubeconfig);
        cmd.args(["watch", "-A", "--no-journal", "-o", "json", "--resync", "1h", "--metrics-addr", "127.0.0.1:0"]);
        cmd.stdout(Stdio::null()).stderr(Stdio::piped());
        let started = Instant::now();
        let mut child = cmd.spawn().expect("watch starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        while stderr.read_line(&mut line).map(|n| n > 0).unwrap_or(false) && !line.contains("serving /metrics") {
            line.clear();
        }
        let addr = line.trim().rsplit(' ').next().unwrap_or_default().to_string();
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Watch { child, addr, started }
    }

    /// Time from spawn to the first `200` of `/readyz`.
    fn ready(&self) -> Duration {
        while get(&self.addr, "/readyz").0 != 200 {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.started.elapsed()
    }

    /// Steady `VmRSS` and `VmHWM`, MiB, two seconds after ready.
    fn rss(&self) -> (f64, f64) {
        std::thread::sleep(Duration::from_secs(2));
        let pid = self.child.id();
        (status_kib(pid, "VmRSS:") as f64 / 1024.0, status_kib(pid, "VmHWM:") as f64 / 1024.0)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn has_series(body: &str, name: &str) -> bool {
    let name = format!("name=\"{name}\"");
    body.lines().any(|l| l.starts_with("upjet_managed_resource_finding{") && l.contains(&name))
}

fn finding_series(body: &str) -> usize {
    body.lines().filter(|l| l.starts_with("upjet_managed_resource_finding{")).count()
}

/// Marks MR `obj` as a create left incomplete (a pending mark after the last success).
fn break_create(api: &TestApi, obj: &Value) {
    let meta = &obj["metadata"];
    api.modify(
        obj["apiVersion"].as_str().unwrap_or_default(),
        obj["kind"].as_str().unwrap_or_default(),
        meta["namespace"].as_str(),
        meta["name"].as_str().unwrap_or_default(),
        |o| {
            let ann = &mut o["metadata"]["annotations"];
            ann["crossplane.io/external-create-pending"] = json!("2024-11-30T11:00:05Z");
            ann["crossplane.io/external-create-succeeded"] = json!("2024-11-30T11:00:00Z");
            if let Some(map) = ann.as_object_mut() {
                map.remove("crossplane.io/external-create-failed");
            }
        },
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or_default()
}

/// The median of `values` (sorted in place, so the caller reads the range off the ends).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 { values[n / 2] } else { (values[n / 2 - 1] + values[n / 2]) / 2.0 }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let (mrs, kinds) = (env_num("UPJET_BENCH_WATCH_MRS", 22_000), env_num("UPJET_BENCH_WATCH_KINDS", 68) as usize);
    let changes = env_num("UPJET_BENCH_WATCH_CHANGES", 1_000);
    let want_findings = env_num("UPJET_BENCH_WATCH_FINDINGS", 4_000) as usize;
    let large = env_num("UPJET_BENCH_WATCH_LARGE", 50_000);
    let api = TestApi::new();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/crds");
    for dir in [fixtures.join("provider-upjet-aws"), fixtures.join("crossplane")] {
        api.add_crds_from_dir(&dir).unwrap_or_else(|e| panic!("loading CRDs from {}: {e}", dir.display()));
    }
    for ns in seed::Fleet::namespaces() {
        api.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}));
    }
    let server = api.start_blocking().expect("test API server starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let kubeconfig = dir.path().join("kubeconfig");
    server.write_kubeconfig(&kubeconfig, None).expect("kubeconfig");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let managed = rt.block_on(async {
        let flags = upjet_cluster::connect::ConnectOptions::kubeconfig(kubeconfig.clone());
        let conn = upjet_cluster::connect::connect(&flags).await.expect("connect");
        upjet_cluster::discover::discover_managed(&conn, 16).await.expect("discovery").0
    });
    let fleet = seed::Fleet::with_kinds(&managed, kinds);
    let t = Instant::now();
    for i in 0..mrs {
        api.insert(fleet.object(i));
    }
    let populated: HashSet<String> = (0..mrs).map(|i| fleet.kind_of(i).resource_name()).collect();
    eprintln!("seeded {mrs} MRs of {} kinds in {:.1}s", populated.len(), t.elapsed().as_secs_f64());

    let mut rows: Vec<(String, String, String)> = Vec::new();
    let doctor = || {
        let mut cmd = command(dir.path(), &kubeconfig);
        cmd.args(["doctor", "-A", "-o", "json", "--fail-on", "never"]);
        child::run_measured(cmd)
    };
    let _warm = doctor();
    // Doctor and the watch in turn, `runs` times each: one run of either varies by a tenth on a
    // shared machine, the medians much less.
    let (mut doctors, mut readies) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..env_num("UPJET_BENCH_WATCH_RUNS", 5).max(1) {
        let d = doctor();
        doctors.push(d.secs);
        drop(last.take());
        let w = Watch::start(dir.path(), &kubeconfig);
        readies.push(w.ready().as_secs_f64());
        last = Some((d, w));
    }
    let (d, w) = last.expect("one run at least");
    let (ready, doctor_secs) = (median(&mut readies), median(&mut doctors));
    let ratio = ready / doctor_secs;
    rows.push((
        format!("ready ({mrs} MRs, {} kinds), median of {}", populated.len(), readies.len()),
        format!(
            "{ready:.2} s (range {:.2}–{:.2}) vs doctor -A {doctor_secs:.2} s (range {:.2}–{:.2}): {ratio:.2}×",
            readies[0],
            readies[readies.len() - 1],
            doctors[0],
            doctors[doctors.len() - 1]
        ),
        "≤ 1.2×".into(),
    ));
    let (rss, hwm) = w.rss();
    rows.push((
        format!("steady RSS ({mrs} MRs)"),
        format!("{rss:.0} MiB (peak {hwm:.0} MiB; doctor -A peak {:.0} MiB)", d.peak_mib),
        "< 150 MB".into(),
    ));

    let (_, body) = get(&w.addr, "/metrics");
    let mut candidates = (0..mrs)
        .map(|i| fleet.object(i))
        .filter(|o| !has_series(&body, o["metadata"]["name"].as_str().unwrap_or_default()));
    let mut latencies = Vec::new();
    for _ in 0..changes {
        let Some(obj) = candidates.next() else { break };
        let name = obj["metadata"]["name"].as_str().unwrap_or_default().to_string();
        let t = Instant::now();
        break_create(&api, &obj);
        while !has_series(&get(&w.addr, "/metrics").1, &name) {
            std::thread::sleep(Duration::from_micros(500));
        }
        latencies.push(t.elapsed());
    }
    latencies.sort();
    rows.push((
        format!("one MR changed → /metrics ({} changes)", latencies.len()),
        format!(
            "p50 {}, p99 {}, max {}",
            ms(percentile(&latencies, 0.5)),
            ms(percentile(&latencies, 0.99)),
            ms(latencies.last().copied().unwrap_or_default())
        ),
        "p99 < 1 s".into(),
    ));

    let mut count = finding_series(&get(&w.addr, "/metrics").1);
    while count < want_findings {
        let batch: Vec<Value> = candidates.by_ref().take((want_findings - count).div_ceil(2)).collect();
        if batch.is_empty() {
            break;
        }
        batch.iter().for_each(|o| break_create(&api, o));
        std::thread::sleep(Duration::from_millis(500));
        count = finding_series(&get(&w.addr, "/metrics").1);
    }
    let mut scrapes: Vec<Duration> = (0..50)
        .map(|_| {
            let t = Instant::now();
            let _ = get(&w.addr, "/metrics");
            t.elapsed()
        })
        .collect();
    scrapes.sort();
    rows.push((
        format!("scrape ({count} finding series)"),
        format!("p50 {}, max {}", ms(percentile(&scrapes, 0.5)), ms(scrapes[scrapes.len() - 1])),
        "< 50 ms".into(),
    ));
    drop(w);

    if large > mrs {
        for i in mrs..large {
            api.insert(fleet.object(i));
        }
        let w = Watch::start(dir.path(), &kubeconfig);
        let ready = w.ready();
        let (rss, hwm) = w.rss();
        rows.push((
            format!("steady RSS ({large} MRs)"),
            format!("{rss:.0} MiB (peak {hwm:.0} MiB; ready in {:.2} s)", ready.as_secs_f64()),
            "< 250 MB".into(),
        ));
    }
    println!("| figure | measured | target |\n| --- | --- | --- |");
    for (what, measured, target) in rows {
        println!("| {what} | {measured} | {target} |");
    }
}
