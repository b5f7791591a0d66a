//! Change logs end to end: the changelogs sidecar's container log (current and previous) read
//! from a provider pod of the in-process API server, and a `--log-file` holding entries, through
//! the real binary: the findings, the plan's candidates and history's timeline.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr, Run, codes};
use serde_json::{Value, json};

const RS: &str = "dns.gcp.upbound.io/v1beta2";
const ID1: &str = "projects/p/managedZones/z/rrsets/www.example.com./A";
const ID2: &str = "projects/p/managedZones/z/rrsets/www2.example.com./A";

/// One entry as the sidecar prints it (`protojson.Marshal` of `ChangeLogEntry`), the snapshot
/// carrying the MR's UID.
fn entry(ts: &str, op: &str, external_name: &str, uid: &str) -> String {
    let e = json!({
        "timestamp": ts, "provider": "provider-gcp-dns:v1.8.0", "apiVersion": RS, "kind": "RecordSet",
        "name": "www", "externalName": external_name, "operation": format!("OPERATION_TYPE_{op}"),
        "snapshot": {"apiVersion": RS, "kind": "RecordSet", "metadata": {"name": "www", "uid": uid}},
    });
    format!("{e}\n")
}

/// A provider pod whose changelogs sidecar restarted once.
fn provider_pod(c: &Cluster) {
    let running = |name: &str, restarts: i64| json!({"name": name, "restartCount": restarts, "ready": true, "state": {"running": {"startedAt": "2024-11-30T09:00:00Z"}}});
    c.add(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "provider-gcp-dns-1", "namespace": "crossplane-system",
                     "labels": {"pkg.crossplane.io/provider": "provider-gcp-dns"}},
        "spec": {"containers": [
            {"name": "package-runtime", "image": "xpkg.upbound.io/upbound/provider-gcp-dns:v1"},
            {"name": "changelogs-sidecar", "image": "xpkg.crossplane.io/crossplane/changelogs-sidecar:v0.0.1"}]},
        "status": {"phase": "Running", "startTime": "2024-11-30T09:00:00Z",
                   "containerStatuses": [running("package-runtime", 0), running("changelogs-sidecar", 1)]}}));
}

fn find<'a>(r: &'a Value, code: &str) -> &'a Value {
    r["findings"].as_array().unwrap().iter().find(|f| f["code"] == code).unwrap_or_else(|| panic!("{code}: {r:#}"))
}

#[test]
fn the_sidecar_s_entries_show_a_duplicate_create_and_feed_the_plan() {
    let c = Cluster::builder().crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml"]).start();
    let mr = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation("crossplane.io/external-name")
            .at_provider_id("")
            .json(),
    );
    let uid = mr["metadata"]["uid"].as_str().unwrap();
    provider_pod(&c);
    // Before the sidecar restarted: the first create, whose ID shows in the next entry.
    let previous =
        entry("2024-11-30T10:00:00Z", "CREATE", "", uid) + &entry("2024-11-30T10:05:00Z", "UPDATE", ID1, uid);
    // After: the ID was lost, a second create made another object.
    let current = entry("2024-11-30T11:00:00Z", "CREATE", "", uid) + &entry("2024-11-30T11:01:00Z", "UPDATE", ID2, uid);
    c.api.set_pod_log("crossplane-system", "provider-gcp-dns-1", "changelogs-sidecar", true, &previous);
    c.api.set_pod_log("crossplane-system", "provider-gcp-dns-1", "changelogs-sidecar", false, &current);
    c.api.set_pod_log("crossplane-system", "provider-gcp-dns-1", "package-runtime", false, "");
    let plan = c.dir().join("plan.json");
    let out = c.upjet().args(["doctor", "--logs", "-o", "json", "--plan"]).arg(&plan).status(1).stderr_contains("read 1 log sources (0 lines)").stderr_contains("1 kinds scanned, 1 managed resources, 2 errors, 0 warnings, 0 info, 1 would be created again by a provider restart").run();
    let stderr = &out.stderr;
    let r = out.json();
    let dup = find(&r, "ChangeLogDuplicate");
    assert_eq!(dup["suggestedId"], ID1, "the MR tracks none: the oldest, read in the entry after its create");
    assert_eq!(dup["severity"], "error");
    let message = dup["message"].as_str().unwrap();
    assert!(message.contains("2 successful creates"), "{message}");
    assert!(message.contains("changelogs-sidecar (previous):1"), "{message}");
    assert!(!codes(&r).iter().any(|(code, _)| code == "ChangeLogOrphan"), "the duplicate says it all");
    assert!(stderr.contains("changelogs-sidecar (previous): 2 entries"), "{stderr}");
    let items: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let item = &items.as_array().unwrap()[0];
    assert_eq!(item["id"], ID1, "{items:#}");
    let logs: Vec<String> =
        c.api.stats().recent.iter().map(|r| format!("{r:?}")).filter(|r| r.contains("/log")).collect();
    assert!(logs.iter().any(|r| r.contains("container=changelogs-sidecar") && r.contains("previous=true")), "{logs:?}");
}

