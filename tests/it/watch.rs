//! `kubectl upjet watch` as a user runs it: the real binary against the in-process API server,
//! its lines on stdout, its metrics over HTTP, its journal on disk, and SIGTERM to end it.

use crate::support::{Cluster, Mr, Upjet, installed, upjet};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

pub(crate) const BUCKET: &str = "s3.aws.upbound.io_buckets.yaml";
pub(crate) const QUEUE: &str = "sqs.aws.upbound.io_queues.yaml";
const WAIT: Duration = Duration::from_secs(30);

/// A running watch: its process, its output lines as they come, and its metrics address.
pub(crate) struct Watch {
    child: Child,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
    addr: Option<String>,
    seen_err: Vec<String>,
}

fn lines(stream: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

impl Watch {
    /// Starts `kubectl-upjet watch ARGS` against the cluster, with its metrics on a free port.
    pub(crate) fn start(cluster: &Cluster, args: &[&str]) -> Watch {
        Watch::spawn(&mut cluster.upjet(), args)
    }

    /// Starts `kubectl-upjet watch ARGS` as `run` is set up (its HOME, its kubeconfig), judging
    /// everything again each second unless ARGS give their own `--resync`.
    pub(crate) fn spawn(run: &mut Upjet, args: &[&str]) -> Watch {
        let resync: &[&str] = if args.contains(&"--resync") { &[] } else { &["--resync", "1s"] };
        let first = ["watch", "--metrics-addr", "127.0.0.1:0"];
        Watch::exactly(run, &first.iter().chain(resync).chain(args).copied().collect::<Vec<_>>())
    }

    /// Starts `kubectl-upjet ARGS` as given (`watch` first, and a `--metrics-addr` on a free port,
    /// such as `127.0.0.1:0`), as `run` is set up.
    pub(crate) fn exactly(run: &mut Upjet, args: &[&str]) -> Watch {
        let mut cmd = run.args(args).to_std();
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("watch starts");
        let stdout = lines(child.stdout.take().unwrap());
        let stderr = lines(child.stderr.take().unwrap());
        let mut w = Watch { child, stdout, stderr, addr: None, seen_err: Vec::new() };
        let line = w.stderr_until(|l| l.contains("serving /metrics"));
        w.addr = line.rsplit(' ').next().map(str::to_string);
        w
    }

    /// Waits for a stderr line matching `pred`.
    pub(crate) fn stderr_until(&mut self, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.stderr.recv_timeout(left) {
                Ok(line) => {
                    self.seen_err.push(line.clone());
                    if pred(&line) {
                        return line;
                    }
                }
                Err(_) => break,
            }
        }
        panic!("no such stderr line; saw {:?}", self.seen_err)
    }

    /// Waits for a stdout line matching `pred`.
    pub(crate) fn line_until(&mut self, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.stdout.recv_timeout(left) {
                Ok(line) if pred(&line) => return line,
                Ok(line) => seen.push(line),
                Err(_) => break,
            }
        }
        panic!("no such line; saw {seen:?}; stderr {:?}", self.seen_err)
    }

    /// Waits for a stdout JSON event matching `pred`.
    pub(crate) fn event_until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.stdout.recv_timeout(left) {
                Ok(line) => {
                    let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                    if pred(&v) {
                        return v;
                    }
                    seen.push(v);
                }
                Err(_) => break,
            }
        }
        panic!("no such event; saw {seen:?}; stderr {:?}", self.seen_err)
    }

    /// GET a path of the metrics server: status and body.
    pub(crate) fn get(&self, path: &str) -> (u16, String) {
        let mut s = std::net::TcpStream::connect(self.addr.as_deref().unwrap()).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
        (status, body)
    }

    /// Polls /metrics until `pred` holds.
    pub(crate) fn metrics_until(&self, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let (_, body) = self.get("/metrics");
            if pred(&body) {
                return body;
            }
            assert!(Instant::now() < deadline, "metrics never matched:\n{body}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub(crate) fn wait_ready(&self) {
        let deadline = Instant::now() + WAIT;
        while self.get("/readyz").0 != 200 {
            assert!(Instant::now() < deadline, "never ready");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends SIGTERM and returns the exit status.
    pub(crate) fn terminate(mut self) -> std::process::ExitStatus {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "watch did not end on SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn bucket(name: &str) -> Mr {
    Mr::provisioned("s3.aws.upbound.io/v1beta1", "Bucket", name)
}

fn series(body: &str, code: &str, name: &str) -> bool {
    body.lines().any(|l| {
        l.starts_with("upjet_managed_resource_finding{")
            && l.contains(&format!("code=\"{code}\""))
            && l.contains(&format!("name=\"{name}\""))
    })
}

pub(crate) fn journal_ids(dir: &Path) -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| {
            (v["name"].as_str().unwrap().into(), v["source"].as_str().unwrap().into(), v["id"].as_str().unwrap().into())
        })
        .collect()
}

#[test]
fn a_finding_appears_and_clears_in_lines_metrics_and_the_journal() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    cluster.add(bucket("healthy").json());
    cluster.add(bucket("stuck").create_incomplete().json());
    let journal = cluster.dir().join("journal");
    let mut w = Watch::start(&cluster, &["-o", "json", "--journal", journal.to_str().unwrap()]);
    w.wait_ready();
    let appeared = w.event_until(|e| e["event"] == "appeared" && e["name"] == "stuck");
    assert_eq!(appeared["code"], "CreateIncomplete");
    assert_eq!(appeared["severity"], "error");
    assert_eq!(appeared["group"], "s3.aws.upbound.io");
    let body = w.metrics_until(|b| series(b, "CreateIncomplete", "stuck"));
    assert!(!series(&body, "CreateIncomplete", "healthy"), "healthy MRs have no series:\n{body}");
    assert!(body.contains("upjet_managed_resources{group=\"s3.aws.upbound.io\",kind=\"Bucket\"} 2"), "{body}");
    assert!(body.contains("upjet_watch_synced 1"), "{body}");
    assert!(body.contains("upjet_managed_resource_create_pending_seconds{"), "{body}");
    w.metrics_until(|b| b.contains("upjet_restart_duplicates{group=\"s3.aws.upbound.io\"} 0"));
    assert_eq!(w.get("/healthz").0, 200);

    // The create finishes: the mark of success lands, the finding clears in the lines and in /metrics.
    cluster
        .api
        .modify("s3.aws.upbound.io/v1beta1", "Bucket", None, "stuck", |o| {
            o["metadata"]["annotations"]["crossplane.io/external-create-succeeded"] = json!("2024-11-30T11:00:09Z");
            o["metadata"]["annotations"]["crossplane.io/external-name"] = json!("stuck-7f3a");
            o["status"] = json!({"atProvider": {"id": "stuck-7f3a"}, "conditions": [
                {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T11:00:09Z"},
                {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T11:00:09Z"}]});
        })
        .expect("stuck exists");
    let cleared = w.event_until(|e| e["event"] == "cleared" && e["name"] == "stuck");
    assert_eq!(cleared["code"], "CreateIncomplete");
    w.metrics_until(|b| !series(b, "CreateIncomplete", "stuck"));
    assert!(w.terminate().success(), "SIGTERM ends the watch with exit 0");

    let ids = journal_ids(&journal);
    assert!(ids.contains(&("stuck".into(), "external-name".into(), "stuck-7f3a".into())), "{ids:?}");
    assert!(ids.contains(&("stuck".into(), "atProvider.id".into(), "stuck-7f3a".into())), "{ids:?}");
    assert!(ids.contains(&("healthy".into(), "external-name".into(), "healthy".into())), "{ids:?}");
}

#[test]
fn the_scrape_is_clean_under_promtool() {
    if !installed("promtool", "prometheus") {
        return;
    }
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    cluster.add(bucket("stuck").create_incomplete().json());
    let w = Watch::start(&cluster, &["--no-journal"]);
    w.wait_ready();
    let body = w.metrics_until(|b| series(b, "CreateIncomplete", "stuck"));
    let mut check = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    check.stdin.take().unwrap().write_all(body.as_bytes()).unwrap();
    let result = check.wait_with_output().unwrap();
    assert!(
        result.status.success(),
        "promtool check metrics: {}{}\n{body}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
}

#[test]
fn a_kind_installed_later_is_watched() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    let mut w = Watch::start(&cluster, &["-o", "json", "--no-journal"]);
    w.wait_ready();
    let crd = std::fs::read_to_string(crate::support::crd_dir("provider-upjet-aws").join(QUEUE)).unwrap();
    cluster.api.add_crd_yaml(&crd).unwrap();
    w.stderr_until(|l| l.contains("new managed kind queues.sqs.aws.upbound.io"));
    cluster.add(Mr::provisioned("sqs.aws.upbound.io/v1beta1", "Queue", "orders").create_incomplete().json());
    let e = w.event_until(|e| e["event"] == "appeared" && e["name"] == "orders");
    assert_eq!((e["kind"].as_str(), e["code"].as_str()), (Some("Queue"), Some("CreateIncomplete")));
    w.metrics_until(|b| b.contains("upjet_watch_kinds 2"));
}

#[test]
fn a_compacted_history_makes_the_watch_relist_and_clear_what_it_missed() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET, QUEUE]).start();
    cluster.add(bucket("gone-while-blind").create_incomplete().json());
    let mut w = Watch::start(&cluster, &["-o", "json", "--no-journal"]);
    w.wait_ready();
    w.event_until(|e| e["event"] == "appeared" && e["name"] == "gone-while-blind");
    // The API server loses its connections and compacts its history; meanwhile the MR is deleted
    // and another kind moves the resourceVersion on: the resumed watch gets 410 and must relist.
    cluster.api.remove("s3.aws.upbound.io/v1beta1", "Bucket", None, "gone-while-blind");
    cluster.add(Mr::provisioned("sqs.aws.upbound.io/v1beta1", "Queue", "q").json());
    cluster.api.drop_watches(true);
    let e = w.event_until(|e| e["event"] == "cleared" && e["name"] == "gone-while-blind");
    assert_eq!(e["code"], "CreateIncomplete");
    w.metrics_until(|b| b.contains("upjet_watch_relists_total{reason=\"expired\"}"));
    w.metrics_until(|b| b.contains("upjet_watch_synced 1"));
}

#[test]
fn with_bookmarks_a_dropped_watch_resumes_without_relisting() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET, QUEUE]).start();
    cluster.api.bookmark_every(Some(Duration::from_millis(200)));
    cluster.add(bucket("b").json());
    let w = Watch::start(&cluster, &["-o", "json", "--no-journal"]);
    w.wait_ready();
    // Another kind moves the resourceVersion on; the bucket watch learns it from a bookmark only.
    cluster.add(Mr::provisioned("sqs.aws.upbound.io/v1beta1", "Queue", "q").json());
    let rv = cluster.api.resource_version();
    std::thread::sleep(Duration::from_millis(600));
    cluster.api.drop_watches(true);
    let resumed = format!("resourceVersion={rv}");
    let deadline = Instant::now() + WAIT;
    loop {
        let recent = cluster.api.stats().recent;
        if recent.iter().any(|(_, p)| p.contains("/buckets?") && p.contains("watch=true") && p.contains(&resumed)) {
            break;
        }
        assert!(Instant::now() < deadline, "no watch resumed from the bookmark's {rv}: {recent:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let (_, body) = w.get("/metrics");
    assert!(!body.contains("upjet_watch_relists_total"), "no relist:\n{body}");
}

#[test]
fn a_journal_folder_that_cannot_be_written_or_a_port_in_use_is_exit_2() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    let file = cluster.dir().join("a-file");
    std::fs::write(&file, "x").unwrap();
    cluster.upjet().args(["watch", "--journal"]).arg(file.join("j")).status(2).stderr_contains("a-file").run();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    cluster.upjet().args(["watch", "--no-journal", "--metrics-addr", &addr]).status(2).stderr_contains(&addr).run();
}

