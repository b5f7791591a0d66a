//! `kubectl upjet migrate` end to end with the real provider-upjet-aws CRD pairs: the plan
//! offline (a snapshot and the CRDs) and live (server-side dry run), apply through the
//! in-process API server and a simulated provider — migrated, resumed after an abrupt stop at
//! every step, rolled back when the Observe finds nothing — and status.

use crate::support::adopt::{EXT, PAUSED, Provider, a, provider};
use crate::support::{Cluster, Mr, Run, Upjet, crd_dir, upjet};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

pub(crate) const SUBNET: &str = "ec2.aws.upbound.io/v1beta1";
pub(crate) const SUBNET_NS: &str = "ec2.aws.m.upbound.io/v1beta1";
const CERT: &str = "acm.aws.upbound.io/v1beta2";
const CRDS: &[&str] = &[
    "ec2.aws.upbound.io_subnets.yaml",
    "ec2.aws.m.upbound.io_subnets.yaml",
    "ec2.aws.upbound.io_vpcs.yaml",
    "ec2.aws.m.upbound.io_vpcs.yaml",
    "acm.aws.upbound.io_certificates.yaml",
    "acm.aws.m.upbound.io_certificates.yaml",
];

pub(crate) fn vpc(name: &str) -> Value {
    let mut v = Mr::provisioned(SUBNET, "VPC", name)
        .annotation(EXT, &format!("vpc-{name}"))
        .at_provider_id(&format!("vpc-{name}"))
        .json();
    v["spec"]["forProvider"]["cidrBlock"] = json!("10.0.0.0/16");
    v["spec"]["providerConfigRef"] = json!({"name": "default"});
    v
}

fn subnet(name: &str, vpc: &str) -> Value {
    let mut s = Mr::provisioned(SUBNET, "Subnet", name)
        .annotation(EXT, &format!("subnet-{name}"))
        .at_provider_id(&format!("subnet-{name}"))
        .label("team", "net")
        .json();
    s["spec"]["forProvider"]["vpcId"] = json!(format!("vpc-{vpc}"));
    s["spec"]["forProvider"]["vpcIdRef"] = json!({"name": vpc});
    s["spec"]["deletionPolicy"] = json!("Delete");
    s["spec"]["providerConfigRef"] = json!({"name": "default"});
    s["metadata"]["generation"] = json!(1);
    s
}

/// The legacy fleet: a VPC, a subnet referring to it, and an ACM certificate whose legacy kind
/// is stored as v1beta2 while its namespaced twin is v1beta1.
fn fleet() -> Vec<Value> {
    let mut cert =
        Mr::provisioned(CERT, "Certificate", "www").annotation(EXT, "arn:aws:acm:eu-west-1:1:certificate/abc").json();
    cert["status"]["atProvider"]["id"] = json!("arn:aws:acm:eu-west-1:1:certificate/abc");
    cert["spec"]["forProvider"]["domainName"] = json!("www.example.com");
    cert["spec"]["managementPolicies"] = json!(["Observe", "Create", "Update", "Delete"]);
    cert["spec"]["deletionPolicy"] = json!("Orphan");
    vec![vpc("main"), subnet("private-a", "main"), cert]
}

/// Deletions the simulated provider carried out in the cloud, by ID.
pub(crate) type CloudDeletes = Arc<Mutex<Vec<String>>>;

