//! kubectl's object forms on doctor and history (`-o name`, `-o jsonpath=…`, `-o
//! custom-columns=…`, `-o custom-columns-file=…`): each checked against the `-o json` document
//! of the same run, and kubectl's message shape for a template kubectl would reject (exit 2).

use crate::support::FLEET_SUMMARY;
use crate::support::upjet;
use serde_json::Value;

const FLEET: &str = "examples/fleet";

fn report() -> Value {
    upjet().arg("doctor").from(FLEET).json().status(1).stderr(format!("{FLEET_SUMMARY}\n")).run().json()
}

#[test]
fn name_prints_each_mr_with_findings_once_as_kubectl_does() {
    let report = report();
    let mut expected: Vec<String> = Vec::new();
    for f in report["findings"].as_array().unwrap() {
        let r = &f["resource"];
        let group = r["apiVersion"].as_str().unwrap().split('/').next().unwrap();
        let name = format!("{}.{group}/{}", r["kind"].as_str().unwrap().to_lowercase(), r["name"].as_str().unwrap());
        if !expected.contains(&name) {
            expected.push(name);
        }
    }
    let run =
        upjet().arg("doctor").from(FLEET).args(["-o", "name"]).status(1).stderr(format!("{FLEET_SUMMARY}\n")).run();
    assert_eq!(run.stdout.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn jsonpath_ranges_over_the_report_with_kubectl_escapes() {
    let report = report();
    let run = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", r#"jsonpath={range .findings[*]}{.code}{"\t"}{.resource.name}{"\n"}{end}"#])
        .status(1)
        .stderr("24 kinds scanned, 51 managed resources, 14 errors, 23 warnings, 5 info, 7 would be created again by a provider restart\n").run();
    let expected: String = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{}\t{}\n", f["code"].as_str().unwrap(), f["resource"]["name"].as_str().unwrap()))
        .collect();
    assert_eq!(run.stdout, expected);
    let errors = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", r#"jsonpath={.findings[?(@.severity=="error")].resource.name}"#])
        .status(1).stderr("24 kinds scanned, 51 managed resources, 14 errors, 23 warnings, 5 info, 7 would be created again by a provider restart\n").run();
    let names: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .map(|f| f["resource"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(errors.stdout, names.join(" "));
    let as_json = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "jsonpath-as-json={.apiVersion}"])
        .status(1)
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run();
    assert_eq!(as_json.stdout, "\"upjet.doctor/v1\"\n");
}

#[test]
fn custom_columns_print_one_row_per_finding_in_kubectl_layout() {
    let report = report();
    let findings = report["findings"].as_array().unwrap();
    let run = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "custom-columns=CODE:.code,MR:{.resource.name},ID:suggestedId"])
        .status(1)
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), findings.len() + 1, "{}", run.stdout);
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(header, ["CODE", "MR", "ID"]);
    let code_width = findings.iter().map(|f| f["code"].as_str().unwrap().len()).max().unwrap() + 3;
    assert_eq!(lines[0].find("MR"), Some(code_width.max(10)), "{}", lines[0]);
    for (line, f) in lines[1..].iter().zip(findings) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let id = f["suggestedId"].as_str().unwrap_or("<none>");
        assert_eq!(cells, [f["code"].as_str().unwrap(), f["resource"]["name"].as_str().unwrap(), id]);
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("columns.txt");
    std::fs::write(&file, "CODE    MR\n.code   .resource.name\n").unwrap();
    let from_file = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["--no-headers", "-o"])
        .arg(format!("custom-columns-file={}", file.display()))
        .status(1)
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run();
    assert_eq!(from_file.stdout.lines().count(), findings.len(), "{}", from_file.stderr);
}

#[test]
fn a_template_kubectl_rejects_is_a_usage_error_in_kubectl_words() {
    let run = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "jsonpath={.findings[0"])
        .status(2)
        .stderr("error: error parsing jsonpath {.findings[0, unterminated array\n")
        .run();
    assert_eq!(run.stdout, "");
    assert!(run.stderr.starts_with("error: error parsing jsonpath {.findings[0, unterminated array"), "{}", run.stderr);
    let run = upjet().arg("doctor").from(FLEET).args(["-o", "jsonpath={.apiVersion}{hello}"]).status(2).stderr_contains("error: error executing jsonpath \"{.apiVersion}{hello}\": Error executing template: unrecognized identifier hello. Printing more information for debugging the template:").stderr_contains("\t\t{.apiVersion}{hello}").run();
    assert_eq!(run.stdout, "", "a failing template prints nothing, as kubectl");
    assert!(
        run.stderr.starts_with(
            "error: error executing jsonpath \"{.apiVersion}{hello}\": Error executing template: unrecognized identifier hello"
        ),
        "{}",
        run.stderr
    );
    let run = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "custom-columns=CODE"])
        .status(2)
        .stderr("error: unexpected custom-columns spec: CODE, expected <header>:<json-path-expr>\n")
        .run();
    assert!(
        run.stderr.contains("unexpected custom-columns spec: CODE, expected <header>:<json-path-expr>"),
        "{}",
        run.stderr
    );
}

#[test]
fn history_forms_read_the_history_document() {
    let target = "cluster.eks.aws.upbound.io/platform-eks";
    let json = upjet().args(["history", target, "--from", FLEET, "-o", "json"]).run().json();
    let name = upjet().args(["history", target, "--from", FLEET, "-o", "name"]).run();
    assert_eq!(name.stdout, format!("{target}\n"), "{}", name.stderr);
    let path = upjet().args(["history", target, "--from", FLEET, "-o", "jsonpath={.resource.name} {.kind}"]).run();
    assert_eq!(path.stdout, format!("{} History", json["resource"]["name"].as_str().unwrap()));
    let rows =
        upjet().args(["history", target, "--from", FLEET, "-o", "custom-columns=WHEN:.time,SOURCE:.source"]).run();
    let entries = json["timeline"]["entries"].as_array().unwrap();
    assert_eq!(rows.stdout.lines().count(), entries.len() + 1, "{}", rows.stdout);
}

/// A form's template file is read before anything else is: a missing one is refused (exit 2)
/// naming it, before the snapshot (missing too) is looked at, for doctor's fleet, its one MR and
/// history alike.
#[test]
fn a_template_file_is_read_before_anything_is_scanned() {
    let dir = tempfile::tempdir().unwrap();
    let (snapshot, template) = (dir.path().join("gone.json"), dir.path().join("gone.tmpl"));
    let (snapshot, form) = (snapshot.to_str().unwrap(), format!("jsonpath-file={}", template.display()));
    for words in [
        &["doctor"][..],
        &["doctor", "vpc.ec2.aws.upbound.io/main"][..],
        &["history", "vpc.ec2.aws.upbound.io/main"][..],
    ] {
        let run = upjet()
            .args(words)
            .args(["--from", snapshot, "-o", &form])
            .status(2)
            .stderr_contains(format!("error: cannot read template {}", template.display()))
            .run();
        assert!(run.stderr.starts_with("error: cannot read template "), "{}", run.stderr);
        assert_eq!(run.stdout, "", "{words:?}");
    }
}
