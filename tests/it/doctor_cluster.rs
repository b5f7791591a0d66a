//! doctor against the in-process API server: the real binary and the real kube client over HTTP,
//! with discovery generated from the real upjet CRDs.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr, codes, crd_dir};
use serde_json::json;
use testapi::Fault;

const RS: &str = "dns.gcp.upbound.io/v1beta2";
const RS_NS: &str = "dns.gcp.m.upbound.io/v1beta1";

fn small() -> Cluster {
    Cluster::builder()
        .crd_files(
            "provider-upjet-gcp",
            &[
                "dns.gcp.upbound.io_recordsets.yaml",
                "dns.gcp.m.upbound.io_recordsets.yaml",
                "dns.gcp.upbound.io_managedzones.yaml",
                "gcp.upbound.io_providerconfigs.yaml",
                "gcp.m.upbound.io_clusterproviderconfigs.yaml",
                "gcp.m.upbound.io_providerconfigusages.yaml",
            ],
        )
        .crd_files("provider-upjet-aws", &["ec2.aws.upbound.io_vpcs.yaml", "ec2.aws.m.upbound.io_vpcs.yaml"])
        .start()
}

/// The managed kinds a CRD folder defines, read straight from the YAML (independent of the server).
fn managed_kinds_in(dir: &std::path::Path) -> (std::collections::BTreeSet<String>, std::collections::BTreeSet<String>) {
    let (mut managed, mut provider_config) = (std::collections::BTreeSet::new(), std::collections::BTreeSet::new());
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let crd: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        let names = &crd["spec"]["names"];
        let key = format!("{}.{}", names["plural"].as_str().unwrap(), crd["spec"]["group"].as_str().unwrap());
        let cats: Vec<&str> =
            names["categories"].as_array().map(|a| a.iter().filter_map(|c| c.as_str()).collect()).unwrap_or_default();
        if cats.contains(&"managed") {
            managed.insert(key);
        } else if cats.contains(&"providerconfig") {
            provider_config.insert(key);
        }
    }
    (managed, provider_config)
}

