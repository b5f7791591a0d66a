//! `--cloud-audit` end to end, as a user runs it on the bundled example (a small fleet and one
//! export per cloud): the findings and the plan of doctor, history's timeline (text snapshot),
//! stdin and gzip (whole and cut short), files that are not an audit record, a provider whose
//! identity only `--cloud-principal` gives, and the refusals (missing file, several clusters,
//! `adopt -f`).

use crate::support::{find as finding, upjet};
use serde_json::Value;
use std::io::Write;

const FLEET: &str = "examples/cloud-audit/fleet.json";
const TRAIL: &str = "examples/cloud-audit/cloudtrail.jsonl";
const GCP: &str = "examples/cloud-audit/gcp-audit.json";
const AZURE: &str = "examples/cloud-audit/azure-activity.json";

fn check_trail(report: &Value, stderr: &str) {
    let orphan = finding(report, "CloudAuditOrphan", "corp-payments").unwrap_or_else(|| panic!("{report:#}\n{stderr}"));
    assert_eq!(orphan["suggestedId"], "Z0C3PAYS6H7JQ2V9D", "the zone ID, in the form the healthy zones use");
    assert!(orphan["evidence"]["cloudCall"].as_str().unwrap().contains("CreateHostedZone (route53.amazonaws.com)"));
    assert!(orphan["evidence"]["cloudCall"].as_str().unwrap().ends_with(":7>"), "file:line");
    assert!(
        orphan["evidence"]["matchedBy"].as_str().unwrap().contains("forProvider.name \"payments.corp.example.com\"")
    );
    assert!(orphan["evidence"]["idRule"].as_str().unwrap().contains("hostedZone.id, agreed by 2 of 2"));
    let incomplete = finding(report, "CreateIncomplete", "corp-payments").unwrap();
    assert_eq!(incomplete["suggestedId"], "Z0C3PAYS6H7JQ2V9D");
    assert_eq!(incomplete["evidence"]["candidate"], "CloudAuditOrphan (high confidence)");
    let exists = finding(report, "CloudAuditAlreadyExists", "corp-assets-111122223333").unwrap();
    assert!(
        exists["message"]
            .as_str()
            .unwrap()
            .contains("created by arn:aws:iam::111122223333:role/crossplane-provider-aws at 2024-11-30T11:00:02Z")
    );
    assert!(stderr.contains("9 records examined, 6 creates and 0 deletes kept, 3 skipped by byte checks"), "{stderr}");
}

#[test]
fn cloudtrail_names_the_zone_the_provider_made() {
    let run = upjet().arg("doctor").json().from(FLEET).args(["--cloud-audit", TRAIL]).status(1).stderr("cloud audit examples/cloud-audit/cloudtrail.jsonl: 9 records examined, 6 creates and 0 deletes kept, 3 skipped by byte checks (reads and other calls); decoded 6 CloudTrail\ncloud audit: 3 healthy MRs of 2 kind(s) have their create in the record; 4 creates tied to MRs by their ID, 2 by their request; 0 not tied (reported on the MRs they name)\n5 kinds scanned, 13 managed resources, 5 errors, 3 warnings, 0 info\n").run();
    check_trail(&run.report(), &run.stderr);
}

