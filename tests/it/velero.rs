//! Velero backups through the real binary: `doctor --from BACKUP` (archive and unpacked folder,
//! broken and hostile archives), and `restore-plan`, whose ConfigMap is read back as Velero
//! reads it and whose merge patches are applied to the backed-up objects.

use crate::support::velero as velero_support;

use crate::support::{Upjet, upjet};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/velero/nightly-data.tar.gz")
}

#[test]
fn doctor_reads_the_example_backup_and_says_what_a_restore_does() {
    let out = upjet().arg("doctor").json().from(example()).status(1).stderr("Velero backup nightly (format 1.1.0): 15 managed resources\n2 objects of kinds that are not managed resources were not diagnosed\n5 kinds scanned, 15 managed resources, 9 errors, 5 warnings, 11 info\n").run();
    let report = out.report();
    let at_risk: Vec<(String, String)> =
        report.codes().into_iter().filter(|(c, _)| c.starts_with("Restore") && c != "RestoreSafe").collect();
    let want = [
        ("RestoreCreatesDuplicate", "https-in"),
        ("RestoreCreatesDuplicate", "payments"),
        ("RestoreCreatesDuplicate", "signing"),
        ("RestoreStopsAtCreateGate", "private-a"),
    ];
    assert_eq!(at_risk, want.map(|(a, b)| (a.to_string(), b.to_string())));
    assert_eq!(report["summary"]["byCode"]["RestoreSafe"], 11);
    assert_eq!(report["summary"]["resourcesScanned"], 15, "the ProviderConfig and the Secret are not MRs");
    assert_eq!(report["summary"]["complete"], true);
    let payments = report.finding("RestoreCreatesDuplicate", "payments");
    assert_eq!(payments["suggestedId"], "mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8");
    assert!(out.stderr.contains("Velero backup nightly (format 1.1.0): 15 managed resources"), "{}", out.stderr);
}

#[test]
fn the_summary_groups_the_verdicts() {
    let out = upjet()
        .args(["doctor", "-o", "summary", "--only"])
        .arg("RestoreCreatesDuplicate,RestoreStopsAtCreateGate,RestoreSafe")
        .arg("--from")
        .arg("examples/velero/nightly-data.tar.gz")
        .status(1)
        .stderr("Velero backup nightly (format 1.1.0): 15 managed resources\n2 objects of kinds that are not managed resources were not diagnosed\n5 kinds scanned, 15 managed resources, 4 errors, 0 warnings, 11 info\n").run();
    insta::assert_snapshot!("velero_summary", out.stdout);
    // The exit code follows --fail-on.
    upjet().args(["doctor", "--fail-on", "never"]).from(example()).stderr("Velero backup nightly (format 1.1.0): 15 managed resources\n2 objects of kinds that are not managed resources were not diagnosed\n5 kinds scanned, 15 managed resources, 9 errors, 5 warnings, 11 info\n").run();
}

