//! The staged restore end to end against the in-process API server, through the real kube client:
//! `restore-plan` on the example backup, a Velero restore with its modifiers (simulated from
//! Velero's matching and `resetMetadataAndStatus`), the simulated provider, then `promote`:
//! verified and promoted, resumed after a kill -9 mid-plan, stopped at the first object not
//! found, a dry run, MRs changed since the plan refused, and the source cluster's fight.

use crate::support::NO_GUARD;
use crate::support::velero as velero_support;

use crate::support::adopt::*;
use crate::support::{Cluster, Mr, Upjet};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Stdio;

const KEYS: &str = "kms.aws.upbound.io/v1beta1";
const EC2: &str = "ec2.aws.upbound.io/v1beta1";
const PAYMENTS_ID: &str = "mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8";
const RULE_ID: &str = "sgr-0123456789abcdef0";
const SUBNET_ID: &str = "subnet-0c1d2e3f4a5b6c7d8";

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/velero/nightly-data.tar.gz")
}

/// A restored cluster: restore-plan run on the example, every object of the plan's kinds
/// created as Velero would, and a provider whose cloud holds `cloud`.
fn restored(cloud: &[&str]) -> Cluster {
    let c = Cluster::builder()
        .crd_files(
            "provider-upjet-aws",
            &[
                "kms.aws.upbound.io_keys.yaml",
                "ec2.aws.upbound.io_subnets.yaml",
                "ec2.aws.upbound.io_securitygroupingressrules.yaml",
            ],
        )
        .start();
    let out = c
        .upjet()
        .current_dir(c.dir())
        .arg("restore-plan")
        .arg(example())
        .args(["--modifiers", "m.yaml", "--plan", "p.json"])
        .run();
    let rules = velero_support::rules_from_printed_command(&out.stdout, c.dir());
    for (gr, obj) in velero_support::objects(&example()) {
        if ["keys.kms.aws.upbound.io", "subnets.ec2.aws.upbound.io", "securitygroupingressrules.ec2.aws.upbound.io"]
            .contains(&gr.as_str())
        {
            c.add(velero_support::restored(&obj, &gr, &rules));
        }
    }
    provider(&c.api, Provider { cloud: cloud.iter().map(|s| s.to_string()).collect(), handles_token: true });
    c
}

/// `promote -f p.json --yes` with its backups in the cluster's folder, and `extra`.
fn promote(c: &Cluster, extra: &[&str]) -> Upjet {
    let mut cmd = c.upjet();
    cmd.args(["promote", "-f"])
        .arg(c.dir().join("p.json"))
        .args(["--yes", "--timeout", "20s", "--backup-dir"])
        .arg(c.dir().join("backups"))
        .args(extra);
    cmd
}

fn get(c: &Cluster, api: &str, kind: &str, name: &str) -> Value {
    c.api.get(api, kind, None, name).unwrap()
}

fn promoted(o: &Value, id: &str, policies: Value) -> bool {
    a(o, EXT) == Some(id) && a(o, PAUSED).is_none() && o["spec"]["managementPolicies"] == policies
}

fn all_promoted(c: &Cluster) -> bool {
    promoted(&get(c, KEYS, "Key", "payments"), PAYMENTS_ID, json!(["Observe", "Create", "Update", "Delete"]))
        && promoted(&get(c, EC2, "SecurityGroupIngressRule", "https-in"), RULE_ID, json!(["*"]))
        && promoted(&get(c, EC2, "Subnet", "private-a"), SUBNET_ID, json!(["*"]))
}

#[test]
fn promote_verifies_each_observe_then_restores_the_policies_and_resumes() {
    let c = restored(&[PAYMENTS_ID, RULE_ID, SUBNET_ID, "mrk-signing"]);
    // As restored: observing only with the planned IDs, the one without an ID paused.
    let signing = get(&c, KEYS, "Key", "signing");
    assert_eq!(
        (a(&signing, PAUSED), signing["spec"]["managementPolicies"].clone()),
        (Some("true"), json!(["Observe"]))
    );
    let o = promote(&c, &["--parallel", "2"])
        .status(5)
        .stderr_contains("key.kms.aws.upbound.io/payments: its Observe found \"mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8\"")
        .stderr_contains(
            "securitygroupingressrule.ec2.aws.upbound.io/https-in: its Observe found \"sgr-0123456789abcdef0\"",
        )
        .run();
    let out = &o.stdout;
    assert!(all_promoted(&c), "{out}");
    assert!(
        out.contains(&format!("promoted  key.kms.aws.upbound.io/payments tracks \"{PAYMENTS_ID}\" (backup ")),
        "{out}"
    );
    assert!(out.contains("left      key.kms.aws.upbound.io/signing: restored paused with no ID"), "{out}");
    assert!(out.contains("3 promoted, 0 skipped (already promoted), 1 left observing or paused, 0 refused, 0 failed, 0 not started, of 4"), "{out}");
    // One backup per promoted MR, each holding the restored state it started from.
    let backups: Vec<_> = std::fs::read_dir(c.dir().join("backups")).unwrap().collect();
    assert_eq!(backups.len(), 3);
    // The fresh Observe was asked for with reconcile-requested-at, never by flipping the pause.
    let payments = get(&c, KEYS, "Key", "payments");
    assert!(a(&payments, RRA).is_some_and(|t| t.ends_with("+promoted")), "{payments}");
    // Still signing: paused, observing only. A person finds its ID and sets it; promote finishes.
    assert_eq!(a(&get(&c, KEYS, "Key", "signing"), PAUSED), Some("true"));
    let obj = c.api.modify(KEYS, "Key", None, "signing", |o| o["metadata"]["annotations"][EXT] = json!("mrk-signing"));
    assert!(obj.is_some());
    let o = promote(&c, &[]).stderr_contains("key.kms.aws.upbound.io/signing: its Observe found \"mrk-signing\"").run();
    let out = &o.stdout;
    assert!(out.contains("3 skipped (already promoted)") && out.contains("1 promoted"), "{out}");
    assert!(
        promoted(&get(&c, KEYS, "Key", "signing"), "mrk-signing", json!(["Observe", "Create", "Update", "Delete"])),
        "the plan's pause is lifted"
    );
}

