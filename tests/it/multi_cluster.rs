//! Several clusters in one report, through the real binary: a kubeconfig of several contexts
//! (test API servers, a closed port, a server that rejects the token, a context that does not
//! exist), several snapshots, and the commands that must refuse more than one cluster.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr, upjet};
use serde_json::Value;
use std::path::{Path, PathBuf};
use testapi::Fault;

const RS: &str = "dns.gcp.upbound.io/v1beta2";

fn gcp() -> Cluster {
    Cluster::builder()
        .crd_files(
            "provider-upjet-gcp",
            &[
                "dns.gcp.upbound.io_recordsets.yaml",
                "dns.gcp.m.upbound.io_recordsets.yaml",
                "dns.gcp.upbound.io_managedzones.yaml",
                "gcp.upbound.io_providerconfigs.yaml",
            ],
        )
        .crd_files("provider-upjet-aws", &["ec2.aws.upbound.io_vpcs.yaml", "ec2.aws.m.upbound.io_vpcs.yaml"])
        .start()
}

/// A kubeconfig with one context (and cluster of the same name) per `(name, server)`.
pub(crate) fn kubeconfig(dir: &Path, contexts: &[(&str, &str)], current: &str) -> PathBuf {
    let (mut clusters, mut ctxs) = (String::new(), String::new());
    for (name, server) in contexts {
        clusters.push_str(&format!("- name: {name}\n  cluster:\n    server: {server}\n"));
        ctxs.push_str(&format!("- name: {name}\n  context:\n    cluster: {name}\n    user: u\n"));
    }
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n{clusters}contexts:\n{ctxs}current-context: {current}\nusers:\n- name: u\n  user:\n    token: test-token\n"
    );
    let path = dir.join("multi-kubeconfig");
    std::fs::write(&path, text).unwrap();
    path
}

/// An address nothing listens on.
pub(crate) fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}")
}

fn cluster_block<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["summary"]["clusters"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("{r}"))
}

