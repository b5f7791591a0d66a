//! `doctor --from` over GitOps manifests: each finding names its file and line (JSON, SARIF's
//! physical location, GitHub annotations, JUnit), a YAML syntax error names its file and line and
//! the lint goes on (exit 4), objects of other kinds are skipped and counted, stdin is read,
//! and the inputs about what a cluster did are refused.

use crate::support::FLEET_SUMMARY;
use crate::support::upjet;
use serde_json::Value;
use std::path::Path;

/// A small repository: `repo/net.yaml` (a header comment, an async VPC without LateInitialize at
/// line 3, a subnet holding a placeholder and a reference to an MR no manifest defines at line
/// 12, a ConfigMap), `repo/observe/vpc.yml` (an Observe-only VPC without external-name) and a
/// kustomization file.
fn repo(dir: &Path) {
    let net = "# network of team a
---
apiVersion: ec2.aws.upbound.io/v1beta1
kind: VPC
metadata:
  name: main
spec:
  managementPolicies: [Observe, Create, Update, Delete]
  forProvider:
    region: us-east-1
---
apiVersion: ec2.aws.upbound.io/v1beta1
kind: Subnet
metadata:
  name: a
  annotations:
    crossplane.io/external-name: STUB123456
spec:
  forProvider:
    region: us-east-1
    vpcIdRef:
      name: elsewhere
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  note: |
    ---
    not a marker: indented in a block scalar
";
    let observe = "apiVersion: ec2.aws.upbound.io/v1beta1\nkind: VPC\nmetadata:\n  name: imported\nspec:\n  managementPolicies: [Observe]\n  forProvider:\n    region: us-east-1\n";
    let kustomization = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [net.yaml]\n";
    std::fs::create_dir_all(dir.join("repo/observe")).unwrap();
    std::fs::write(dir.join("repo/net.yaml"), net).unwrap();
    std::fs::write(dir.join("repo/observe/vpc.yml"), observe).unwrap();
    std::fs::write(dir.join("repo/kustomization.yaml"), kustomization).unwrap();
}

/// doctor over the manifests of `dir/repo`, from `dir`, with `extra`.
fn lint(dir: &Path, extra: &[&str]) -> crate::support::Upjet {
    let mut cmd = upjet();
    cmd.current_dir(dir).args(["doctor", "--from", "repo"]).args(extra);
    cmd
}

#[test]
fn each_finding_names_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    repo(dir.path());
    let run = lint(dir.path(), &["-o", "json"]).status(1).stderr("linted 3 managed resources from 3 files with 11 rules (51 need a cluster); skipped 1 objects of other kinds and 1 documents that are no Kubernetes object\n2 kinds scanned, 3 managed resources, 2 errors, 2 warnings, 0 info\n").run();
    let report = run.report();
    let at = |code: &str, name: &str| report.finding(code, name)["resource"]["source"].clone();
    let place = |file: &str, line: u64| serde_json::json!({"file": file, "line": line});
    assert_eq!(at("LateInitializeMissing", "main"), place("repo/net.yaml", 3));
    assert_eq!(at("PlaceholderExternalName", "a"), place("repo/net.yaml", 12));
    assert_eq!(at("ReferenceOutsideManifests", "a"), place("repo/net.yaml", 12));
    assert_eq!(at("ObserveOnlyWithoutExternalName", "imported"), place("repo/observe/vpc.yml", 1));
    assert!(
        report.finding("ReferenceOutsideManifests", "a")["message"].as_str().unwrap().contains("vpcIdRef → elsewhere")
    );
    assert_eq!(report.codes().len(), 4, "{:?}", report.codes());
    let lint = &report["summary"]["lint"];
    assert_eq!(lint["files"], 3);
    assert_eq!(lint["manifests"], 3);
    assert_eq!(lint["skippedNotManaged"], 1, "the ConfigMap");
    assert_eq!(lint["skippedNotObjects"], 1, "the Kustomization has no metadata.name");
    let ran: Vec<&str> = lint["rulesRun"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert!(ran.contains(&"LateInitializeMissing") && ran.contains(&"ExternalNameOffFormat"), "{ran:?}");
    let need = lint["rulesNeedCluster"].as_array().unwrap();
    assert!(need.iter().any(|c| c == "CreateIncomplete") && !need.iter().any(|c| c == "Paused"), "{need:?}");
    assert_eq!(report["summary"]["complete"], true);
}

