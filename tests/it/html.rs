//! `-o html` in a real browser: headless Chromium (Debian's `chromium`, installed by `.ci/run` when
//! missing; without it a test fails on CI and checks only the page's text elsewhere) loads the page
//! from a file and dumps the DOM its scripts leave. The page's first script counts errors into
//! `data-js-errors` on the root element (`window.onerror`, which also sees a later script that
//! fails to parse) and its last sets `data-js-ready`, so the dump shows whether the page ran
//! cleanly. The history page shows one mark per timeline entry of the JSON; doctor's page one row
//! per finding under its summary; an MR named like markup stays text.

use crate::support::FLEET_SUMMARY;
use crate::support::{installed, upjet};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

const FLEET: &str = "examples/fleet";

/// The DOM headless Chromium builds from `page`, after its scripts ran.
fn dump_dom(page: &Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new("chromium")
        .args(["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Writes `html` into a scratch folder and returns the folder and the page's DOM; `None` when
/// Chromium is not installed and this is not CI (see [`installed`]).
fn render(html: &str) -> Option<(tempfile::TempDir, String)> {
    if !installed("chromium", "chromium") {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    std::fs::write(&page, html).unwrap();
    let dom = dump_dom(&page);
    Some((dir, dom))
}

/// The page ran its scripts to the end without an error.
fn ran_cleanly(dom: &str) {
    let root = dom.lines().find(|l| l.starts_with("<html")).unwrap_or_default();
    assert!(root.contains("data-js-ready=\"1\""), "the page's script did not finish: {root}");
    assert!(!root.contains("data-js-errors"), "the page had script errors: {root}");
}

/// Nothing is fetched: no attribute points at the network (the SVG namespace is a name, not a
/// fetch) and the page's policy forbids loads.
fn self_contained(html: &str) {
    for attr in ["src=\"http", "href=\"http", "url(", "@import"] {
        assert!(!html.contains(attr), "{attr} in the page");
    }
    assert!(html.contains("default-src 'none'"), "the content policy forbids loads");
}

#[test]
fn history_shows_one_mark_per_timeline_entry() {
    for args in [
        &["vpc.ec2.aws.upbound.io/core-vpc", "--from", FLEET, "--audit-log", "examples/audit/kube-apiserver-audit.log"]
            [..],
        &[
            "zone.route53.aws.upbound.io/corp-payments",
            "--from",
            "examples/cloud-audit/fleet.json",
            "--cloud-audit",
            "examples/cloud-audit/cloudtrail.jsonl",
        ][..],
    ] {
        let json = upjet().arg("history").args(args).json().run().json();
        let entries = json["timeline"]["entries"].as_array().unwrap();
        assert!(entries.len() > 3, "{json}");
        let html = upjet().arg("history").args(args).args(["-o", "html"]).run().stdout;
        self_contained(&html);
        let Some((_dir, dom)) = render(&html) else { return };
        ran_cleanly(&dom);
        assert_eq!(dom.matches("<g class=\"mark").count(), entries.len(), "{args:?}");
        assert!(dom.contains(&format!("data-marks=\"{}\"", entries.len())), "the script saw every mark");
        for (i, e) in entries.iter().enumerate() {
            let source = e["source"].as_str().unwrap();
            assert!(dom.contains(&format!("data-index=\"{i}\" data-source=\"{source}\"")), "mark {i}: {e}");
        }
        let highlights = json["timeline"]["highlights"].as_array().unwrap();
        assert!(!highlights.is_empty() && dom.contains("<h2>What matters</h2>"));
    }
}

#[test]
fn doctor_shows_the_summary_over_a_sortable_filterable_table() {
    let report =
        upjet().args(["doctor", "--from", FLEET]).json().status(1).stderr(format!("{FLEET_SUMMARY}\n")).run().json();
    let findings = report["findings"].as_array().unwrap();
    let run =
        upjet().args(["doctor", "--from", FLEET, "-o", "html"]).status(1).stderr(format!("{FLEET_SUMMARY}\n")).run();
    self_contained(&run.stdout);
    let Some((_dir, dom)) = render(&run.stdout) else { return };
    ran_cleanly(&dom);
    assert_eq!(dom.matches("<tr data-s=\"").count(), findings.len());
    for severity in ["error", "warning", "info"] {
        let n = findings.iter().filter(|f| f["severity"] == severity).count();
        assert_eq!(dom.matches(&format!("<tr data-s=\"{severity}\"")).count(), n, "{severity}");
    }
    let n = findings.len();
    assert!(dom.contains(&format!("{n} of {n} findings shown")), "the filter script counted the rows");
    let summary = dom.find("id=\"summary\"").unwrap();
    assert!(summary < dom.find("id=\"findings-table\"").unwrap(), "the summary is on top");
    let errors = report["summary"]["findings"]["error"].as_u64().unwrap();
    assert!(dom.contains(&format!("<b>{errors}</b>errors")), "{}", &dom[summary..summary + 400]);
}

/// An MR as a snapshot could hold it: its name (doctor; history refuses a name Kubernetes would),
/// external-name and Synced message written as markup.
fn evil(name: &str) -> Value {
    serde_json::json!({
        "apiVersion": "ec2.aws.upbound.io/v1beta1", "kind": "VPC",
        "metadata": {"name": name, "uid": format!("u-{}", name.len()), "resourceVersion": "1",
            "annotations": {"crossplane.io/external-create-pending": "2024-11-30T10:20:05Z",
                "crossplane.io/external-name": "\"><img src=y onerror=alert(2)><script>document.title='owned'</script>"}},
        "spec": {"forProvider": {"region": "eu-west-1"}},
        "status": {"conditions": [{"type": "Synced", "status": "False", "reason": "ReconcileError",
            "lastTransitionTime": "2024-11-30T10:20:06Z",
            "message": "</td></tr><img src=z onerror=alert(3)><script>window.owned=1</script>"}]},
    })
}

#[test]
fn markup_in_an_mr_stays_text() {
    let name = "<img src=x onerror=alert(1)>";
    let snapshot = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [evil(name), evil("evil")]});
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("evil.json");
    std::fs::write(&file, snapshot.to_string()).unwrap();
    let doctor = upjet()
        .args(["doctor", "-o", "html", "--from"])
        .arg(&file)
        .status(1)
        .stderr("1 kinds scanned, 2 managed resources, 4 errors, 2 warnings, 0 info\n")
        .run()
        .stdout;
    assert!(doctor.contains("&lt;img src=x onerror=alert(1)&gt;"), "the name is shown as text");
    let history = upjet().args(["history", "vpc/evil", "-o", "html", "--from"]).arg(&file).run();
    assert!(history.stdout.contains("<svg"), "{}", history.stderr);
    assert!(history.stdout.contains("&lt;img src=y onerror=alert(2)&gt;"), "the external-name is shown as text");
    for html in [doctor, history.stdout] {
        let Some((_dir, dom)) = render(&html) else { return };
        ran_cleanly(&dom);
        assert!(!dom.contains("<img"), "an element was made from the MR's text");
        assert_eq!(dom.matches("<script").count(), 2, "only the page's own scripts");
        assert!(!dom.contains("<title>owned"), "{dom}");
    }
}

#[test]
fn history_json_and_page_agree_without_a_browser() {
    let json: Value = upjet().args(["history", "vpc.ec2.aws.upbound.io/core-vpc", "--from", FLEET]).json().run().json();
    let html = upjet().args(["history", "vpc.ec2.aws.upbound.io/core-vpc", "--from", FLEET, "-o", "html"]).run().stdout;
    assert_eq!(html.matches("<g class=\"mark\"").count(), json["timeline"]["entries"].as_array().unwrap().len());
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
}