#[test]
fn the_unpacked_folder_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in velero_support::entries(&example()) {
        let path = dir.path().join(&name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let a = upjet().args(["doctor", "-o", "json", "--from"]).arg(example()).status(1).stderr("Velero backup nightly (format 1.1.0): 15 managed resources\n2 objects of kinds that are not managed resources were not diagnosed\n5 kinds scanned, 15 managed resources, 9 errors, 5 warnings, 11 info\n").run().json();
    let f = upjet()
        .args(["doctor", "-o", "json", "--from"])
        .arg(dir.path())
        .status(1)
        .stderr_contains("2 objects of kinds that are not managed resources were not diagnosed")
        .stderr_contains("5 kinds scanned, 15 managed resources, 9 errors, 5 warnings, 11 info")
        .run()
        .json();
    assert_eq!(a["findings"], f["findings"]);
    // One MR in depth, and history, read from the backup too.
    let one = upjet()
        .args(["doctor", "key.kms.aws.upbound.io/payments", "--from"])
        .arg(dir.path())
        .status(1)
        .stderr_contains("2 objects of kinds that are not managed resources were not diagnosed")
        .run();
    assert!(one.stdout.contains("mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8"), "{}", one.stdout);
    upjet().args(["history", "key.kms.aws.upbound.io/payments", "--from"]).arg(example()).run();
}

#[test]
fn broken_and_hostile_backups() {
    let dir = tempfile::tempdir().unwrap();
    let whole = std::fs::read(example()).unwrap();
    let cut = dir.path().join("cut-data.tar.gz");
    std::fs::write(&cut, &whole[..whole.len() * 2 / 3]).unwrap();
    let out = upjet().args(["doctor", "--from"]).arg(&cut).status(2).stderr_contains("the archive is broken in entry resources/keys.kms.aws.upbound.io/v1beta1-preferredversion/cluster/logs.json: incomplete deflate stream").run();
    let err = &out.stderr;
    assert!(
        err.starts_with("error: ") && err.contains("cut-data.tar.gz: the archive is broken in entry resources/"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(!err.contains("stack backtrace"));
    // Hostile entries: named, skipped, the rest read; the report says it is partial (exit 4
    // unless errors win).
    let mut tar = tar::Builder::new(Vec::new());
    for (name, body) in velero_support::entries(&example()) {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        tar.append_data(&mut h, &name, body.as_slice()).unwrap();
    }
    for (name, body) in
        [("../../etc/x", &b"owned"[..]), ("resources/keys.kms.aws.upbound.io/cluster/bad.json", b"\x89PNG not json")]
    {
        let mut h = tar::Header::new_gnu();
        h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        h.set_cksum();
        tar.append(&h, body).unwrap();
    }
    let hostile = dir.path().join("hostile.tar");
    std::fs::write(&hostile, tar.into_inner().unwrap()).unwrap();
    let out = upjet()
        .args(["doctor", "-o", "json", "--fail-on", "never", "--from"])
        .arg(&hostile)
        .current_dir(dir.path())
        .status(4)
        .stderr_contains(
            "entry \"../../etc/x\": a path that climbs out of the archive (..); skipped (nothing is ever written)",
        )
        .stderr_contains("5 kinds scanned, 15 managed resources, 9 errors, 5 warnings, 11 info, 2 unreadable objects")
        .run();
    let report: Value = out.json();
    let unreadable = report["summary"]["unreadable"].to_string();
    assert!(unreadable.contains("../../etc/x") && unreadable.contains("bad.json"), "{unreadable}");
    assert_eq!(report["summary"]["resourcesScanned"], 15);
    assert!(!dir.path().join("../../etc/x").exists() && !Path::new("/etc/x").exists(), "nothing written");
    // A gzip file that is no backup.
    let other = dir.path().join("logs.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, b"just a log line\n").unwrap();
    std::fs::write(&other, gz.finish().unwrap()).unwrap();
    let out = upjet()
        .args(["doctor", "--from"])
        .arg(&other)
        .status(2)
        .stderr_contains("the archive is broken at its start: failed to read entire block")
        .run();
    assert!(out.stderr.contains("is broken") || out.stderr.contains("not a Velero backup"), "{}", out.stderr);
}

/// `restore-plan` of the example backup from `dir`, writing `modifiers.yaml` and `promote.json`
/// there, with `extra`.
fn restore_plan(dir: &Path, extra: &[&str]) -> Upjet {
    let mut cmd = upjet();
    cmd.current_dir(dir)
        .args(["restore-plan"])
        .arg(example())
        .args(["--modifiers", "modifiers.yaml", "--plan", "promote.json"])
        .args(extra);
    cmd
}

#[test]
fn restore_plan_stages_a_restore_that_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = restore_plan(dir.path(), &[]).run();
    let stdout = &out.stdout;
    assert!(
        stdout.contains(
            "velero restore create --from-backup nightly --resource-modifier-configmap upjet-restore-nightly"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "kubectl create cm upjet-restore-nightly --from-file=resource-modifiers.yaml=modifiers.yaml -n velero"
        ),
        "{stdout}"
    );
    let rules = velero_support::rules_from_printed_command(stdout, dir.path());
    assert_eq!(rules.len(), 4, "one rule per MR at risk, none for the safe ones");
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("promote.json")).unwrap()).unwrap();
    assert_eq!((plan["kind"].as_str(), plan["items"].as_array().unwrap().len()), (Some("PromotePlan"), 4));
    // Every backed-up MR, as Velero would create it: the MRs at risk observe only with their ID
    // (paused without one); every other MR is exactly as backed up.
    let ext = |o: &Value| o["metadata"]["annotations"]["crossplane.io/external-name"].as_str().map(str::to_owned);
    let mut checked = 0;
    for (name, body) in velero_support::entries(&example())
        .into_iter()
        .filter(|(n, _)| n.starts_with("resources/") && !n.contains("preferredversion"))
    {
        let gr = name.split('/').nth(1).unwrap();
        let obj: Value = serde_json::from_slice(&body).unwrap();
        let restored = velero_support::modified(&obj, gr, &rules);
        let item = plan["items"].as_array().unwrap().iter().find(|i| {
            i["resource"].as_str().unwrap().ends_with(&format!("/{}", obj["metadata"]["name"].as_str().unwrap()))
                && i["groupResource"] == gr
        });
        match item {
            None => assert_eq!(restored, obj, "{name}: safe, restored as backed up"),
            Some(item) => {
                checked += 1;
                assert_eq!(restored["spec"]["managementPolicies"], json!(["Observe"]), "{name}");
                assert_eq!(ext(&restored).as_deref(), item["id"].as_str(), "{name}");
                let paused = restored["metadata"]["annotations"]["crossplane.io/paused"] == "true";
                assert_eq!(paused, item["id"].is_null(), "{name}: paused exactly when no ID is known");
                if item["verdict"] == "RestoreStopsAtCreateGate" {
                    let pending = restored["metadata"]["annotations"].get("crossplane.io/external-create-pending");
                    assert!(pending.is_none(), "{name}: the gate is lifted");
                }
                assert_eq!(item["restored"]["externalName"], item["id"]);
            }
        }
    }
    assert_eq!(checked, 4);
    // Never overwritten without --force; with it, rewritten identically.
    let before = std::fs::read(dir.path().join("promote.json")).unwrap();
    let again = restore_plan(dir.path(), &[])
        .status(2)
        .stderr("error: modifiers.yaml exists; pass --force to overwrite it; nothing changed\n")
        .run();
    assert!(again.stderr.contains("exists; pass --force to overwrite it; nothing changed"), "{}", again.stderr);
    assert_eq!(std::fs::read(dir.path().join("promote.json")).unwrap(), before);
    restore_plan(dir.path(), &["--force"]).run();
    assert_eq!(std::fs::read(dir.path().join("promote.json")).unwrap(), before);
    // A snapshot is not a backup.
    upjet()
        .current_dir(dir.path())
        .args(["restore-plan", "promote.json", "--modifiers", "m2.yaml", "--plan", "p2.json"])
        .status(2).stderr("error: promote.json is not a Velero backup (the .tar.gz `velero backup download` writes, or a folder with resources/ and metadata/version)\n").run();
    assert!(!dir.path().join("m2.yaml").exists());
}

/// One CloudTrail record of the provider's role creating a KMS key tagged for MR `name`.
fn create_key(name: &str, at: &str, key: &str) -> Value {
    let role = "arn:aws:iam::123456789012:role/crossplane-provider-aws";
    json!({"eventVersion": "1.09", "eventTime": at, "eventSource": "kms.amazonaws.com", "eventName": "CreateKey",
        "userIdentity": {"type": "AssumedRole", "arn": "arn:aws:sts::123456789012:assumed-role/crossplane-provider-aws/1732",
            "accountId": "123456789012", "sessionContext": {"sessionIssuer": {"type": "Role", "arn": role, "accountId": "123456789012"}}},
        "awsRegion": "eu-west-1", "requestParameters": {"description": name, "keyUsage": "ENCRYPT_DECRYPT",
            "tags": [{"tagKey": "crossplane-name", "tagValue": name}, {"tagKey": "crossplane-kind", "tagValue": "key.kms.aws.upbound.io"}]},
        "responseElements": {"keyMetadata": {"keyId": key, "arn": format!("arn:aws:kms:eu-west-1:123456789012:key/{key}")}},
        "requestID": format!("req-{name}"), "eventID": format!("ev-{name}"), "readOnly": false, "eventType": "AwsApiCall",
        "recipientAccountId": "123456789012"})
}

/// The cloud's record names the key a restore would create again with no ID at all (`signing`):
/// its healthy peers' creates teach the provider's role and the ID's form, its own create in its
/// window names it, and restore-plan restores it observing that ID instead of pausing it.
#[test]
fn restore_plan_takes_an_id_the_cloud_record_names() {
    let dir = tempfile::tempdir().unwrap();
    let records = vec![
        create_key("logs", "2024-11-20T09:00:30Z", "mrk-1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f"),
        create_key("backups", "2024-11-20T09:00:31Z", "mrk-2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a"),
        create_key("tokens", "2024-11-20T09:00:32Z", "mrk-3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b"),
        create_key("signing", "2024-11-29T21:59:40Z", "mrk-9f8e7d6c5b4a49382716051a2b3c4d5e"),
    ];
    std::fs::write(dir.path().join("trail.json"), json!({"Records": records}).to_string()).unwrap();
    let out = restore_plan(dir.path(), &["--cloud-audit", "trail.json"]).stderr("cloud audit trail.json: 4 records examined, 4 creates and 0 deletes kept, 0 skipped by byte checks (reads and other calls); decoded 4 CloudTrail\ncloud audit: 3 healthy MRs of 1 kind(s) have their create in the record; 3 creates tied to MRs by their ID, 1 by their request; 0 not tied (reported on the MRs they name)\n").run();
    let stdout = &out.stdout;
    assert!(stdout.contains("4 with their ID as external-name, 0 paused"), "{stdout}");
    assert!(out.stderr.contains("1 by their request"), "{}", out.stderr);
    let rules = velero_support::rules_from_printed_command(stdout, dir.path());
    let signing =
        velero_support::objects(&example()).into_iter().find(|(_, o)| o["metadata"]["name"] == "signing").unwrap();
    let restored = velero_support::modified(&signing.1, &signing.0, &rules);
    assert_eq!(
        restored["metadata"]["annotations"]["crossplane.io/external-name"],
        "mrk-9f8e7d6c5b4a49382716051a2b3c4d5e"
    );
    assert_eq!(restored["spec"]["managementPolicies"], json!(["Observe"]));
    assert!(restored["metadata"]["annotations"].get("crossplane.io/paused").is_none(), "an ID is known: not paused");
}