#[test]
fn a_syntax_error_names_file_and_line_and_the_lint_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    repo(dir.path());
    let broken = "apiVersion: ec2.aws.upbound.io/v1beta1\nkind: VPC\nmetadata:\n  name: ok\nspec:\n  forProvider: {region: eu}\n---\nkind: [unclosed\n";
    std::fs::write(dir.path().join("repo/broken.yaml"), broken).unwrap();
    let run = lint(dir.path(), &["-o", "json", "--fail-on", "never"]).status(4).stderr("repo/broken.yaml:8: unclosed bracket '['\nlinted 4 managed resources from 4 files with 11 rules (51 need a cluster); skipped 1 objects of other kinds and 1 documents that are no Kubernetes object\n2 kinds scanned, 4 managed resources, 2 errors, 2 warnings, 0 info, 1 unreadable objects\n").run();
    let report = run.report();
    assert_eq!(report["summary"]["unreadable"], serde_json::json!(["repo/broken.yaml:8: unclosed bracket '['"]));
    assert_eq!(report["summary"]["lint"]["syntaxErrors"], 1);
    assert_eq!(report["summary"]["lint"]["manifests"], 4, "the good document of the broken file is read");
    assert!(report.find("ObserveOnlyWithoutExternalName", "imported").is_some(), "other files are read");
}