#[test]
fn unreachable_clusters_are_named_and_the_reachable_one_still_counts() {
    let good = gcp();
    good.add(Mr::provisioned(RS, "RecordSet", "www").create_incomplete().json());
    good.add(Mr::provisioned(RS, "RecordSet", "api").json());
    let rejecting = gcp();
    rejecting.api.fault(Fault::Status {
        method: None,
        path_contains: "/".into(),
        code: 401,
        reason: "Unauthorized".into(),
        times: None,
        retry_after_secs: None,
    });
    let down = closed_port();
    let kc = kubeconfig(
        good.dir(),
        &[("good", &good.server.url), ("down", &down), ("rejecting", &rejecting.server.url)],
        "good",
    );
    let all = ["--context", "good", "--context", "down", "--context", "rejecting", "--context", "gone"];

    // Findings below --fail-on: the partial scan decides, exit 4.
    let run = good
        .upjet()
        .env("KUBECONFIG", &kc)
        .arg("doctor")
        .args(all)
        .args(["--fail-on", "never"])
        .json()
        .status(4)
        .stderr_contains(format!("good: {NO_GUARD}"))
        .stderr_contains(
            "5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 0 info, 4 clusters (3 not scanned)",
        )
        .run();
    let (r, stderr) = (run.report(), run.stderr);
    let findings = r["findings"].as_array().unwrap();
    assert!(!findings.is_empty() && findings.iter().all(|f| f["resource"]["cluster"] == "good"), "{}", r.0);
    assert!(findings.iter().any(|f| f["code"] == "CreateIncomplete" && f["resource"]["name"] == "www"));
    assert_eq!(r["summary"]["complete"], false);
    let names: Vec<&str> =
        r["summary"]["clusters"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["good", "down", "rejecting", "gone"], "in the order asked");
    let ok = cluster_block(&r, "good");
    assert_eq!((ok["complete"].as_bool(), ok["resourcesScanned"].as_u64()), (Some(true), Some(2)));
    assert!(ok.get("error").is_none());
    for (name, why) in [
        ("down", format!("cannot reach the API server at {down}")),
        ("rejecting", "401 Unauthorized".to_string()),
        ("gone", "context \"gone\" not found in kubeconfig".to_string()),
    ] {
        let block = cluster_block(&r, name);
        let error = block["error"].as_str().unwrap_or_default();
        assert!(error.contains(&why) && block["complete"] == false, "{name}: {block}");
        assert!(stderr.contains(&format!("cluster {name} not scanned: ")), "{name}: {stderr}");
    }
    assert!(stderr.contains("4 clusters (3 not scanned)"), "{stderr}");

    // The table: CLUSTER first. Errors at --fail-on: findings win (1); --fail-on-incomplete: 4.
    let table = good
        .upjet()
        .env("KUBECONFIG", &kc)
        .arg("doctor")
        .args(all)
        .status(1)
        .stderr_contains(format!("good: {NO_GUARD}"))
        .stderr_contains(
            "5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 0 info, 4 clusters (3 not scanned)",
        )
        .run()
        .stdout;
    assert!(table.starts_with("CLUSTER   RESOURCE"), "{table}");
    assert!(table.lines().skip(1).all(|l| l.starts_with("good ")), "{table}");
    good.upjet()
        .env("KUBECONFIG", &kc)
        .arg("doctor")
        .args(all)
        .arg("--fail-on-incomplete")
        .status(4)
        .stderr_contains(format!("good: {NO_GUARD}"))
        .stderr_contains(
            "5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 0 info, 4 clusters (3 not scanned)",
        )
        .run();

    // No cluster reachable: exit 3, each named.
    let run = good
        .upjet()
        .env("KUBECONFIG", &kc)
        .args(["doctor", "--context", "down", "--context", "gone"])
        .status(3)
        .stderr_contains("error: no cluster could be scanned:")
        .stderr_contains("  gone: context \"gone\" not found in kubeconfig (known: good, down, rejecting)")
        .run();
    let stderr = run.stderr;
    assert!(stderr.contains("no cluster could be scanned") && stderr.contains("down: ") && stderr.contains("gone: "));

    // One context: the report reads as it always did (no cluster field, no per-cluster block).
    let run = good
        .upjet()
        .env("KUBECONFIG", &kc)
        .args(["doctor", "--context", "good"])
        .json()
        .status(1)
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 0 info\n"))
        .run();
    let single = run.report();
    assert!(single["summary"].get("clusters").is_none(), "{}", single.0);
    assert!(single["findings"].as_array().unwrap().iter().all(|f| f["resource"].get("cluster").is_none()));
    assert!(run.stdout.contains("CreateIncomplete"));
}

