//! `doctor -o sarif` and `-o junit` on the example fleet: the SARIF log validates against the
//! OASIS SARIF 2.1.0 schema (the file `scripts/fetch-sarif-schema.sh` fetches from the npm
//! package that ships it), has one rule per finding code with its help from docs/findings.md,
//! and fingerprints stable across runs and distinct per (MR, code); the JUnit report has one
//! testsuite per kind, one testcase per MR, one failure per error finding.

use crate::support::FLEET_SUMMARY;
use crate::support::upjet;
use serde_json::Value;
use std::collections::BTreeSet;

const FLEET: &str = "examples/fleet";

/// The OASIS schema, fetched by the project's own script (from the npm registry) the first time a
/// machine runs this test, so `cargo test` needs no step by hand.
pub(crate) fn schema() -> Value {
    static FETCH: std::sync::Once = std::sync::Once::new();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/target/sarif-schema/sarif-2.1.0-rtm.5.json");
    FETCH.call_once(|| {
        if !std::path::Path::new(path).exists() {
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/fetch-sarif-schema.sh");
            let status = std::process::Command::new("bash").arg(script).status();
            assert!(status.is_ok_and(|s| s.success()), "{script} could not fetch the SARIF schema");
        }
    });
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

pub(crate) fn fix_language_pattern(v: &mut Value) -> usize {
    const ERRATUM: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match v {
        Value::String(s) if s == ERRATUM => {
            *s = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into();
            1
        }
        Value::Array(items) => items.iter_mut().map(fix_language_pattern).sum(),
        Value::Object(map) => map.values_mut().map(fix_language_pattern).sum(),
        _ => 0,
    }
}

#[test]
fn sarif_validates_against_the_oasis_schema() {
    let log = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "sarif"])
        .status(1)
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run()
        .json();
    // The rtm.5 file's `language` patterns have a stray `]` (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`),
    // which a strict meta-schema check refuses as a regex; later errata of the schema write the
    // intended `^[a-zA-Z]{2}(-[a-zA-Z]{2})?$`. Only that pattern is replaced (our log has no
    // `language`), so every other constraint of the OASIS file applies unchanged.
    let mut schema = schema();
    assert_eq!(fix_language_pattern(&mut schema), 2, "the file the test was written against");
    let validator = jsonschema::draft4::new(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // The schema must reject what SARIF forbids, or the check above proves nothing.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn sarif_has_one_documented_rule_per_code_and_stable_distinct_fingerprints() {
    let docs: String =
        ["docs/findings.md", "docs/inventory.md", "docs/lint.md"].map(|p| std::fs::read_to_string(p).unwrap()).concat();
    let codes: Vec<&str> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .map(|l| l.split_once("</a>").map_or(l, |(_, rest)| rest))
        .filter_map(|l| l.strip_prefix('`'))
        .filter_map(|l| l.split('`').next())
        .filter(|c| c.starts_with(|c: char| c.is_ascii_uppercase()) && c.chars().all(|c| c.is_ascii_alphanumeric()))
        .collect();
    let log = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "sarif"])
        .status(1)
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run()
        .json();
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: BTreeSet<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, codes.iter().copied().collect::<BTreeSet<_>>());
    for rule in rules {
        let help = rule["help"]["text"].as_str().unwrap();
        assert!(help.contains("Why it matters: ") && help.len() > 60, "{rule}");
        assert!(rule["helpUri"].as_str().unwrap().starts_with("https://"), "{rule}");
    }
    let results = run["results"].as_array().unwrap();
    let report = upjet().arg("doctor").from(FLEET).json().status(1).stderr(format!("{FLEET_SUMMARY}\n")).run().json();
    assert_eq!(results.len(), report["findings"].as_array().unwrap().len());
    let prints: Vec<&str> =
        results.iter().map(|r| r["partialFingerprints"]["upjetResourceCode/v1"].as_str().unwrap()).collect();
    assert_eq!(prints.iter().collect::<BTreeSet<_>>().len(), prints.len(), "one fingerprint per (MR, code)");
    let again = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "sarif"])
        .status(1)
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run()
        .json();
    assert_eq!(again["runs"][0]["results"], run["results"], "a second run gives the same results");
    for (result, finding) in results.iter().zip(report["findings"].as_array().unwrap()) {
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], finding["code"]);
        let location = &result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"];
        assert!(location.as_str().unwrap().ends_with(&format!("/{}", finding["resource"]["name"].as_str().unwrap())));
    }
}

