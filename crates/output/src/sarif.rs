//! `doctor -o sarif`: SARIF 2.1.0, the format GitHub code scanning and other CI dashboards read.
//! One rule per finding code, its help taken from docs/findings.md (the table row of the code),
//! one result per finding with a logical location `group/kind/namespace/name` and a
//! `partialFingerprints` entry that depends only on the cluster, the MR and the code: stable
//! across runs, distinct per (MR, code), so code scanning keeps one alert per problem.

use serde_json::{Value, json};
use std::io::{self, Write};
use upjet_core::finding::{Code, ResourceRef, Severity};
use upjet_core::report::Report;

/// The finding codes' documentation, compiled in so the rules' help needs no file at run time:
/// docs/findings.md's tables, and inventory.md's for the codes of `--inventory`.
const CODE_DOCS: [&str; 3] = [
    include_str!("../../../docs/findings.md"),
    include_str!("../../../docs/inventory.md"),
    include_str!("../../../docs/lint.md"),
];

/// Where the docs live on the web; each rule's help is its code's row there (`Code::properties`'s
/// `docs`: a page and the row's anchor).
pub(crate) const DOCS_URI: &str = "https://github.com/kubectl-upjet/kubectl-upjet/blob/main/docs";

/// A code's table row in the docs, found by the anchor its row in `domain/codes.rs` names: (fires
/// when, why it matters, next). inventory.md's rows have a `suggestedId` column instead of the
/// last two.
fn doc_row(code: Code) -> Option<(String, String, String)> {
    let anchor = code.properties().docs.split_once('#').map(|(_, a)| a)?;
    let mark = format!("| <a id=\"{anchor}\"></a>`{}` |", code.as_str());
    let line = CODE_DOCS.iter().flat_map(|d| d.lines()).find(|l| l.starts_with(&mark))?;
    let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
    match cells.as_slice() {
        [_, _, fires, why, next, ..] => Some((fires.to_string(), why.to_string(), next.to_string())),
        [_, severity, fires, suggested] => Some((
            fires.to_string(),
            format!("an inventory finding ({severity}); suggestedId: {suggested}"),
            "kubectl upjet history KIND/NAME --inventory FILE".to_string(),
        )),
        _ => None,
    }
}

/// SARIF's level for a severity.
fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The MR as a logical location: `group/kind/namespace/name` (namespace `-` when cluster-scoped),
/// prefixed by the cluster when the report covers several.
pub(crate) fn logical_name(r: &ResourceRef) -> String {
    let group = r.api_version.split_once('/').map_or("core", |(g, _)| g);
    let ns = r.namespace.as_deref().unwrap_or("-");
    let base = format!("{group}/{}/{ns}/{}", r.kind, r.name);
    match &r.cluster {
        Some(c) => format!("{c}:{base}"),
        None => base,
    }
}

/// FNV-1a, 64 bits: a fingerprint that is the same on every machine and every release.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The fingerprint of one (MR, code).
pub fn fingerprint(r: &ResourceRef, code: Code) -> String {
    format!("{:016x}", fnv1a(&format!("{}\u{0}{}", logical_name(r), code.as_str())))
}

fn rule(code: Code) -> Value {
    let (fires, why, next) = doc_row(code).unwrap_or_default();
    let text = format!("Fires when: {fires}\n\nWhy it matters: {why}\n\nNext: {next}");
    json!({
        "id": code.as_str(),
        "name": code.as_str(),
        "shortDescription": {"text": why.split(". ").next().unwrap_or(code.as_str())},
        "fullDescription": {"text": fires},
        "help": {"text": text, "markdown": format!("**Fires when** {fires}\n\n**Why it matters** {why}\n\n**Next** {next}")},
        "helpUri": format!("{DOCS_URI}/{}", code.properties().docs),
        "defaultConfiguration": {"level": level(code.severity())},
    })
}

/// Where a result is: always the MR as a logical location, and, when a lint read its manifest
/// from a file, that file (a relative URI, as code scanning resolves it against the checkout)
/// and line.
fn location(r: &ResourceRef) -> Value {
    let logical = json!([{"fullyQualifiedName": logical_name(r), "name": r.name, "kind": "resource"}]);
    match r.source.as_ref().filter(|s| s.file != "-") {
        Some(s) => json!({
            "physicalLocation": {"artifactLocation": {"uri": uri(&s.file)}, "region": {"startLine": s.line}},
            "logicalLocations": logical,
        }),
        None => json!({"logicalLocations": logical}),
    }
}

/// A file path as a relative URI reference: `/` separators, and the characters a URI cannot
/// carry percent-encoded.
pub fn uri(file: &str) -> String {
    let mut out = String::with_capacity(file.len());
    for b in file.replace('\\', "/").bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The SARIF log of a report.
pub fn sarif(report: &Report) -> Value {
    let rules: Vec<Value> = Code::ALL.iter().map(|c| rule(*c)).collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let index = Code::ALL.iter().position(|c| *c == f.finding.code).unwrap_or_default();
            json!({
                "ruleId": f.finding.code.as_str(),
                "ruleIndex": index,
                "level": level(f.finding.severity),
                "message": {"text": format!("{}: {}. Next: {}", f.resource.name, f.finding.message, f.finding.next)},
                "locations": [location(&f.resource)],
                "partialFingerprints": {"upjetResourceCode/v1": fingerprint(&f.resource, f.finding.code)},
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "kubectl-upjet",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/kubectl-upjet/kubectl-upjet",
                "rules": rules,
            }},
            "results": results,
        }],
    })
}

/// Writes the SARIF log, compact (CI uploads it; nobody reads it by eye).
pub fn write_sarif(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &sarif(report)).map_err(io::Error::other)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_paths_become_relative_uri_references() {
        assert_eq!(super::uri("deploy/vpc.yaml"), "deploy/vpc.yaml");
        assert_eq!(super::uri("deploy\\my app/ü#1.yaml"), "deploy/my%20app/%C3%BC%231.yaml");
    }
}
