//! A file given to a flag that does not read it, through the real binary: the one-line error
//! names what the file is and the flag that takes it (exit 2); a `--from` folder skips such a
//! file with one stderr line; a file that is no known input still fails in the reader's terms.
//! Runs in the crate root so the bundled `examples/` print as relative paths.

use crate::support::{Upjet, upjet};
use std::io::Write;
use std::path::Path;

const AWS: &str = "examples/inventory/aws.json looks like an AWS tagging export (resourcegroupstaggingapi get-resources); pass it with --inventory";

/// The binary with `args`, offline: its kubeconfig does not exist.
fn offline(args: &[&str]) -> Upjet {
    let mut cmd = upjet();
    cmd.env("KUBECONFIG", "/nonexistent/kubeconfig").args(args);
    cmd
}

/// Runs `args` and expects exactly one error line, `error: {want}`, nothing on stdout, and exit 2.
fn fails_with(args: &[&str], want: &str) {
    offline(args).status(2).stderr(format!("error: {want}\n")).stdout("").run();
}

#[test]
fn doctor_reads_the_examples_folder_and_skips_the_inventory_in_it() {
    let skipped = format!("skipped {}", AWS.replacen(" looks like", ": looks like", 1));
    // Errors are found.
    let run = offline(&["doctor", "--from", "examples", "-o", "json"]).status(1).stderr_contains(&skipped).run();
    let (stdout, stderr) = (&run.stdout, &run.stderr);
    assert_eq!(stderr.lines().filter(|l| *l == skipped).count(), 1, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(stdout).unwrap();
    assert!(report["summary"]["resourcesScanned"].as_u64().unwrap() > 46, "the fleet and the clusters are read");
    assert!(report["summary"]["notes"].as_array().unwrap().iter().any(|n| n == skipped.as_str()));
}

#[test]
fn each_reader_names_the_flag_a_misplaced_file_belongs_to() {
    let fleet = "examples/fleet";
    fails_with(&["doctor", "--from", "examples/inventory/aws.json"], AWS);
    fails_with(&["doctor", "--from", fleet, "--log-file", "examples/inventory/aws.json"], AWS);
    fails_with(&["doctor", "--from", fleet, "--audit-log", "examples/inventory/aws.json"], AWS);
    fails_with(
        &["doctor", "--from", fleet, "--inventory", "examples/fleet/gcp.json"],
        "examples/fleet/gcp.json looks like a snapshot of Kubernetes objects (a List from kubectl get -o json or -o yaml); pass it with --from",
    );
    let audit = "examples/audit/kube-apiserver-audit.log looks like a Kubernetes audit log (audit.k8s.io events); pass it with --audit-log";
    fails_with(&["doctor", "--from", fleet, "--log-file", "examples/audit/kube-apiserver-audit.log"], audit);
    fails_with(&["doctor", "--from", fleet, "--inventory", "examples/audit/kube-apiserver-audit.log"], audit);
    fails_with(&["doctor", "--from", "examples/audit/kube-apiserver-audit.log"], audit);
    fails_with(
        &["doctor", "--from", fleet, "--audit-log", "examples/logs/provider-aws-kms-debug.log"],
        "examples/logs/provider-aws-kms-debug.log looks like a provider log; pass it with --log-file",
    );
    fails_with(
        &["doctor", "--from", fleet, "--inventory", "examples/logs/provider-azure-production.jsonl"],
        "examples/logs/provider-azure-production.jsonl looks like a provider log; pass it with --log-file",
    );
    fails_with(&["history", "key.kms.aws.upbound.io/payments-data-key", "--from", "examples/inventory/aws.json"], AWS);
}

#[test]
fn plans_and_backups_are_told_apart_from_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    std::fs::write(&plan, r#"[{"resource":"vpc.ec2.aws.upbound.io/main","id":"vpc-0a1b2c"}]"#).unwrap();
    let plan = plan.to_str().unwrap();
    let is_plan = format!("{plan} looks like an adoption plan (doctor --plan); pass it to `kubectl upjet adopt -f`");
    fails_with(&["restore", plan, "--yes"], &is_plan);
    fails_with(&["doctor", "--from", plan], &is_plan);
    fails_with(
        &["adopt", "-f", "examples/fleet/gcp.json", "--yes"],
        "examples/fleet/gcp.json looks like a snapshot of Kubernetes objects (a List from kubectl get -o json or -o yaml); pass it with --from",
    );
    fails_with(&["restore", "examples/inventory/aws.json"], AWS);

    // gzip is looked into: a compressed audit log given as a plan.
    let gz = dir.path().join("audit.log.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(
        &std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/audit/kube-apiserver-audit.log")).unwrap(),
    )
    .unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let gz = gz.to_str().unwrap();
    fails_with(
        &["adopt", "-f", gz, "--yes"],
        &format!("{gz} looks like a Kubernetes audit log (audit.k8s.io events); pass it with --audit-log"),
    );
}

#[test]
fn a_snapshot_folder_fails_on_a_file_that_is_no_known_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/fleet/gcp.json"), dir.path().join("gcp.json"))
        .unwrap();
    std::fs::write(dir.path().join("plan.json"), r#"[{"resource":"vpc.ec2.aws.upbound.io/main","id":"vpc-1"}]"#)
        .unwrap();
    let folder = dir.path().to_str().unwrap();
    // The plan is skipped, the snapshot's errors are found.
    offline(&["doctor", "--from", folder, "-o", "json"])
        .status(1)
        .stderr_contains("plan.json: looks like an adoption plan (doctor --plan); pass it to `kubectl upjet adopt -f`")
        .run();

    std::fs::write(dir.path().join("notes.json"), "meeting notes, not JSON").unwrap();
    let stderr =
        offline(&["doctor", "--from", folder]).status(2).stderr_contains("notes.json is not valid JSON").run().stderr;
    assert!(stderr.starts_with("error: ") && stderr.contains("notes.json is not valid JSON"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_file_no_flag_knows_keeps_the_readers_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let prose = dir.path().join("notes.txt");
    std::fs::write(&prose, "we looked at the fleet\nnothing to add\n").unwrap();
    let prose = prose.to_str().unwrap();
    // The lines are skipped, the fleet's errors are found.
    offline(&["doctor", "--from", "examples/fleet", "--log-file", prose, "-o", "summary"])
        .status(1)
        .stderr_contains(format!("{prose}: 2 of 2 lines were not provider log records (skipped)"))
        .run();
    let stderr = offline(&["doctor", "--from", "examples/fleet", "--inventory", prose])
        .status(2)
        .stderr_contains(format!("error: inventory {prose} is not a complete JSON export"))
        .run()
        .stderr;
    assert!(stderr.starts_with(&format!("error: inventory {prose} is not a complete JSON export")), "{stderr}");
}
