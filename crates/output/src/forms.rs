//! kubectl's object output forms on this tool's documents: `-o name`, `-o jsonpath=…` (also
//! `jsonpath-as-json`) and `-o custom-columns=…`. A template runs on the document `-o json`
//! prints (kubectl runs it on the object or the List it would print); custom-columns print one
//! row per item of the document's list (a report's findings, a history's timeline), as kubectl
//! prints one per object. Error texts are kubectl's, so scripts and users recognise them.

use super::jsonpath::{Template, text::sprint};
use serde_json::Value;

/// A compiled output form.
#[derive(Debug, Clone)]
pub enum Form {
    /// `-o name`: `kind.group/name` per object, as kubectl prints it.
    Name,
    /// `-o jsonpath=…`, `-o jsonpath-file=…`, `-o jsonpath-as-json=…`.
    JsonPath(Template),
    /// `-o custom-columns=…` or `-o custom-columns-file=…`.
    Columns(Vec<Column>),
}

/// One custom column: its header and the template of its cells.
#[derive(Debug, Clone)]
pub struct Column {
    /// The header, as given.
    pub header: String,
    /// The cell's template (`{.a.b}`).
    pub template: Template,
}

/// A form kubectl would reject, in kubectl's words (the shell prefixes `error: `).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FormError(pub String);

impl Form {
    /// `-o jsonpath=TEMPLATE` (`as_json` for `jsonpath-as-json`).
    pub fn jsonpath(template: &str, as_json: bool) -> Result<Form, FormError> {
        let mut t =
            Template::parse(template).map_err(|e| FormError(format!("error parsing jsonpath {template}, {e}")))?;
        t.as_json = as_json;
        Ok(Form::JsonPath(t))
    }

    /// `-o custom-columns=HEADER:PATH,…`.
    pub fn custom_columns(spec: &str) -> Result<Form, FormError> {
        if spec.is_empty() {
            return Err(FormError("custom-columns format specified but no custom columns given".into()));
        }
        let columns = spec
            .split(',')
            .map(|part| {
                let (header, path) = part.split_once(':').ok_or_else(|| {
                    FormError(format!("unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"))
                })?;
                column(header, path)
            })
            .collect::<Result<_, _>>()?;
        Ok(Form::Columns(columns))
    }

    /// `-o custom-columns-file=FILE`'s text: a line of headers and a line of paths.
    pub fn custom_columns_file(text: &str) -> Result<Form, FormError> {
        let expected =
            "Expected format is one line of space separated headers, one line of space separated column specs.";
        let mut lines = text.lines();
        let headers: Vec<&str> = lines
            .next()
            .ok_or_else(|| FormError(format!("invalid template, missing header line. {expected}")))?
            .split_whitespace()
            .collect();
        let paths: Vec<&str> = lines
            .next()
            .ok_or_else(|| FormError(format!("invalid template, missing spec line. {expected}")))?
            .split_whitespace()
            .collect();
        if headers.len() != paths.len() {
            return Err(FormError(format!(
                "number of headers ({}) and field specifications ({}) don't match",
                headers.len(),
                paths.len()
            )));
        }
        let columns = headers.iter().zip(&paths).map(|(h, p)| column(h, p)).collect::<Result<_, _>>()?;
        Ok(Form::Columns(columns))
    }
}

fn column(header: &str, path: &str) -> Result<Column, FormError> {
    let relaxed = relaxed_path(path)?;
    let template =
        Template::parse(&relaxed).map_err(|e| FormError(format!("error parsing jsonpath {relaxed}, {e}")))?;
    Ok(Column { header: header.to_string(), template })
}

/// kubectl's `RelaxedJSONPathExpression`: `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all mean `{.a.b}`.
fn relaxed_path(path: &str) -> Result<String, FormError> {
    if path.is_empty() {
        return Ok(String::new());
    }
    let inner = path.strip_prefix('{').and_then(|p| p.strip_suffix('}')).unwrap_or(path);
    let inner = inner.strip_prefix('.').unwrap_or(inner);
    if inner.is_empty() || inner.contains(['{', '}']) {
        return Err(FormError(
            "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'"
                .into(),
        ));
    }
    Ok(format!("{{.{inner}}}"))
}

/// kubectl's `-o name` of an object given its apiVersion and kind: `kind.group/name`.
pub fn object_name(api_version: &str, kind: &str, name: &str) -> String {
    let kind = kind.to_lowercase();
    match api_version.split_once('/') {
        Some((group, _)) => format!("{kind}.{group}/{name}"),
        None => format!("{kind}/{name}"),
    }
}

/// `doc` in `form`: `names` for `-o name`, `items` (rows) for custom-columns, the whole
/// document for a template. Rendered whole before printing: a template that fails prints
/// nothing but kubectl's explanation.
pub fn render(
    form: &Form,
    doc: &Value,
    items: &[Value],
    names: &[String],
    no_headers: bool,
) -> Result<String, FormError> {
    match form {
        Form::Name => Ok(names.iter().map(|n| format!("{n}\n")).collect()),
        Form::JsonPath(t) => t.execute(doc).map_err(|e| {
            FormError(format!(
                "error executing jsonpath {:?}: Error executing template: {e}. Printing more information for \
                 debugging the template:\n\ttemplate was:\n\t\t{}\n",
                t.source, t.source
            ))
        }),
        Form::Columns(columns) => write_columns(columns, items, no_headers),
    }
}

/// One row per item, kubectl's tabwriter layout (minimum width 10, three spaces of padding).
fn write_columns(columns: &[Column], items: &[Value], no_headers: bool) -> Result<String, FormError> {
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(items.len() + 1);
    if !no_headers {
        rows.push(columns.iter().map(|c| c.header.clone()).collect());
    }
    for item in items {
        let mut row = Vec::with_capacity(columns.len());
        for c in columns {
            row.push(cell(&c.template, item)?);
        }
        rows.push(row);
    }
    let mut widths = vec![0usize; columns.len().saturating_sub(1)];
    for row in &rows {
        for (w, text) in widths.iter_mut().zip(row) {
            *w = (*w).max(text.chars().count() + 3).max(10);
        }
    }
    let mut out = String::new();
    for row in rows {
        for (i, text) in row.iter().enumerate() {
            out.push_str(text);
            if let Some(w) = widths.get(i) {
                out.extend(std::iter::repeat_n(' ', w - text.chars().count()));
            }
        }
        out.push('\n');
    }
    Ok(out)
}

/// A cell: every selected value by `fmt.Sprint`, joined by commas; `<none>` when nothing.
fn cell(template: &Template, item: &Value) -> Result<String, FormError> {
    let mut values: Vec<String> = Vec::new();
    let mut first_empty = None;
    template
        .find_results(item, &mut |found| {
            first_empty.get_or_insert(found.is_empty());
            values.extend(found.iter().map(|v| super::style::sanitize(&sprint(v))));
        })
        .map_err(|e| FormError(e.0))?;
    if first_empty.unwrap_or(true) {
        values.insert(0, "<none>".into());
    }
    Ok(values.join(","))
}
