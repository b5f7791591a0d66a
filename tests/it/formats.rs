//! Every format doctor and history print, as snapshots of what a user gets from the bundled
//! examples (the builder pins the clock; paths are relative to the repository root). doctor's
//! `-o table|wide|json|yaml|summary|sarif|junit|html` over `examples/fleet/aws-legacy.json`
//! (errors, warnings and info; seven kinds; quotes and JSON inside messages to escape), GitHub
//! Actions' annotations and step summary over it and over the lint of `examples/lint` (whose
//! findings have a file and a line), and history's `-o json` and `-o html` of the MR whose text
//! `audit_log.rs` snapshots. What each format means is checked elsewhere (`ci_formats.rs`,
//! `html.rs`, `output_forms.rs`); these make any change to the printed bytes a reviewed one.

use crate::audit_log::CORE_VPC_HISTORY;
use crate::support::upjet;
use serde_json::Value;

/// One file of the bundled fleet with findings of every severity (doctor exits 1 on it).
const LEGACY: &str = "examples/fleet/aws-legacy.json";

/// doctor's formats for a person and for a program, each as printed.
#[test]
fn doctor_prints_each_format() {
    for format in ["table", "wide", "json", "yaml", "summary", "junit", "html"] {
        let run = upjet().arg("doctor").from(LEGACY).args(["-o", format]).status(1).stderr("8 kinds scanned, 9 managed resources, 2 errors, 6 warnings, 2 info, 2 would be created again by a provider restart\n").run();
        insta::assert_snapshot!(format!("doctor_{format}"), run.stdout);
    }
}

/// The SARIF log (one line as printed, pretty here so a change reads as a diff). Each rule's
/// texts are docs/findings.md's prose, which `ci_formats.rs` checks against the docs, so they are
/// replaced by a marker: editing the docs is not a change of format. The tool's version is the
/// crate's, checked, then named.
#[test]
fn doctor_sarif() {
    let mut log = upjet().arg("doctor").from(LEGACY).args(["-o", "sarif"]).status(1).stderr("8 kinds scanned, 9 managed resources, 2 errors, 6 warnings, 2 info, 2 would be created again by a provider restart\n").run().json();
    let driver = &mut log["runs"][0]["tool"]["driver"];
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    driver["version"] = "[CARGO_PKG_VERSION]".into();
    for rule in driver["rules"].as_array_mut().unwrap() {
        for prose in ["/shortDescription/text", "/fullDescription/text", "/help/text", "/help/markdown"] {
            let text = rule.pointer_mut(prose).unwrap_or_else(|| panic!("no {prose}"));
            assert!(text.as_str().is_some_and(|t| !t.is_empty()), "{prose}");
            *text = Value::from("[docs]");
        }
    }
    insta::assert_snapshot!("doctor_sarif", serde_json::to_string_pretty(&log).unwrap());
}

/// Under GitHub Actions: one `::error` annotation per error finding on stderr (with `file=` and
/// `line=` when the finding has a place: the lint's manifests) before the run's summary line, and
/// the step summary appended to `$GITHUB_STEP_SUMMARY`.
#[test]
fn github_annotations_and_step_summary() {
    for (name, input) in [("legacy", LEGACY), ("lint", "examples/lint")] {
        let dir = tempfile::tempdir().unwrap();
        let summary = dir.path().join("summary.md");
        let run = upjet()
            .arg("doctor")
            .from(input)
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", &summary)
            .status(1)
            .stderr_contains("::error ")
            .run();
        insta::assert_snapshot!(format!("github_annotations_{name}"), run.stderr);
        insta::assert_snapshot!(format!("github_step_summary_{name}"), std::fs::read_to_string(&summary).unwrap());
    }
}

/// history's JSON document and HTML page of the MR whose text timeline `audit_log.rs` snapshots.
#[test]
fn history_json_and_html() {
    let args = CORE_VPC_HISTORY;
    insta::assert_snapshot!("history_json", upjet().args(args).json().run().stdout);
    insta::assert_snapshot!("history_html", upjet().args(args).args(["-o", "html"]).run().stdout);
}
