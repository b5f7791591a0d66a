//! Extraction: the §3.6 rules that turn one [`LogRecord`] into [`Evidence`].

use chrono::SecondsFormat;
use serde_json::{Map, Value};

use super::decode::KubeEvent;
use super::mask::mask_secrets;
use super::{Evidence, EvidenceKind, Level, LogRecord, MAX_SOURCE_CHARS, MrRef, Origin};

const MSG_ASYNC_CREATE_ENDED: &str = "Async create ended.";
const MSG_ASYNC_CREATE_STARTING: &str = "Async create starting...";
const MSG_ASYNC_CREATE_CALLBACK_FAILED: &str = "Async create callback failed";
const MSG_STATE_RECONSTRUCTING: &str = "Instance state not found in cache, reconstructing...";
const MSG_RECOVERED_EXTERNAL_NAME: &str = "recovered external name from last failed async operation";
const MSG_CRITICAL_ANNOTATIONS: &str = "Critical annotations have been updated.";
const MSG_CREATE_REQUESTED: &str = "Successfully requested creation of external resource";
const MSG_CREATE_INCOMPLETE_PREFIX: &str = "cannot determine creation result";
const MSG_CREATE_FAILED: &str = "Cannot create external resource";
const MSG_DELETE_REQUESTED: &str = "Successfully requested deletion of external resource";
const MSG_DELETED: &str = "Successfully deleted managed resource";

fn str_field<'a>(f: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    f.get(key).and_then(Value::as_str)
}

fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.is_empty())
}

