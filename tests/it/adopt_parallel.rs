//! `adopt -f plan.json --parallel N` and `--probe` against the in-process API server with the
//! simulated provider: many items at once (each with its own backup), a kill mid-plan and the
//! resume, and probing ranked candidates with the MR put back exactly after each miss.

use crate::support::adopt::*;
use crate::support::{Cluster, Mr, Upjet};
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::{Duration, Instant};
use testapi::Fault;

fn cluster() -> Cluster {
    Cluster::builder().crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml"]).start()
}

fn get(c: &Cluster, name: &str) -> Value {
    c.api.get(RS, "RecordSet", None, name).expect("stored")
}

/// `n` orphans `rs-0..` whose cloud objects `rs-K-id` exist; the plan adopting them.
fn fleet(c: &Cluster, n: usize) -> (Vec<Value>, String) {
    let originals: Vec<Value> = (0..n)
        .map(|k| {
            c.add(
                Mr::provisioned(RS, "RecordSet", &format!("rs-{k}")).without_annotation(EXT).create_incomplete().json(),
            )
        })
        .collect();
    provider(&c.api, Provider { cloud: (0..n).map(|k| format!("rs-{k}-id")).collect(), handles_token: true });
    let items: Vec<Value> = (0..n)
        .map(|k| json!({"resource": format!("recordset.dns.gcp.upbound.io/rs-{k}"), "id": format!("rs-{k}-id")}))
        .collect();
    (originals, write_plan(c, json!(items)))
}