/// A cluster with the CRD pairs, the namespace `infra`, the fleet and a provider whose cloud
/// holds `cloud`. The provider handles deletions as crossplane-runtime does: a deleting,
/// unpaused MR whose policies would delete (policies.go ShouldDelete) deletes the cloud object,
/// then the finalizer goes.
pub(crate) fn cluster(cloud: &[&str]) -> (Cluster, CloudDeletes) {
    let c = Cluster::builder().start();
    for f in CRDS {
        let yaml = std::fs::read_to_string(crd_dir("provider-upjet-aws").join(f)).unwrap();
        c.api.add_crd_yaml_with_schemas(&yaml).unwrap();
    }
    c.add(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "infra"}}));
    for obj in fleet() {
        c.add(obj);
    }
    provider(&c.api, Provider { cloud: cloud.iter().map(|s| s.to_string()).collect(), handles_token: true });
    let deletes: CloudDeletes = Arc::default();
    let log = deletes.clone();
    c.api.on_write(move |obj| {
        let paused = obj["metadata"]["annotations"][PAUSED] == "true";
        if obj["metadata"]["deletionTimestamp"].is_null() || paused {
            return;
        }
        let policies: Vec<String> = obj["spec"]["managementPolicies"]
            .as_array()
            .map(|p| p.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
            .unwrap_or_else(|| vec!["*".into()]);
        let default = policies == ["*"];
        let has = |x: &str| policies.iter().any(|p| p == x || p == "*");
        let orphan = obj["spec"]["deletionPolicy"] == "Orphan";
        let legacy = obj["metadata"]["namespace"].is_null();
        let deletes_object = if legacy {
            (!orphan && has("Delete")) || (!default && policies.iter().any(|p| p == "Delete"))
        } else {
            has("Delete")
        };
        if deletes_object && let Some(id) = obj["metadata"]["annotations"][EXT].as_str() {
            log.lock().unwrap().push(id.to_string());
        }
        obj["metadata"]["finalizers"] = json!([]);
    });
    (c, deletes)
}

/// The binary against `c`, run in its scratch folder (where the plans are written), with `args`.
pub(crate) fn in_dir(c: &Cluster, args: &[&str]) -> Upjet {
    let mut cmd = c.upjet();
    cmd.current_dir(c.dir()).args(args);
    cmd
}

/// `migrate apply -f plan.json --yes`, backups in the scratch folder, with `extra`.
fn apply(c: &Cluster, extra: &[&str]) -> Upjet {
    let backups = c.dir().join("backups");
    let mut args = vec!["migrate", "apply", "-f", "plan.json", "--yes", "--timeout", "20s", "--backup-dir"];
    args.push(backups.to_str().unwrap());
    args.extend_from_slice(extra);
    in_dir(c, &args)
}