#[test]
fn two_clusters_are_scanned_at_once_under_one_bound() {
    // One API state served on two addresses: the counters see every request of both clusters.
    let c = gcp();
    let second = c.api.start_blocking().unwrap();
    for i in 0..3 {
        c.add(Mr::provisioned(RS, "RecordSet", &format!("rs-{i}")).json());
    }
    c.add(Mr::provisioned(RS, "RecordSet", "blocked").create_incomplete().json());
    c.api.fault(Fault::Delay { path_contains: "/apis/".into(), millis: 150 });
    let kc = kubeconfig(c.dir(), &[("east", &c.server.url), ("west", &second.url)], "east");
    c.api.reset_stats();
    let r = c
        .upjet()
        .env("KUBECONFIG", &kc)
        .args(["doctor", "--all-contexts", "--concurrency", "2", "--fail-on", "never"])
        .json()
        .stderr(format!("east: {NO_GUARD}\nwest: {NO_GUARD}\n10 kinds scanned, 8 managed resources, 2 errors, 2 warnings, 0 info, 2 clusters\n")).run()
        .report();
    let blocked: Vec<&str> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["resource"]["name"] == "blocked" && f["code"] == "CreateIncomplete")
        .map(|f| f["resource"]["cluster"].as_str().unwrap())
        .collect();
    assert_eq!(blocked, ["east", "west"], "every context of the kubeconfig, in order");
    let stats = c.api.stats();
    assert!(stats.class("list") >= 8, "both clusters listed their kinds: {stats:?}");
    assert_eq!(stats.max_in_flight, 2, "--concurrency bounds both clusters together, and is reached");
    // Each context has its own discovery cache entry: a second run asks neither server.
    c.api.reset_stats();
    c.upjet().env("KUBECONFIG", &kc).args(["doctor", "--all-contexts", "--fail-on", "never"]).stderr(format!("east: {NO_GUARD}\nwest: {NO_GUARD}\n10 kinds scanned, 8 managed resources, 2 errors, 2 warnings, 0 info, 2 clusters\n")).run();
    assert_eq!(c.api.stats().class("discovery"), 0);
    let entries: Vec<String> = std::fs::read_dir(c.dir().join(".kube/cache/upjet/discovery"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert!(entries.iter().any(|e| e.starts_with("east@")) && entries.iter().any(|e| e.starts_with("west@")));
}

#[test]
fn one_object_commands_refuse_several_clusters() {
    let c = gcp();
    c.add(Mr::provisioned(RS, "RecordSet", "www").json());
    let kc = kubeconfig(c.dir(), &[("a", &c.server.url), ("b", &c.server.url)], "a");
    for (args, said) in [
        (
            &["history", "recordset.dns.gcp.upbound.io/www", "--context", "a", "--context", "b"][..],
            "history acts on one cluster",
        ),
        (
            &["doctor", "recordset.dns.gcp.upbound.io/www", "--all-contexts"],
            "doctor KIND/NAME looks at one MR in one cluster",
        ),
        (&["adopt", "recordset.dns.gcp.upbound.io/www", "--id", "x", "--all-contexts"], "adopt acts on one cluster"),
        (&["adopt", "-f", "plan.json", "--context", "a", "--context", "b"], "adopt acts on one cluster"),
        (
            &["doctor", "--all-contexts", "--context", "a"],
            "the argument '--all-contexts' cannot be used with '--context <NAME>'",
        ),
        (
            &[
                "restore-plan",
                "b.tar.gz",
                "--modifiers",
                "m.yaml",
                "--plan",
                "p.json",
                "--context",
                "a",
                "--context",
                "b",
            ],
            "restore-plan acts on one cluster",
        ),
        (&["completion", "bash", "--all-contexts"], "completion acts on one cluster"),
    ] {
        c.upjet().env("KUBECONFIG", &kc).args(args).status(2).stderr_contains(format!("error: {said}")).run();
    }
    let run =
        c.upjet().env("KUBECONFIG", &kc).args(["history", "recordset.dns.gcp.upbound.io/www", "--all-contexts"]).status(2).stderr("error: history acts on one cluster: give at most one --context (several clusters and --all-contexts are for doctor)\n").run();
    assert!(run.stderr.contains("history acts on one cluster"), "{}", run.stderr);
    let run = c.upjet().env("KUBECONFIG", &kc).args(["completion", "zsh", "--context", "a", "--context", "b"]).status(2).stderr("error: completion acts on one cluster: give at most one --context (several clusters and --all-contexts are for doctor)\n").run();
    assert!(run.stderr.contains("completion acts on one cluster"), "{}", run.stderr);
    // One --context still works for them.
    c.upjet().env("KUBECONFIG", &kc).args(["doctor", "recordset.dns.gcp.upbound.io/www", "--context", "b"]).run();
}

#[test]
fn a_plan_names_the_cluster_it_was_made_in() {
    let c = gcp();
    let t = "recordset.dns.gcp.upbound.io=projects/p/managedZones/{forProvider.managedZone}/rrsets/{name}";
    c.add(Mr::provisioned(RS, "RecordSet", "lost").without_annotation("crossplane.io/external-name").json());
    let kc = kubeconfig(c.dir(), &[("east", &c.server.url), ("west", &c.server.url)], "east");
    let plan = c.dir().join("plan.json");
    c
        .upjet()
        .env("KUBECONFIG", &kc)
        .args(["doctor", "--all-contexts", "--id-template", t, "--plan"])
        .arg(&plan)
        .stderr_contains(format!("east: {NO_GUARD}")).stderr_contains("10 kinds scanned, 2 managed resources, 0 errors, 2 warnings, 0 info, 2 would be created again by a provider restart, 2 clusters").run();
    let items: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let clusters: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["cluster"].as_str().unwrap()).collect();
    assert_eq!(clusters, ["east", "west"], "{items}");
    // One live context: its name is still written, so adopt -f can check it.
    c.upjet().env("KUBECONFIG", &kc).args(["doctor", "--id-template", t, "--plan"]).arg(&plan).stderr_contains(NO_GUARD).stderr_contains("5 kinds scanned, 1 managed resources, 0 errors, 1 warnings, 0 info, 1 would be created again by a provider restart").run();
    let items: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    assert_eq!(items[0]["cluster"], "east", "{items}");
}

