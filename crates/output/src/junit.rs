//! `doctor -o junit`: the JUnit XML report Jenkins, GitLab and most CI servers show as tests.
//! One testsuite per kind (`Kind.group`), one testcase per MR in the report, one failure per
//! error finding; warnings and notes go to the testcase's `system-out`, so they are seen
//! without failing the build. The report lists MRs with findings only, so those are the cases.

use super::markup::{self, Markup};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use upjet_core::finding::Severity;
use upjet_core::report::{Report, ReportFinding};

/// XML text and attribute escaping (`output::markup`; drops characters XML 1.0 cannot carry).
fn escape(s: &str) -> String {
    markup::escape(s, Markup::Xml)
}

type Suites<'a> = BTreeMap<String, BTreeMap<String, Vec<&'a ReportFinding>>>;

fn suites(report: &Report) -> Suites<'_> {
    let mut suites: Suites<'_> = BTreeMap::new();
    for f in &report.findings {
        let r = &f.resource;
        let group = r.api_version.split_once('/').map_or("core", |(g, _)| g);
        let mut case = r.namespace.as_ref().map_or_else(|| r.name.clone(), |ns| format!("{ns}/{}", r.name));
        if let Some(c) = &r.cluster {
            case = format!("{c}:{case}");
        }
        suites.entry(format!("{}.{group}", r.kind)).or_default().entry(case).or_default().push(f);
    }
    suites
}

fn testcase(xml: &mut String, suite: &str, case: &str, findings: &[&ReportFinding]) {
    let place = match findings.first().and_then(|f| f.resource.source.as_ref()) {
        Some(s) => format!(" file=\"{}\" line=\"{}\"", escape(&s.file), s.line),
        None => String::new(),
    };
    let _ = writeln!(xml, "    <testcase classname=\"{}\" name=\"{}\"{place}>", escape(suite), escape(case));
    let mut notes = String::new();
    for f in findings {
        let code = f.finding.code.as_str();
        if f.finding.severity == Severity::Error {
            let _ = writeln!(
                xml,
                "      <failure type=\"{code}\" message=\"{}\">{}\nNext: {}</failure>",
                escape(&f.finding.message),
                escape(&f.finding.message),
                escape(&f.finding.next)
            );
        } else {
            let _ = writeln!(notes, "{} {code}: {} (next: {})", f.finding.severity, f.finding.message, f.finding.next);
        }
    }
    if !notes.is_empty() {
        let _ = writeln!(xml, "      <system-out>{}</system-out>", escape(&notes));
    }
    xml.push_str("    </testcase>\n");
}

/// The JUnit XML of a report.
pub fn junit(report: &Report) -> String {
    let suites = suites(report);
    let failing = |cases: &BTreeMap<String, Vec<&ReportFinding>>| {
        cases.values().filter(|fs| fs.iter().any(|f| f.finding.severity == Severity::Error)).count()
    };
    let tests: usize = suites.values().map(BTreeMap::len).sum();
    let failures: usize = suites.values().map(failing).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(xml, "<testsuites name=\"kubectl-upjet doctor\" tests=\"{tests}\" failures=\"{failures}\">");
    for (suite, cases) in &suites {
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">",
            escape(suite),
            cases.len(),
            failing(cases)
        );
        for (case, findings) in cases {
            testcase(&mut xml, suite, case, findings);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// Writes the JUnit XML of a report.
pub fn write_junit(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    out.write_all(junit(report).as_bytes())
}
