//! `guard lock`, `guard unlock` and `watch --guard-lock` through the real binary against the
//! in-process API server: every MR's identity and the ID journal's written to the lock's shards,
//! a second run writing nothing; two runs at once losing no entry; a shard deleted or edited by
//! hand written again; an MR name that breaks a key's rules encoded and removed by name; the
//! lock's CRD missing named with the command that installs it; the watch keeping the lock
//! current and going on through its failures.

use crate::guard_cluster::{AWS, V1, V1_M, VPC, VPC_M, provider_pod};
use crate::support::{Cluster, Mr, text};
use crate::watch::Watch;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const LOCK: &str = "guard.kubectl-upjet.io/v1alpha1";
const SHARD: &str = "kubectl-upjet-lock-0000";

fn cluster() -> Cluster {
    let c = Cluster::builder().crd_files(AWS, &[VPC, VPC_M]).guard_lock().start();
    c.add(provider_pod());
    c
}

/// Every entry of every shard.
fn held(c: &Cluster) -> BTreeMap<String, String> {
    let shards = c.api.list(LOCK, "IdentityLock", None);
    shards
        .iter()
        .flat_map(|s| s["spec"]["entries"].as_object().cloned().unwrap_or_default())
        .map(|(k, v)| (k, v.as_str().unwrap().to_string()))
        .collect()
}

/// A journal folder holding one external-name record for a VPC long gone, under a name no
/// API server would admit (a journal line or a hand edit can hold one).
fn journal_with_odd_name(c: &Cluster) -> std::path::PathBuf {
    let dir = c.dir().join("journal");
    std::fs::create_dir_all(&dir).unwrap();
    let line = json!({"time": "2024-11-30T10:00:00Z", "uid": "u-gone", "group": "ec2.aws.upbound.io", "kind": "VPC",
        "name": "Gone VPC/é", "source": "external-name", "id": "vpc-0gone"});
    std::fs::write(dir.join(upjet_local::journal::FILE), format!("{line}\n")).unwrap();
    dir
}

#[test]
fn guard_lock_writes_every_identity_and_the_journal_and_a_second_run_writes_nothing() {
    let c = cluster();
    c.add(Mr::provisioned(V1, "VPC", "main").json());
    c.add(Mr::provisioned(V1_M, "VPC", "web").namespace("default").json());
    c.add(
        Mr::provisioned(V1, "VPC", "bare")
            .without_annotation("crossplane.io/external-name")
            .conditions(json!([]))
            .json(),
    );
    let journal = journal_with_odd_name(&c);
    let out = c.upjet().args(["guard", "lock", "--journal", journal.to_str().unwrap()]).run().stdout;
    assert!(out.contains("the lock holds 3 IDs in 1 shards: 2 of the 3 MRs listed hold one, 1 more from the ID journal; 1 shards written"), "{out}");
    let want: BTreeMap<String, String> = [
        ("ec2.aws.m.upbound.io/VPC/default/web", "web"),
        ("ec2.aws.upbound.io/VPC//Gone%20VPC%2F%C3%A9", "vpc-0gone"),
        ("ec2.aws.upbound.io/VPC//main", "main"),
    ]
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .into();
    assert_eq!(held(&c), want, "the odd name encoded, not dropped");
    let shard = c.api.get(LOCK, "IdentityLock", None, SHARD).unwrap();
    assert_eq!(shard["metadata"]["labels"]["kubectl-upjet.io/guard-lock"], "shard");
    let again = c.upjet().args(["guard", "lock", "--journal", journal.to_str().unwrap()]).run().stdout;
    assert!(again.contains("0 shards written"), "{again}");
    // The odd name is removed by the name it was recorded under.
    let out = c.upjet().args(["guard", "unlock", "vpc/Gone VPC/é"]).run().stdout;
    assert!(out.contains("unlocked VPC.ec2.aws.upbound.io Gone VPC/é (its ID was vpc-0gone)"), "{out}");
    assert_eq!(held(&c).len(), 2);
}