fn write_plan(c: &Cluster, items: Value) -> String {
    let path = c.dir().join("plan.json");
    std::fs::write(&path, items.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

/// The binary against `c` with `args`, confirmed, a 30 s timeout and its backups in the cluster's
/// folder.
fn confirmed(c: &Cluster, args: &[&str]) -> Upjet {
    let mut cmd = c.upjet();
    cmd.args(args).args(["--yes", "--timeout", "30s", "--backup-dir"]).arg(c.dir().join("backups"));
    cmd
}

fn backups(c: &Cluster) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(c.dir().join("backups")).map(|d| d.map(|e| e.unwrap().path()).collect()).unwrap_or_default()
}

fn adopted(c: &Cluster, k: usize) -> bool {
    let o = get(c, &format!("rs-{k}"));
    let id = format!("rs-{k}-id");
    (a(&o, EXT), a(&o, PAUSED), a(&o, MARKER), a(&o, PENDING)) == (Some(id.as_str()), None, None, None)
}

#[test]
fn parallel_adopts_every_item_each_under_its_own_backup() {
    let c = cluster();
    let (originals, plan) = fleet(&c, 12);
    // Slow enough that items overlap; the server counts what is in flight.
    c.api.fault(Fault::Delay { path_contains: "recordsets/".into(), millis: 40 });
    c.api.reset_stats();
    let o = confirmed(&c, &["adopt", "-f", &plan, "--import", "--parallel", "4"]).stderr_contains("recordset.dns.gcp.upbound.io/rs-0: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption)").stderr_contains("recordset.dns.gcp.upbound.io/rs-10: Synced=True and Ready=True").run();
    let (out, err) = (&o.stdout, &o.stderr);
    assert!((0..12).all(|k| adopted(&c, k)), "{out}");
    // At most 4 MRs are being changed at once; an item whose adoption is written gives its slot
    // back and only reads during its final verification (at most 4 such items per slot).
    let max = c.api.stats().max_in_flight;
    assert!(max <= 4 + 4 * 4, "requests in flight bounded by --parallel and the verifying items: {max}");
    let first_done = err.find("done 1/12").unwrap();
    let started = err[..first_done].matches(": [1/6] pause").count();
    assert!(started >= 3, "items overlap: {started} started before the first finished\n{err}");
    // One result line per item on stdout, each naming its backup; the summary with the folder.
    assert_eq!(out.lines().filter(|l| l.starts_with("adopted  recordset.dns.gcp.upbound.io/rs-")).count(), 12, "{out}");
    let folder = c.dir().join("backups");
    let summary = format!(
        "12 adopted, 0 skipped (already adopted), 0 refused, 0 failed of 12 in the plan (not found: 0, conflicts: 0); backups in {}",
        folder.display()
    );
    assert!(out.contains(&summary), "{out}");
    // Every backup written, one per MR, holding that MR's original.
    let files = backups(&c);
    assert_eq!(files.len(), 12, "{files:?}");
    for (k, original) in originals.iter().enumerate() {
        let line = out.lines().find(|l| l.contains(&format!("/rs-{k} as"))).unwrap();
        let path = line.split("(backup ").nth(1).unwrap().trim_end_matches(')');
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert_eq!(saved["metadata"]["name"], original["metadata"]["name"]);
        assert_as_original(original, &saved, "backup");
    }
    // Progress on stderr: each step prefixed with its item, and a running count.
    assert!(err.contains("recordset.dns.gcp.upbound.io/rs-3: [1/6] pause"), "{err}");
    assert!(err.contains("recordset.dns.gcp.upbound.io/rs-3: backup: "), "{err}");
    assert!(err.contains("done 12/12: adopted  recordset.dns.gcp.upbound.io/rs-"), "{err}");
    // Re-running is a no-op.
    let o = confirmed(&c, &["adopt", "-f", &plan, "--import", "--parallel", "4"]).run();
    assert!(o.stdout.contains("nothing to adopt: 12 already adopted"), "{}", o.stdout);
}

#[test]
fn kill_9_mid_plan_then_resume_finishes_every_item() {
    let c = cluster();
    let (originals, plan) = fleet(&c, 10);
    let log = c.dir().join("stderr.txt");
    let mut child = c
        .upjet()
        .to_std()
        .env("UPJET_TEST_HANG_AFTER_STEP", "2")
        .args(["adopt", "-f", &plan, "--import", "--yes", "--parallel", "3", "--backup-dir"])
        .arg(c.dir().join("backups"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&log).unwrap().contains("waiting to be killed after step 2") {
        assert!(Instant::now() < deadline, "the hook never fired");
        std::thread::sleep(Duration::from_millis(25));
    }
    child.kill().unwrap(); // SIGKILL mid-plan
    assert!(child.wait().unwrap().code().is_none());
    // Every MR is as it was, or paused with its marker and a backup written (never half-done).
    let mut in_progress = 0;
    for (k, original) in originals.iter().enumerate() {
        let now = get(&c, &format!("rs-{k}"));
        if a(&now, PAUSED) == Some("true") {
            assert!(a(&now, MARKER).is_some(), "rs-{k} paused with its marker");
            in_progress += 1;
        } else {
            assert_as_original(original, &now, &format!("rs-{k} untouched"));
        }
    }
    assert!((1..=3).contains(&in_progress), "at most --parallel items were in progress: {in_progress}");
    // Each paused item wrote its backup before its first write (a started item may also have
    // written one and been killed before its first write reached the server: it is untouched).
    let before_resume = backups(&c).len();
    assert!((in_progress..=3).contains(&before_resume), "{before_resume} backups, {in_progress} paused");
    // The same command again: the interrupted items resume with their first backup, all finish.
    let o = confirmed(&c, &["adopt", "-f", &plan, "--import", "--parallel", "3"]).stderr_contains("recordset.dns.gcp.upbound.io/rs-0: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption) (already done)").stderr_contains("recordset.dns.gcp.upbound.io/rs-9: Synced=True and Ready=True").run();
    let (out, err) = (&o.stdout, &o.stderr);
    assert!((0..10).all(|k| adopted(&c, k)), "{out}");
    assert_eq!(err.matches(": resuming the adoption started at").count(), in_progress, "{err}");
    assert!(out.contains("10 adopted, 0 skipped (already adopted), 0 refused, 0 failed of 10"), "{out}");
    let unused = before_resume - in_progress;
    assert_eq!(backups(&c).len(), 10 + unused, "resumed items keep their first backup; the others write one");
}

/// The orphan `www` whose cloud object `www-A` exists, and a plan with the given candidates.
fn probe_setup(candidates: &[&str]) -> (Cluster, Value, std::sync::Arc<std::sync::Mutex<Vec<Seen>>>, String) {
    let c = cluster();
    let original = c.add(Mr::provisioned(RS, "RecordSet", "www").without_annotation(EXT).create_incomplete().json());
    let seen = provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
    let plan = write_plan(&c, json!([{"resource": TARGET, "candidates": candidates}]));
    (c, original, seen, plan)
}

#[test]
fn probe_keeps_the_first_candidate_the_provider_finds() {
    let (c, original, seen, plan) = probe_setup(&["www-wrong", "www-A"]);
    let o = confirmed(&c, &["adopt", "-f", &plan, "--import", "--probe"]).stderr_contains("recordset.dns.gcp.upbound.io/www: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption)").stderr_contains("recordset.dns.gcp.upbound.io/www: Synced=True and Ready=True").run();
    let (out, err) = (&o.stdout, &o.stderr);
    assert!(out.contains(&format!("adopted  {TARGET} as \"www-A\" (backup ")), "{out}");
    assert!(out.contains("(not found first: \"www-wrong\")"), "{out}");
    let now = get(&c, "www");
    assert_eq!((a(&now, EXT), a(&now, PAUSED), a(&now, MARKER)), (Some("www-A"), None, None));
    assert_eq!(now["spec"], original["spec"]);
    // The provider saw the first candidate, then the MR put back exactly, then the second.
    let seen = seen.lock().unwrap().clone();
    let tried = |id: &str| seen.iter().position(|s| s.external_name.as_deref() == Some(id)).unwrap();
    let (first, second) = (tried("www-wrong"), tried("www-A"));
    let back = seen[first..second]
        .iter()
        .position(|s| !s.paused && !s.marker && s.external_name.is_none() && s.pending)
        .expect("the miss was put back (no name, not paused, pending mark restored) before the next candidate");
    assert!(first + back < second);
    assert!(err.contains("the provider reports: observe failed"), "{err}");
    assert_eq!(backups(&c).len(), 2, "each attempt wrote its own backup first");
    // Re-running with --probe recognises the adopted candidate.
    let o = confirmed(&c, &["adopt", "-f", &plan, "--import", "--probe"]).run();
    assert!(o.stdout.contains("already has external-name \"www-A\""), "{}", o.stdout);
}

#[test]
fn probe_misses_leave_the_mr_exactly_as_before_and_without_probe_only_the_first_is_tried() {
    // No candidate exists: every one tried, the MR ends exactly as it was.
    let (c, original, _, plan) = probe_setup(&["x-1", "x-2", "x-3"]);
    let o = confirmed(&c, &["adopt", "-f", &plan, "--import", "--probe"]).status(5).stderr_contains("recordset.dns.gcp.upbound.io/www: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption)").stderr_contains("recordset.dns.gcp.upbound.io/www: putting the MR back exactly as it was").run();
    let out = &o.stdout;
    assert!(out.contains("none of 3 candidates was found (\"x-1\", \"x-2\", \"x-3\")"), "{out}");
    assert!(out.contains("(not found: 1, conflicts: 0)"), "{out}");
    assert_as_original(&original, &get(&c, "www"), "after three misses");
    // Without --probe only the first candidate is tried, even if a later one exists.
    let (c, original, seen, plan) = probe_setup(&["www-wrong", "www-A"]);
    confirmed(&c, &["adopt", "-f", &plan, "--import"]).status(5).stderr_contains("recordset.dns.gcp.upbound.io/www: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption)").stderr_contains("recordset.dns.gcp.upbound.io/www: putting the MR back exactly as it was").run();
    assert!(seen.lock().unwrap().iter().all(|s| s.external_name.as_deref() != Some("www-A")));
    assert_as_original(&original, &get(&c, "www"), "one miss without --probe");
}

#[test]
fn ctrl_c_starts_no_further_item_and_leaves_the_running_ones_safe() {
    let c = cluster();
    let (originals, plan) = fleet(&c, 10);
    c.api.fault(Fault::Delay { path_contains: "recordsets/".into(), millis: 150 });
    let (out_path, log) = (c.dir().join("stdout.txt"), c.dir().join("stderr.txt"));
    let mut child = c
        .upjet()
        .to_std()
        .args(["adopt", "-f", &plan, "--import", "--yes", "--parallel", "2", "--backup-dir"])
        .arg(c.dir().join("backups"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(&log).unwrap().contains("done 1/10") {
        assert!(Instant::now() < deadline, "no item finished");
        std::thread::sleep(Duration::from_millis(10));
    }
    let sent = std::process::Command::new("kill").arg("-INT").arg(child.id().to_string()).status().unwrap();
    assert!(sent.success());
    let code = child.wait().unwrap().code();
    let out = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(code, Some(5), "{out}");
    let not_started = out.lines().filter(|l| l.contains("(interrupted before it started)")).count();
    assert!(not_started >= 5, "later items were not started: {out}");
    assert!(out.contains(&format!("{not_started} not started (interrupted) of 10 in the plan")), "{out}");
    // Each MR adopted, untouched, or paused again with its original policies and marker.
    for (k, original) in originals.iter().enumerate() {
        let now = get(&c, &format!("rs-{k}"));
        if adopted(&c, k) {
            continue;
        }
        if a(&now, PAUSED) == Some("true") {
            assert_eq!(now["spec"], original["spec"], "rs-{k}: original policies back");
            assert!(a(&now, MARKER).is_some(), "rs-{k}: marker kept for the resume");
        } else {
            assert_as_original(original, &now, &format!("rs-{k} untouched"));
        }
    }
    // The same command again finishes the plan.
    confirmed(&c, &["adopt", "-f", &plan, "--import", "--parallel", "4"]).stderr_contains("recordset.dns.gcp.upbound.io/rs-2: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption) (already done)").stderr_contains("recordset.dns.gcp.upbound.io/rs-8: Synced=True and Ready=True").run();
    assert!((0..10).all(|k| adopted(&c, k)));
}