#[test]
fn a_log_file_of_entries_shows_a_lost_id_and_history_puts_them_on_the_timeline() {
    let c = Cluster::builder().crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml"]).start();
    let mr = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation("crossplane.io/external-name")
            .at_provider_id("")
            .json(),
    );
    let uid = mr["metadata"]["uid"].as_str().unwrap();
    let other_incarnation = entry("2024-11-30T09:00:00Z", "UPDATE", "projects/p/old", "another-uid");
    let file = c.dir().join("sidecar.log");
    let text = other_incarnation
        + &entry("2024-11-30T10:00:00Z", "CREATE", "", uid)
        + "neither an entry nor a log record\n"
        + &entry("2024-11-30T10:05:00Z", "UPDATE", ID1, uid);
    std::fs::write(&file, text).unwrap();
    let out = c.upjet().args(["doctor", "-o", "json", "--log-file"]).arg(&file).status(1).stderr_contains("read 1 log sources (4 lines)").stderr_contains("1 kinds scanned, 1 managed resources, 3 errors, 0 warnings, 1 info, 1 would be created again by a provider restart").run();
    let r = out.json();
    let lost = find(&r, "ChangeLogOrphan");
    assert_eq!(lost["suggestedId"], ID1);
    assert!(lost["evidence"]["recorded"].as_str().unwrap().contains("sidecar.log:4"), "{lost:#}");
    assert!(
        !lost["message"].as_str().unwrap().contains("projects/p/old"),
        "another incarnation's entry is not this MR's"
    );
    // The earlier MR's object outlived it (no delete logged): an orphan beside the one this MR made.
    let earlier = find(&r, "ChangeLogLostOnRecreate");
    assert_eq!(earlier["evidence"]["previousExternalName"], "projects/p/old");
    assert_eq!(earlier["evidence"]["previousUid"], "another-uid");
    assert!(earlier.get("suggestedId").is_none(), "this MR made its own object: {earlier:#}");
    let stderr = &out.stderr;
    assert!(
        stderr.contains("sidecar.log: 1 of 4 lines were not provider log records"),
        "entries are not counted as foreign: {stderr}"
    );

    let h = c
        .upjet()
        .args(["history", "recordset.dns.gcp.upbound.io/www", "-o", "json", "--log-file"])
        .arg(&file)
        .run()
        .json();
    let all: Vec<&Value> =
        h["timeline"]["entries"].as_array().unwrap().iter().filter(|e| e["source"] == "changelog").collect();
    let text = |e: &Value| e["text"].as_str().unwrap().to_string();
    let (entries, earlier): (Vec<&Value>, Vec<&Value>) = all.iter().partition(|e| text(e).starts_with("change log: "));
    assert_eq!((entries.len(), earlier.len()), (2, 1), "{h:#}");
    assert!(text(entries[0]).starts_with("change log: create by provider-gcp-dns:v1.8.0"));
    assert_eq!(entries[1]["time"], "2024-11-30T10:05:00Z");
    assert!(
        text(earlier[0]).starts_with("change log, earlier MR under this name (uid another-uid): update by"),
        "{h:#}"
    );
    let names = h["timeline"]["externalNames"].as_array().unwrap();
    assert!(names.iter().any(|n| n["value"] == ID1 && n["sources"][0] == "change log"), "{names:?}");
}

const KEYS: &str = "kms.aws.upbound.io/v1beta1";
const EXT: &str = "crossplane.io/external-name";

fn backup() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/velero/nightly-data.tar.gz")
}

#[test]
fn doctor_one_mr_of_a_backup_shows_its_restore_verdict() {
    let c = Cluster::builder().start();
    let r = c
        .upjet()
        .args(["doctor", "key.kms.aws.upbound.io/payments", "-o", "json", "--from"])
        .arg(backup())
        .status(1)
        .stderr("Velero backup nightly (format 1.1.0): 15 managed resources\n2 objects of kinds that are not managed resources were not diagnosed\n").run()
        .json();
    let verdict = find(&r, "RestoreCreatesDuplicate");
    assert_eq!(verdict["resource"]["name"], "payments");
    assert_eq!(
        verdict["suggestedId"], "mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8",
        "the backup's peers teach the kind's identity"
    );
    let safe = c.upjet().args(["doctor", "key.kms.aws.upbound.io/logs", "-o", "json", "--from"]).arg(backup()).stderr("Velero backup nightly (format 1.1.0): 15 managed resources\n2 objects of kinds that are not managed resources were not diagnosed\n").run();
    assert!(codes(&safe.json()).iter().any(|(code, _)| code == "RestoreSafe"), "{}", safe.stdout);
}