#[test]
fn the_alerts_pass_promtool_and_the_operator_file_holds_the_same_groups() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/prometheus");
    let plain: Value = serde_saphyr::from_str(&std::fs::read_to_string(dir.join("rules.yaml")).unwrap()).unwrap();
    let operator: Value =
        serde_saphyr::from_str(&std::fs::read_to_string(dir.join("prometheusrule.yaml")).unwrap()).unwrap();
    assert_eq!(operator["kind"], "PrometheusRule");
    assert_eq!(operator["spec"]["groups"], plain["groups"]);
    let alerts: Vec<&str> =
        plain["groups"][0]["rules"].as_array().unwrap().iter().map(|r| r["alert"].as_str().unwrap()).collect();
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/metrics.md")).unwrap();
    for alert in &alerts {
        assert!(docs.contains(&format!("### {alert}")), "docs/metrics.md has a runbook section for {alert}");
    }
    if !installed("promtool", "prometheus") {
        return;
    }
    let out = std::process::Command::new("promtool")
        .current_dir(&dir)
        .args(["test", "rules", "rules.test.yaml"])
        .output()
        .expect("promtool runs");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

#[test]
fn watch_help() {
    let out = upjet().args(["watch", "--help"]).env("COLUMNS", "100").env_remove("LINES").run();
    insta::assert_snapshot!("help_watch", out.stdout);
}