pub(crate) fn plan_live(c: &Cluster) {
    in_dir(c, &["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "plan.json"]).run();
}

pub(crate) fn namespaced(c: &Cluster, api: &str, kind: &str, name: &str) -> Option<Value> {
    c.api.get(api, kind, Some("infra"), name)
}

pub(crate) fn migrated(c: &Cluster) -> bool {
    let legacy_gone = c.api.get(SUBNET, "Subnet", None, "private-a").is_none()
        && c.api.get(SUBNET, "VPC", None, "main").is_none()
        && c.api.get(CERT, "Certificate", None, "www").is_none();
    let subnet = namespaced(c, SUBNET_NS, "Subnet", "private-a");
    let cert = namespaced(c, "acm.aws.m.upbound.io/v1beta1", "Certificate", "www");
    legacy_gone
        && subnet.as_ref().is_some_and(|s| {
            a(s, EXT) == Some("subnet-private-a")
                && s["spec"]["managementPolicies"] == json!(["*"])
                && s["spec"]["forProvider"]["vpcIdRef"] == json!({"name": "main", "namespace": "infra"})
        })
        && cert.is_some_and(|c| c["spec"]["managementPolicies"] == json!(["Observe", "Create", "Update", "Delete"]))
}

pub(crate) const CLOUD: &[&str] = &["vpc-main", "subnet-private-a", "arn:aws:acm:eu-west-1:1:certificate/abc"];

#[test]
fn plan_offline_reads_a_snapshot_and_the_real_crd_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let mut items = fleet();
    let mut composed = vpc("composed");
    composed["metadata"]["labels"] = json!({"crossplane.io/composite": "xnet-1"});
    items.push(composed);
    let mut publish = subnet("published", "main");
    publish["spec"]["publishConnectionDetailsTo"] = json!({"name": "s"});
    items.push(publish);
    std::fs::write(
        dir.path().join("fleet.json"),
        json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string(),
    )
    .unwrap();
    let mut cmd = upjet();
    cmd.current_dir(dir.path());
    cmd.args(["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "plan.json", "--from", "fleet.json"]);
    for f in CRDS {
        cmd.arg("--from").arg(crd_dir("provider-upjet-aws").join(f));
    }
    let o = cmd.status(5).run();
    let out = &o.stdout;
    assert!(out.contains("refused  vpc.ec2.aws.upbound.io/composed: composed by xnet-1"), "{out}");
    assert!(out.contains("refused  subnet.ec2.aws.upbound.io/published: spec.publishConnectionDetailsTo"), "{out}");
    assert!(out.contains("3 planned, 2 refused"), "{out}");
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("plan.json")).unwrap()).unwrap();
    let item = |name: &str| {
        plan["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["legacy"]["resource"].as_str().unwrap().ends_with(name))
            .unwrap()
            .clone()
    };
    // The namespaced twin's storage version, not the legacy's.
    assert_eq!(item("/www")["manifest"]["apiVersion"], "acm.aws.m.upbound.io/v1beta1");
    let s = item("/private-a");
    assert_eq!(s["manifest"]["spec"]["providerConfigRef"], json!({"kind": "ClusterProviderConfig", "name": "default"}));
    assert_eq!(s["manifest"]["spec"]["forProvider"]["vpcIdRef"], json!({"name": "main", "namespace": "infra"}));
    assert_eq!(s["manifest"]["spec"]["managementPolicies"], json!(["Observe"]));
    assert!(s["manifest"]["spec"].get("deletionPolicy").is_none());
    assert_eq!(s["hold"]["spec"]["deletionPolicy"], "Orphan");
    // The certificate's explicit Delete would win over Orphan (policies.go): the hold removes it.
    assert_eq!(item("/www")["hold"]["spec"]["managementPolicies"], json!(["Observe", "Create", "Update"]));
}

#[test]
fn apply_migrates_each_mr_without_a_delete_reaching_the_cloud() {
    let (c, deletes) = cluster(CLOUD);
    plan_live(&c);
    let o = apply(&c, &["--dry-run"]).run();
    assert!(o.stdout.contains("the hold and the create accepted (dryRun=All; nothing changed)"));
    assert!(namespaced(&c, SUBNET_NS, "Subnet", "private-a").is_none());
    let o = apply(&c, &["--parallel", "2"]).stderr_contains("certificate.acm.aws.m.upbound.io/www -n infra: its Observe found \"arn:aws:acm:eu-west-1:1:certificate/abc\"").stderr_contains("vpc.ec2.aws.m.upbound.io/main -n infra: its Observe found \"vpc-main\"").run();
    let out = &o.stdout;
    assert!(out.contains("migrated  subnet.ec2.aws.upbound.io/private-a → subnet.ec2.aws.m.upbound.io/private-a -n infra tracking \"subnet-private-a\""), "{out}");
    assert!(out.contains("3 migrated"), "{out}");
    assert!(migrated(&c));
    assert!(deletes.lock().unwrap().is_empty(), "a Delete reached the cloud: {:?}", deletes.lock().unwrap());
    assert_eq!(std::fs::read_dir(c.dir().join("backups")).unwrap().count(), 3);
    let o = in_dir(&c, &["migrate", "status", "-f", "plan.json"]).run();
    assert!(o.stdout.contains("3 done of 3 in the plan"), "{}", o.stdout);
    let o = apply(&c, &[]).run();
    assert!(o.stdout.contains("skipped   subnet.ec2.aws.upbound.io/private-a"), "{}", o.stdout);
}

/// At no moment do two MRs act on one object: no external-name held by an unpaused, not
/// deleting legacy MR and by a namespaced MR that does more than observe.
pub(crate) fn never_two_acting(c: &Cluster, when: &str) {
    let legacy_unpaused = c
        .api
        .list(SUBNET, "Subnet", None)
        .iter()
        .chain(c.api.list(SUBNET, "VPC", None).iter())
        .chain(c.api.list(CERT, "Certificate", None).iter())
        .filter(|o| a(o, PAUSED) != Some("true") && o["metadata"]["deletionTimestamp"].is_null())
        .filter_map(|o| a(o, EXT).map(str::to_owned))
        .collect::<Vec<_>>();
    let new_unpaused = c
        .api
        .list(SUBNET_NS, "Subnet", Some("infra"))
        .iter()
        .chain(c.api.list(SUBNET_NS, "VPC", Some("infra")).iter())
        .chain(c.api.list("acm.aws.m.upbound.io/v1beta1", "Certificate", Some("infra")).iter())
        .filter(|o| o["spec"]["managementPolicies"] != json!(["Observe"]))
        .filter_map(|o| a(o, EXT).map(str::to_owned))
        .collect::<Vec<_>>();
    assert!(
        legacy_unpaused.iter().all(|id| !new_unpaused.contains(id)),
        "{when}: {legacy_unpaused:?} {new_unpaused:?}"
    );
}

#[test]
fn apply_resumes_after_an_abrupt_stop_at_every_step() {
    for step in 0..=4 {
        let (c, deletes) = cluster(CLOUD);
        plan_live(&c);
        c.upjet()
            .current_dir(c.dir())
            .env("UPJET_TEST_STOP_AFTER_STEP", step.to_string())
            .args([
                "migrate",
                "apply",
                "-f",
                "plan.json",
                "--yes",
                "--parallel",
                "1",
                "--timeout",
                "20s",
                "--backup-dir",
                "b",
            ])
            .status(99)
            .stderr_contains(format!("test hook: stopping abruptly after step {step}"))
            .run();
        // Stopped mid-way: never two unpaused MRs with one ID, never a Delete in the cloud.
        never_two_acting(&c, &format!("step {step}"));
        let o = c
            .upjet()
            .current_dir(c.dir())
            .args([
                "migrate",
                "apply",
                "-f",
                "plan.json",
                "--yes",
                "--parallel",
                "1",
                "--timeout",
                "20s",
                "--backup-dir",
                "b",
            ])
            .stderr_contains("subnet.ec2.aws.m.upbound.io/private-a -n infra: its Observe found \"subnet-private-a\"")
            .stderr_contains("vpc.ec2.aws.m.upbound.io/main -n infra: its Observe found \"vpc-main\"")
            .run();
        resumed(&c, &o, &deletes, &format!("step {step}"));
    }
}

/// A second `migrate apply` finished every item, and no Delete reached the cloud.
pub(crate) fn resumed(c: &Cluster, o: &Run, deletes: &CloudDeletes, when: &str) {
    assert!(migrated(c), "{when}: {}", o.stdout);
    assert!(deletes.lock().unwrap().is_empty(), "{when}: {:?}", deletes.lock().unwrap());
}

#[test]
fn an_observe_that_finds_nothing_rolls_the_mr_back() {
    // The subnet's object is gone from the cloud: its twin's Observe finds nothing.
    let (c, deletes) = cluster(&["vpc-main", "arn:aws:acm:eu-west-1:1:certificate/abc"]);
    plan_live(&c);
    let before = c.api.get(SUBNET, "Subnet", None, "private-a").unwrap();
    let o = apply(&c, &["--parallel", "1"]).status(5).stderr_contains("certificate.acm.aws.m.upbound.io/www -n infra: its Observe found \"arn:aws:acm:eu-west-1:1:certificate/abc\"").stderr_contains("vpc.ec2.aws.m.upbound.io/main -n infra: its Observe found \"vpc-main\"").run();
    let out = &o.stdout;
    assert!(out.contains("rolled-back subnet.ec2.aws.upbound.io/private-a: its Observe found no cloud object with ID \"subnet-private-a\""), "{out}");
    back_as_before(&c, &before, &deletes);
}

/// The subnet's twin is gone and its legacy MR is as it was before the migration; no Delete
/// reached the cloud.
pub(crate) fn back_as_before(c: &Cluster, before: &Value, deletes: &CloudDeletes) {
    assert!(namespaced(c, SUBNET_NS, "Subnet", "private-a").is_none());
    let after = c.api.get(SUBNET, "Subnet", None, "private-a").unwrap();
    assert_eq!(after["spec"], before["spec"]);
    assert_eq!(crate::support::adopt::ann(&after), crate::support::adopt::ann(before));
    assert!(deletes.lock().unwrap().is_empty());
}

#[test]
fn plan_refuses_a_missing_namespace_a_taken_name_and_a_changed_legacy_mr() {
    let (c, _) = cluster(CLOUD);
    let o = in_dir(&c, &["migrate", "plan", "--all", "--to-namespace", "nowhere", "-o", "p1.json"]).status(5).run();
    assert!(
        o.stdout.contains("the namespace \"nowhere\" does not exist: kubectl create namespace nowhere"),
        "{}",
        o.stdout
    );
    let mut other =
        Mr::provisioned(SUBNET_NS, "Subnet", "private-a").namespace("infra").annotation(EXT, "subnet-other").json();
    other["spec"]["forProvider"] = json!({"region": "eu-west-1"});
    c.add(other);
    let o = in_dir(&c, &["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "p2.json"]).status(5).run();
    assert!(o.stdout.contains("already exists, tracking \"subnet-other\": the name is taken"), "{}", o.stdout);
    // Changed since the plan: refused at apply, left as it is.
    c.api.remove(SUBNET_NS, "Subnet", Some("infra"), "private-a");
    plan_live(&c);
    c.api.modify(SUBNET, "VPC", None, "main", |o| o["metadata"]["generation"] = json!(7));
    let o = apply(&c, &[]).status(5).stderr_contains("certificate.acm.aws.m.upbound.io/www -n infra: its Observe found \"arn:aws:acm:eu-west-1:1:certificate/abc\"").stderr_contains("subnet.ec2.aws.m.upbound.io/private-a -n infra: its Observe found \"subnet-private-a\"").run();
    assert!(
        o.stdout.contains("refused   vpc.ec2.aws.upbound.io/main: the legacy MR's spec changed since the plan"),
        "{}",
        o.stdout
    );
    assert!(a(&c.api.get(SUBNET, "VPC", None, "main").unwrap(), PAUSED).is_none());
}

#[test]
fn the_example_plan_is_what_the_example_fleet_produces() {
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/migrate");
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = upjet();
    cmd.current_dir(&examples);
    cmd.args(["migrate", "plan", "--all", "--namespace-from", "label=team", "--from", "fleet.json", "--from"]);
    cmd.arg(crd_dir("provider-upjet-aws")).arg("-o").arg(dir.path().join("plan.json"));
    let o = cmd.status(5).run();
    let out = &o.stdout;
    assert!(out.contains("4 planned, 2 refused"), "{out}");
    assert!(out.contains("(suggested by ExternalNameMissing: check it)"), "{out}");
    let have = std::fs::read_to_string(examples.join("plan.json")).unwrap();
    let want = std::fs::read_to_string(dir.path().join("plan.json")).unwrap();
    assert!(have == want, "examples/migrate/plan.json is stale: rerun the command of examples/migrate/README.md");
}

/// A namespaced kind whose ManagedResourceDefinition is inactive serves no CRD: plan refuses the
/// MR and apply refuses the plan, both with the command that activates it.
#[test]
fn an_inactive_twin_kind_is_named_with_how_to_activate_it() {
    let c = Cluster::builder()
        .crd_files("provider-upjet-aws", &["ec2.aws.upbound.io_vpcs.yaml"])
        .crd_files("crossplane", &["apiextensions.crossplane.io_managedresourcedefinitions.yaml"])
        .start();
    c.add(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "infra"}}));
    c.add(vpc("main"));
    crate::crossplane_v2::mrd(&c, "vpcs", "ec2.aws.m.upbound.io", "VPC", "Inactive");
    let activate = "activate it (kubectl patch managedresourcedefinition vpcs.ec2.aws.m.upbound.io --type merge -p '{\"spec\":{\"state\":\"Active\"}}'";
    let o = in_dir(&c, &["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "live.json"]).status(5).run();
    assert!(o.stdout.contains(activate), "{}", o.stdout);
    // A plan made elsewhere (offline, with the twin's CRD) meets the inactive kind at apply.
    std::fs::write(
        c.dir().join("fleet.json"),
        json!({"apiVersion": "v1", "kind": "List", "items": [vpc("main")]}).to_string(),
    )
    .unwrap();
    let mut args =
        vec!["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "plan.json", "--from", "fleet.json"];
    let crds = ["ec2.aws.upbound.io_vpcs.yaml", "ec2.aws.m.upbound.io_vpcs.yaml"]
        .map(|f| crd_dir("provider-upjet-aws").join(f));
    for f in &crds {
        args.extend(["--from", f.to_str().unwrap()]);
    }
    in_dir(&c, &args).run();
    let o = apply(&c, &[]).status(2).stderr("error: the plan cannot be applied; nothing was changed:\n  item 0 (vpc.ec2.aws.upbound.io/main): no managed resource kind matches \"vpc.ec2.aws.m.upbound.io\" (try `kubectl get crds | grep -i vpc.ec2.aws.m.upbound.io`, or the kind.group form) (the namespaced kind VPC.ec2.aws.m.upbound.io is not served: its ManagedResourceDefinition vpcs.ec2.aws.m.upbound.io is inactive; activate it (kubectl patch managedresourcedefinition vpcs.ec2.aws.m.upbound.io --type merge -p '{\"spec\":{\"state\":\"Active\"}}', or with a ManagedResourceActivationPolicy))\n").run();
    assert!(o.stderr.contains(activate), "{}", o.stderr);
    assert!(a(&c.api.get(SUBNET, "VPC", None, "main").unwrap(), PAUSED).is_none(), "nothing changed");
}

/// A Crossplane Usage names the legacy subnet (its controller's `crossplane.io/in-use` label):
/// the plan says its delete will be refused, apply stops at that delete — refused by the
/// webhook with 409, said as the Usage, not as a changed object — with the legacy MR held and
/// the twin in charge, and finishes once the Usage is gone. The label stays with the legacy MR.
#[test]
fn a_usage_that_refuses_the_legacy_delete_is_said_and_holds_the_migration_safely() {
    use testapi::{Fault, Method};
    let (c, deletes) = cluster(CLOUD);
    c.api.modify(SUBNET, "Subnet", None, "private-a", |o| {
        o["metadata"]["labels"]["crossplane.io/in-use"] = json!("true")
    });
    let o = in_dir(&c, &["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "plan.json"]).run();
    let out = &o.stdout;
    assert!(
        out.contains("note     subnet.ec2.aws.upbound.io/private-a is in use (label crossplane.io/in-use)"),
        "{out}"
    );
    c.api.fault(Fault::Deny {
        method: Some(Method::DELETE),
        path_contains: "/ec2.aws.upbound.io/v1beta1/subnets/private-a".into(),
        webhook: "nousages.protection.crossplane.io".into(),
        code: 409,
        reason: "This resource is in-use by 1 usage(s), including the *v1beta1.ClusterUsage \"subnet-in-use\" by resource Instance/app.".into(),
        times: None,
    });
    let o = apply(&c, &["--parallel", "1"]).status(5).stderr_contains("certificate.acm.aws.m.upbound.io/www -n infra: its Observe found \"arn:aws:acm:eu-west-1:1:certificate/abc\"").stderr_contains("vpc.ec2.aws.m.upbound.io/main -n infra: its Observe found \"vpc-main\"").run();
    let out = &o.stdout;
    assert!(
        out.contains("a Crossplane Usage names the legacy MR (label crossplane.io/in-use), and Crossplane's webhook refuses to delete it while one does"),
        "{out}"
    );
    assert!(out.contains("point the Usage's spec.of at subnet.ec2.aws.m.upbound.io/private-a -n infra"), "{out}");
    assert!(!out.contains("changed since it was read"), "a refusal is not a stale read: {out}");
    let legacy = c.api.get(SUBNET, "Subnet", None, "private-a").expect("the legacy MR stays");
    assert_eq!(a(&legacy, PAUSED), Some("true"), "held");
    let twin = namespaced(&c, SUBNET_NS, "Subnet", "private-a").expect("the twin is in charge");
    assert!(twin["metadata"]["labels"].get("crossplane.io/in-use").is_none(), "{}", twin["metadata"]);
    never_two_acting(&c, "held by the Usage");
    c.api.clear_faults();
    apply(&c, &["--parallel", "1"]).run();
    assert!(migrated(&c));
    assert!(deletes.lock().unwrap().is_empty(), "a Delete reached the cloud: {:?}", deletes.lock().unwrap());
}
