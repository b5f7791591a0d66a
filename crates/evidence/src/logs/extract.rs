//! Extraction: the rules that turn one [`LogRecord`] into [`Evidence`].
//!
//! A line is evidence when it says something about an MR's cloud identity:
//! * upjet's async tracker lines, keyed by `trackerUID` (or `uid`): `Async create starting...`
//!   and `Async create ended.` with the Terraform `tfID`, `Async create callback failed`
//!   (pkg/controller/external_async_tfpluginsdk.go, `terraformPluginSDKAsyncExternal.Create`),
//!   `Instance state not found in cache, reconstructing...` (the `Connect` of
//!   pkg/controller/external_tfpluginsdk.go and external_tfpluginfw.go), the plugin-framework
//!   `recovered external name from last failed async operation`
//!   (pkg/controller/external_async_tfpluginfw.go, `Observe`), the plugin-framework
//!   `TF ReadResource returned Missing Resource Identity diagnostic, treating as resource not
//!   found` (pkg/controller/external_tfpluginfw.go, `readState`) and CLI mode's
//!   `Critical annotations have been updated.` (pkg/controller/external.go, `external.Observe`);
//! * upjet's CLI workspace lines (`workspace` key, pkg/terraform/workspace.go), whose `out`
//!   field holds Terraform's output (see `tf_out.rs`);
//! * controller-runtime's start lines for a managed reconciler's controller (`Starting
//!   EventSource`, `Starting Controller`, `Starting workers`, keyed by `controller`;
//!   pkg/internal/controller/controller.go, `Controller.Start`): a provider process started;
//! * crossplane-runtime's managed-reconciler lines that carry `external-name`
//!   (pkg/reconciler/managed/reconciler.go, `Reconciler.Reconcile`), among them the gate's
//!   `cannot determine creation result …` and, on a reconciler built with
//!   `WithDeterministicExternalName(true)`, `Cannot determine creation result, but proceeding …`.

use chrono::SecondsFormat;
use serde_json::{Map, Value};

use super::decode::KubeEvent;
use super::mask::mask_secrets;
use super::record::{non_empty, str_field};
use super::tf_out::{TfOut, parse_tf_out};
use super::{Evidence, EvidenceKind, Level, LogRecord, MAX_SOURCE_CHARS, MrRef, Origin};

const MSG_ASYNC_CREATE_ENDED: &str = "Async create ended.";
const MSG_ASYNC_CREATE_STARTING: &str = "Async create starting...";
const MSG_ASYNC_CREATE_CALLBACK_FAILED: &str = "Async create callback failed";
const MSG_STATE_RECONSTRUCTING: &str = "Instance state not found in cache, reconstructing...";
const MSG_RECOVERED_EXTERNAL_NAME: &str = "recovered external name from last failed async operation";
/// upjet logs `TF ReadResource returned Missing Resource Identity diagnostic, treating as resource
/// not found`; matched on its telling part, whatever precedes it.
const MSG_MISSING_IDENTITY_NOT_FOUND: &str = "Missing Resource Identity diagnostic, treating as resource not found";
const MSG_CRITICAL_ANNOTATIONS: &str = "Critical annotations have been updated.";
const MSG_CREATE_REQUESTED: &str = "Successfully requested creation of external resource";
const MSG_CREATE_INCOMPLETE_PREFIX: &str = "cannot determine creation result";
const MSG_CREATE_GATE_BYPASSED: &str =
    "Cannot determine creation result, but proceeding due to deterministic external name";
const MSG_CREATE_FAILED: &str = "Cannot create external resource";
const MSG_DELETE_REQUESTED: &str = "Successfully requested deletion of external resource";
const MSG_DELETED: &str = "Successfully deleted managed resource";

/// The lines controller-runtime logs as one controller starts, in the order it logs them
/// (`Controller.Start`: every source, then the controller, then its workers; each once per
/// process, since a controller refuses to start twice).
pub(crate) const START_LINES: [&str; 3] = ["Starting EventSource", "Starting Controller", "Starting workers"];

