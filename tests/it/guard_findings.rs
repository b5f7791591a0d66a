//! doctor and the watch over a live cluster say what they see of `kubectl upjet guard`: missing
//! (`GuardMissing`), partial (`GuardPartial`: a served kind no binding covers) or its lock stale
//! (`GuardLockStale`), through the real binary and the in-process API server serving
//! `admissionregistration.k8s.io/v1` and the lock's CRD; a 403 or 404 on these reads is a note,
//! never a failure.

use crate::rbac::{bind, install_roles};
use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr};
use crate::watch::{BUCKET, Watch};
use serde_json::{Value, json};
use upjet_core::guard::build;
use upjet_core::guard::kind::GuardKind;
use upjet_core::guard::lock::crd::{crd, shard_object};
use upjet_core::guard::lock::shard::{Shard, name};
use upjet_core::guard::settings::GuardSettings;

const VPC: &str = "ec2.aws.upbound.io_vpcs.yaml";

fn vpc(name: &str) -> Value {
    Mr::provisioned("ec2.aws.upbound.io/v1beta1", "VPC", name).external_name(&format!("vpc-{name}")).json()
}

/// VPCs `main`, `web` and `moved` (each Ready with the ID `vpc-NAME`) and a Bucket kind served
/// beside them; `admission`: the API server serves ValidatingAdmissionPolicies (v1.30+).
fn cluster(admission: bool) -> Cluster {
    let c = Cluster::builder().crd_files("provider-upjet-aws", &[VPC, BUCKET]).start();
    if admission {
        c.api.serve_admission_policies();
    }
    for name in ["main", "web", "moved"] {
        c.add(vpc(name));
    }
    c
}

/// The guard as `guard` prints it for the VPC kind alone, applied.
fn install_guard(c: &Cluster) {
    let kinds = [GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false)];
    for p in build(&kinds, &GuardSettings::default(), &[]).validating {
        c.add(p.policy);
        c.add(p.binding);
    }
}

/// The lock's CRD and one shard holding `entries`.
fn install_lock(c: &Cluster, entries: &[(&str, &str)]) {
    c.api.add_crd_yaml(&serde_saphyr::to_string(&crd()).unwrap()).unwrap();
    let mut shard = Shard::new(name(0));
    shard.entries = entries.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    c.add(shard_object(&shard, false));
}

fn guard_codes(report: &Value) -> Vec<(String, String)> {
    crate::support::codes(report).into_iter().filter(|(c, _)| c.starts_with("Guard")).collect()
}

#[test]
fn doctor_says_the_guard_is_missing_in_an_info_finding_about_the_cluster() {
    let c = cluster(true);
    let run = c
        .upjet()
        .args(["doctor"])
        .json()
        .stderr("2 kinds scanned, 3 managed resources, 0 errors, 3 warnings, 1 info\n")
        .run();
    let r = run.report();
    assert_eq!(guard_codes(&r), [("GuardMissing".into(), "kubectl-upjet-guard".into())], "{}", run.stderr);
    let f = r.finding("GuardMissing", "kubectl-upjet-guard");
    assert_eq!(
        (f["severity"].as_str(), f["next"].as_str()),
        (Some("info"), Some("kubectl upjet guard --audit | kubectl apply -f -"))
    );
    assert_eq!(f["resource"]["apiVersion"], "admissionregistration.k8s.io/v1");
    assert!(f["message"].as_str().unwrap().contains("of the 2 served managed kinds"), "{f}");
    let summary = c
        .upjet()
        .args(["doctor", "-o", "summary"])
        .stderr("2 kinds scanned, 3 managed resources, 0 errors, 3 warnings, 1 info\n")
        .run();
    assert!(summary.stdout.contains("kubectl upjet guard --audit | kubectl apply -f -"), "{}", summary.stdout);
}

