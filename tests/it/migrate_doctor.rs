//! What doctor says about the states a hand migration to the namespaced `.m.` kinds leaves —
//! two acting MRs on one object (a fight), a legacy MR parked beside its healthy twin (not
//! finished) — over a live cluster and over a snapshot of it, and that the next command it
//! names finishes the migration without a Delete reaching the cloud.

use crate::migrate::{CLOUD, SUBNET, SUBNET_NS, cluster, in_dir};
use crate::support::NO_GUARD;
use crate::support::adopt::{EXT, PAUSED};
use crate::support::{Cluster, Mr};
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
    let o = in_dir(&c, &["doctor", "-o", "json", "--fail-on", "never"])
        .stderr(format!("{NO_GUARD}\n6 kinds scanned, 5 managed resources, 2 errors, 1 warnings, 1 info\n"))
        .run();
    let live = o.json();
    assert_eq!(codes(&live), want, "{}", o.stdout);
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
    let o = in_dir(&c, &["doctor", "-o", "json", "--fail-on", "never", "--from", snap.to_str().unwrap()])
        .stderr("4 kinds scanned, 4 managed resources, 2 errors, 1 warnings, 1 info\n")
        .run();
    let offline = o.json();
    assert_eq!(codes(&offline), want, "{}", o.stdout);
}

#[test]
fn the_next_command_finishes_the_migration_without_touching_the_twin() {
    let (c, deletes) = hand_migrated();
    let twin_before = c.api.get(VPC_NS, "VPC", Some("infra"), "main").unwrap();
    let o = in_dir(&c, &["doctor", "-o", "json", "--fail-on", "never"])
        .stderr(format!("{NO_GUARD}\n6 kinds scanned, 5 managed resources, 2 errors, 1 warnings, 1 info\n"))
        .run();
    let next = next_of(&o.json(), "MigrationUnfinished");
    let (plan, apply) = next.split_once(" && ").unwrap();
    let args = |cmd: &str| cmd.split_whitespace().skip(2).map(str::to_owned).collect::<Vec<_>>();
    let plan_args = args(plan);
    in_dir(&c, &plan_args.iter().map(String::as_str).collect::<Vec<_>>()).run();
    let mut apply_args = args(apply);
    apply_args.extend(["--yes", "--timeout", "20s", "--backup-dir", "b"].map(String::from));
    let o = in_dir(&c, &apply_args.iter().map(String::as_str).collect::<Vec<_>>())
        .stderr_contains("vpc.ec2.aws.upbound.io/main: backup")
        .run();
    assert!(o.stdout.contains("migrated  vpc.ec2.aws.upbound.io/main"), "{}", o.stdout);
    assert!(c.api.get(SUBNET, "VPC", None, "main").is_none(), "the legacy VPC is deleted");
    let twin_after = c.api.get(VPC_NS, "VPC", Some("infra"), "main").unwrap();
    assert_eq!(twin_after["spec"], twin_before["spec"], "the twin is left as it was");
    assert!(deletes.lock().unwrap().is_empty(), "a Delete reached the cloud: {:?}", deletes.lock().unwrap());
    let o = in_dir(&c, &["doctor", "-o", "json", "--fail-on", "never"])
        .stderr(format!("{NO_GUARD}\n6 kinds scanned, 4 managed resources, 2 errors, 0 warnings, 0 info\n"))
        .run();
    let after: Value = o.json();
    assert!(codes(&after).iter().all(|(code, ..)| code != "MigrationUnfinished"), "{}", o.stdout);
}