#[test]
fn stdin_gzip_and_a_gzip_cut_short() {
    let text = std::fs::read(TRAIL).unwrap();
    let run = upjet().arg("doctor").json().from(FLEET).args(["--cloud-audit", "-"]).stdin(text.clone()).status(1).stderr("cloud audit stdin: 9 records examined, 6 creates and 0 deletes kept, 3 skipped by byte checks (reads and other calls); decoded 6 CloudTrail\ncloud audit: 3 healthy MRs of 2 kind(s) have their create in the record; 4 creates tied to MRs by their ID, 2 by their request; 0 not tied (reported on the MRs they name)\n5 kinds scanned, 13 managed resources, 5 errors, 3 warnings, 0 info\n").run();
    check_trail(&run.report(), &run.stderr);
    assert!(run.stderr.contains("cloud audit stdin:"), "{}", run.stderr);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let run = upjet().arg("doctor").json().from(FLEET).args(["--cloud-audit", "-"]).stdin(gz.clone()).status(1).stderr("cloud audit stdin: 9 records examined, 6 creates and 0 deletes kept, 3 skipped by byte checks (reads and other calls); decoded 6 CloudTrail\ncloud audit: 3 healthy MRs of 2 kind(s) have their create in the record; 4 creates tied to MRs by their ID, 2 by their request; 0 not tied (reported on the MRs they name)\n5 kinds scanned, 13 managed resources, 5 errors, 3 warnings, 0 info\n").run();
    check_trail(&run.report(), &run.stderr);
    let cut = gz[..gz.len() * 2 / 3].to_vec();
    // A cut file is read up to the cut, never fatal: the fleet's own findings make it exit 1.
    let run = upjet().arg("doctor").json().from(FLEET).args(["--cloud-audit", "-"]).stdin(cut).status(1).stderr("cloud audit stdin: 3 records examined, 3 creates and 0 deletes kept, 0 skipped by byte checks (reads and other calls); decoded 3 CloudTrail; ended early: the gzip stream ends early; what came before was read\ncloud audit: 3 healthy MRs of 2 kind(s) have their create in the record; 3 creates tied to MRs by their ID, 0 by their request; 0 not tied (reported on the MRs they name)\n5 kinds scanned, 13 managed resources, 3 errors, 3 warnings, 0 info\n").run();
    assert!(run.stderr.contains("ended early: the gzip stream ends early"), "{}", run.stderr);
}

#[test]
fn gcp_audit_log_names_the_duplicate_pair_and_the_other_project() {
    let run = upjet().arg("doctor").json().from(FLEET).args(["--cloud-audit", GCP]).status(1).stderr_contains("cloud audit examples/cloud-audit/gcp-audit.json: 8 records examined, 6 creates and 0 deletes kept, 1 skipped by byte checks (reads and other calls); decoded 7 GCP audit; 1 entries merged into the operation they continue").stderr_contains("5 kinds scanned, 13 managed resources, 3 errors, 5 warnings, 0 info").run();
    let (report, stderr) = (run.report(), run.stderr);
    let dup = finding(&report, "CloudAuditDuplicate", "checkout-latency").unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(dup["severity"], "warning", "it tracks one of them");
    assert!(
        dup["evidence"]["tracked"]
            .as_str()
            .unwrap()
            .starts_with("\"projects/acme-prod/alertPolicies/9051216407683392517\"")
    );
    assert!(
        dup["evidence"]["duplicates"]
            .as_str()
            .unwrap()
            .starts_with("\"projects/acme-prod/alertPolicies/6510472198453218101\"")
    );
    assert!(dup.get("suggestedId").is_none(), "the MR keeps the object it tracks");
    let other = finding(&report, "CloudAuditAmbiguous", "search-latency").unwrap();
    assert!(other["message"].as_str().unwrap().contains("made in acme-staging"), "{other}");
    assert!(finding(&report, "CloudAuditOrphan", "search-latency").is_none(), "nothing guessed");
    assert!(
        stderr.contains("1 entries merged into the operation they continue"),
        "the network's first and last entries: {stderr}"
    );
}

#[test]
fn azure_activity_log_names_who_deleted_the_vnet() {
    let run = upjet().arg("doctor").json().from(FLEET).args(["--cloud-audit", AZURE]).status(1).stderr("cloud audit examples/cloud-audit/azure-activity.json: 8 records examined, 3 creates and 1 deletes kept, 0 skipped by byte checks (reads and other calls); decoded 8 Azure activity; 4 entries merged into the operation they continue\ncloud audit: 3 healthy MRs of 1 kind(s) have their create in the record; 3 creates tied to MRs by their ID, 0 by their request; 0 not tied (reported on the MRs they name)\n5 kinds scanned, 13 managed resources, 4 errors, 3 warnings, 0 info\n").run();
    let report = run.report();
    let deleted = report.find("CloudAuditDeletedByOther", "edge-vnet").unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(
        deleted["message"]
            .as_str()
            .unwrap()
            .starts_with("the cloud's audit record shows alice@contoso.com (not the provider) deleting \"edge-vnet\"")
    );
    assert!(finding(&report, "CloudAuditDeletedByOther", "hub-vnet").is_none());
}