#[test]
fn discovery_from_real_crds_finds_every_managed_kind_and_no_providerconfig() {
    let cluster = Cluster::builder().crds("provider-upjet-gcp").crds("provider-upjet-azure").crds("crossplane").start();
    let (mut want, mut pcs) = managed_kinds_in(&crd_dir("provider-upjet-gcp"));
    let (az_want, az_pcs) = managed_kinds_in(&crd_dir("provider-upjet-azure"));
    want.extend(az_want);
    pcs.extend(az_pcs);
    assert!(
        want.len() > 250 && !pcs.is_empty(),
        "fixtures look right: {} managed, {} providerconfig",
        want.len(),
        pcs.len()
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let conn = rt.block_on(cluster.connect());
    for aggregated in [true, false] {
        cluster.api.set_aggregated_discovery(aggregated);
        let (kinds, stats) = rt.block_on(upjet_cluster::discover::discover_managed(&conn, 8)).unwrap();
        let got: std::collections::BTreeSet<String> = kinds.iter().map(|k| k.resource_name()).collect();
        assert_eq!(got, want, "aggregated={aggregated}");
        assert!(pcs.iter().all(|pc| !got.contains(pc)), "no ProviderConfig kind is managed");
        assert_eq!(stats.aggregated, aggregated);
        if aggregated {
            assert_eq!(stats.requests, 1, "aggregated discovery is one request");
        }
        assert!(kinds.iter().any(|k| k.namespaced && k.group.ends_with(".m.upbound.io")));
        assert!(kinds.iter().any(|k| !k.namespaced && k.group == "dns.gcp.upbound.io"));
    }
}

#[test]
fn scan_paginates_both_scopes_and_reports_findings() {
    let cluster = small();
    for i in 0..1_203 {
        cluster.add(Mr::provisioned(RS, "RecordSet", &format!("rs-{i:04}")).json());
    }
    cluster.add(Mr::provisioned(RS, "RecordSet", "zz-blocked").create_incomplete().json());
    cluster.add(
        Mr::provisioned(RS_NS, "RecordSet", "team-rs")
            .namespace("team-a")
            .without_annotation("crossplane.io/external-name")
            .at_provider_id("tid-1")
            .json(),
    );
    cluster.add(
        Mr::provisioned("ec2.aws.m.upbound.io/v1beta1", "VPC", "paused-vpc")
            .namespace("team-b")
            .annotation("crossplane.io/paused", "true")
            .json(),
    );
    cluster
        .add(json!({"apiVersion": "gcp.upbound.io/v1beta1", "kind": "ProviderConfig", "metadata": {"name": "default"},
                       "spec": {"projectID": "p"}}));
    let out = cluster.upjet().args(["doctor", "-o", "json"]).status(1).stderr(format!("{NO_GUARD}\n5 kinds scanned, 1206 managed resources, 2 errors, 1 warnings, 1 info, 1 would be created again by a provider restart\n")).run();
    let r = out.json();
    assert_eq!(r["apiVersion"], "upjet.doctor/v1");
    assert_eq!(r["kind"], "Report");
    assert_eq!(r["summary"]["resourcesScanned"], 1_206);
    assert_eq!(r["summary"]["kindsScanned"], 5, "recordsets ×2, managedzones, vpcs ×2");
    assert_eq!(
        codes(&r),
        vec![
            ("CreateIncomplete".into(), "zz-blocked".into()),
            ("ExternalNameMissing".into(), "team-rs".into()),
            ("KstatusMisleading".into(), "zz-blocked".into()),
            ("Paused".into(), "paused-vpc".into()),
        ]
    );
    let f = r["findings"].as_array().unwrap().iter().find(|f| f["code"] == "ExternalNameMissing").unwrap();
    assert_eq!(f["resource"]["namespace"], "team-a");
    assert_eq!(f["resource"]["apiVersion"], RS_NS);
    assert_eq!(f["suggestedId"], "tid-1");
    assert!(f["resource"]["uid"].as_str().is_some_and(|u| !u.is_empty()));
    let lists: Vec<String> =
        cluster.api.stats().recent.iter().map(|r| format!("{r:?}")).filter(|r| r.contains("recordsets")).collect();
    assert!(lists.iter().any(|r| r.contains("limit=500")), "{lists:?}");
    assert!(
        lists.iter().filter(|r| r.contains("continue=")).count() >= 2,
        "1,204 cluster-scoped RecordSets take 3 pages: {lists:?}"
    );
    let stderr = &out.stderr;
    assert!(stderr.contains("5 kinds scanned, 1206 managed resources, 2 errors, 1 warnings, 1 info"), "{stderr}");
}

#[test]
fn forbidden_and_missing_kinds_are_skipped_and_make_the_scan_incomplete() {
    let cluster = small();
    cluster.add(Mr::provisioned(RS, "RecordSet", "fine").json());
    cluster.api.fault(Fault::Status {
        method: None,
        path_contains: "/managedzones".into(),
        code: 403,
        reason: "Forbidden".into(),
        times: None,
        retry_after_secs: None,
    });
    cluster.api.fault(Fault::Status {
        method: None,
        path_contains: "ec2.aws.m.upbound.io/v1beta1/vpcs".into(),
        code: 404,
        reason: "NotFound".into(),
        times: None,
        retry_after_secs: None,
    });
    let out = cluster.upjet().args(["doctor", "-o", "json"]).status(4).stderr_contains("skipped managedzones.dns.gcp.upbound.io: forbidden (403): managedzones.dns.gcp.upbound.io is forbidden: User \"test\" cannot list resource \"managedzones\" in API group \"dns.gcp.upbound.io\" at the cluster scope — missing permission: list on managedzones (dns.gcp.upbound.io); the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --user=test").stderr_contains("3 kinds scanned, 1 managed resources, 0 errors, 0 warnings, 0 info, 2 kinds skipped").run();
    let r = out.json();
    let skipped: Vec<(String, String)> = r["summary"]["kindsSkipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["resource"].as_str().unwrap().to_string(), s["reason"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(
        skipped[0].0 == "managedzones.dns.gcp.upbound.io" && skipped[0].1.starts_with("forbidden (403)"),
        "{skipped:?}"
    );
    assert!(skipped[1].0 == "vpcs.ec2.aws.m.upbound.io" && skipped[1].1.starts_with("not found (404)"), "{skipped:?}");
    let stderr = &out.stderr;
    assert!(
        stderr.contains("skipped managedzones.dns.gcp.upbound.io: forbidden (403)")
            && stderr.contains("2 kinds skipped"),
        "{stderr}"
    );
}

#[test]
fn expired_continue_token_restarts_the_kind() {
    let cluster = small();
    for i in 0..700 {
        cluster.add(Mr::provisioned(RS, "RecordSet", &format!("rs-{i:04}")).json());
    }
    cluster.add(Mr::provisioned(RS, "RecordSet", "zz-blocked").create_incomplete().json());
    cluster
        .api
        .fault(Fault::ExpireContinue { path_contains: "dns.gcp.upbound.io/v1beta1/recordsets".into(), times: Some(1) });
    let out = cluster
        .upjet()
        .args(["doctor", "-o", "json", "--kind", "recordset.dns.gcp.upbound.io"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n1 kinds scanned, 701 managed resources, 1 errors, 1 warnings, 0 info\n"))
        .run();
    let r = out.json();
    assert_eq!(r["summary"]["resourcesScanned"], 701, "no duplicates after the restart");
    assert_eq!(r["summary"]["kindsSkipped"], json!([]));
    assert_eq!(codes(&r).iter().filter(|(c, _)| c == "CreateIncomplete").count(), 1);
}

#[test]
fn namespace_kind_provider_and_selector_narrow_the_scan() {
    let cluster = small();
    cluster.add(
        Mr::provisioned(RS_NS, "RecordSet", "a1").namespace("team-a").create_incomplete().label("app", "web").json(),
    );
    cluster.add(Mr::provisioned(RS_NS, "RecordSet", "b1").namespace("team-b").create_incomplete().json());
    cluster.add(Mr::provisioned(RS, "RecordSet", "c1").create_incomplete().label("app", "web").json());
    cluster.add(Mr::provisioned("ec2.aws.upbound.io/v1beta1", "VPC", "v1").create_incomplete().json());
    let names = |args: &[&str]| -> Vec<String> {
        let out = cluster
            .upjet()
            .args(["doctor", "-o", "json", "--only", "CreateIncomplete"])
            .args(args)
            .status(1)
            .stderr_contains(NO_GUARD)
            .run();
        let mut n: Vec<String> = codes(&out.json()).into_iter().map(|(_, n)| n).collect();
        n.dedup();
        n
    };
    assert_eq!(names(&[]), vec!["a1", "b1", "c1", "v1"]);
    assert_eq!(names(&["-n", "team-a"]), vec!["a1", "c1", "v1"], "cluster-scoped MRs stay in scope");
    assert_eq!(names(&["-l", "app=web"]), vec!["a1", "c1"]);
    assert_eq!(names(&["--kind", "recordset"]), vec!["a1", "b1", "c1"]);
    assert_eq!(names(&["--kind", "recordset.dns.gcp.m.upbound.io"]), vec!["a1", "b1"]);
    assert_eq!(names(&["--provider", "aws.upbound.io"]), vec!["v1"]);
    assert_eq!(names(&["--provider", "provider-gcp-dns"]), vec!["a1", "b1", "c1"]);
}

#[test]
fn one_mr_in_depth_and_its_errors() {
    let cluster = Cluster::builder()
        .namespace("team-a")
        .crd_files(
            "provider-upjet-gcp",
            &["dns.gcp.m.upbound.io_recordsets.yaml", "dns.gcp.upbound.io_recordsets.yaml"],
        )
        .start();
    cluster.add(Mr::provisioned(RS_NS, "RecordSet", "www").namespace("team-a").create_incomplete().json());
    let out = cluster.upjet().args(["doctor", "recordset.dns.gcp.m.upbound.io/www"]).status(1).run();
    let text = out.stdout;
    for needle in [
        "Namespace:       team-a",
        "kstatus:         InProgress",
        "crossplane.io/external-create-succeeded  2024-11-30T11:00:00Z",
        "=> creation incomplete",
        "ERROR CreateIncomplete",
        "next: kubectl upjet adopt recordset.dns.gcp.m.upbound.io/www -n team-a --id www --import",
        "On delete:       nothing yet: the create-incomplete gate stops the reconciler before it can delete",
        "namespaced MRs have no deletionPolicy, and managementPolicies [*] allow Delete",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
    let pos = |s: &str| text.find(s).unwrap();
    assert!(pos("external-create-succeeded") < pos("external-create-pending"), "marks are in time order");
    cluster.upjet().args(["doctor", "recordset/www"]).status(2).stderr_contains("is ambiguous").run();
    cluster
        .upjet()
        .args(["doctor", "recordset.dns.gcp.m.upbound.io/nope"])
        .status(2)
        .stderr_contains("\"nope\" not found in namespace team-a")
        .run();
    cluster
        .upjet()
        .args(["doctor", "bucket.s3.aws.upbound.io/x"])
        .status(2)
        .stderr_contains("no managed resource kind matches")
        .run();
    cluster
        .upjet()
        .args(["doctor", "--kind", "nosuchkind"])
        .status(2)
        .stderr_contains("no managed resource kind matches \"nosuchkind\"")
        .run();
}

#[test]
fn connection_problems_are_one_line_errors() {
    let cluster = small();
    let no_backtrace =
        |stderr: &str| assert!(!stderr.contains("stack backtrace") && !stderr.contains("panicked"), "{stderr}");
    let run = cluster
        .upjet()
        .args(["doctor", "--kubeconfig", "/nonexistent/kubeconfig"])
        .env("RUST_BACKTRACE", "1")
        .status(3)
        .stderr_contains("kubeconfig /nonexistent/kubeconfig does not exist")
        .run();
    no_backtrace(&run.stderr);
    cluster
        .upjet()
        .args(["doctor", "--context", "nope"])
        .status(3)
        .stderr_contains("context \"nope\" not found in kubeconfig (known: test)")
        .run();
    let bad = cluster.dir().join("bad-kubeconfig");
    std::fs::write(&bad, "apiVersion: v1\nkind: Config\nclusters: [this is: not valid").unwrap();
    cluster.upjet().arg("doctor").env("KUBECONFIG", &bad).status(3).stderr_contains("cannot read kubeconfig").run();
    // KUBECONFIG lists are merged like kubectl: missing entries are skipped.
    let list = format!("/nonexistent/one:{}", cluster.kubeconfig().display());
    cluster
        .upjet()
        .args(["doctor", "-o", "json"])
        .env("KUBECONFIG", list)
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 0 managed resources, 0 errors, 0 warnings, 0 info\n"))
        .run();
    // Nothing listens on port 1.
    let unreachable = cluster.dir().join("unreachable");
    std::fs::write(&unreachable, cluster.server.kubeconfig(None).replace(&cluster.server.url, "http://127.0.0.1:1"))
        .unwrap();
    let run = cluster
        .upjet()
        .arg("doctor")
        .env("KUBECONFIG", &unreachable)
        .env("RUST_BACKTRACE", "1")
        .status(3)
        .stderr_contains("cannot reach the API server at http://127.0.0.1:1/")
        .run();
    no_backtrace(&run.stderr);
    // Said once, as one plain line: no client log lines before it, no escape codes in a pipe.
    let out = cluster
        .upjet()
        .arg("doctor")
        .env("KUBECONFIG", &unreachable)
        .env_remove("NO_COLOR")
        .status(3)
        .stderr_contains("error: cannot reach")
        .run();
    let err = &out.stderr;
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot reach") && !err.contains('\u{1b}'), "{err}");
    cluster.api.fault(Fault::Status {
        method: None,
        path_contains: "/apis".into(),
        code: 401,
        reason: "Unauthorized".into(),
        times: None,
        retry_after_secs: None,
    });
    cluster.upjet().arg("doctor").status(3).stderr_contains("rejected the credentials (401 Unauthorized)").run();
}

#[test]
fn slow_server_hits_request_timeout() {
    let cluster = small();
    cluster.api.fault(Fault::Delay { path_contains: "/apis".into(), millis: 3_000 });
    let start = std::time::Instant::now();
    cluster
        .upjet()
        .args(["doctor", "--request-timeout", "500ms"])
        .status(3)
        .stderr_contains("did not answer within 500ms")
        .run();
    assert!(start.elapsed() < std::time::Duration::from_millis(2_900));
}

#[test]
fn output_formats() {
    let cluster = small();
    cluster.add(Mr::provisioned(RS, "RecordSet", "blocked").create_incomplete().json());
    cluster.add(
        Mr::provisioned(RS_NS, "RecordSet", "paused")
            .namespace("team-a")
            .annotation("crossplane.io/paused", "true")
            .json(),
    );
    let text = cluster
        .upjet()
        .arg("doctor")
        .status(1)
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 1 info\n"))
        .run()
        .stdout;
    insta::assert_snapshot!("doctor_table", text);
    let wide = cluster
        .upjet()
        .args(["doctor", "-o", "wide", "--no-headers"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 1 info\n"))
        .run();
    insta::assert_snapshot!("doctor_wide_no_headers", wide.stdout);
    let yaml = cluster
        .upjet()
        .args(["doctor", "-o", "yaml"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 1 info\n"))
        .run();
    let doc: serde_json::Value = serde_saphyr::from_str(&yaml.stdout).unwrap();
    let json = cluster
        .upjet()
        .args(["doctor", "-o", "json"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 1 info\n"))
        .run()
        .json();
    assert_eq!(doc, json, "YAML and JSON carry the same report");
    let only_info = cluster
        .upjet()
        .args(["doctor", "-o", "json", "--severity", "info", "--ignore", "CreateIncomplete,KstatusMisleading"])
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 0 errors, 0 warnings, 1 info\n"))
        .run()
        .json();
    assert_eq!(codes(&only_info), vec![("Paused".into(), "paused".into())]);
    cluster
        .upjet()
        .args(["doctor", "--fail-on", "never"])
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 1 info\n"))
        .run();
    cluster
        .upjet()
        .args(["doctor", "--only", "Paused"])
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 0 errors, 0 warnings, 1 info\n"))
        .run();
    cluster
        .upjet()
        .args(["doctor", "--only", "Paused", "--fail-on", "info"])
        .status(1)
        .stderr(format!("{NO_GUARD}\n5 kinds scanned, 2 managed resources, 0 errors, 0 warnings, 1 info\n"))
        .run();
}

#[test]
fn names_that_are_not_url_safe_are_refused_not_a_crash() {
    let cluster = small();
    for (target, ns) in
        [("recordset.dns.gcp.upbound.io/a b", None), ("recordset.dns.gcp.m.upbound.io/x", Some("bad ns/%"))]
    {
        let mut cmd = cluster.upjet();
        cmd.args(["doctor", target]).env("RUST_BACKTRACE", "1");
        if let Some(ns) = ns {
            cmd.args(["-n", ns]);
        }
        // The one target gateway validates names and namespaces before they reach a URL.
        let run = cmd.status(2).stderr_contains("is not a valid Kubernetes").run();
        assert!(!run.stderr.contains("panic"), "{}", run.stderr);
    }
}