#[test]
fn unlock_removes_one_entry_and_refuses_none_or_several_changing_nothing() {
    let c = cluster();
    c.add(Mr::provisioned(V1, "VPC", "shared").json());
    c.add(Mr::provisioned(V1_M, "VPC", "shared").namespace("default").json());
    c.add(Mr::provisioned(V1, "VPC", "main").json());
    c.upjet().args(["guard", "lock"]).run();
    let err = c
        .upjet()
        .args(["guard", "unlock", "vpc/typo"])
        .status(2)
        .stderr("error: vpc/typo is not locked (the lock holds 3 entries); nothing changed\n")
        .run()
        .stderr;
    assert!(
        err.contains("vpc/typo is not locked (the lock holds 3 entries)") && err.contains("nothing changed"),
        "{err}"
    );
    let err = c.upjet().args(["guard", "unlock", "vpc/shared"]).status(2).stderr("error: vpc/shared names 2 entries (VPC.ec2.aws.m.upbound.io default/shared; VPC.ec2.aws.upbound.io shared): name one with KIND.GROUP and -n; nothing changed\n").run().stderr;
    assert!(err.contains("names 2 entries") && err.contains("KIND.GROUP and -n"), "{err}");
    assert_eq!(held(&c).len(), 3, "nothing changed");
    let o = c.upjet().args(["guard", "unlock", "vpcs.ec2.aws.m.upbound.io/shared", "-n", "default"]).stderr("vpc.ec2.aws.m.upbound.io/shared -n default still exists: while it holds an ID, `guard lock` and `watch --guard-lock` record it again\n").run();
    let (out, err) = (&o.stdout, &o.stderr);
    assert!(out.contains("unlocked VPC.ec2.aws.m.upbound.io default/shared"), "{out}");
    assert!(err.contains("still exists"), "the MR is still there and would be locked again: {err}");
    assert!(!held(&c).contains_key("ec2.aws.m.upbound.io/VPC/default/shared"));
}

#[test]
fn without_the_lock_crd_lock_and_unlock_name_the_command_that_installs_it() {
    let c = Cluster::builder().crd_files(AWS, &[VPC]).start();
    c.add(Mr::provisioned(V1, "VPC", "main").json());
    for args in [&["guard", "lock"][..], &["guard", "unlock", "vpc/main"][..]] {
        let err = c.upjet().args(args).status(2).stderr("error: the guard's lock is not installed (no CustomResourceDefinition identitylocks.guard.kubectl-upjet.io): install it with `kubectl upjet guard | kubectl apply -f -` (and wait until the CRD is established: `kubectl wait --for condition=established crd/identitylocks.guard.kubectl-upjet.io`); nothing changed\n").run().stderr;
        assert!(err.contains("kubectl upjet guard | kubectl apply -f -") && err.contains("nothing changed"), "{err}");
    }
}

#[test]
fn two_lock_runs_at_once_lose_no_entry() {
    let c = cluster();
    for i in 0..40 {
        c.add(Mr::provisioned(V1, "VPC", &format!("legacy-{i:02}")).json());
        c.add(Mr::provisioned(V1_M, "VPC", &format!("ns-{i:02}")).namespace("default").json());
    }
    // Every request about the lock waits, so both runs read it empty before either writes.
    c.api.fault(testapi::Fault::Delay { path_contains: "identitylocks".into(), millis: 300 });
    let spawn = |kind: &str| {
        let mut cmd = c.upjet().args(["guard", "lock", "--kind", kind]).to_std();
        cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped());
        cmd.spawn().unwrap()
    };
    let (a, b) = (spawn("vpc.ec2.aws.upbound.io"), spawn("vpc.ec2.aws.m.upbound.io"));
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    for o in &outs {
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    assert_eq!(held(&c).len(), 80, "every entry of both runs");
    let said: String = outs.iter().map(|o| text(&o.stdout)).collect();
    assert!(said.contains("read again after another writer"), "one run's precondition was refused: {said}");
}