#[test]
fn the_restart_count_follows_only_and_severity() {
    let c = Cluster::builder().crd_files("provider-upjet-aws", &["kms.aws.upbound.io_keys.yaml"]).start();
    c.add(Mr::provisioned(KEYS, "Key", "ok").annotation(EXT, "mrk-1").at_provider_id("mrk-1").json());
    // Created, its ID only in status: a restart creates it again.
    c.add(
        Mr::provisioned(KEYS, "Key", "lost")
            .without_annotation(EXT)
            .at_provider_id("mrk-lost")
            .policies(&["Observe", "Create", "Update", "Delete"])
            .json(),
    );
    let doctor = |extra: &[&str]| {
        let mut cmd = c.upjet();
        cmd.args(["doctor", "-o", "json"]).args(extra);
        cmd
    };
    let restarts = |run: Run| run.json()["summary"]["restartDuplicates"].clone();
    assert_eq!(restarts(doctor(&[]).status(1).stderr(format!("{NO_GUARD}\n1 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 0 info, 1 would be created again by a provider restart\n")).run()), 1);
    assert_eq!(restarts(doctor(&["--severity", "error"]).status(1).stderr(format!("{NO_GUARD}\n1 kinds scanned, 2 managed resources, 1 errors, 0 warnings, 0 info, 1 would be created again by a provider restart\n")).run()), 1, "a restart duplicate is an error");
    assert_eq!(restarts(doctor(&["--only", "RestoreCreatesDuplicate"]).stderr(format!("{NO_GUARD}\n1 kinds scanned, 2 managed resources, 0 errors, 0 warnings, 0 info, 1 would be created again by a provider restart\n")).run()), 1);
    let run = doctor(&["--only", "ExternalNameDrift"])
        .stderr(format!("{NO_GUARD}\n1 kinds scanned, 2 managed resources, 0 errors, 0 warnings, 0 info\n"))
        .run();
    assert!(!run.stderr.contains("provider restart"), "{}", run.stderr);
    assert_eq!(restarts(run), Value::Null, "not asked for");
    assert_eq!(
        restarts(
            doctor(&["--ignore", "RestoreCreatesDuplicate"])
                .status(1)
                .stderr(format!("{NO_GUARD}\n1 kinds scanned, 2 managed resources, 1 errors, 1 warnings, 0 info\n"))
                .run()
        ),
        Value::Null
    );
}

/// An MRD as Crossplane v2 stores it.
pub(crate) fn mrd(c: &Cluster, plural: &str, group: &str, kind: &str, state: &str) {
    c.add(json!({"apiVersion": "apiextensions.crossplane.io/v1alpha1", "kind": "ManagedResourceDefinition",
        "metadata": {"name": format!("{plural}.{group}")},
        "spec": {"group": group, "names": {"kind": kind, "plural": plural}, "scope": "Cluster", "state": state}}));
}

fn mrd_cluster() -> Cluster {
    Cluster::builder()
        .crd_files("provider-upjet-aws", &["kms.aws.upbound.io_keys.yaml"])
        .crd_files("crossplane", &["apiextensions.crossplane.io_managedresourcedefinitions.yaml"])
        .start()
}

#[test]
fn doctor_counts_inactive_mrds_and_says_nothing_where_the_api_is_absent() {
    let c = mrd_cluster();
    c.add(Mr::provisioned(KEYS, "Key", "ok").annotation(EXT, "mrk-1").at_provider_id("mrk-1").json());
    mrd(&c, "keys", "kms.aws.upbound.io", "Key", "Active");
    mrd(&c, "aliases", "kms.aws.upbound.io", "Alias", "Inactive");
    mrd(&c, "queues", "sqs.aws.upbound.io", "Queue", "Inactive");
    let out = c.upjet().args(["doctor", "-o", "json"]).stderr(format!("2 of 3 ManagedResourceDefinitions are inactive: no CRD is served for their kinds until activated (spec.state Active, or a ManagedResourceActivationPolicy)\n{NO_GUARD}\n1 kinds scanned, 1 managed resources, 0 errors, 0 warnings, 0 info\n")).run();
    let stderr = &out.stderr;
    assert!(stderr.contains("2 of 3 ManagedResourceDefinitions are inactive"), "{stderr}");
    let mrd_lists =
        c.api.stats().recent.iter().filter(|r| format!("{r:?}").contains("managedresourcedefinitions")).count();
    assert_eq!(mrd_lists, 1, "one list call");
    assert!(!codes(&out.json()).iter().any(|(_, n)| n.contains("kms.aws.upbound.io")), "MRDs are not judged as MRs");

    let v1 = Cluster::builder().crd_files("provider-upjet-aws", &["kms.aws.upbound.io_keys.yaml"]).start();
    v1.add(Mr::provisioned(KEYS, "Key", "ok").annotation(EXT, "mrk-1").at_provider_id("mrk-1").json());
    let out = v1
        .upjet()
        .args(["doctor", "-o", "json"])
        .stderr(format!("{NO_GUARD}\n1 kinds scanned, 1 managed resources, 0 errors, 0 warnings, 0 info\n"))
        .run();
    assert!(!out.stderr.contains("ManagedResourceDefinition"));
}