#[test]
fn doctor_says_which_kinds_the_guard_leaves_out_and_which_identities_its_lock_lacks() {
    let c = cluster(true);
    install_guard(&c);
    install_lock(&c, &[("ec2.aws.upbound.io/VPC//main", "vpc-main"), ("ec2.aws.upbound.io/VPC//moved", "vpc-old")]);
    let run = c
        .upjet()
        .args(["doctor"])
        .json()
        .stderr("2 kinds scanned, 3 managed resources, 0 errors, 5 warnings, 0 info\n")
        .run();
    let r = run.report();
    assert_eq!(
        guard_codes(&r),
        [("GuardLockStale".into(), "kubectl-upjet-lock".into()), ("GuardPartial".into(), "kubectl-upjet-guard".into())],
        "{}",
        run.stderr
    );
    let partial = r.finding("GuardPartial", "kubectl-upjet-guard");
    assert_eq!(partial["severity"], "warning");
    assert_eq!(partial["evidence"]["uncovered"], "buckets.s3.aws.upbound.io (no rule)", "{partial}");
    let stale = r.finding("GuardLockStale", "kubectl-upjet-lock");
    let message = stale["message"].as_str().unwrap();
    assert!(
        message.contains("lacks 1 of the 3 MR identities") && message.contains("holds another ID for 1"),
        "{message}"
    );
    assert_eq!(
        stale["evidence"]["sample"],
        "vpc.ec2.aws.upbound.io/moved (vpc-moved; the lock: vpc-old), vpc.ec2.aws.upbound.io/web (vpc-web; the lock: none)"
    );
    assert_eq!(stale["next"], "kubectl upjet guard lock");
    assert!(!run.stderr.contains("cannot") && !run.stderr.contains("not served"), "{}", run.stderr);

    // Everything locked, every kind covered: nothing to say.
    c.api.modify("guard.kubectl-upjet.io/v1alpha1", "IdentityLock", None, &name(0), |s| {
        s["spec"]["entries"] = json!({"ec2.aws.upbound.io/VPC//main": "vpc-main", "ec2.aws.upbound.io/VPC//web": "vpc-web",
            "ec2.aws.upbound.io/VPC//moved": "vpc-moved"});
    });
    let run = c
        .upjet()
        .args(["doctor", "--kind", "vpc.ec2.aws.upbound.io"])
        .json()
        .stderr("1 kinds scanned, 3 managed resources, 0 errors, 3 warnings, 0 info\n")
        .run();
    assert_eq!(guard_codes(&run.report()), [], "{}", run.stderr);
}

/// The lock `guard lock` writes is the one doctor judges: its keys and IDs are read back as
/// written, so the lock is stale before the first run, current after it, stale again once a
/// shard is deleted by hand and current once `guard lock` ran again.
#[test]
fn the_lock_guard_lock_writes_is_the_lock_doctor_judges() {
    let c = cluster(true);
    install_guard(&c);
    install_lock(&c, &[]);
    let codes = |c: &Cluster| {
        let summary = r"\A1 kinds scanned, 3 managed resources, 0 errors, \d warnings, 0 info\n\z";
        let run = c.upjet().args(["doctor", "--kind", "vpc.ec2.aws.upbound.io"]).json().stderr_matches(summary).run();
        guard_codes(&run.report())
    };
    let stale = [("GuardLockStale".to_string(), "kubectl-upjet-lock".to_string())];
    assert_eq!(codes(&c), stale, "an empty lock lacks every identity");
    let lock = c.upjet().args(["guard", "lock"]).run();
    assert!(lock.stdout.contains("the lock holds 3 IDs"), "{}", lock.stdout);
    assert_eq!(codes(&c), [], "guard lock wrote what doctor reads");
    c.api.remove("guard.kubectl-upjet.io/v1alpha1", "IdentityLock", None, &name(0)).unwrap();
    assert_eq!(codes(&c), stale, "a shard deleted by hand");
    c.upjet().args(["guard", "lock"]).run();
    assert_eq!(codes(&c), [], "written again");
}