#[test]
fn two_mrs_holding_one_external_name_are_both_named_until_one_lets_go() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    cluster.add(bucket("a").external_name("shared-bucket").json());
    cluster.add(bucket("b").external_name("shared-bucket").json());
    let mut w = Watch::start(&cluster, &["-o", "json", "--no-journal"]);
    w.wait_ready();
    let first = w.event_until(|e| e["event"] == "appeared" && e["code"] == "ExternalNameShared");
    let other = if first["name"] == "a" { "b" } else { "a" };
    w.event_until(|e| e["event"] == "appeared" && e["code"] == "ExternalNameShared" && e["name"] == other);
    w.metrics_until(|b| b.contains("upjet_external_name_shared{group=\"s3.aws.upbound.io\",kind=\"Bucket\"} 1"));
    cluster
        .api
        .modify("s3.aws.upbound.io/v1beta1", "Bucket", None, "b", |o| {
            o["metadata"]["annotations"]["crossplane.io/external-name"] = json!("its-own-bucket");
        })
        .expect("b exists");
    w.event_until(|e| e["event"] == "cleared" && e["code"] == "ExternalNameShared" && e["name"] == "a");
    w.metrics_until(|b| b.contains("upjet_external_name_shared{group=\"s3.aws.upbound.io\",kind=\"Bucket\"} 0"));
}
