//! What doctor says about the states a hand migration to the namespaced `.m.` kinds leaves —
//! two acting MRs on one object (a fight), a legacy MR parked beside its healthy twin (not
//! finished) — over a live cluster and over a snapshot of it, and that the next command it
//! names finishes the migration without a Delete reaching the cloud.

use crate::migrate::{CLOUD, SUBNET, SUBNET_NS, cluster, run};
use crate::support::adopt::{EXT, PAUSED};
use crate::support::{Cluster, Mr, text};
use serde_json::{Value, json};

const VPC_NS: &str = "ec2.aws.m.upbound.io/v1beta1";

/// The VPC moved by hand and not finished (legacy paused and Orphan, twin healthy); the subnet
/// moved by hand and both left acting.
fn hand_migrated() -> (Cluster, crate::migrate::CloudDeletes) {
    let (c, deletes) = cluster(CLOUD);
    c.api.modify(SUBNET, "VPC", None, "main", |o| {
        o["metadata"]["annotations"][PAUSED] = json!("true");
        o["spec"]["deletionPolicy"] = json!("Orphan");
    });
    c.add(
        Mr::provisioned(VPC_NS, "VPC", "main")
            .namespace("infra")
            .annotation(EXT, "vpc-main")
            .at_provider_id("vpc-main")
            .json(),
    );
    let subnet =
        Mr::provisioned(SUBNET_NS, "Subnet", "private-a").namespace("infra").annotation(EXT, "subnet-private-a");
    c.add(subnet.at_provider_id("subnet-private-a").json());
    (c, deletes)
}

/// `(code, resource name, namespace)` of every finding of the two codes, sorted.
fn codes(report: &Value) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "ExternalNameShared" || f["code"] == "MigrationUnfinished")
        .map(|f| {
            let r = &f["resource"];
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (s(&f["code"]), format!("{}/{}", s(&r["kind"]), s(&r["name"])), s(&r["namespace"]))
        })
        .collect();
    out.sort();
    out
}

fn next_of(report: &Value, code: &str) -> String {
    let f = report["findings"].as_array().unwrap().iter().find(|f| f["code"] == code).unwrap();
    f["next"].as_str().unwrap().to_string()
}

#[test]
fn doctor_names_a_fight_and_an_unfinished_migration_live_and_offline() {
    let (c, _) = hand_migrated();
    let want = vec![
        ("ExternalNameShared".to_string(), "Subnet/private-a".to_string(), String::new()),
        ("ExternalNameShared".to_string(), "Subnet/private-a".to_string(), "infra".to_string()),
        ("MigrationUnfinished".to_string(), "VPC/main".to_string(), String::new()),
    ];
    let o = run(&c, &["doctor", "-o", "json", "--fail-on", "never"]);
    let live: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stderr)));
    assert_eq!(codes(&live), want, "{}", text(&o.stdout));
    let next = next_of(&live, "MigrationUnfinished");
    assert_eq!(
        next,
        "kubectl upjet migrate plan vpc.ec2.aws.upbound.io/main --to-namespace infra -o migrate-main.json && kubectl upjet migrate apply -f migrate-main.json"
    );
    // The same states from a snapshot of the cluster.
    let mut items = Vec::new();
    for (api, kind, ns) in [(SUBNET, "VPC", None), (SUBNET, "Subnet", None), (VPC_NS, "VPC", Some("infra"))] {
        items.extend(c.api.list(api, kind, ns));
    }
    items.extend(c.api.list(SUBNET_NS, "Subnet", Some("infra")));
    let snap = c.dir().join("snapshot.json");
    std::fs::write(&snap, json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string()).unwrap();
    let o = run(&c, &["doctor", "-o", "json", "--fail-on", "never", "--from", snap.to_str().unwrap()]);
    let offline: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stderr)));
    assert_eq!(codes(&offline), want, "{}", text(&o.stdout));
}

#[test]
fn the_next_command_finishes_the_migration_without_touching_the_twin() {
    let (c, deletes) = hand_migrated();
    let twin_before = c.api.get(VPC_NS, "VPC", Some("infra"), "main").unwrap();
    let o = run(&c, &["doctor", "-o", "json", "--fail-on", "never"]);
    let next = next_of(&serde_json::from_slice(&o.stdout).unwrap(), "MigrationUnfinished");
    let (plan, apply) = next.split_once(" && ").unwrap();
    let args = |cmd: &str| cmd.split_whitespace().skip(2).map(str::to_owned).collect::<Vec<_>>();
    let plan_args = args(plan);
    let o = run(&c, &plan_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(0), "{}\n{}", text(&o.stdout), text(&o.stderr));
    let mut apply_args = args(apply);
    apply_args.extend(["--yes", "--timeout", "20s", "--backup-dir", "b"].map(String::from));
    let o = run(&c, &apply_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(0), "{}\n{}", text(&o.stdout), text(&o.stderr));
    assert!(text(&o.stdout).contains("migrated  vpc.ec2.aws.upbound.io/main"), "{}", text(&o.stdout));
    assert!(c.api.get(SUBNET, "VPC", None, "main").is_none(), "the legacy VPC is deleted");
    let twin_after = c.api.get(VPC_NS, "VPC", Some("infra"), "main").unwrap();
    assert_eq!(twin_after["spec"], twin_before["spec"], "the twin is left as it was");
    assert!(deletes.lock().unwrap().is_empty(), "a Delete reached the cloud: {:?}", deletes.lock().unwrap());
    let o = run(&c, &["doctor", "-o", "json", "--fail-on", "never"]);
    let after: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(codes(&after).iter().all(|(code, ..)| code != "MigrationUnfinished"), "{}", text(&o.stdout));
}