#[test]
fn several_snapshots_are_several_clusters() {
    let root = env!("CARGO_MANIFEST_DIR");
    let (prod, staging) =
        (format!("{root}/examples/clusters/prod.json"), format!("{root}/examples/clusters/staging.json"));
    let doctor = |args: &[&str]| {
        let mut cmd = upjet();
        cmd.arg("doctor").args(args);
        cmd
    };
    let r = doctor(&["--from", &prod, "--from", &staging, "-o", "json"])
        .status(1)
        .stderr("5 kinds scanned, 13 managed resources, 4 errors, 4 warnings, 0 info, 2 clusters\n")
        .run()
        .report();
    let names: Vec<&str> =
        r["summary"]["clusters"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["prod", "staging"]);
    let found: std::collections::BTreeSet<&str> =
        r["findings"].as_array().unwrap().iter().map(|f| f["resource"]["cluster"].as_str().unwrap()).collect();
    assert_eq!(found.into_iter().collect::<Vec<_>>(), ["prod", "staging"]);
    // One snapshot: exactly as before, no cluster.
    let single = doctor(&["--from", &prod, "-o", "json"])
        .status(1)
        .stderr("2 kinds scanned, 7 managed resources, 2 errors, 2 warnings, 0 info\n")
        .run()
        .report();
    assert!(single["summary"].get("clusters").is_none() && single["findings"][0]["resource"].get("cluster").is_none());
    // The table and the summary, as a person reads them.
    let table = doctor(&["--from", &prod, "--from", &staging])
        .status(1)
        .stderr("5 kinds scanned, 13 managed resources, 4 errors, 4 warnings, 0 info, 2 clusters\n")
        .run()
        .stdout;
    insta::assert_snapshot!("several_clusters_table", table);
    let summary = doctor(&["--from", &prod, "--from", &staging, "-o", "summary"])
        .status(1)
        .stderr("5 kinds scanned, 13 managed resources, 4 errors, 4 warnings, 0 info, 2 clusters\n")
        .run()
        .stdout;
    assert!(summary.contains("--from ") && summary.contains("CLUSTER"), "{summary}");
    insta::assert_snapshot!("several_clusters_summary", summary.replace(root, "."));
    // Two snapshots of one name: usage error.
    let tmp = tempfile::tempdir().unwrap();
    let other = tmp.path().join("prod");
    std::fs::create_dir(&other).unwrap();
    doctor(&["--from", &prod, "--from", other.to_str().unwrap()])
        .status(2)
        .stderr_contains("both name the cluster \"prod\"")
        .run();
    // Offline inputs that cannot be told apart by cluster are refused.
    doctor(&["--from", &prod, "--from", &staging, "--log-file", &prod]).status(2).stderr("error: --log-file cannot tell which cluster a log came from: run doctor once per cluster (--logs reads each cluster's own provider pods)\n").run();
    // Snapshots and clusters are not mixed silently.
    doctor(&["--from", &prod, "--context", "a", "--context", "b"])
        .status(2)
        .stderr_contains("give one or the other")
        .run();
}
