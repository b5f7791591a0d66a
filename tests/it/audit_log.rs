//! `--audit-log` end to end: history of the example MRs with the example audit log (text
//! snapshot and JSON), doctor reporting the audit codes, gzip and stdin, and a file from another
//! cluster.

use crate::support::{Upjet, upjet};
use std::io::Write;

const FLEET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/fleet");
const AUDIT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/audit/kube-apiserver-audit.log");

/// history of the VPC whose external-name a user changed, with the example audit log (its text is
/// snapshot here, its JSON and HTML in `formats.rs`).
pub(crate) const CORE_VPC_HISTORY: [&str; 6] = [
    "history",
    "vpc.ec2.aws.upbound.io/core-vpc",
    "--from",
    "examples/fleet",
    "--audit-log",
    "examples/audit/kube-apiserver-audit.log",
];

#[test]
fn history_shows_who_changed_the_external_name() {
    let text = upjet().args(CORE_VPC_HISTORY).run().stdout;
    insta::assert_snapshot!("history_core_vpc_audit", text);
    assert!(
        text.contains(r#"external-name changed from "vpc-0f9e8d7c6b5a49382" to "vpc-0a1b2c3d4e5f60718""#),
        "{text}"
    );
}

#[test]
fn history_json_carries_the_audit_section() {
    let text = upjet()
        .args([
            "history",
            "vpc.ec2.aws.m.upbound.io/team-b-vpc",
            "-n",
            "team-b",
            "--from",
            FLEET,
            "--audit-log",
            AUDIT,
            "-o",
            "json",
        ])
        .run()
        .stdout;
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let incarnations = v["audit"]["incarnations"].as_array().expect("incarnations");
    assert_eq!(incarnations.len(), 2, "{text}");
    assert_eq!(incarnations[0]["externalName"], "vpc-0bb22cc33dd44ee55");
    assert_eq!(incarnations[1]["current"], true);
    let writes = v["audit"]["writes"].as_array().expect("writes");
    assert!(writes.iter().any(|w| w["verb"] == "delete" && w["user"] == "bob@example.com"), "{text}");
    assert!(v["timeline"]["entries"].as_array().unwrap().iter().any(|e| e["source"] == "audit"));
}

#[test]
fn doctor_reports_the_audit_codes_and_suggests_the_lost_id() {
    let out = upjet().args(["doctor", "--from", FLEET, "--audit-log", AUDIT, "-o", "json", "--fail-on", "never"]).stderr(format!("audit log {AUDIT}: 14 events examined, 10 writes to MR groups kept, 4 skipped by byte checks (other groups, reads or stages); decoded 10 audit.k8s.io; 1 at Metadata level (no objects recorded)\n24 kinds scanned, 51 managed resources, 16 errors, 23 warnings, 5 info, 7 would be created again by a provider restart\n")).run();
    let v = out.json();
    let findings: Vec<&serde_json::Value> = v["findings"].as_array().expect("findings").iter().collect();
    let of = |code: &str| findings.iter().filter(|f| f["code"] == code).copied().collect::<Vec<_>>();
    let overwritten = of("ExternalNameOverwritten");
    assert_eq!(overwritten.len(), 1, "{findings:?}");
    assert_eq!(overwritten[0]["evidence"]["previousExternalName"], "vpc-0f9e8d7c6b5a49382");
    let lost = of("IdentityLostOnRecreate");
    assert_eq!(lost.len(), 1);
    assert_eq!(lost[0]["suggestedId"], "vpc-0bb22cc33dd44ee55");
    assert!(lost[0]["next"].as_str().unwrap().contains("--id vpc-0bb22cc33dd44ee55 "));
}

/// doctor over the example fleet, reporting the two audit codes only, with `args` (and `stdin`).
fn codes_with(args: &[&str], stdin: Option<Vec<u8>>) -> Upjet {
    let mut c = upjet();
    c.args([
        "doctor",
        "--from",
        FLEET,
        "--only",
        "ExternalNameOverwritten,IdentityLostOnRecreate",
        "--fail-on",
        "never",
    ]);
    c.args(args);
    if let Some(input) = stdin {
        c.stdin(input);
    }
    c
}

#[test]
fn gzip_and_stdin_are_read() {
    let raw = std::fs::read(AUDIT).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&raw).unwrap();
    let gz = gz.finish().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.log.gz");
    std::fs::write(&path, &gz).unwrap();
    let file = codes_with(&["--audit-log", path.to_str().unwrap()], None)
        .stderr_contains("24 kinds scanned, 51 managed resources, 2 errors, 0 warnings, 0 info")
        .run()
        .stdout;
    let stdin = codes_with(&["--audit-log", "-"], Some(gz)).stderr("audit log stdin: 14 events examined, 10 writes to MR groups kept, 4 skipped by byte checks (other groups, reads or stages); decoded 10 audit.k8s.io; 1 at Metadata level (no objects recorded)\n24 kinds scanned, 51 managed resources, 2 errors, 0 warnings, 0 info\n").run().stdout;
    for out in [&file, &stdin] {
        assert!(out.contains("ExternalNameOverwritten") && out.contains("IdentityLostOnRecreate"), "{out}");
    }
}

#[test]
fn a_file_from_another_cluster_says_so() {
    let raw = std::fs::read_to_string(AUDIT).unwrap();
    // Same names, other UIDs: another cluster's objects.
    let other: String = raw
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            for ptr in ["/objectRef/uid", "/responseObject/metadata/uid", "/requestObject/metadata/uid"] {
                if let Some(u) = v.pointer_mut(ptr) {
                    *u = serde_json::json!(format!("other-{}", u.as_str().unwrap_or("")));
                }
            }
            v.to_string() + "\n"
        })
        .collect();
    let out = codes_with(&["--audit-log", "-"], Some(other.into_bytes()))
        .stderr_contains("appears to come from another cluster")
        .run()
        .stdout;
    // The same platform in another cluster: its MRs' histories prove nothing about these.
    assert!(
        !out.contains("ExternalNameOverwritten") && !out.contains("IdentityLostOnRecreate"),
        "another cluster's writes must not become findings here:\n{out}"
    );
}

#[test]
fn what_is_not_an_audit_log_is_refused_or_named() {
    let dir = tempfile::tempdir().unwrap();
    // A directory is a usage error.
    upjet()
        .args(["doctor", "--from", FLEET, "--audit-log"])
        .arg(dir.path())
        .status(2)
        .stderr_contains("cannot read audit log")
        .run();
    let provider_log = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/logs/provider-aws-kms-debug.log");
    // A provider log given by mistake is a usage error, and its flag is named.
    let err = upjet()
        .args(["doctor", "--from", FLEET, "--audit-log", provider_log])
        .status(2)
        .stderr_contains("looks like a provider log; pass it with --log-file\n")
        .run()
        .stderr;
    assert!(err.ends_with("looks like a provider log; pass it with --log-file\n"), "and its flag is named: {err}");
    // Stdin cannot be looked at twice: the reader's own note says what the content lacks.
    // A provider log on stdin is named.
    codes_with(&["--audit-log", "-"], Some(std::fs::read(provider_log).unwrap()))
        .stderr_contains("is an audit event")
        .run();
}