/// Value of an ID-like key: `Some(string)` when logged as a string (possibly empty),
/// `None` when absent or `null`.
fn id_field(f: &Map<String, Value>, key: &str) -> Option<String> {
    match f.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn error_field(f: &Map<String, Value>) -> Option<String> {
    match f.get("error")? {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(mask_secrets(s).into_owned()),
        other => Some(mask_secrets(&other.to_string()).into_owned()),
    }
}

/// Last path component of a CLI workspace dir (`/tmp/<uid>` → `<uid>`).
pub(crate) fn workspace_uid(ws: &str) -> Option<&str> {
    let t = ws.trim_end_matches(['/', '\\']);
    let last = t.rsplit(['/', '\\']).next()?;
    (!last.is_empty()).then_some(last)
}

/// `<gvk>/<ns>/<name>` from upjet callback error texts
/// (`cannot update status of the resource <gvk>/<ns>/<name> after an async create: ...`).
pub(crate) fn parse_callback_target(err: &str) -> Option<(Option<String>, Option<String>, String)> {
    let start = ["of the resource ", "cannot get resource ", "reconciliation of the resource "]
        .iter()
        .find_map(|m| err.find(m).map(|p| p + m.len()))?;
    let rest = &err[start..];
    let end = rest.find(" after an async").unwrap_or(rest.len());
    let target = &rest[..end];
    let (gvk, nsname) = match target.find(", Kind=") {
        Some(k) => {
            let after = &target[k + 7..];
            let slash = after.find('/')?;
            (Some(target[..k + 7 + slash].to_string()), &after[slash + 1..])
        }
        None => (None, target),
    };
    let (ns, name) = match nsname.split_once('/') {
        Some((ns, name)) => (non_empty(Some(ns)).map(str::to_string), name),
        None => (None, nsname),
    };
    if name.is_empty() {
        return None;
    }
    Some((gvk, ns, name.to_string()))
}

fn mr_ref(f: &Map<String, Value>) -> MrRef {
    let mut mr = MrRef::default();
    match f.get("request") {
        Some(Value::Object(r)) => {
            mr.name = non_empty(str_field(r, "name")).map(str::to_string);
            mr.namespace = non_empty(str_field(r, "namespace")).map(str::to_string);
        }
        Some(Value::String(r)) => {
            // Old builds print `types.NamespacedName.String()`: "ns/name" or "/name".
            let (ns, name) = r.split_once('/').unwrap_or(("", r));
            mr.name = non_empty(Some(name)).map(str::to_string);
            mr.namespace = non_empty(Some(ns)).map(str::to_string);
        }
        _ => {}
    }
    if mr.name.is_none() {
        mr.name = non_empty(str_field(f, "name").or_else(|| str_field(f, "resourceName"))).map(str::to_string);
    }
    if mr.namespace.is_none() {
        mr.namespace =
            non_empty(str_field(f, "namespace").or_else(|| str_field(f, "resourceNamespace"))).map(str::to_string);
    }
    mr.gvk = non_empty(str_field(f, "gvk")).map(str::to_string);
    mr.controller = non_empty(str_field(f, "controller")).map(str::to_string);
    mr
}

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
    let mut tf = TfOut::default();
    let mut importing: Option<String> = None;
    let mut import_ok = false;
    let mut err_from_diag = false;
    for line in out.split('\n') {
        let l = line.trim();
        if l.is_empty() {
            continue;
        }
        if l.starts_with('{')
            && let Ok(Value::Object(v)) = serde_json::from_str::<Value>(l)
        {
            let typ = str_field(&v, "type").unwrap_or("");
            let hook = v.get("hook").and_then(Value::as_object);
            let msg = str_field(&v, "@message").unwrap_or("");
            if let Some(h) = hook
                && tf.resource_name.is_none()
            {
                tf.resource_name =
                    h.get("resource").and_then(|r| r.get("resource_name")).and_then(Value::as_str).map(str::to_string);
            }
            let id_value = hook.and_then(|h| non_empty(str_field(h, "id_value"))).map(str::to_string);
            let action = hook.and_then(|h| str_field(h, "action")).unwrap_or("");
            match typ {
                "apply_complete" => {
                    let id = id_value.or_else(|| bracket_id(msg, "Creation complete after"));
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
                "refresh_complete" => {
                    if let Some(id) = id_value {
                        tf.summary.push(format!("refreshed id={id}"));
                        tf.current = Some(id);
                    }
                }
                "apply_errored" | "diagnostic" => {
                    let is_err = typ == "apply_errored" || str_field(&v, "@level") == Some("error");
                    // The first error diagnostic is the most useful text; an
                    // `apply_errored` line only says "Creation errored after 2s".
                    let better = typ == "diagnostic" && !err_from_diag;
                    if is_err && (tf.error.is_none() || better) {
                        err_from_diag |= typ == "diagnostic";
                        let detail = v
                            .get("diagnostic")
                            .and_then(|d| d.get("detail"))
                            .and_then(Value::as_str)
                            .filter(|d| !d.is_empty());
                        let e = match detail {
                            Some(d) => format!("{msg}: {d}"),
                            None => msg.to_string(),
                        };
                        tf.error = Some(mask_secrets(&e).into_owned());
                    }
                }
                _ => {}
            }
            continue;
        }
        // Plain text (terraform import has no -json), or a broken JSON line.
        if let Some(id) = bracket_id(l, "Creation complete after") {
            tf.created.push(id.clone());
            tf.summary.push(format!("created id={id}"));
            tf.current = Some(id);
        } else if let Some(p) = l.find("Importing from ID \"") {
            let rest = &l[p + 19..];
            if let Some(e) = rest.find('"') {
                importing = non_empty(Some(&rest[..e])).map(str::to_string);
            }
        } else if l.contains("Import successful") {
            import_ok = true;
        } else if l.starts_with("Error:") && tf.error.is_none() {
            tf.error = Some(mask_secrets(l).into_owned());
        }
    }
    if let (Some(id), true) = (importing, import_ok) {
        tf.summary.push(format!("imported id={id}"));
        tf.current = Some(id);
    }
    tf
}

const SOURCE_KEYS: &[&str] = &[
    "uid",
    "trackerUID",
    "workspace",
    "external-name",
    "tfID",
    "error",
    "request",
    "name",
    "namespace",
    "resourceName",
    "resourceNamespace",
    "gvk",
];

fn push_truncated(out: &mut String, s: &str, max_chars: usize) {
    match s.char_indices().nth(max_chars) {
        Some((i, _)) => {
            out.push_str(&s[..i]);
            out.push('…');
        }
        None => out.push_str(s),
    }
}

fn finish_source(s: String) -> String {
    let masked = mask_secrets(&s);
    let mut out = String::with_capacity(MAX_SOURCE_CHARS + 4);
    match masked.char_indices().nth(MAX_SOURCE_CHARS - 1) {
        Some((i, _)) if masked.chars().count() > MAX_SOURCE_CHARS => {
            out.push_str(&masked[..i]);
            out.push('…');
        }
        _ => out.push_str(&masked),
    }
    out
}

fn head(time: Option<chrono::DateTime<chrono::Utc>>, level: Level, logger: &str, msg: &str) -> String {
    let mut s = String::with_capacity(320);
    if let Some(t) = time {
        s.push_str(&t.to_rfc3339_opts(SecondsFormat::AutoSi, true));
        s.push(' ');
    }
    s.push_str(level.as_str());
    s.push(' ');
    if !logger.is_empty() {
        s.push_str(logger);
        s.push(' ');
    }
    push_truncated(&mut s, msg, 120);
    s
}

/// The log line cut to the fields that matter.
fn build_source(rec: &LogRecord, tf: Option<&TfOut>) -> String {
    let mut s = head(rec.time, rec.level, &rec.logger, &rec.msg);
    let mut first = true;
    let mut sep = |s: &mut String| {
        s.push_str(if first { " {" } else { ", " });
        first = false;
    };
    for key in SOURCE_KEYS {
        if *key == "error"
            && let Some(tf) = tf
            && !tf.summary.is_empty()
        {
            sep(&mut s);
            s.push_str("\"out\": \"");
            push_truncated(&mut s, &tf.summary.join("; "), 200);
            s.push('"');
        }
        let Some(v) = rec.fields.get(*key) else { continue };
        sep(&mut s);
        s.push('"');
        s.push_str(key);
        s.push_str("\": ");
        match v {
            Value::String(x) => {
                let mut t = String::new();
                push_truncated(&mut t, x, 160);
                s.push_str(&serde_json::to_string(&t).unwrap_or_default());
            }
            other => push_truncated(&mut s, &other.to_string(), 160),
        }
    }
    if !first {
        s.push('}');
    }
    finish_source(s)
}

/// Applies the §3.6 extraction rules to one record. Returns `None` for lines that say
/// nothing about an MR's cloud identity. Exists separately from the scanner so
/// callers holding single lines (events, `kubectl logs` snippets) get the same rules.
/// The returned evidence has an empty [`Origin`] and zero sequence numbers.
pub fn evidence_from_record(rec: &LogRecord) -> Option<Evidence> {
    let mut p = extract_pending(rec)?;
    p.finish(rec);
    Some(p.ev)
}

/// Evidence whose `source` excerpt is not built yet: the scanner builds it only for
/// evidence that is not merged into an earlier identical one.
pub(crate) struct Pending {
    pub ev: Evidence,
    tf: Option<TfOut>,
}

impl Pending {
    pub(crate) fn finish(&mut self, rec: &LogRecord) {
        self.ev.source = build_source(rec, self.tf.as_ref());
    }
}

pub(crate) fn extract_pending(rec: &LogRecord) -> Option<Pending> {
    let f = &rec.fields;
    let msg = rec.msg.as_str();
    let tracker_uid = || non_empty(str_field(f, "trackerUID")).or_else(|| non_empty(str_field(f, "uid")));
    let mut tf: Option<TfOut> = None;
    let mut id: Option<String> = None;
    let mut created = Vec::new();
    let mut error = error_field(f);
    let mut mr = mr_ref(f);
    let uid: Option<&str>;
    let kind = match msg {
        MSG_ASYNC_CREATE_ENDED => {
            uid = tracker_uid();
            id = id_field(f, "tfID");
            if let Some(t) = id.as_deref().filter(|t| !t.is_empty()) {
                created.push(t.to_string());
            }
            EvidenceKind::AsyncCreateEnded
        }
        MSG_ASYNC_CREATE_STARTING => {
            uid = tracker_uid();
            id = id_field(f, "tfID");
            EvidenceKind::AsyncCreateStarting
        }
        MSG_ASYNC_CREATE_CALLBACK_FAILED => {
            uid = tracker_uid();
            EvidenceKind::CallbackFailed
        }
        MSG_STATE_RECONSTRUCTING => {
            uid = tracker_uid();
            EvidenceKind::StateReconstructing
        }
        MSG_RECOVERED_EXTERNAL_NAME => {
            uid = tracker_uid();
            id = id_field(f, "external-name");
            EvidenceKind::RecoveredExternalName
        }
        MSG_CRITICAL_ANNOTATIONS => {
            uid = tracker_uid();
            EvidenceKind::CriticalAnnotationsUpdated
        }
        _ if f.contains_key("workspace") => {
            let kind = match msg {
                "apply async ended" | "apply ended" => EvidenceKind::CliApply,
                "refresh ended" => EvidenceKind::CliRefresh,
                "import ended" => EvidenceKind::CliImport,
                "destroy async ended" | "destroy ended" => EvidenceKind::CliDestroy,
                "callback failed" => EvidenceKind::CallbackFailed,
                _ => return None,
            };
            uid = str_field(f, "workspace").and_then(workspace_uid);
            if kind != EvidenceKind::CallbackFailed {
                let t = parse_tf_out(str_field(f, "out").unwrap_or(""));
                id = t.current.clone();
                if kind == EvidenceKind::CliApply {
                    created = t.created.clone();
                }
                if error.is_none() {
                    error = t.error.clone();
                }
                if mr.name.is_none() {
                    mr.name = t.resource_name.clone();
                }
                tf = Some(t);
            }
            kind
        }
        _ if f.contains_key("external-name")
            && (f.contains_key("controller") || f.contains_key("request") || f.contains_key("uid")) =>
        {
            uid = non_empty(str_field(f, "uid"));
            id = id_field(f, "external-name");
            match msg {
                MSG_CREATE_REQUESTED => EvidenceKind::CreateRequested,
                MSG_CREATE_FAILED => EvidenceKind::CreateFailed,
                MSG_DELETE_REQUESTED => EvidenceKind::DeleteRequested,
                MSG_DELETED => EvidenceKind::Deleted,
                m if m.starts_with(MSG_CREATE_INCOMPLETE_PREFIX) => EvidenceKind::CreateIncomplete,
                _ => EvidenceKind::Reconciler,
            }
        }
        _ => return None,
    };
    if kind == EvidenceKind::CallbackFailed
        && (mr.name.is_none() || mr.gvk.is_none())
        && let Some((gvk, ns, name)) = error.as_deref().and_then(parse_callback_target)
    {
        if mr.name.is_none() {
            mr.name = Some(name);
            mr.namespace = mr.namespace.take().or(ns);
        }
        mr.gvk = mr.gvk.take().or(gvk);
    }
    let ev = Evidence {
        uid: uid.unwrap_or("").to_string(),
        time: rec.time,
        last_time: rec.time,
        repeats: 0,
        kind,
        id,
        created,
        error,
        msg: rec.msg.clone(),
        mr,
        source: String::new(),
        origin: Origin::default(),
        seq: 0,
        last_seq: 0,
    };
    Some(Pending { ev, tf })
}

/// Evidence from a Kubernetes Event found in an export.
pub(crate) fn evidence_from_event(ev: &KubeEvent) -> Option<Evidence> {
    if ev.uid.is_empty() && ev.name.is_none() {
        return None;
    }
    let gvk = match (&ev.api_version, &ev.kind) {
        (Some(a), Some(k)) => Some(format!("{a}, Kind={k}")),
        _ => None,
    };
    let mut s = head(ev.time, Level::Other, "event", &ev.message);
    s.push_str(&format!(
        " {{\"reason\": {}, \"uid\": {}, \"name\": {}, \"external-name\": {}}}",
        serde_json::to_string(&ev.reason).unwrap_or_default(),
        serde_json::to_string(&ev.uid).unwrap_or_default(),
        serde_json::to_string(&ev.name).unwrap_or_default(),
        serde_json::to_string(&ev.external_name).unwrap_or_default(),
    ));
    Some(Evidence {
        uid: ev.uid.clone(),
        time: ev.time,
        last_time: ev.time,
        repeats: 0,
        kind: EvidenceKind::KubeEvent,
        id: ev.external_name.clone(),
        created: Vec::new(),
        error: None,
        msg: format!("{}: {}", ev.reason, ev.message),
        mr: MrRef { name: ev.name.clone(), namespace: ev.namespace.clone(), gvk, controller: ev.component.clone() },
        source: finish_source(s),
        origin: Origin::default(),
        seq: 0,
        last_seq: 0,
    })
}
