//! The on-disk discovery cache, through the real binary: a second run asks the API server nothing
//! about which kinds exist; expiry, `--refresh-discovery`, `--discovery-cache-ttl 0`, a corrupt
//! file and a stale entry (a kind that is gone, a kind that is new) all fall back to discovery.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr, Report};
use serde_json::Value;
use std::path::PathBuf;

const RS: &str = "dns.gcp.upbound.io/v1beta2";

fn cluster() -> Cluster {
    let c = Cluster::builder()
        .crd_files(
            "provider-upjet-gcp",
            &["dns.gcp.upbound.io_recordsets.yaml", "dns.gcp.upbound.io_managedzones.yaml"],
        )
        .start();
    for i in 0..3 {
        c.add(Mr::provisioned(RS, "RecordSet", &format!("rs-{i}")).json());
    }
    c.add(Mr::provisioned(RS, "RecordSet", "zz-blocked").create_incomplete().json());
    c
}

/// The cache file of this cluster's server under the default directory (HOME is the cluster's dir).
fn cache_file(c: &Cluster) -> PathBuf {
    let root = c.dir().join(".kube/cache/upjet/discovery");
    let dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "one folder per server: {dirs:?}");
    dirs[0].join("managed-kinds.json")
}

/// Runs doctor (exit 0: `--fail-on never`) and returns how many discovery requests the server
/// saw, and the report, after checking that every MR was scanned and only the stuck one flagged.
fn discovery_requests(c: &Cluster, extra: &[&str]) -> (u64, Report) {
    c.api.reset_stats();
    let r =
        c.upjet().args(["doctor", "--fail-on", "never"]).json().args(extra).stderr_contains(NO_GUARD).run().report();
    assert_eq!(r["summary"]["resourcesScanned"], 4, "{}", r.0);
    assert_eq!(r["summary"]["kindsSkipped"], serde_json::json!([]));
    let flagged: Vec<&Value> = r["findings"].as_array().unwrap().iter().map(|f| &f["resource"]["name"]).collect();
    assert!(!flagged.is_empty() && flagged.iter().all(|n| *n == "zz-blocked"), "{flagged:?}");
    (c.api.stats().class("discovery"), r)
}

#[test]
fn second_run_skips_discovery_and_refresh_forces_it() {
    let c = cluster();
    let (first, _) = discovery_requests(&c, &[]);
    assert_eq!(first, 1, "aggregated discovery is one request");
    assert!(cache_file(&c).is_file());
    let (second, _) = discovery_requests(&c, &[]);
    assert_eq!(second, 0, "the cached kinds are used");
    let (refreshed, _) = discovery_requests(&c, &["--refresh-discovery"]);
    assert_eq!(refreshed, 1, "--refresh-discovery asks the server");
    let (again, _) = discovery_requests(&c, &[]);
    assert_eq!(again, 0, "and the refreshed entry is used afterwards");
}

#[test]
fn expired_entries_are_refreshed() {
    let c = cluster();
    discovery_requests(&c, &[]);
    let path = cache_file(&c);
    let mut entry: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    entry["fetched_at"] = (entry["fetched_at"].as_u64().unwrap() - 3_600).into();
    std::fs::write(&path, serde_json::to_vec(&entry).unwrap()).unwrap();
    assert_eq!(discovery_requests(&c, &[]).0, 1, "an hour-old entry is past the default TTL");
    assert_eq!(discovery_requests(&c, &[]).0, 0, "and was rewritten");
    assert_eq!(discovery_requests(&c, &["--discovery-cache-ttl", "2h"]).0, 0);
    entry["fetched_at"] = (entry["fetched_at"].as_u64().unwrap() - 3_600).into();
    std::fs::write(&path, serde_json::to_vec(&entry).unwrap()).unwrap();
    assert_eq!(discovery_requests(&c, &["--discovery-cache-ttl", "3h"]).0, 0, "a longer TTL keeps it");
    assert_eq!(discovery_requests(&c, &["--discovery-cache-ttl", "1h"]).0, 1, "a shorter one does not");
}

#[test]
fn ttl_zero_turns_the_cache_off() {
    let c = cluster();
    assert_eq!(discovery_requests(&c, &["--discovery-cache-ttl", "0"]).0, 1);
    assert_eq!(discovery_requests(&c, &["--discovery-cache-ttl", "0"]).0, 1);
    assert!(!c.dir().join(".kube/cache/upjet").exists(), "nothing written");
}

