//! GitOps manifests as they live in a repository (or come out of `kustomize build` and `helm
//! template`): multi-document YAML, each object kept with the line it starts on, so that a lint
//! finding can point at the file and line a reviewer edits.
//!
//! serde-saphyr reads several documents at once (`from_multiple`), but one syntax error then
//! loses every document of the file, and its spans count from the start of what it was given.
//! So the text is split here on YAML's document markers, each document parsed on its own, and
//! its lines offset by where it starts: a broken document is reported with its file's own line
//! number and the others are still read.
//!
//! What is a manifest and what is an object read back from a cluster: the API server writes
//! `metadata.uid`, `metadata.resourceVersion` and (for MRs) `status` on every object it returns,
//! and a manifest in a repository has none of them. [`Shape::of`] says which an object is; an
//! object is a managed resource when it has a `spec.forProvider` object, which every provider's
//! managed kinds have and Crossplane's other objects (compositions, MRDs, provider configs) and
//! Kubernetes' own kinds do not.

use serde::Deserialize;
use serde_json::Value;
use upjet_core::gotime::GoTime;
use upjet_core::lint::{Lint, Manifest, Reference};
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_core::rules::{self, Facts};

/// One document of a multi-document YAML text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document<'a> {
    /// The 1-based line its text starts on (a `---` marker line, or the first line of the text).
    pub start_line: usize,
    /// The 1-based line of its first content (not blank, not a comment, not a bare marker).
    pub line: usize,
    /// Its text, the starting `---` marker line included (content may follow it: `--- |`).
    pub text: &'a str,
}

/// Whether `line` (without its line break) is the document marker `marker` (`---` or `...`):
/// at column 0 and followed by nothing, a space or a tab. `---foo` is a plain scalar, and an
/// indented `---` is content (a block scalar's text); a marker at column 0 is a marker even in
/// a block scalar, as YAML forbids that text there.
fn is_marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker).is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

/// Whether a line carries content: not blank, not a comment, not a directive (`%YAML`).
fn has_content(line: &str) -> bool {
    let t = line.trim_start();
    !t.is_empty() && !t.starts_with('#') && !line.starts_with('%')
}

/// Whether what follows a `---` marker on its line is content (`--- |`, `--- !tag`).
fn content_after_marker(line: &str) -> bool {
    has_content(&line[3..])
}

/// A document being collected: where it starts (byte offset and line) and its first content line.
struct Open {
    start: usize,
    start_line: usize,
    content: Option<usize>,
}

/// Splits a YAML text into its documents on `---` and `...` marker lines, keeping line numbers.
/// Documents without content (only comments, blank lines, directives) are left out.
pub(crate) fn split_documents<'a>(text: &'a str) -> Vec<Document<'a>> {
    let body_start = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    let mut docs = Vec::new();
    let mut open = Open { start: body_start, start_line: 1, content: None };
    let close = |open: &Open, end: usize, docs: &mut Vec<Document<'a>>| {
        if let Some(line) = open.content {
            docs.push(Document { start_line: open.start_line, line, text: &text[open.start..end] });
        }
    };
    let mut offset = body_start;
    for (index, raw) in text[body_start..].split_inclusive('\n').enumerate() {
        let number = index + 1;
        let line = raw.trim_end_matches(['\n', '\r']);
        if is_marker(line, "---") {
            close(&open, offset, &mut docs);
            open = Open { start: offset, start_line: number, content: content_after_marker(line).then_some(number) };
        } else if is_marker(line, "...") {
            close(&open, offset, &mut docs);
            open = Open { start: offset + raw.len(), start_line: number + 1, content: None };
        } else if open.content.is_none() && has_content(line) {
            open.content = Some(number);
        }
        offset += raw.len();
    }
    close(&open, text.len(), &mut docs);
    docs
}

/// One object read from a manifest file, and the line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// The object.
    pub value: Value,
    /// Its 1-based first line in the file.
    pub line: usize,
}

/// A document that is not valid YAML (or JSON): where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The 1-based line of the error in the file (the document's first line when unknown).
    pub line: usize,
    /// The parser's message, without its own (document-relative) position.
    pub message: String,
}