#[test]
fn the_observed_create_outranks_a_derived_id_in_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    let template = "zone.route53.aws.upbound.io={forProvider.name}";
    let run = upjet()
        .arg("doctor")
        .json()
        .from(FLEET)
        .args(["--cloud-audit", TRAIL, "--id-template", template, "--plan"])
        .arg(&plan)
        .status(1)
        .stderr_contains("cloud audit examples/cloud-audit/cloudtrail.jsonl: 9 records examined, 6 creates and 0 deletes kept, 3 skipped by byte checks (reads and other calls); decoded 6 CloudTrail").stderr_contains("5 kinds scanned, 13 managed resources, 5 errors, 3 warnings, 0 info").run();
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(&plan).unwrap())
        .unwrap_or_else(|e| panic!("{e}: {}", run.stderr));
    let zone =
        plan.as_array().unwrap().iter().find(|i| i["resource"] == "zone.route53.aws.upbound.io/corp-payments").unwrap();
    assert_eq!(zone["id"], "Z0C3PAYS6H7JQ2V9D");
    assert_eq!(zone["reason"], "CloudAuditOrphan", "the create the record shows wins over the template's guess");
}

#[test]
fn history_puts_the_cloud_s_calls_on_the_timeline() {
    let out = upjet()
        .args(["history", "zone.route53.aws.upbound.io/corp-payments", "--from", FLEET, "--cloud-audit", TRAIL])
        .run();
    let text = out.stdout;
    insta::assert_snapshot!("history_corp_payments_cloudtrail", text);
    assert!(text.contains("adopt the best candidate: kubectl upjet adopt zone.route53.aws.upbound.io/corp-payments --id Z0C3PAYS6H7JQ2V9D --import"), "{text}");
    let out = upjet()
        .args([
            "history",
            "alertpolicy.monitoring.gcp.upbound.io/checkout-latency",
            "--from",
            FLEET,
            "--cloud-audit",
            GCP,
            "-o",
            "json",
        ])
        .run();
    let v = out.json();
    let cloud: Vec<&Value> =
        v["timeline"]["entries"].as_array().unwrap().iter().filter(|e| e["source"] == "cloud").collect();
    assert_eq!(cloud.len(), 2, "both creates: {cloud:?}");
    assert!(cloud[0]["text"].as_str().unwrap().contains("which this MR does not track"));
}

#[test]
fn doctor_on_one_mr_reads_the_record_too() {
    let out = upjet()
        .args(["doctor", "zone.route53.aws.upbound.io/corp-payments", "--from", FLEET, "--cloud-audit", TRAIL])
        .status(1).stderr("cloud audit examples/cloud-audit/cloudtrail.jsonl: 9 records examined, 6 creates and 0 deletes kept, 3 skipped by byte checks (reads and other calls); decoded 6 CloudTrail\ncloud audit: 3 healthy MRs of 2 kind(s) have their create in the record; 4 creates tied to MRs by their ID, 2 by their request; 0 not tied (reported on the MRs they name)\n").run();
    let text = out.stdout;
    assert!(text.contains("CloudAuditOrphan"), "{text}");
}

#[test]
fn without_peers_the_identity_comes_from_the_flag() {
    let all: Value = serde_json::from_str(&std::fs::read_to_string(FLEET).unwrap()).unwrap();
    let alone: Vec<&Value> =
        all["items"].as_array().unwrap().iter().filter(|i| i["metadata"]["name"] == "corp-payments").collect();
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("alone.json");
    std::fs::write(&snap, serde_json::json!({"apiVersion": "v1", "kind": "List", "items": alone}).to_string()).unwrap();
    let run = |extra: &[&str]| {
        let out = upjet().arg("doctor").json().from(&snap).args(["--cloud-audit", TRAIL]).args(extra).status(1).stderr_contains("cloud audit examples/cloud-audit/cloudtrail.jsonl: 9 records examined, 6 creates and 0 deletes kept, 3 skipped by byte checks (reads and other calls); decoded 6 CloudTrail").run();
        (out.json(), out.stderr)
    };
    let (report, stderr) = run(&[]);
    let unknown = finding(&report, "CloudAuditAmbiguous", "corp-payments").unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        unknown["message"]
            .as_str()
            .unwrap()
            .contains("pass --cloud-principal arn:aws:iam::111122223333:role/crossplane-provider-aws")
    );
    assert!(stderr.contains("its provider's identity is unknown"), "{stderr}");
    let (report, _) = run(&["--cloud-principal", "crossplane-provider-aws"]);
    let orphan = finding(&report, "CloudAuditOrphan", "corp-payments").unwrap();
    assert_eq!(orphan["evidence"]["cloudId"], "/hostedzone/Z0C3PAYS6H7JQ2V9D");
    assert!(orphan.get("suggestedId").is_none(), "no peer proves the external-name's form: nothing guessed");
    assert!(orphan["evidence"]["idForm"].as_str().unwrap().starts_with("unproven"));
}