#[test]
fn corrupt_or_unwritable_caches_are_ignored() {
    let c = cluster();
    discovery_requests(&c, &[]);
    let path = cache_file(&c);
    for garbage in [&b"{\"format\":1,"[..], b"\xff\xfe\x00", b""] {
        std::fs::write(&path, garbage).unwrap();
        assert_eq!(discovery_requests(&c, &[]).0, 1, "a corrupt entry is not used");
        assert_eq!(discovery_requests(&c, &[]).0, 0, "and is replaced by a good one");
    }
    // A cache directory that cannot be created (a file is in the way) only costs the request.
    let blocked = c.dir().join("blocked");
    std::fs::write(&blocked, "not a directory").unwrap();
    let dir = blocked.join("cache");
    let dir = dir.to_str().unwrap();
    assert_eq!(discovery_requests(&c, &["--discovery-cache-dir", dir]).0, 1);
    assert_eq!(discovery_requests(&c, &["--discovery-cache-dir", dir]).0, 1);
}

#[test]
fn a_stale_entry_is_detected_and_refreshed() {
    let c = cluster();
    discovery_requests(&c, &[]);
    let path = cache_file(&c);
    let mut entry: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let kinds = entry["kinds"].as_array_mut().unwrap();
    // The cache misses a kind that exists (recordsets) and lists one that is gone.
    kinds.retain(|k| k["plural"] != "recordsets");
    let mut ghost = kinds[0].clone();
    ghost["plural"] = "ghosts".into();
    ghost["kind"] = "Ghost".into();
    kinds.push(ghost);
    std::fs::write(&path, serde_json::to_vec(&entry).unwrap()).unwrap();
    let (requests, r) = discovery_requests(&c, &[]);
    assert_eq!(requests, 1, "the 404 of the ghost kind triggers one fresh discovery");
    assert_eq!(r["summary"]["kindsScanned"], 2, "{}", r.0);
    assert_eq!(discovery_requests(&c, &[]).0, 0, "the refreshed entry is cached again");
}

#[test]
fn rejected_credentials_stay_fatal_with_a_warm_cache() {
    let c = cluster();
    discovery_requests(&c, &[]);
    c.api.fault(testapi::Fault::Status {
        method: None,
        path_contains: "/apis".into(),
        code: 401,
        reason: "Unauthorized".into(),
        times: None,
        retry_after_secs: None,
    });
    // Exit 3, not a report with every kind skipped.
    let run = c.upjet().arg("doctor").json().status(3).stderr_contains("/ rejected the credentials (401 Unauthorized) while listing managed resources; log in again or check the kubeconfig user").run();
    assert!(run.stderr.contains("rejected the credentials (401 Unauthorized)"), "{}", run.stderr);
}

#[test]
fn a_kind_deleted_mid_scan_is_still_reported_with_a_warm_cache() {
    let c = cluster();
    for i in 0..600 {
        c.add(Mr::provisioned(RS, "RecordSet", &format!("bulk-{i:03}")).json());
    }
    c.upjet()
        .args(["doctor", "--fail-on", "never"])
        .json()
        .stderr(format!("{NO_GUARD}\n2 kinds scanned, 604 managed resources, 1 errors, 1 warnings, 0 info\n"))
        .run();
    // The second page of recordsets answers 404, as when the CRD is deleted between pages: that is
    // not a stale cache (the first page was read), so the kind is reported, not silently dropped.
    c.api.fault(testapi::Fault::Status {
        method: None,
        path_contains: "continue=".into(),
        code: 404,
        reason: "NotFound".into(),
        times: None,
        retry_after_secs: None,
    });
    c.api.reset_stats();
    // Exit 4: the report is incomplete.
    let r = c.upjet().args(["doctor", "--fail-on", "never"]).json().status(4).stderr(format!("skipped recordsets.dns.gcp.upbound.io: not found (404): recordsets.dns.gcp.upbound.io \"\" not found\n{NO_GUARD}\n1 kinds scanned, 500 managed resources, 0 errors, 0 warnings, 0 info, 1 kinds skipped\n")).run().report();
    assert_eq!(r["summary"]["kindsSkipped"][0]["resource"], "recordsets.dns.gcp.upbound.io", "{}", r.0);
    assert_eq!(c.api.stats().class("discovery"), 0, "no rediscovery for a mid-scan deletion");
}

#[test]
fn a_kind_missing_from_the_cache_is_looked_up_before_failing() {
    let c = cluster();
    discovery_requests(&c, &[]);
    let path = cache_file(&c);
    let mut entry: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    entry["kinds"].as_array_mut().unwrap().retain(|k| k["plural"] != "recordsets");
    std::fs::write(&path, serde_json::to_vec(&entry).unwrap()).unwrap();
    let (requests, r) = discovery_requests(&c, &["--kind", "recordset"]);
    assert_eq!(requests, 1, "asked the server instead of failing on the cached kinds");
    assert_eq!(r["summary"]["kindsScanned"], 1);
    // A kind the server does not know either is a usage error.
    c.upjet().args(["doctor", "--kind", "nosuchkind"]).status(2).stderr("error: no managed resource kind matches \"nosuchkind\" (try `kubectl get crds | grep -i nosuchkind`, or the kind.group form)\n").run();
}
