//! The ID journal read back: `watch` writes it while an MR still holds its ID, the MR loses it,
//! and `doctor`, `history`, `adopt` and `restore-plan` find it there — through the in-process API
//! server, the real binary, and the journal's default folder under the scratch `HOME`.

use crate::support::Cluster;
use crate::support::NO_GUARD;
use crate::support::adopt::{EXT, Provider, provider};
use crate::support::velero as velero_support;
use crate::watch::Watch;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const KEYS: &str = "kms.aws.upbound.io_keys.yaml";
const KEY_ID: &str = "mrk-5a6b7c8d9e0f41a2b3c4d5e6f7a8b9c0";

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/velero/nightly-data.tar.gz")
}

/// The backup's `signing` key (its uid is the backup's), live and Ready with its ID, as it was
/// before anything went wrong.
fn signing_with_its_id() -> Value {
    let (_, mut key) =
        velero_support::objects(&example()).into_iter().find(|(_, o)| o["metadata"]["name"] == "signing").unwrap();
    key["metadata"]["annotations"][EXT] = json!(KEY_ID);
    key["status"] = json!({"atProvider": {"id": KEY_ID}, "conditions": [
        {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-29T22:05:00Z"},
        {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-29T22:05:00Z"}]});
    key
}

fn journal_file(cluster: &Cluster) -> PathBuf {
    cluster.dir().join(".kube/upjet/journal/test/journal.jsonl")
}

/// Runs a watch with the default journal until it recorded `KEY_ID`, then ends it.
fn watch_until_journaled(cluster: &Cluster) {
    let w = Watch::start(cluster, &["-o", "json"]);
    w.wait_ready();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(journal_file(cluster)).unwrap_or_default().contains(KEY_ID) {
        assert!(Instant::now() < deadline, "the watch never journaled {KEY_ID}");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(w.terminate().success());
}

/// The MR loses its ID: a restart wiped the annotation and the status the provider wrote.
fn lose_the_id(cluster: &Cluster) {
    cluster
        .api
        .modify("kms.aws.upbound.io/v1beta1", "Key", None, "signing", |o| {
            o["metadata"]["annotations"].as_object_mut().unwrap().remove(EXT);
            o["status"]["atProvider"] = json!({});
        })
        .expect("signing exists");
}

#[test]
fn adopt_and_restore_plan_use_a_journaled_id_after_the_mr_lost_it() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[KEYS]).start();
    cluster.add(signing_with_its_id());
    watch_until_journaled(&cluster);
    lose_the_id(&cluster);

    // doctor: the lost-ID finding suggests the journaled ID, and says where it comes from.
    let out = cluster.upjet().args(["doctor", "-o", "json", "--fail-on", "never"]).stderr(format!("{NO_GUARD}\n1 kinds scanned, 1 managed resources, 1 errors, 1 warnings, 0 info, 1 would be created again by a provider restart\n")).run();
    let report: Value = out.json();
    let missing = crate::support::upjet::find(&report, "ExternalNameMissing", "signing").expect("ExternalNameMissing");
    assert_eq!(missing["suggestedId"], KEY_ID, "{missing}");
    assert!(missing["evidence"]["journal"].as_str().unwrap().starts_with("external-name seen at"), "{missing}");

    // history: the journal's records are in the timeline.
    let out = cluster.upjet().args(["history", "key.kms.aws.upbound.io/signing", "--no-logs"]).run();
    assert!(out.stdout.contains(&format!("journal    ID journal: external-name \"{KEY_ID}\"")), "{}", out.stdout);

    // restore-plan over a backup taken after the loss: the journal (the default folder of the
    // current context) names the ID the key is restored with, instead of pausing it.
    let dir = cluster.dir().join("restore");
    std::fs::create_dir_all(&dir).unwrap();
    cluster
        .upjet()
        .current_dir(&dir)
        .arg("restore-plan")
        .arg(example())
        .args(["--modifiers", "modifiers.yaml", "--plan", "promote.json"])
        .run();
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("promote.json")).unwrap()).unwrap();
    let item = plan["items"].as_array().unwrap().iter().find(|i| i["resource"].as_str().unwrap().ends_with("/signing"));
    assert_eq!(item.expect("signing is at risk")["id"], KEY_ID, "{plan}");

    // adopt, without --id and without a terminal: the journaled ID, confirmed by the provider.
    let _provider = provider(&cluster.api, Provider { cloud: vec![KEY_ID.into()], handles_token: true });
    let out = cluster
        .upjet()
        .args(["adopt", "key.kms.aws.upbound.io/signing", "--yes", "--timeout", "30s", "--backup-dir"])
        .arg(cluster.dir().join("backups"))
        .stderr_contains("Adopt key.kms.aws.upbound.io/signing as ID \"mrk-5a6b7c8d9e0f41a2b3c4d5e6f7a8b9c0\"")
        .stderr_contains(
            "adopted key.kms.aws.upbound.io/signing: external-name \"mrk-5a6b7c8d9e0f41a2b3c4d5e6f7a8b9c0\"",
        )
        .run();
    assert!(out.stderr.contains(&format!("using {KEY_ID} from the ID journal")), "{}", out.stderr);
    let now = cluster.api.get("kms.aws.upbound.io/v1beta1", "Key", None, "signing").unwrap();
    assert_eq!(now["metadata"]["annotations"][EXT], KEY_ID);
}

#[test]
fn a_given_journal_folder_must_be_readable_and_a_torn_line_is_named() {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[KEYS]).start();
    cluster.add(signing_with_its_id());
    let missing = cluster.dir().join("no-such-journal");
    let out = cluster
        .upjet()
        .args(["doctor", "--journal"])
        .arg(&missing)
        .status(2)
        .stderr_contains("error: cannot read the ID journal folder")
        .run();
    assert!(out.stderr.contains("no-such-journal"), "{}", out.stderr);

    watch_until_journaled(&cluster);
    // A kill in the middle of the next append leaves a torn last line.
    let file = journal_file(&cluster);
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.extend_from_slice(br#"{"time":"2024-11-30T12:00:00Z","uid":"d7"#);
    std::fs::write(&file, bytes).unwrap();
    lose_the_id(&cluster);
    let out = cluster.upjet().args(["doctor", "-o", "json", "--fail-on", "never"]).stderr_contains(NO_GUARD).stderr_contains("1 kinds scanned, 1 managed resources, 1 errors, 1 warnings, 0 info, 1 would be created again by a provider restart").run();
    let report: Value = out.json();
    let missing = crate::support::upjet::find(&report, "ExternalNameMissing", "signing").expect("ExternalNameMissing");
    assert_eq!(missing["suggestedId"], KEY_ID);
    let notes = report["summary"]["notes"].to_string() + &out.stderr;
    assert!(notes.contains("journal.jsonl: skipped line"), "{notes}");
}