#[test]
fn a_shard_deleted_or_edited_by_hand_is_written_again() {
    let c = cluster();
    for name in ["a", "b", "c"] {
        c.add(Mr::provisioned(V1, "VPC", name).json());
    }
    c.upjet().args(["guard", "lock"]).run();
    c.api.remove(LOCK, "IdentityLock", None, SHARD).unwrap();
    let out = c.upjet().args(["guard", "lock"]).run().stdout;
    assert!(out.contains("the lock holds 3 IDs") && out.contains("1 shards written"), "{out}");
    c.api.modify(LOCK, "IdentityLock", None, SHARD, |s| {
        s["spec"]["entries"] = json!({"ec2.aws.upbound.io/VPC//a": "vpc-hand-edited", "hand/Made//entry": "x-1"});
    });
    let out = c.upjet().args(["guard", "lock"]).run().stdout;
    assert!(out.contains("1 shards written"), "{out}");
    let now = held(&c);
    assert_eq!(
        (now["ec2.aws.upbound.io/VPC//a"].as_str(), now.len()),
        ("a", 4),
        "re-merged, the hand-made entry kept: {now:?}"
    );
    c.api.modify(LOCK, "IdentityLock", None, SHARD, |s| s["spec"]["entries"] = json!({"k": 1}));
    let o = c.upjet().args(["guard", "lock"]).stderr("lock object kubectl-upjet-lock-0000: spec.entries is not a map of strings; read as empty, its entries are written again from the MRs\n").run();
    let (out, err) = (&o.stdout, &o.stderr);
    assert!(err.contains("spec.entries is not a map of strings"), "{err}");
    assert!(out.contains("the lock holds 3 IDs"), "{out}");
    // The label the bindings select by removed: no binding reads the shard, so it is written
    // again, labelled.
    c.api.modify(LOCK, "IdentityLock", None, SHARD, |s| s["metadata"]["labels"] = json!({}));
    let o = c.upjet().args(["guard", "lock"]).stderr("lock object kubectl-upjet-lock-0000: without the label kubectl-upjet.io/guard-lock=shard no binding reads it; read as empty, its entries are written again from the MRs\n").run();
    let (out, err) = (&o.stdout, &o.stderr);
    assert!(err.contains("no binding reads it") && out.contains("1 shards written"), "{err}\n{out}");
    let shard = c.api.get(LOCK, "IdentityLock", None, SHARD).unwrap();
    assert_eq!(shard["metadata"]["labels"]["kubectl-upjet.io/guard-lock"], "shard", "{shard}");
}

/// Waits until the lock's entries satisfy `pred`.
fn lock_until(c: &Cluster, what: &str, pred: impl Fn(&BTreeMap<String, String>) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if pred(&held(c)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the lock never held {what}: {:?}", held(c));
}

#[test]
fn watch_keeps_the_lock_current_and_goes_on_through_its_failures() {
    let c = Cluster::builder().crd_files(AWS, &[VPC]).start();
    c.add(Mr::provisioned(V1, "VPC", "main").json());
    c.add(Mr::provisioned(V1, "VPC", "kept").external_name("vpc-kept").json());
    let mut w = Watch::start(&c, &["--guard-lock", "--no-journal"]);
    let failing = w.stderr_until(|l| l.contains("cannot keep the guard's lock current"));
    assert!(
        failing.contains("kubectl upjet guard | kubectl apply -f -") && failing.contains("the watch goes on"),
        "{failing}"
    );
    c.api.add_crd_yaml(&upjet_core::guard::lock::crd::crd().to_string()).unwrap();
    w.stderr_until(|l| l.contains("written again, the lock is current"));
    lock_until(&c, "both VPCs", |h| h.len() == 2);
    c.add(Mr::provisioned(V1, "VPC", "new").json());
    lock_until(&c, "the new VPC", |h| h.get("ec2.aws.upbound.io/VPC//new").is_some());
    let mut orphan = Mr::provisioned(V1, "VPC", "orphan").json();
    orphan["spec"]["deletionPolicy"] = json!("Orphan");
    c.add(orphan);
    lock_until(&c, "the orphaning VPC", |h| h.len() == 4);
    c.api.remove(V1, "VPC", None, "main").unwrap();
    c.api.remove(V1, "VPC", None, "orphan").unwrap();
    lock_until(&c, "no entry for the VPC whose deletion deleted its object", |h| {
        !h.contains_key("ec2.aws.upbound.io/VPC//main") && h.contains_key("ec2.aws.upbound.io/VPC//orphan")
    });
    c.api.remove(LOCK, "IdentityLock", None, SHARD).unwrap();
    lock_until(&c, "the deleted shard again, at the next resync", |h: &BTreeMap<String, String>| {
        h.keys().filter(|k| k.contains("kept") || k.contains("new")).count() == 2
    });
    let shard: Value = c.api.get(LOCK, "IdentityLock", None, SHARD).unwrap();
    assert_eq!(shard["spec"]["entries"]["ec2.aws.upbound.io/VPC//kept"], "vpc-kept");
}