#[test]
fn a_kind_inactive_on_the_target_is_not_restored_and_the_activation_is_printed() {
    let c = mrd_cluster();
    mrd(&c, "keys", "kms.aws.upbound.io", "Key", "Inactive");
    let out = c
        .upjet()
        .args(["doctor", "-o", "json", "--target-context", "test", "--from"])
        .arg(backup())
        .status(1)
        .stderr_contains("Velero backup nightly (format 1.1.0): 15 managed resources")
        .stderr_contains("5 kinds scanned, 15 managed resources, 12 errors, 5 warnings, 8 info")
        .run();
    let r = out.json();
    let inactive: Vec<&Value> =
        r["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "RestoreKindInactive").collect();
    assert!(!inactive.is_empty(), "{}", out.stderr);
    assert!(inactive.iter().all(|f| f["resource"]["kind"] == "Key"));
    let activate = r#"kubectl patch managedresourcedefinition keys.kms.aws.upbound.io --type merge -p '{"spec":{"state":"Active"}}'"#;
    assert_eq!(inactive[0]["next"], activate);
    let keys_at_risk = r["findings"].as_array().unwrap().iter().any(|f| {
        f["resource"]["kind"] == "Key"
            && ["RestoreCreatesDuplicate", "RestoreSafe", "RestoreStopsAtCreateGate"]
                .contains(&f["code"].as_str().unwrap())
    });
    assert!(!keys_at_risk, "an MR that is not restored has no other verdict");
    let out = c
        .upjet()
        .current_dir(c.dir())
        .args(["restore-plan", "--target-context", "test"])
        .arg(backup())
        .args(["--modifiers", "m.yaml", "--plan", "p.json"])
        .run();
    let stdout = &out.stdout;
    assert!(stdout.contains(&format!("of kind Key.kms.aws.upbound.io are not restored: the kind is inactive on the target cluster. Activate it first:\n  {activate}")), "{stdout}");
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(c.dir().join("p.json")).unwrap()).unwrap();
    assert!(
        plan["items"].as_array().unwrap().iter().all(|i| !i["resource"].as_str().unwrap().starts_with("key.")),
        "{plan:#}"
    );
}

#[test]
fn an_mrd_in_a_from_folder_is_not_a_managed_resource() {
    let c = Cluster::builder().start();
    let dir = c.dir().join("snap");
    std::fs::create_dir(&dir).unwrap();
    let mrd = json!({"apiVersion": "apiextensions.crossplane.io/v1alpha1", "kind": "ManagedResourceDefinition",
        "metadata": {"name": "buckets.s3.aws.m.upbound.io", "uid": "u1"},
        "spec": {"group": "s3.aws.m.upbound.io", "names": {"kind": "Bucket", "plural": "buckets"}, "state": "Inactive"}});
    std::fs::write(dir.join("mrd.json"), mrd.to_string()).unwrap();
    std::fs::write(
        dir.join("key.json"),
        Mr::provisioned(KEYS, "Key", "ok").annotation(EXT, "mrk-1").at_provider_id("mrk-1").json().to_string(),
    )
    .unwrap();
    let out = c.upjet().args(["doctor", "-o", "json", "--from"]).arg(&dir).stderr("1 Crossplane API objects are not managed resources and were not diagnosed (1 ManagedResourceDefinitions, 1 inactive)\n1 kinds scanned, 1 managed resources, 0 errors, 0 warnings, 0 info\n").run();
    let r = out.json();
    assert!(codes(&r).is_empty(), "no KstatusMisleading for the MRD: {r:#}");
    assert_eq!(r["summary"]["resourcesScanned"], 1);
    let stderr = &out.stderr;
    assert!(stderr.contains("1 Crossplane API objects are not managed resources and were not diagnosed (1 ManagedResourceDefinitions, 1 inactive)"), "{stderr}");
}