/// Another input given to --cloud-audit is named with the flag that reads it (exit 2, one line);
/// a file that is no known input is read, and what it lacks is noted.
#[test]
fn files_that_are_not_an_audit_record_are_named_or_noted() {
    for (file, flag) in [
        ("examples/logs/provider-aws-kms-debug.log", "--log-file"),
        ("examples/audit/kube-apiserver-audit.log", "--audit-log"),
    ] {
        let stderr = upjet()
            .arg("doctor")
            .json()
            .from(FLEET)
            .args(["--cloud-audit", file])
            .status(2)
            .stderr_matches(&format!("^error: {} looks like ", regex::escape(file)))
            .stderr_contains(format!("pass it with {flag}"))
            .run()
            .stderr;
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "not an export\n{\"a\": 1}\n").unwrap();
    // The fleet's own findings make it exit 1.
    let stderr = upjet().arg("doctor").json().from(FLEET).arg("--cloud-audit").arg(&notes).status(1).stderr_contains("cloud audit: 0 healthy MRs of 0 kind(s) have their create in the record; 0 creates tied to MRs by their ID, 0 by their request; 0 not tied (reported on the MRs they name)").stderr_contains("5 kinds scanned, 13 managed resources, 3 errors, 3 warnings, 0 info").run().stderr;
    assert!(
        stderr.contains("lines that are not JSON") || stderr.contains("is this the cloud's audit export?"),
        "{stderr}"
    );
}

#[test]
fn refusals_are_one_line_and_exit_2() {
    for args in [
        vec!["doctor", "--from", FLEET, "--cloud-audit", "does-not-exist.json"],
        vec!["doctor", "--from", FLEET, "--cloud-audit", "examples"],
        vec!["doctor", "--from", FLEET, "--from", "examples/fleet", "--cloud-audit", TRAIL],
        vec!["adopt", "-f", "plan.json", "--cloud-audit", TRAIL],
    ] {
        // One line: the refusal.
        let out = upjet().args(&args).status(2).stderr_matches(r"\Aerror: [^\n]+\n\z").run();
        let stderr = out.stderr;
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("Backtrace"), "{stderr}");
    }
}

