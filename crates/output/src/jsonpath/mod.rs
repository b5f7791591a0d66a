//! kubectl's JSONPath templates (`-o jsonpath=…`, custom-columns cells), a port of client-go's
//! `util/jsonpath` behaviour over `serde_json::Value`. No crate implements this dialect
//! (`range`/`end`, quoted text, Go's printing); the RFC 9535 crates reject or misread it. Checked
//! against client-go's own test cases, rewritten as tables in `tests.rs`.
//!
//! Known differences: map keys are visited in sorted order (Go's order is random, so no
//! template can depend on it), and a range over nothing skips its body instead of evaluating
//! it on a nil value (which prints nothing either way when missing keys are allowed, kubectl's
//! default).

mod eval;
mod parse;
#[cfg(test)]
mod tests;
pub mod text;

pub use eval::Val;
use parse::Node;
use serde_json::Value;
use std::borrow::Cow;

/// A parsed template, ready to run on many objects.
#[derive(Debug, Clone)]
pub struct Template {
    segments: Vec<Segment>,
    /// The template as written, for error messages.
    pub source: String,
    /// kubectl's `--allow-missing-template-keys` (kubectl's default: true).
    pub allow_missing_keys: bool,
    /// `-o jsonpath-as-json`: every selected value as indented JSON.
    pub as_json: bool,
}

/// The template's top level with `{range}`…`{end}` blocks made explicit.
#[derive(Debug, Clone)]
enum Segment {
    /// Text outside actions.
    Text(String),
    /// One `{...}` action.
    Action(Vec<Node>),
    /// `{range EXPR}` body `{end}`: the body runs once per value EXPR selects.
    Range(Vec<Node>, Vec<Segment>),
    /// An `{end}` with no open range: an error when reached, as in client-go.
    StrayEnd,
}

/// A template kubectl would reject (the message is client-go's, without a prefix).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TemplateError(pub String);

fn has_identifier(nodes: &[Node], name: &str) -> bool {
    nodes.iter().any(|n| matches!(n, Node::Identifier(i) if i == name))
}

impl Template {
    /// Parses `template`; missing keys allowed, plain printing (kubectl's defaults).
    pub fn parse(template: &str) -> Result<Template, TemplateError> {
        let nodes = parse::parse(template).map_err(TemplateError)?;
        let mut stack: Vec<(Vec<Node>, Vec<Segment>)> = vec![(Vec::new(), Vec::new())];
        for node in nodes {
            match node {
                Node::Text(t) => stack.last_mut().map(|s| s.1.push(Segment::Text(t))).unwrap_or_default(),
                Node::List(list) if has_identifier(&list, "range") => stack.push((list, Vec::new())),
                Node::List(list) if has_identifier(&list, "end") => {
                    if stack.len() > 1 {
                        let (expr, body) = stack.pop().unwrap_or_default();
                        stack.last_mut().map(|s| s.1.push(Segment::Range(expr, body))).unwrap_or_default();
                    } else {
                        stack[0].1.push(Segment::StrayEnd);
                    }
                }
                Node::List(list) => stack.last_mut().map(|s| s.1.push(Segment::Action(list))).unwrap_or_default(),
                other => stack.last_mut().map(|s| s.1.push(Segment::Action(vec![other]))).unwrap_or_default(),
            }
        }
        // An unclosed range runs to the end of the template.
        while stack.len() > 1 {
            let (expr, body) = stack.pop().unwrap_or_default();
            stack.last_mut().map(|s| s.1.push(Segment::Range(expr, body))).unwrap_or_default();
        }
        let segments = stack.pop().map(|s| s.1).unwrap_or_default();
        Ok(Template { segments, source: template.to_string(), allow_missing_keys: true, as_json: false })
    }

    /// Runs the template on `data`; `sink` gets each action's (or text's) selected values in order.
    pub(crate) fn find_results<'a>(
        &self,
        data: &'a Value,
        sink: &mut dyn FnMut(&[Val<'_>]),
    ) -> Result<(), TemplateError> {
        let eval = eval::Eval { allow_missing_keys: self.allow_missing_keys };
        run(&eval, &self.segments, Cow::Borrowed(data), sink).map_err(TemplateError)
    }

    /// The template's output for `data`, printed as client-go prints it; nothing on error.
    pub fn execute(&self, data: &Value) -> Result<String, TemplateError> {
        let mut out = String::new();
        let as_json = self.as_json;
        self.find_results(data, &mut |values| print_results(&mut out, values, as_json))?;
        Ok(out)
    }
}

fn run<'a>(
    eval: &eval::Eval,
    segments: &[Segment],
    data: Val<'a>,
    sink: &mut dyn FnMut(&[Val<'_>]),
) -> Result<(), String> {
    for segment in segments {
        match segment {
            Segment::Text(t) => sink(&[Cow::Owned(Value::String(t.clone()))]),
            Segment::Action(nodes) => sink(&eval.list(vec![data.clone()], nodes)?),
            Segment::Range(expr, body) => {
                for item in eval.list(vec![data.clone()], expr)? {
                    run(eval, body, item, sink)?;
                }
            }
            Segment::StrayEnd => return Err("not in range, nothing to end".into()),
        }
    }
    Ok(())
}

/// client-go's `PrintResults`: containers as compact JSON, scalars as text, one space between.
fn print_results(out: &mut String, values: &[Val<'_>], as_json: bool) {
    for (i, v) in values.iter().enumerate() {
        if as_json {
            out.push_str(&text::to_json_indented(v));
            out.push('\n');
        } else if v.is_object() || v.is_array() {
            out.push_str(&text::to_json(v));
        } else {
            out.push_str(&text::to_text(v));
        }
        if i + 1 != values.len() {
            out.push(' ');
        }
    }
}