#[test]
fn kill_9_mid_plan_then_resume() {
    let c = restored(&[PAYMENTS_ID, RULE_ID, SUBNET_ID]);
    for step in ["1", "2"] {
        let mut child = c
            .upjet()
            .to_std()
            .env("UPJET_TEST_HANG_AFTER_STEP", step)
            .args(["promote", "--yes", "--parallel", "1", "-f"])
            .arg(c.dir().join("p.json"))
            .arg("--backup-dir")
            .arg(c.dir().join("backups"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = child.stderr.take().unwrap();
        let mut seen = String::new();
        let mut buf = [0u8; 256];
        while !seen.contains("waiting to be killed") {
            let n = std::io::Read::read(&mut err, &mut buf).unwrap();
            assert!(n > 0, "the hook was never reached: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Every MR is restored (observing only) or promoted; none half-way.
        for (api, kind, name) in
            [(KEYS, "Key", "payments"), (EC2, "SecurityGroupIngressRule", "https-in"), (EC2, "Subnet", "private-a")]
        {
            let o = get(&c, api, kind, name);
            let policies = o["spec"]["managementPolicies"].clone();
            assert!(
                policies == json!(["Observe"]) || (policies != json!(["Observe"]) && a(&o, PAUSED).is_none()),
                "{name} after kill at {step}: {o}"
            );
        }
    }
    let o = promote(&c, &[])
        .status(5)
        .stderr_contains("subnet.ec2.aws.upbound.io/private-a: its Observe found \"subnet-0c1d2e3f4a5b6c7d8\"")
        .stderr_contains(
            "securitygroupingressrule.ec2.aws.upbound.io/https-in: its Observe found \"sgr-0123456789abcdef0\"",
        )
        .run();
    assert!(all_promoted(&c), "{}\n{}", o.stdout, o.stderr);
}

#[test]
fn the_first_object_not_found_stops_the_run() {
    let c = restored(&[PAYMENTS_ID, SUBNET_ID]);
    let o = promote(&c, &["--parallel", "1"])
        .status(5)
        .stderr_contains("key.kms.aws.upbound.io/payments: its Observe found \"mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8\"")
        .run();
    let out = &o.stdout;
    assert!(out.contains(&format!("failed    securitygroupingressrule.ec2.aws.upbound.io/https-in: its Observe found no cloud object with ID \"{RULE_ID}\"")), "{out}");
    assert!(
        out.contains(
            "stopped at the first MR whose object was not found: securitygroupingressrule.ec2.aws.upbound.io/https-in"
        ),
        "{out}"
    );
    assert!(out.contains("skipped   subnet.ec2.aws.upbound.io/private-a (the run stopped before it)"), "{out}");
    let rule = get(&c, EC2, "SecurityGroupIngressRule", "https-in");
    assert_eq!(rule["spec"]["managementPolicies"], json!(["Observe"]), "left observing only: nothing created");
    assert_eq!(get(&c, EC2, "Subnet", "private-a")["spec"]["managementPolicies"], json!(["Observe"]));
}

#[test]
fn dry_run_changes_nothing_and_changed_mrs_are_refused() {
    let c = restored(&[PAYMENTS_ID, RULE_ID, SUBNET_ID]);
    let before = get(&c, KEYS, "Key", "payments");
    let o = promote(&c, &["--dry-run"]).status(5).stderr_contains("securitygroupingressrule.ec2.aws.upbound.io/https-in: would send {\"metadata\":{\"annotations\":{\"crossplane.io/reconcile-requested-at\":\"").run();
    assert!(o.stdout.contains("dry-run   key.kms.aws.upbound.io/payments: both patches accepted"), "{}", o.stdout);
    assert!(o.stderr.contains("would send"), "{}", o.stderr);
    assert_as_original(&before, &get(&c, KEYS, "Key", "payments"), "dry run");
    assert!(!c.dir().join("backups").exists(), "no backup in a dry run");
    // Someone widened the policies since the restore: left as it is.
    c.api.modify(EC2, "Subnet", None, "private-a", |o| o["spec"]["managementPolicies"] = json!(["Observe", "Create"]));
    let o = promote(&c, &[])
        .status(5)
        .stderr_contains(
            "securitygroupingressrule.ec2.aws.upbound.io/https-in: its Observe found \"sgr-0123456789abcdef0\"",
        )
        .stderr_contains("key.kms.aws.upbound.io/payments: its Observe found \"mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8\"")
        .run();
    let out = &o.stdout;
    assert!(out.contains("refused   subnet.ec2.aws.upbound.io/private-a: changed since the plan"), "{out}");
    assert_eq!(get(&c, EC2, "Subnet", "private-a")["spec"]["managementPolicies"], json!(["Observe", "Create"]));
}

#[test]
fn a_source_cluster_still_managing_the_object_is_a_fight() {
    // The "source" cluster still runs the `logs` key with full policies.
    let c = Cluster::builder().crd_files("provider-upjet-aws", &["kms.aws.upbound.io_keys.yaml"]).start();
    c.add(Mr::provisioned(KEYS, "Key", "logs").annotation(EXT, "mrk-1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f").json());
    c.add(
        Mr::provisioned(KEYS, "Key", "backups")
            .annotation(EXT, "mrk-2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a")
            .annotation(PAUSED, "true")
            .json(),
    );
    let o = c
        .upjet()
        .args(["doctor", "-o", "json", "--source-context", "test", "--from"])
        .arg(example())
        .status(1)
        .stderr_contains("Velero backup nightly (format 1.1.0): 15 managed resources")
        .stderr_contains("5 kinds scanned, 15 managed resources, 10 errors, 5 warnings, 10 info")
        .run();
    let report = o.json();
    let fights: Vec<&Value> =
        report["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "RestoreIntoFight").collect();
    assert_eq!(fights.len(), 1, "only the source MR that can still write: {}", o.stdout);
    assert_eq!(fights[0]["resource"]["name"], "logs");
    assert_eq!(fights[0]["evidence"]["source"], "test: key.kms.aws.upbound.io/logs");
    let o = c
        .upjet()
        .current_dir(c.dir())
        .args(["restore-plan", "--source-context", "test"])
        .arg(example())
        .args(["--modifiers", "m.yaml", "--plan", "p.json"])
        .run();
    assert!(o.stdout.contains("1 managed by the source cluster"), "{}", o.stdout);
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(c.dir().join("p.json")).unwrap()).unwrap();
    let logs =
        plan["items"].as_array().unwrap().iter().find(|i| i["resource"] == "key.kms.aws.upbound.io/logs").unwrap();
    assert_eq!(logs["source"], "test: key.kms.aws.upbound.io/logs");
}

#[test]
fn a_live_doctor_says_what_a_provider_restart_would_create_again() {
    let c = Cluster::builder().crd_files("provider-upjet-aws", &["kms.aws.upbound.io_keys.yaml"]).start();
    for (name, id) in [("a", "mrk-0a1"), ("b", "mrk-9zz"), ("c", "mrk-77q")] {
        c.add(Mr::provisioned(KEYS, "Key", name).annotation(EXT, id).at_provider_id(id).json());
    }
    // Created, its ID only in status: a restart creates it again. Paused: not while paused.
    c.add(
        Mr::provisioned(KEYS, "Key", "lost")
            .without_annotation(EXT)
            .at_provider_id("mrk-lost")
            .policies(&["Observe", "Create", "Update", "Delete"])
            .json(),
    );
    c.add(
        Mr::provisioned(KEYS, "Key", "held")
            .without_annotation(EXT)
            .at_provider_id("mrk-held")
            .annotation(PAUSED, "true")
            .json(),
    );
    let o = c.upjet().args(["doctor", "-o", "json"]).status(1).stderr(format!("{NO_GUARD}\n1 kinds scanned, 5 managed resources, 2 errors, 1 warnings, 1 info, 1 would be created again by a provider restart\n")).run();
    let report = o.json();
    assert_eq!(report["summary"]["restartDuplicates"], 1, "{}", o.stdout);
    assert!(o.stderr.contains("1 would be created again by a provider restart"), "{}", o.stderr);
    let o = c.upjet().args(["doctor", "-o", "summary"]).status(1).stderr(format!("{NO_GUARD}\n1 kinds scanned, 5 managed resources, 2 errors, 1 warnings, 1 info, 1 would be created again by a provider restart\n")).run();
    let out = &o.stdout;
    assert!(out.contains("A provider restart would create 1 cloud object again right now: its ID lives only in the provider's memory. Save it first:"), "{out}");
    assert!(
        out.contains("→ kubectl upjet doctor --plan ids.json && kubectl upjet adopt -f ids.json --import"),
        "{out}"
    );
}