/// The bundled CloudTrail record as CloudTrail Lake answers `SELECT eventJson …` (one row per
/// event) and as a CSV of the CloudTrail table's columns (Athena's download): the same zone is
/// named. A Lake page followed by a `NextToken` is read, named, and makes the report partial.
#[test]
fn cloudtrail_lake_rows_and_an_athena_csv_name_the_same_zone() {
    let text = std::fs::read_to_string(TRAIL).unwrap();
    let events: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let rows: Vec<Value> = text.lines().map(|l| serde_json::json!([{ "eventJson": l }])).collect();
    let answer = |token: Option<&str>| {
        let mut a = serde_json::json!({"QueryStatus": "FINISHED", "QueryStatistics": {"ResultsCount": rows.len()}, "QueryResultRows": rows});
        if let Some(t) = token {
            a["NextToken"] = t.into();
        }
        serde_json::to_vec_pretty(&a).unwrap()
    };
    const COLUMNS: &[&str] = &[
        "eventtime",
        "eventsource",
        "eventname",
        "useridentity",
        "requestparameters",
        "responseelements",
        "errorcode",
        "errormessage",
        "recipientaccountid",
    ];
    let camel = |c: &str| match c {
        "eventtime" => "eventTime",
        "eventsource" => "eventSource",
        "eventname" => "eventName",
        "useridentity" => "userIdentity",
        "requestparameters" => "requestParameters",
        "responseelements" => "responseElements",
        "errorcode" => "errorCode",
        "errormessage" => "errorMessage",
        _ => "recipientAccountId",
    };
    let field = |v: &Value| match v {
        Value::Null => String::new(),
        Value::String(s) => format!("\"{}\"", s.replace('"', "\"\"")),
        other => format!("\"{}\"", other.to_string().replace('"', "\"\"")),
    };
    let mut csv = COLUMNS.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(",") + "\n";
    for e in &events {
        csv += &(COLUMNS.iter().map(|c| field(&e[camel(c)])).collect::<Vec<_>>().join(",") + "\n");
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [("lake.json", answer(None)), ("athena.csv", csv.into_bytes())] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let run = upjet().arg("doctor").json().from(FLEET).arg("--cloud-audit").arg(&path).status(1).stderr_contains("cloud audit: 3 healthy MRs of 2 kind(s) have their create in the record; 4 creates tied to MRs by their ID, 2 by their request; 0 not tied (reported on the MRs they name)").stderr_contains("5 kinds scanned, 13 managed resources, 5 errors, 3 warnings, 0 info").run();
        let (report, stderr) = (run.report(), run.stderr);
        let orphan =
            finding(&report, "CloudAuditOrphan", "corp-payments").unwrap_or_else(|| panic!("{name}: {:#}", report.0));
        assert_eq!(orphan["suggestedId"], "Z0C3PAYS6H7JQ2V9D", "{name}");
        assert!(finding(&report, "CloudAuditAlreadyExists", "corp-assets-111122223333").is_some(), "{name}");
        assert!(stderr.contains("9 records examined, 6 creates and 0 deletes kept"), "{name}: {stderr}");
        assert_eq!(report["summary"]["complete"], true, "{name}");
    }
    let page = dir.path().join("page-1.json");
    std::fs::write(&page, answer(Some("AAEBAQ=="))).unwrap();
    // A partial report exits 4.
    let report = upjet()
        .arg("doctor")
        .json()
        .from(FLEET)
        .arg("--cloud-audit")
        .arg(&page)
        .args(["--fail-on", "never"])
        .status(4)
        .stderr_contains("cloud audit: 3 healthy MRs of 2 kind(s) have their create in the record; 4 creates tied to MRs by their ID, 2 by their request; 0 not tied (reported on the MRs they name)").stderr_contains("5 kinds scanned, 13 managed resources, 5 errors, 3 warnings, 0 info, 1 inputs cut short").run()
        .report();
    assert!(finding(&report, "CloudAuditOrphan", "corp-payments").is_some(), "what the page holds is read");
    assert_eq!(report["summary"]["complete"], false);
    let cut = report["summary"]["inputsTruncated"][0].as_str().unwrap();
    assert!(cut.contains("page-1.json") && cut.contains("NextToken") && cut.contains("--next-token"), "{cut}");
}

/// The bundled CloudTrail record as `aws cloudtrail lookup-events --max-items` prints it: the
/// events under `Events`, then the AWS CLI's `NextToken`. The page is read and the report is
/// partial, naming the token and how to page on; the last page (no token) is whole.
#[test]
fn a_lookup_events_page_that_ends_with_a_next_token_makes_the_report_partial() {
    let text = std::fs::read_to_string(TRAIL).unwrap();
    let events: Vec<Value> = text
        .lines()
        .map(|l| {
            let e: Value = serde_json::from_str(l).unwrap();
            serde_json::json!({"EventId": e["eventID"], "EventName": e["eventName"], "EventTime": e["eventTime"], "CloudTrailEvent": l})
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    for (name, token) in [("last.json", None), ("page-1.json", Some("eyJOZXh0VG9rZW4iOiBudWxsfQ=="))] {
        let mut page = serde_json::json!({ "Events": events });
        if let Some(t) = token {
            page["NextToken"] = t.into();
        }
        let path = dir.path().join(name);
        std::fs::write(&path, serde_json::to_vec_pretty(&page).unwrap()).unwrap();
        // The last page is whole (exit 0); one followed by a token makes the report partial (exit 4).
        let code = if token.is_none() { 0 } else { 4 };
        let run = upjet()
            .arg("doctor")
            .json()
            .from(FLEET)
            .arg("--cloud-audit")
            .arg(&path)
            .args(["--fail-on", "never"])
            .status(code)
            .stderr_contains(format!("cloud audit {}: 9 records examined", path.display()))
            .stderr_contains("5 kinds scanned, 13 managed resources, 5 errors, 3 warnings, 0 info")
            .run();
        let report = run.report();
        assert!(report.find("CloudAuditOrphan", "corp-payments").is_some(), "{name}: what the page holds is read");
        if token.is_none() {
            assert_eq!(report["summary"]["complete"], true, "{name}");
            continue;
        }
        assert_eq!(report["summary"]["complete"], false);
        let cut = report["summary"]["inputsTruncated"][0].as_str().unwrap();
        assert!(cut.contains("page-1.json") && cut.contains("NextToken") && cut.contains("--starting-token"), "{cut}");
    }
}