/// What one file held: its objects, and its documents that could not be read.
#[derive(Debug, Default)]
pub struct FileRead {
    /// Every object, Lists unpacked, in file order.
    pub objects: Vec<Located>,
    /// The documents that are not valid YAML.
    pub errors: Vec<SyntaxError>,
}

/// A List document's items, each with the line it starts on in the document.
#[derive(Deserialize)]
struct SpannedList {
    #[serde(default)]
    items: Vec<serde_saphyr::Spanned<Value>>,
}

/// Whether a value is a `…List` with an `items` array.
fn is_list(value: &Value) -> bool {
    let kind = value.get("kind").and_then(Value::as_str).unwrap_or_default();
    kind.ends_with("List") && value.get("items").is_some_and(Value::is_array)
}

/// The parser's message without the position serde-saphyr appends (it counts from the start of
/// the document it was given, not of the file).
fn message_of(e: &serde_saphyr::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or_default();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let position = |s: &str| {
        let rest = s.strip_prefix("line ")?;
        let (_, rest) = rest.split_once(" column ")?;
        rest.split_once(": ").map(|(_, m)| m.to_string())
    };
    let first = position(first).unwrap_or_else(|| first.to_string());
    match first.rfind(" at line ") {
        Some(at) => first[..at].to_string(),
        None => first,
    }
}

/// Reads one YAML text (a file, or what kustomize or helm printed): every document parsed on
/// its own, Lists unpacked with each item's line.
pub fn read_yaml(text: &str) -> FileRead {
    let mut read = FileRead::default();
    for doc in split_documents(text) {
        let value: Value = match serde_saphyr::from_str(doc.text) {
            Ok(v) => v,
            Err(e) => {
                let line = e.location().map_or(doc.line, |l| doc.start_line + l.line().saturating_sub(1) as usize);
                read.errors.push(SyntaxError { line, message: message_of(&e) });
                continue;
            }
        };
        if !is_list(&value) {
            read.objects.push(Located { value, line: doc.line });
            continue;
        }
        match serde_saphyr::from_str::<SpannedList>(doc.text) {
            Ok(list) => read.objects.extend(list.items.into_iter().map(|i| Located {
                line: doc.start_line + (i.defined.line() as usize).saturating_sub(1),
                value: i.value,
            })),
            Err(e) => read.errors.push(SyntaxError { line: doc.line, message: message_of(&e) }),
        }
    }
    read
}

/// Reads one JSON file: one object, or a List whose items all get the file's first line (JSON
/// exports of a cluster are snapshots; GitOps repositories hold YAML).
pub fn read_json(text: &str) -> FileRead {
    let mut read = FileRead::default();
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => {
            let value = Value::Object(map);
            if is_list(&value) {
                let items = value.get("items").and_then(Value::as_array).cloned().unwrap_or_default();
                read.objects.extend(items.into_iter().map(|value| Located { value, line: 1 }));
            } else {
                read.objects.push(Located { value, line: 1 });
            }
        }
        Ok(_) => read.errors.push(SyntaxError { line: 1, message: "not a JSON object".into() }),
        Err(e) => {
            let message = e.to_string();
            let message = message.rfind(" at line ").map_or(message.clone(), |at| message[..at].to_string());
            read.errors.push(SyntaxError { line: e.line().max(1), message });
        }
    }
    read
}

/// What an object read from a file is, for a lint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A managed resource as written in a repository: desired state only.
    Manifest,
    /// A managed resource read back from a cluster (it has a status, a uid or a resourceVersion).
    Live,
    /// A Kubernetes object of another kind (no `spec.forProvider`): not linted, counted.
    NotManaged,
    /// Not a Kubernetes object at all (no kind, apiVersion or metadata.name): a values file.
    NotObject,
}

impl Shape {
    /// The shape of one object (see the module's documentation for the rules).
    pub fn of(value: &Value) -> Shape {
        let text = |pointer: &str| value.pointer(pointer).and_then(Value::as_str).filter(|s| !s.is_empty());
        if text("/kind").is_none() || text("/apiVersion").is_none() || text("/metadata/name").is_none() {
            return Shape::NotObject;
        }
        if !value.pointer("/spec/forProvider").is_some_and(Value::is_object) {
            return Shape::NotManaged;
        }
        let live = value.get("status").is_some_and(|s| !s.is_null())
            || text("/metadata/uid").is_some()
            || text("/metadata/resourceVersion").is_some();
        if live { Shape::Live } else { Shape::Manifest }
    }
}