#[test]
fn sarif_points_at_the_manifest_and_still_validates() {
    let dir = tempfile::tempdir().unwrap();
    repo(dir.path());
    let run = lint(dir.path(), &["-o", "sarif"]).status(1).stderr("linted 3 managed resources from 3 files with 11 rules (51 need a cluster); skipped 1 objects of other kinds and 1 documents that are no Kubernetes object\n2 kinds scanned, 3 managed resources, 2 errors, 2 warnings, 0 info\n").run();
    let log: Value = serde_json::from_str(&run.stdout).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let placeholder = results.iter().find(|r| r["ruleId"] == "PlaceholderExternalName").unwrap();
    let physical = &placeholder["locations"][0]["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uri"], "repo/net.yaml");
    assert_eq!(physical["region"]["startLine"], 12);
    assert!(placeholder["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].as_str().unwrap().ends_with("/a"));
    let rule = &log["runs"][0]["tool"]["driver"]["rules"][placeholder["ruleIndex"].as_u64().unwrap() as usize];
    assert!(rule["helpUri"].as_str().unwrap().ends_with("lint.md#placeholderexternalname"), "{rule}");
    assert!(
        rule["help"]["text"].as_str().unwrap().contains("Why it matters: The stub names no cloud object"),
        "{rule}"
    );
    let mut schema = crate::ci_formats::schema();
    crate::ci_formats::fix_language_pattern(&mut schema);
    let validator = jsonschema::draft4::new(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn github_annotations_and_junit_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    repo(dir.path());
    let run = lint(dir.path(), &["-o", "junit"]).status(1).stderr("linted 3 managed resources from 3 files with 11 rules (51 need a cluster); skipped 1 objects of other kinds and 1 documents that are no Kubernetes object\n2 kinds scanned, 3 managed resources, 2 errors, 2 warnings, 0 info\n").run();
    assert!(run.stdout.contains(r#"name="a" file="repo/net.yaml" line="12">"#), "{}", run.stdout);
    let annotated = upjet()
        .current_dir(dir.path())
        .args(["doctor", "--from", "repo", "-o", "json"])
        .env("GITHUB_ACTIONS", "true")
        .status(1).stderr_contains("::error file=repo/net.yaml,line=12,title=PlaceholderExternalName ec2.aws.upbound.io/Subnet/-/a::crossplane.io/external-name holds a provider's placeholder (\"STUB123456\" is a placeholder, not a cloud ID: provider-upjet-aws config/externalname.go identifierFromProviderWithDefaultStub writes it for aws_bedrockagent_agent before the cloud assigns an ID), which names no cloud object: applied, the MR tracks nothing Next: replace the annotation with the cloud object's real ID, or remove it so the provider creates and records one").stderr_contains("2 kinds scanned, 3 managed resources, 2 errors, 2 warnings, 0 info").run();
    let lines: Vec<&str> = annotated.stderr.lines().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(lines.len(), 2, "{}", annotated.stderr);
    assert!(
        lines.iter().any(|l| l.starts_with("::error file=repo/net.yaml,line=12,title=PlaceholderExternalName ")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("::error file=repo/observe/vpc.yml,line=1,title=")), "{lines:?}");
}

#[test]
fn stdin_is_linted_as_kustomize_prints_it() {
    let text = "apiVersion: ec2.aws.upbound.io/v1beta1\nkind: VPC\nmetadata:\n  name: imported\nspec:\n  managementPolicies: [Observe]\n  forProvider: {region: eu}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: infra\n";
    let run = upjet().args(["doctor", "--from", "-", "-o", "json"]).stdin(text).status(1).stderr("linted 1 managed resources from 1 files with 11 rules (51 need a cluster); skipped 1 objects of other kinds and 0 documents that are no Kubernetes object\n1 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 0 info\n").run();
    let report = run.report();
    let finding = report.finding("ObserveOnlyWithoutExternalName", "imported");
    assert_eq!(finding["resource"]["source"], serde_json::json!({"file": "-", "line": 1}));
    assert_eq!(report["summary"]["lint"]["skippedNotManaged"], 1);
    let sarif = upjet().args(["doctor", "--from", "-", "-o", "sarif"]).stdin(text).status(1).stderr("linted 1 managed resources from 1 files with 11 rules (51 need a cluster); skipped 1 objects of other kinds and 0 documents that are no Kubernetes object\n1 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 0 info\n").run();
    let log: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let location = &log["runs"][0]["results"][0]["locations"][0];
    assert!(location.get("physicalLocation").is_none() && location.get("logicalLocations").is_some(), "{location}");
}

#[test]
fn inputs_about_a_cluster_are_refused_with_manifests() {
    let run = upjet().args(["doctor", "--from", "-", "--log-file", "provider.log"]).stdin("").status(2).stderr("error: --log-file tells what a cluster and its provider did; manifests (desired state) are linted on their own: run doctor on the cluster or a snapshot for it\n").run();
    assert!(run.stderr.contains("--log-file tells what a cluster and its provider did"), "{}", run.stderr);
}

#[test]
fn a_snapshot_is_still_a_snapshot() {
    let report = upjet()
        .args(["doctor", "--from", "examples/fleet", "-o", "json", "--fail-on", "never"])
        .stderr(format!("{FLEET_SUMMARY}\n"))
        .run()
        .report();
    assert!(report["summary"].get("lint").is_none());
    assert!(report["findings"].as_array().unwrap().iter().all(|f| f["resource"].get("source").is_none()));
}

/// Several `--from` paths of manifests are one lint: the VPC `elsewhere` that another folder
/// defines answers `repo/net.yaml`'s reference, a file given twice (itself and in its folder) is
/// read once, and manifests given with a snapshot are refused before anything is read.
#[test]
fn several_paths_of_manifests_are_one_lint() {
    let dir = tempfile::tempdir().unwrap();
    repo(dir.path());
    std::fs::create_dir_all(dir.path().join("shared")).unwrap();
    let elsewhere = "apiVersion: ec2.aws.upbound.io/v1beta1\nkind: VPC\nmetadata:\n  name: elsewhere\n  annotations:\n    crossplane.io/external-name: vpc-0123456789abcdef0\nspec:\n  forProvider:\n    region: us-east-1\n";
    std::fs::write(dir.path().join("shared/vpc.yaml"), elsewhere).unwrap();
    let run = upjet()
        .current_dir(dir.path())
        .args(["doctor", "--from", "repo", "--from", "shared/vpc.yaml", "--from", "repo/net.yaml", "-o", "json"])
        .status(1).stderr("linted 4 managed resources from 4 files with 11 rules (51 need a cluster); skipped 1 objects of other kinds and 1 documents that are no Kubernetes object\n2 kinds scanned, 4 managed resources, 2 errors, 1 warnings, 0 info\n").run();
    let report = run.report();
    assert!(report.find("ReferenceOutsideManifests", "a").is_none(), "{:?}", report.codes());
    assert!(report.find("PlaceholderExternalName", "a").is_some(), "{:?}", report.codes());
    let lint = &report["summary"]["lint"];
    assert_eq!((&lint["files"], &lint["manifests"]), (&Value::from(4), &Value::from(4)), "{lint}");
    assert!(report["summary"].get("clusters").is_none(), "one lint, not several snapshots: {}", report["summary"]);

    let fleet = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/fleet");
    let mixed = upjet().current_dir(dir.path()).args(["doctor", "--from", "repo", "--from"]).arg(&fleet).status(2).stderr(format!("error: repo holds manifests (desired state) and {} a snapshot of a cluster: lint the manifests and scan the snapshot in two runs of doctor\n", fleet.display())).run();
    assert!(mixed.stderr.contains("repo holds manifests (desired state) and "), "{}", mixed.stderr);
    assert_eq!(mixed.stderr.trim_end().lines().count(), 1, "{}", mixed.stderr);
}

/// A manifest exported with `kubectl get -o yaml` carries what the provider wrote: upjet's
/// field-conversions record is flagged, named, at its manifest's line; the user's own
/// annotations are not.
#[test]
fn an_annotation_the_provider_writes_is_flagged_in_a_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let exported = r#"apiVersion: ec2.aws.upbound.io/v1beta1
kind: VPC
metadata:
  name: exported
  annotations:
    crossplane.io/external-name: vpc-0a1b2c
    internal.upjet.crossplane.io/field-conversions: '{"spec.forProvider.ipv6Pool":"pool-1"}'
    team: net
spec:
  forProvider:
    region: us-east-1
---
apiVersion: ec2.aws.upbound.io/v1beta1
kind: VPC
metadata:
  name: written-by-hand
  annotations:
    crossplane.io/external-name: vpc-9z8y7x
    team: net
spec:
  forProvider:
    region: us-east-1
"#;
    std::fs::create_dir_all(dir.path().join("repo")).unwrap();
    std::fs::write(dir.path().join("repo/vpcs.yaml"), exported).unwrap();
    let run = lint(dir.path(), &["-o", "json"]).stderr("linted 2 managed resources from 1 files with 11 rules (51 need a cluster)\n1 kinds scanned, 2 managed resources, 0 errors, 1 warnings, 0 info\n").run();
    let report = run.json();
    let found: Vec<(&str, &str, u64)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "ProviderAnnotationInManifest")
        .map(|f| {
            let r = &f["resource"];
            (r["name"].as_str().unwrap(), r["source"]["file"].as_str().unwrap(), r["source"]["line"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(found, [("exported", "repo/vpcs.yaml", 1)], "{report}");
    let finding = report["findings"].as_array().unwrap().iter().find(|f| f["code"] == "ProviderAnnotationInManifest");
    let message = finding.unwrap()["message"].as_str().unwrap();
    assert!(message.contains("internal.upjet.crossplane.io/field-conversions"), "{message}");
    let ran: Vec<&Value> = report["summary"]["lint"]["rulesRun"].as_array().unwrap().iter().collect();
    assert!(ran.iter().any(|c| *c == "ProviderAnnotationInManifest"), "{ran:?}");
}
