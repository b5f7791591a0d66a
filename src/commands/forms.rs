//! kubectl's object forms (`-o name|jsonpath=…|custom-columns=…`) for doctor and history: the
//! template files read and the form compiled when the command's printer opens, before anything
//! is scanned (a bad one is a usage error, exit 2, in kubectl's words), and the document each
//! command prints as JSON handed to `output::forms`.

use crate::cli::output::FormSpec;
use serde_json::Value;
use std::io::Write;
use upjet_core::error::Error;
use upjet_core::report::Report;
use upjet_output::forms::{Form, FormError, object_name, render};

fn usage(e: FormError) -> Error {
    Error::usage(e.0)
}

fn read(path: &std::path::Path) -> Result<String, Error> {
    std::fs::read_to_string(path)
        .map_err(|e| Error::usage(format!("cannot read template {}", path.display())).because(e))
}

/// Reads the form's file, if any, and compiles it.
pub fn compile(spec: &FormSpec) -> Result<Form, Error> {
    match spec {
        FormSpec::Name => Ok(Form::Name),
        FormSpec::JsonPath(t) => Form::jsonpath(t, false).map_err(usage),
        FormSpec::JsonPathAsJson(t) => Form::jsonpath(t, true).map_err(usage),
        FormSpec::JsonPathFile(path) => Form::jsonpath(&read(path)?, false).map_err(usage),
        FormSpec::CustomColumns(spec) => Form::custom_columns(spec).map_err(usage),
        FormSpec::CustomColumnsFile(path) => Form::custom_columns_file(&read(path)?).map_err(usage),
    }
}

fn print(
    out: &mut dyn Write,
    form: &Form,
    doc: &Value,
    items: &[Value],
    names: &[String],
    no_headers: bool,
) -> anyhow::Result<()> {
    let text = render(form, doc, items, names, no_headers).map_err(usage)?;
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// A doctor report in `form` (compiled before the scan): one name per MR with findings, one
/// row per finding.
pub(crate) fn print_report(out: &mut dyn Write, form: &Form, report: &Report, no_headers: bool) -> anyhow::Result<()> {
    let mut names: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for f in &report.findings {
        let r = &f.resource;
        let name = object_name(&r.api_version, &r.kind, &r.name);
        if seen.insert((r.cluster.clone(), r.namespace.clone(), name.clone())) {
            names.push(name);
        }
    }
    let doc = if matches!(form, Form::Name) { Value::Null } else { serde_json::to_value(report)? };
    let items = doc.get("findings").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    print(out, form, &doc, items, &names, no_headers)
}

/// A history document in `form` (compiled before the MR is read): the MR's name, one row per
/// timeline entry.
pub(crate) fn print_history(out: &mut dyn Write, form: &Form, doc: &Value) -> anyhow::Result<()> {
    let resource = &doc["resource"];
    let field = |k: &str| resource.get(k).and_then(Value::as_str).unwrap_or_default();
    let names = [object_name(field("apiVersion"), field("kind"), field("name"))];
    let items = doc.pointer("/timeline/entries").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    print(out, form, doc, items, &names, false)
}

/// In a GitHub Actions step: the error findings as annotations on stderr (the runner reads
/// workflow commands from both streams, and stdout stays the chosen format), and the Markdown
/// summary appended to the step's summary file.
pub(crate) fn github_actions(report: &Report, step_summary: Option<&std::path::Path>) -> anyhow::Result<()> {
    use anyhow::Context;
    eprint!("{}", upjet_output::github::annotations(report));
    if let Some(path) = step_summary {
        upjet_local::store::append(path, upjet_output::github::step_summary(report).as_bytes())
            .with_context(|| format!("cannot write $GITHUB_STEP_SUMMARY {}", path.display()))?;
    }
    Ok(())
}