/// The references an MR's manifest makes to other MRs: every `*Ref` (an object with a `name`)
/// and `*Refs` (a list of them) under `spec.forProvider` and `spec.initProvider`, at any depth.
/// Secret references (`*SecretRef`) name a Secret, not an MR, and are left out.
pub fn references(value: &Value) -> Vec<Reference> {
    let mut out = Vec::new();
    for part in ["forProvider", "initProvider"] {
        if let Some(v) = value.get("spec").and_then(|s| s.get(part)) {
            collect_refs(v, &format!("spec.{part}"), &mut out);
        }
    }
    out
}

/// The annotations of an MR's manifest that its provider writes (`lint::WRITTEN_BY_PROVIDER`).
pub fn provider_annotations(value: &Value) -> Vec<String> {
    let annotations = value.pointer("/metadata/annotations").and_then(Value::as_object);
    upjet_core::lint::provider_annotations(annotations.into_iter().flat_map(|a| a.keys().map(String::as_str)))
}

/// One reference object: its name and namespace, if it is one.
fn reference_in(field: String, v: &Value) -> Option<Reference> {
    let name = v.get("name")?.as_str()?.to_string();
    let namespace = v.get("namespace").and_then(Value::as_str).map(str::to_owned);
    Some(Reference { field, name, namespace })
}

fn collect_refs(v: &Value, path: &str, out: &mut Vec<Reference>) {
    match v {
        Value::Object(map) => {
            for (key, child) in map {
                let field = format!("{path}.{key}");
                if key.ends_with("SecretRef") || key.ends_with("SecretRefs") {
                    continue;
                }
                if key.ends_with("Ref") && child.is_object() {
                    out.extend(reference_in(field, child));
                } else if key.ends_with("Refs") && child.is_array() {
                    let items = child.as_array().into_iter().flatten().enumerate();
                    out.extend(items.filter_map(|(i, r)| reference_in(format!("{field}[{i}]"), r)));
                } else {
                    collect_refs(child, &field, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                collect_refs(child, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// Whether the first bytes of a file look like objects read back from a cluster rather than
/// manifests: the keys the API server writes on every object it returns (`resourceVersion`; in
/// JSON also `uid`; a non-null `creationTimestamp` — `kubectl create --dry-run -o yaml` writes
/// `null`) or
/// a `status` at an object's own level (indented at most two columns: a `status` under
/// `spec.forProvider` is a field of the cloud object). Used on the first file of a `--from` to
/// tell a snapshot from a repository of manifests without reading the input twice.
pub fn head_looks_live(head: &str) -> bool {
    if head.trim_start().starts_with(['{', '[']) {
        return ["\"resourceVersion\":", "\"uid\":", "\"conditions\":"].iter().any(|k| head.contains(k));
    }
    head.lines().any(|line| {
        let indent = line.len() - line.trim_start_matches([' ', '-']).len();
        let key = line.trim_start_matches([' ', '-']);
        let value = |k: &str| key.strip_prefix(k).and_then(|r| r.strip_prefix(':')).map(str::trim);
        value("resourceVersion").is_some()
            || value("creationTimestamp").is_some_and(|v| v != "null" && v != "~" && !v.is_empty())
            || value("status").is_some() && indent <= 2
    })
}

/// Judges every manifest of a lint at `now` by the rules that need no status, each with the
/// evidence what the whole set shows makes of it (`domain::lint::facts`, through the one
/// constructor, `sources::mr_evidence`). The rules about time find nothing without status, so no
/// reconcile timeout matters: upjet's is assumed.
pub fn lint(manifests: &[Manifest], now: GoTime) -> Lint {
    let at = JudgedAt::upjet(now);
    let findings = upjet_core::lint::facts(manifests)
        .into_iter()
        .zip(manifests)
        .map(|((shared, desired), m)| {
            let evidence = super::sources::mr_evidence(&m.mr, &[&shared, &desired]);
            rules::desired_findings(&Facts::with_evidence(&m.mr, Some(&evidence), at))
        })
        .collect();
    let (ran, need_cluster) = rules::lint_codes();
    Lint { findings, ran, need_cluster }
}

#[cfg(test)]
#[path = "manifests_tests.rs"]
mod tests;
