//! What upjet's CLI workspace logged from Terraform: the `-json` UI stream in the `out` field.
//!
//! Exists because in CLI mode (upjet pkg/terraform/workspace.go) the cloud ID is not a log
//! key of its own: it is inside the Terraform output the workspace logs after `apply`,
//! `refresh` and `import` (`hook.id_value` of `apply_complete` / `refresh_complete`, the
//! `[id=...]` of "Creation complete after", or the plain-text import messages).

use serde_json::{Map, Value};

use super::mask::mask_secrets;
use super::record::{non_empty, str_field};

/// What a Terraform `-json` UI stream (the CLI workspace `out` field) says about IDs.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TfOut {
    /// Last non-empty `hook.id_value` of `apply_complete` / `refresh_complete`
    /// (or the ID of a successful import).
    pub current: Option<String>,
    /// IDs of `apply_complete` entries whose action creates an object.
    pub created: Vec<String>,
    /// First error diagnostic.
    pub error: Option<String>,
    /// Terraform resource name (`hook.resource.resource_name`), = MR name in upjet.
    pub resource_name: Option<String>,
    /// Short human summary for the evidence excerpt.
    pub summary: Vec<String>,
}

/// Parsing state across the lines of one `out` field.
#[derive(Default)]
struct TfOutParser {
    tf: TfOut,
    /// ID named by `Importing from ID "..."`, reported only once the import succeeded.
    importing: Option<String>,
    import_ok: bool,
    /// The error came from a `diagnostic` entry (better than `apply_errored`'s summary).
    err_from_diag: bool,
}

fn bracket_id(msg: &str, marker: &str) -> Option<String> {
    let p = msg.find(marker)?;
    let rest = &msg[p..];
    let s = rest.find(" [id=")? + 5;
    let inner = &rest[s..];
    let e = inner.find(']')?;
    non_empty(Some(&inner[..e])).map(str::to_string)
}

/// Parses the Terraform machine-readable UI stream logged by upjet's CLI workspace.
pub(crate) fn parse_tf_out(out: &str) -> TfOut {
    let mut p = TfOutParser::default();
    for line in out.split('\n') {
        let l = line.trim();
        if l.is_empty() {
            continue;
        }
        if l.starts_with('{')
            && let Ok(Value::Object(v)) = serde_json::from_str::<Value>(l)
        {
            p.json_entry(&v);
            continue;
        }
        // Plain text (terraform import has no -json), or a broken JSON line.
        p.text_line(l);
    }
    p.finish()
}

impl TfOutParser {
    fn json_entry(&mut self, v: &Map<String, Value>) {
        let typ = str_field(v, "type").unwrap_or("");
        let hook = v.get("hook").and_then(Value::as_object);
        let msg = str_field(v, "@message").unwrap_or("");
        if let Some(h) = hook
            && self.tf.resource_name.is_none()
        {
            self.tf.resource_name =
                h.get("resource").and_then(|r| r.get("resource_name")).and_then(Value::as_str).map(str::to_string);
        }
        let id_value = hook.and_then(|h| non_empty(str_field(h, "id_value"))).map(str::to_string);
        let action = hook.and_then(|h| str_field(h, "action")).unwrap_or("");
        match typ {
            "apply_complete" => {
                self.apply_complete(id_value.or_else(|| bracket_id(msg, "Creation complete after")), action)
            }
            "refresh_complete" => {
                if let Some(id) = id_value {
                    self.tf.summary.push(format!("refreshed id={id}"));
                    self.tf.current = Some(id);
                }
            }
            "apply_errored" | "diagnostic" => self.error_entry(v, typ, msg),
            _ => {}
        }
    }

    fn apply_complete(&mut self, id: Option<String>, action: &str) {
        let tf = &mut self.tf;
        if let Some(id) = id {
            if matches!(action, "create" | "replace" | "") {
                tf.created.push(id.clone());
                tf.summary.push(format!("created id={id}"));
            } else {
                tf.summary.push(format!("{action} id={id}"));
            }
            tf.current = Some(id);
        } else if !action.is_empty() {
            tf.summary.push(format!("{action} complete"));
        }
    }

    fn error_entry(&mut self, v: &Map<String, Value>, typ: &str, msg: &str) {
        let is_err = typ == "apply_errored" || str_field(v, "@level") == Some("error");
        // The first error diagnostic is the most useful text; an
        // `apply_errored` line only says "Creation errored after 2s".
        let better = typ == "diagnostic" && !self.err_from_diag;
        if is_err && (self.tf.error.is_none() || better) {
            self.err_from_diag |= typ == "diagnostic";
            let detail =
                v.get("diagnostic").and_then(|d| d.get("detail")).and_then(Value::as_str).filter(|d| !d.is_empty());
            let e = match detail {
                Some(d) => format!("{msg}: {d}"),
                None => msg.to_string(),
            };
            self.tf.error = Some(mask_secrets(&e).into_owned());
        }
    }

    fn text_line(&mut self, l: &str) {
        let tf = &mut self.tf;
        if let Some(id) = bracket_id(l, "Creation complete after") {
            tf.created.push(id.clone());
            tf.summary.push(format!("created id={id}"));
            tf.current = Some(id);
        } else if let Some(p) = l.find("Importing from ID \"") {
            let rest = &l[p + 19..];
            if let Some(e) = rest.find('"') {
                self.importing = non_empty(Some(&rest[..e])).map(str::to_string);
            }
        } else if l.contains("Import successful") {
            self.import_ok = true;
        } else if l.starts_with("Error:") && tf.error.is_none() {
            tf.error = Some(mask_secrets(l).into_owned());
        }
    }

    fn finish(mut self) -> TfOut {
        if let (Some(id), true) = (self.importing, self.import_ok) {
            self.tf.summary.push(format!("imported id={id}"));
            self.tf.current = Some(id);
        }
        self.tf
    }
}