#[test]
fn a_cluster_before_v1_30_and_a_lock_without_its_crd_are_notes_not_failures() {
    let c = cluster(false);
    let run = c
        .upjet()
        .args(["doctor"])
        .json()
        .stderr(format!("{NO_GUARD}\n2 kinds scanned, 3 managed resources, 0 errors, 3 warnings, 0 info\n"))
        .run();
    assert_eq!(guard_codes(&run.report()), []);
    assert!(run.stderr.contains("the API server serves no ValidatingAdmissionPolicies"), "{}", run.stderr);

    let c = cluster(true);
    install_guard(&c);
    let run = c.upjet().args(["doctor"]).json().stderr("the guard's lock is not installed: its CRD identitylocks.guard.kubectl-upjet.io is not served, so identity-locked has nothing to read\n2 kinds scanned, 3 managed resources, 0 errors, 5 warnings, 0 info\n").run();
    assert!(run.stderr.contains("its CRD identitylocks.guard.kubectl-upjet.io is not served"), "{}", run.stderr);
    let stale = run.report().finding("GuardLockStale", "kubectl-upjet-lock").clone();
    assert!(stale["message"].as_str().unwrap().contains("is not installed"), "{stale}");
    assert_eq!(stale["next"], "kubectl upjet guard | kubectl apply -f - && kubectl upjet guard lock");
}

#[test]
fn the_shipped_roles_read_the_guard_and_a_denied_read_is_a_note_naming_the_role() {
    let c = cluster(true);
    install_guard(&c);
    install_lock(&c, &[]);
    let view = json!([{"apiGroups": ["ec2.aws.upbound.io", "s3.aws.upbound.io"], "resources": ["*"], "verbs": ["get", "list", "watch"]}]);
    install_roles(&c, view, &["clusterrole-doctor.yaml", "clusterrole-guard-lock.yaml"]);
    bind(&c, "viewer", "kubectl-upjet-doctor");
    // Doctor as `user`, its stderr ending with the run's `summary` line.
    let doctor = |user: &str, summary: &str| {
        c.upjet()
            .env("KUBECONFIG", c.dir().join(format!("{user}.kubeconfig")))
            .args(["doctor"])
            .json()
            .stderr_matches(&format!("{}\n\\z", regex::escape(summary)))
            .run()
    };
    let run = doctor("viewer", "2 kinds scanned, 3 managed resources, 0 errors, 5 warnings, 0 info");
    assert!(!run.stderr.contains("forbidden"), "{}", run.stderr);
    assert_eq!(guard_codes(&run.report()).len(), 2, "{}", run.stderr);

    // The lock's list taken away: a note naming the permission and the role, and no claim on it.
    c.api.modify("rbac.authorization.k8s.io/v1", "ClusterRole", None, "kubectl-upjet-doctor-base", |r| {
        r["rules"].as_array_mut().unwrap().retain(|rule| rule["apiGroups"] != json!(["guard.kubectl-upjet.io"]));
    });
    let run = doctor("viewer", "2 kinds scanned, 3 managed resources, 0 errors, 4 warnings, 0 info");
    assert!(
        run.stderr.contains("cannot read the guard's lock (identitylocks.guard.kubectl-upjet.io)")
            && run.stderr.contains("missing permission: list on identitylocks (guard.kubectl-upjet.io); the ClusterRole kubectl-upjet-doctor"),
        "{}",
        run.stderr
    );
    assert_eq!(guard_codes(&run.report()), [("GuardPartial".into(), "kubectl-upjet-guard".into())]);
    let partial = run.report().finding("GuardPartial", "kubectl-upjet-guard").clone();
    assert!(
        partial["evidence"]["notRead"].as_str().unwrap().starts_with("identitylocks.guard.kubectl-upjet.io: forbidden"),
        "{partial}"
    );

    // The policies' list taken away too: nothing is claimed about the guard.
    c.api.modify("rbac.authorization.k8s.io/v1", "ClusterRole", None, "kubectl-upjet-doctor-base", |r| {
        r["rules"].as_array_mut().unwrap().retain(|rule| rule["apiGroups"] != json!(["admissionregistration.k8s.io"]));
    });
    let run = doctor("viewer", "2 kinds scanned, 3 managed resources, 0 errors, 3 warnings, 0 info");
    assert!(run.stderr.contains("cannot tell whether kubectl upjet guard is installed"), "{}", run.stderr);
    assert!(run.stderr.contains("missing permission: list on validatingadmissionpolicies"), "{}", run.stderr);
    assert_eq!(guard_codes(&run.report()), []);
}