/// Which of controller-runtime's start lines a record is ([`START_LINES`]' index). A console line
/// without a logger name whose tabs became spaces reads `Starting` as its logger.
pub(crate) fn start_phase(logger: &str, msg: &str) -> Option<usize> {
    START_LINES.iter().position(|l| *l == msg).or_else(|| {
        let joined = format!("{logger} {msg}");
        (logger == "Starting").then(|| START_LINES.iter().position(|l| *l == joined)).flatten()
    })
}

/// A start line of a managed reconciler's controller: a provider process started.
fn process_start(rec: &LogRecord, phase: usize) -> Option<Pending> {
    let controller = non_empty(str_field(&rec.fields, "controller"))?;
    super::managed_controller_kind(controller)?;
    let mr = MrRef { controller: Some(controller.to_string()), ..MrRef::default() };
    let msg = START_LINES[phase].to_string();
    let mut source = head(rec.time, rec.level, &rec.logger, &msg);
    source.push_str(&format!(" {{\"controller\": {}}}", serde_json::to_string(controller).unwrap_or_default()));
    let ev = Evidence {
        uid: String::new(),
        time: rec.time,
        last_time: rec.time,
        repeats: 0,
        kind: EvidenceKind::ProcessStarted,
        id: None,
        created: Vec::new(),
        error: None,
        msg,
        mr,
        source: finish_source(source),
        origin: Origin::default(),
        seq: 0,
        last_seq: 0,
    };
    Some(Pending { ev, tf: None, built: true })
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

/// Applies the extraction rules to one record. Returns `None` for lines that say
/// nothing about an MR's cloud identity. Exists separately from the scanner so
/// callers holding single lines (events, `kubectl logs` snippets) get the same rules.
/// The returned evidence has an empty [`Origin`] and zero sequence numbers.
#[cfg(test)]
pub(crate) fn evidence_from_record(rec: &LogRecord) -> Option<Evidence> {
    let mut p = extract_pending(rec)?;
    p.finish(rec);
    Some(p.ev)
}

/// Evidence whose `source` excerpt is not built yet: the scanner builds it only for
/// evidence that is not merged into an earlier identical one.
pub(crate) struct Pending {
    pub ev: Evidence,
    tf: Option<TfOut>,
    /// The excerpt is already built (a start line's, which names its controller).
    built: bool,
}

impl Pending {
    pub(crate) fn finish(&mut self, rec: &LogRecord) {
        if !self.built {
            self.ev.source = build_source(rec, self.tf.as_ref());
        }
    }
}

/// What a matching rule found on one line besides its kind and UID.
struct Facts {
    id: Option<String>,
    created: Vec<String>,
    error: Option<String>,
    mr: MrRef,
    tf: Option<TfOut>,
}

/// The kind of an upjet async-tracker line, by its exact message.
fn tracker_kind(msg: &str) -> Option<EvidenceKind> {
    Some(match msg {
        MSG_ASYNC_CREATE_ENDED => EvidenceKind::AsyncCreateEnded,
        MSG_ASYNC_CREATE_STARTING => EvidenceKind::AsyncCreateStarting,
        MSG_ASYNC_CREATE_CALLBACK_FAILED => EvidenceKind::CallbackFailed,
        MSG_STATE_RECONSTRUCTING => EvidenceKind::StateReconstructing,
        MSG_RECOVERED_EXTERNAL_NAME => EvidenceKind::RecoveredExternalName,
        MSG_CRITICAL_ANNOTATIONS => EvidenceKind::CriticalAnnotationsUpdated,
        m if m.contains(MSG_MISSING_IDENTITY_NOT_FOUND) => EvidenceKind::MissingIdentityNotFound,
        _ => return None,
    })
}

/// Tracker lines: the ID is `tfID` (async create) or `external-name` (recovered); a
/// non-empty `tfID` of `Async create ended.` is an ID just created.
fn tracker_facts(kind: EvidenceKind, f: &Map<String, Value>, facts: &mut Facts) {
    match kind {
        EvidenceKind::AsyncCreateEnded => {
            facts.id = id_field(f, "tfID");
            if let Some(t) = facts.id.as_deref().filter(|t| !t.is_empty()) {
                facts.created.push(t.to_string());
            }
        }
        EvidenceKind::AsyncCreateStarting => facts.id = id_field(f, "tfID"),
        EvidenceKind::RecoveredExternalName => facts.id = id_field(f, "external-name"),
        _ => {}
    }
}

/// CLI workspace lines: the kind by message (`None`: not evidence), and the IDs, error and
/// resource name from the Terraform output in `out`.
fn cli_facts(msg: &str, f: &Map<String, Value>, facts: &mut Facts) -> Option<EvidenceKind> {
    let kind = match msg {
        "apply async ended" | "apply ended" => EvidenceKind::CliApply,
        "refresh ended" => EvidenceKind::CliRefresh,
        "import ended" => EvidenceKind::CliImport,
        "destroy async ended" | "destroy ended" => EvidenceKind::CliDestroy,
        "callback failed" => EvidenceKind::CallbackFailed,
        "Running terraform" => EvidenceKind::CliRun,
        _ => return None,
    };
    if !matches!(kind, EvidenceKind::CallbackFailed | EvidenceKind::CliRun) {
        let t = parse_tf_out(str_field(f, "out").unwrap_or(""));
        facts.id = t.current.clone();
        if kind == EvidenceKind::CliApply {
            facts.created = t.created.clone();
        }
        if facts.error.is_none() {
            facts.error = t.error.clone();
        }
        if facts.mr.name.is_none() {
            facts.mr.name = t.resource_name.clone();
        }
        facts.tf = Some(t);
    }
    Some(kind)
}

/// Whether a line is a managed-reconciler line carrying the external-name it read.
fn is_reconciler_line(f: &Map<String, Value>) -> bool {
    f.contains_key("external-name")
        && (f.contains_key("controller") || f.contains_key("request") || f.contains_key("uid"))
}

/// The kind of a managed-reconciler line, by its message.
fn reconciler_kind(msg: &str) -> EvidenceKind {
    match msg {
        MSG_CREATE_REQUESTED => EvidenceKind::CreateRequested,
        MSG_CREATE_FAILED => EvidenceKind::CreateFailed,
        MSG_DELETE_REQUESTED => EvidenceKind::DeleteRequested,
        MSG_DELETED => EvidenceKind::Deleted,
        MSG_CREATE_GATE_BYPASSED => EvidenceKind::CreateGateBypassed,
        m if m.starts_with(MSG_CREATE_INCOMPLETE_PREFIX) => EvidenceKind::CreateIncomplete,
        _ => EvidenceKind::Reconciler,
    }
}

/// A callback failure often names its MR only inside the error text: fill in what the
/// line's keys did not say.
fn fill_from_callback_error(mr: &mut MrRef, error: Option<&str>) {
    if (mr.name.is_none() || mr.gvk.is_none())
        && let Some((gvk, ns, name)) = error.and_then(parse_callback_target)
    {
        if mr.name.is_none() {
            mr.name = Some(name);
            mr.namespace = mr.namespace.take().or(ns);
        }
        mr.gvk = mr.gvk.take().or(gvk);
    }
}

/// Applies the extraction rules to one record, leaving the `source` excerpt to build (see
/// [`Pending`]). `None` for lines that say nothing about an MR's cloud identity.
pub(crate) fn extract_pending(rec: &LogRecord) -> Option<Pending> {
    let f = &rec.fields;
    let msg = rec.msg.as_str();
    if let Some(phase) = start_phase(&rec.logger, msg) {
        return process_start(rec, phase);
    }
    let mut facts = Facts { id: None, created: Vec::new(), error: error_field(f), mr: mr_ref(f), tf: None };
    let (kind, uid) = if let Some(kind) = tracker_kind(msg) {
        tracker_facts(kind, f, &mut facts);
        (kind, non_empty(str_field(f, "trackerUID")).or_else(|| non_empty(str_field(f, "uid"))))
    } else if f.contains_key("workspace") {
        (cli_facts(msg, f, &mut facts)?, str_field(f, "workspace").and_then(workspace_uid))
    } else if is_reconciler_line(f) {
        facts.id = id_field(f, "external-name");
        (reconciler_kind(msg), non_empty(str_field(f, "uid")))
    } else {
        return None;
    };
    if kind == EvidenceKind::CallbackFailed {
        fill_from_callback_error(&mut facts.mr, facts.error.as_deref());
    }
    let Facts { id, created, error, mr, tf } = facts;
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
    Some(Pending { ev, tf, built: false })
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