#[test]
fn junit_has_a_suite_per_kind_a_case_per_mr_and_a_failure_per_error() {
    let report = upjet().arg("doctor").from(FLEET).json().status(1).stderr(format!("{FLEET_SUMMARY}\n")).run().json();
    let findings = report["findings"].as_array().unwrap();
    let kinds: BTreeSet<String> = findings
        .iter()
        .map(|f| {
            format!(
                "{}/{}",
                f["resource"]["apiVersion"].as_str().unwrap().split('/').next().unwrap(),
                f["resource"]["kind"]
            )
        })
        .collect();
    let mrs: BTreeSet<String> = findings.iter().map(|f| format!("{}", f["resource"])).collect();
    let errors = findings.iter().filter(|f| f["severity"] == "error").count();
    let xml = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "junit"])
        .status(1)
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run()
        .stdout;
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "), "{xml}");
    assert_eq!(xml.matches("<testsuite ").count(), kinds.len(), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), mrs.len(), "{xml}");
    assert_eq!(xml.matches("<failure ").count(), errors, "{xml}");
    assert_eq!(xml.matches("</testcase>").count(), mrs.len());
    assert!(!xml.contains("\" & ") && !xml.contains("<<"), "escaped");
}

#[test]
fn github_actions_get_error_annotations_and_a_step_summary() {
    let report = upjet().arg("doctor").from(FLEET).json().status(1).stderr(format!("{FLEET_SUMMARY}\n")).run().json();
    let errors: Vec<&Value> =
        report["findings"].as_array().unwrap().iter().filter(|f| f["severity"] == "error").collect();
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let run = upjet()
        .arg("doctor")
        .from(FLEET)
        .args(["-o", "sarif"])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .status(1).stderr_contains("::error title=ExternalNameMissing kms.aws.upbound.io/Key/-/payments-data-key::no external-name although status.atProvider.id is \"mrk-1f2e3d4c5b6a47989a0b1c2d3e4f5a6b\"; after a provider restart upjet will create a duplicate (adopt \"mrk-1f2e3d4c5b6a47989a0b1c2d3e4f5a6b\"); managementPolicies lack LateInitialize: upjet's in-process clients (upjet v1 and later) will never save it, its Terraform CLI client saves it itself (which runs this kind is not shown) Next: kubectl upjet adopt key.kms.aws.upbound.io/payments-data-key --id mrk-1f2e3d4c5b6a47989a0b1c2d3e4f5a6b --add-late-initialize").stderr_contains(FLEET_SUMMARY).run();
    serde_json::from_str::<Value>(&run.stdout).expect("stdout stays the SARIF log");
    let annotations: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("::error title=")).collect();
    assert_eq!(annotations.len(), errors.len(), "{}", run.stderr);
    let first = &errors[0];
    let title = format!("::error title={} ", first["code"].as_str().unwrap());
    assert!(annotations[0].starts_with(&title), "{}", annotations[0]);
    assert!(!annotations.iter().any(|a| a.contains('\n')));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("earlier step\n## kubectl upjet doctor\n"), "appended, not overwritten: {md}");
    assert_eq!(md.matches("\n| `").count(), errors.len().min(50), "{md}");
    let plain =
        upjet().arg("doctor").from(FLEET).args(["-o", "sarif"]).status(1).stderr(format!("{FLEET_SUMMARY}\n")).run();
    assert!(!plain.stderr.contains("::error"), "no annotations outside GitHub Actions");
}