#[tokio::test]
async fn the_lock_is_written_under_the_guard_lock_role_only() {
    let c = cluster(true);
    install_lock(&c, &[]);
    let view = json!([{"apiGroups": ["ec2.aws.upbound.io"], "resources": ["*"], "verbs": ["get", "list", "watch"]}]);
    install_roles(&c, view, &["clusterrole-doctor.yaml", "clusterrole-guard-lock.yaml"]);
    bind(&c, "viewer", "kubectl-upjet-doctor");
    bind(&c, "locker", "kubectl-upjet-doctor");
    bind(&c, "locker", "kubectl-upjet-guard-lock");
    let path = format!("/apis/guard.kubectl-upjet.io/v1alpha1/identitylocks/{}", name(0));
    for (user, allowed) in [("viewer", false), ("locker", true)] {
        let opts = upjet_cluster::connect::ConnectOptions::kubeconfig(c.dir().join(format!("{user}.kubeconfig")));
        let conn = upjet_cluster::connect::connect(&opts).await.unwrap();
        let patch = http::Request::patch(path.as_str())
            .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
            .body(br#"{"spec":{"entries":{"ec2.aws.upbound.io/VPC//main":"vpc-main"}}}"#.to_vec())
            .unwrap();
        let got = upjet_cluster::request::text(&conn, patch).await;
        match (allowed, got) {
            (true, Ok(_)) => {}
            (false, Err(e)) => {
                let why = e.reason();
                assert!(why.contains("forbidden (403)") && why.contains("kubectl-upjet-guard-lock"), "{why}");
            }
            (_, other) => panic!("{user}: {other:?}"),
        }
        let list = upjet_cluster::guard::enforced_shards(&conn).await.unwrap();
        assert_eq!(list.len(), 1, "{user} reads the lock");
    }
}

#[test]
fn the_watch_reports_the_guard_each_resync_and_exports_it() {
    let c = cluster(true);
    let mut w = Watch::start(&c, &["-o", "json"]);
    let missing = w.event_until(|e| e["event"] == "appeared" && e["code"] == "GuardMissing");
    assert_eq!((missing["name"].as_str(), missing["severity"].as_str()), (Some("kubectl-upjet-guard"), Some("info")));
    install_guard(&c);
    install_lock(&c, &[("ec2.aws.upbound.io/VPC//main", "vpc-main"), ("ec2.aws.upbound.io/VPC//moved", "vpc-moved")]);
    w.event_until(|e| e["event"] == "cleared" && e["code"] == "GuardMissing");
    let stale = w.event_until(|e| e["event"] == "appeared" && e["code"] == "GuardLockStale");
    assert!(stale["message"].as_str().unwrap().contains("vpc.ec2.aws.upbound.io/web"), "{stale}");
    w.metrics_until(|b| {
        b.lines().any(|l| {
            l.starts_with("upjet_managed_resource_finding{")
                && l.contains("code=\"GuardLockStale\"")
                && l.contains("group=\"guard.kubectl-upjet.io\"")
                && l.contains("name=\"kubectl-upjet-lock\"")
        }) && b.contains("upjet_findings{code=\"GuardPartial\",severity=\"warning\"} 1")
    });
    c.api.modify("guard.kubectl-upjet.io/v1alpha1", "IdentityLock", None, &name(0), |s| {
        s["spec"]["entries"]["ec2.aws.upbound.io/VPC//web"] = json!("vpc-web");
    });
    w.event_until(|e| e["event"] == "cleared" && e["code"] == "GuardLockStale");
    assert_eq!(w.terminate().code(), Some(0));
}
