//! The create history of one MR as a single time-ordered timeline, built from every trace the
//! cluster still holds: the object, its events, the provider pods, the provider logs and the live
//! Terraform workspace. Pure: the shell gathers, this orders, and the rules' findings say what
//! matters.

use super::correlate::go_time;
use super::create_loop::{create_attempts, cut_short};
use super::events::EventRecord;
use super::logs::{Evidence, EvidenceKind};
use super::pods::ProviderPod;
use super::workspace::WorkspaceState;
use serde::Serialize;
use upjet_core::adopt::Candidate;
use upjet_core::audit::{AuditHistory, WriteView};
use upjet_core::changelog::MrChangeLog;
use upjet_core::cloud_audit::MrCloudAudit;
use upjet_core::codes::{CreateHighlight, Highlight, Lost};
use upjet_core::create_marks::CreateMarks;
use upjet_core::finding::{Code, Finding};
use upjet_core::gotime::GoTime;
use upjet_core::inventory::MrInventory;
use upjet_core::managed::{ManagedResource, keys};
use upjet_core::placeholder::is_placeholder;
use upjet_core::redacted::same_id;
use upjet_core::shell::{ShellCommand, quoted};

/// Where an entry comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The MR object (creation, deletion).
    Object,
    /// A `crossplane.io/external-create-*` annotation.
    Annotation,
    /// A condition's last transition.
    Condition,
    /// A Kubernetes Event of the MR.
    Event,
    /// The provider pod or container.
    Pod,
    /// A provider log line about the MR.
    Log,
    /// The live Terraform workspace.
    Workspace,
    /// A write the Kubernetes audit log recorded.
    Audit,
    /// A call the cloud's own audit record holds (CloudTrail, GCP audit logs, Azure activity log).
    Cloud,
    /// A change-log entry: the provider created, updated or deleted the cloud object.
    ChangeLog,
    /// An identity the ID journal recorded (`kubectl upjet watch`).
    Journal,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// When (RFC3339), if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    #[serde(skip)]
    at: Option<GoTime>,
    /// Where it comes from.
    pub source: Source,
    /// What happened.
    pub text: String,
}

/// An external-name value and where and when it was seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NameSeen {
    /// The value.
    pub value: String,
    /// First time seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// Last time seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
    /// Sources that showed it (annotation, log, event, workspace).
    pub sources: Vec<String>,
}

/// The whole history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// Entries, oldest first; entries without a time last.
    pub entries: Vec<Entry>,
    /// Every external-name value seen.
    #[serde(rename = "externalNames")]
    pub external_names: Vec<NameSeen>,
    /// What matters, in plain words.
    pub highlights: Vec<String>,
}

/// Everything the history is built from.
#[derive(Default)]
pub struct Inputs<'a> {
    /// Events of the MR.
    pub events: &'a [EventRecord],
    /// Pods of the MR's provider.
    pub pods: &'a [ProviderPod],
    /// Log evidence about the MR.
    pub logs: Vec<&'a Evidence>,
    /// The workspace, for CLI-mode resources.
    pub workspace: Option<&'a WorkspaceState>,
    /// Whether events were queried (offline they cannot be).
    pub events_read: bool,
    /// The rules' findings for the MR and this evidence: the highlights are rendered from them.
    pub findings: &'a [Finding],
    /// The ranked candidate IDs (`domain::adopt::candidates`), named when the MR lost its object.
    pub candidates: &'a [Candidate],
    /// The audit log's history of writes to the MR's name (`--audit-log`).
    pub audit: Option<&'a AuditHistory>,
    /// What the cloud's own audit record says about the MR (`--cloud-audit`).
    pub cloud: Option<&'a MrCloudAudit>,
    /// The provider's change-log entries about the MR.
    pub changelog: Option<&'a MrChangeLog>,
    /// What the ID journal recorded for the MR (its uid).
    pub journal: &'a [upjet_core::journal::Record],
    /// The cloud objects an inventory export lists as tagged for the MR (`--inventory`).
    pub inventory: Option<&'a MrInventory>,
}

/// Builds the timeline.
pub fn build(mr: &ManagedResource, inputs: &Inputs) -> Timeline {
    let mut names = Names::default();
    let mut entries = object_entries(mr, &mut names);
    entries.extend(event_entries(inputs.events, &mut names));
    entries.extend(inputs.pods.iter().flat_map(pod_entries));
    entries.extend(inputs.logs.iter().map(|ev| log_entry(ev, &mut names)));
    entries.extend(inputs.audit.iter().flat_map(|h| h.writes.iter()).map(|v| audit_entry(v, &mut names)));
    for (at, text) in inputs.cloud.map(MrCloudAudit::lines).unwrap_or_default() {
        entries.push(entry(at, Source::Cloud, text));
    }
    for (e, seen, text) in inputs.changelog.map(MrChangeLog::lines).unwrap_or_default() {
        names.see(e.id().unwrap_or_default(), e.at, seen);
        entries.push(entry(e.at, Source::ChangeLog, text));
    }
    for o in inputs.cloud.iter().flat_map(|c| &c.creates) {
        names.see(o.id.as_deref().unwrap_or_default(), o.call.at, "cloud audit");
    }
    for r in inputs.journal {
        let at = GoTime::parse_rfc3339(&r.time);
        if r.source != upjet_core::journal::Source::CreatePending {
            names.see(&r.id, at, "journal");
        }
        entries.push(entry(at, Source::Journal, format!("ID journal: {} {}", r.source.label(), quoted(&r.id))));
    }
    if let Some(ws) = inputs.workspace {
        let text = match &ws.id {
            Some(id) => format!("Terraform workspace in {} holds id {id}", ws.pod, id = quoted(id)),
            None => format!("Terraform workspace in {} holds no id", ws.pod),
        };
        entries.push(entry(None, Source::Workspace, text));
        if let Some(id) = &ws.id {
            names.see(id, None, "workspace");
        }
    }
    entries.sort_by_key(|e| (e.at.is_none(), e.at));
    let highlights = highlights(mr, inputs, &names.0);
    Timeline { entries, external_names: names.0, highlights }
}

fn ts(t: &Option<String>) -> Option<GoTime> {
    t.as_deref().and_then(GoTime::parse_rfc3339)
}

fn entry(at: Option<GoTime>, source: Source, text: String) -> Entry {
    Entry { time: at.map(|t| t.to_string()), at, source, text }
}

/// The external-name values seen so far, in order of first sighting.
#[derive(Default)]
struct Names(Vec<NameSeen>);

impl Names {
    /// Records one sighting of `value` (empty values are not names).
    fn see(&mut self, value: &str, at: Option<GoTime>, source: &str) {
        if value.is_empty() {
            return;
        }
        let t = at.map(|t| t.to_string());
        match self.0.iter_mut().find(|n| n.value == value) {
            Some(n) => {
                if t.is_some() && (n.first.is_none() || t < n.first) {
                    n.first = t.clone();
                }
                if t.is_some() && t > n.last {
                    n.last = t;
                }
                if !n.sources.iter().any(|s| s == source) {
                    n.sources.push(source.to_string());
                }
            }
            None => self.0.push(NameSeen {
                value: value.to_string(),
                first: t.clone(),
                last: t,
                sources: vec![source.to_string()],
            }),
        }
    }
}

/// The object's own traces: creation, deletion, create marks, conditions.
fn object_entries(mr: &ManagedResource, names: &mut Names) -> Vec<Entry> {
    let mut entries = Vec::new();
    if let Some(c) = ts(&mr.creation_timestamp) {
        entries.push(entry(Some(c), Source::Object, "MR created".into()));
    }
    if let Some(d) = ts(&mr.deletion_timestamp) {
        entries.push(entry(Some(d), Source::Object, "MR deletion requested".into()));
    }
    for m in CreateMarks::of(mr).timeline() {
        let at = (!m.at.is_zero()).then_some(m.at);
        let what = m.key.trim_start_matches("crossplane.io/");
        let text = if at.is_some() {
            what.to_string()
        } else {
            format!("{what} = {} (unparsable: read as zero time)", quoted(m.raw.as_deref().unwrap_or("")))
        };
        entries.push(entry(at, Source::Annotation, text));
    }
    if let Some(n) = mr.external_name() {
        names.see(n, None, "annotation");
    }
    if let Some(stub) = mr.external_name_placeholder() {
        names.see(stub.value, None, "annotation (a provider placeholder: names no cloud object)");
    }
    for c in &mr.conditions {
        let msg = if c.message.is_empty() { String::new() } else { format!(": {}", c.message) };
        entries.push(entry(
            ts(&c.last_transition_time),
            Source::Condition,
            format!("{}={} {}{msg}", c.type_, c.status, c.reason),
        ));
    }
    entries
}

/// One entry per event; the recorder's external-name annotation is a sighting.
fn event_entries(events: &[EventRecord], names: &mut Names) -> Vec<Entry> {
    let mut entries = Vec::new();
    for e in events {
        let times = if e.count > 1 {
            format!(" (×{}, last {})", e.count, e.last.as_deref().unwrap_or("?"))
        } else {
            String::new()
        };
        let name =
            e.external_name.as_deref().map(|n| format!(" [external-name {n}]", n = quoted(n))).unwrap_or_default();
        entries.push(entry(
            ts(&e.first),
            Source::Event,
            format!("{} {}: {}{times}{name}", e.type_, e.reason, e.message),
        ));
        if let Some(n) = &e.external_name {
            names.see(n, ts(&e.last), "event");
        }
    }
    entries
}

/// Pod start, previous container start and end, and the current container's restart.
fn pod_entries(p: &ProviderPod) -> Vec<Entry> {
    let mut entries = Vec::new();
    if let Some(s) = p.pod_started {
        entries.push(entry(Some(s), Source::Pod, format!("provider pod {}/{} started", p.namespace, p.name)));
    }
    if let Some(t) = &p.last_termination {
        if let Some(s) = t.started {
            entries.push(entry(
                Some(s),
                Source::Pod,
                format!("provider container {} started (previous container)", p.name),
            ));
        }
        entries.push(entry(
            t.finished,
            Source::Pod,
            format!("provider container {} terminated: {} (exit {})", p.name, t.reason, t.exit_code),
        ));
    }
    if let Some(s) = p.container_started.filter(|s| Some(*s) != p.pod_started) {
        entries.push(entry(
            Some(s),
            Source::Pod,
            format!("provider container {} started (restart {})", p.name, p.restart_count),
        ));
    }
    entries
}

/// One entry per log line about the MR; IDs of reconciler and create lines are sightings.
fn log_entry(ev: &Evidence, names: &mut Names) -> Entry {
    let at = ev.time.map(go_time);
    let mut text = format!("{}: {}", ev.kind.as_str(), ev.msg);
    if let Some(id) = ev.id.as_deref().filter(|i| !i.is_empty()) {
        text.push_str(&format!(" [id {id}]", id = quoted(id)));
        if is_placeholder(id) {
            text.push_str(" (a provider placeholder, not a cloud ID)");
        }
    }
    match ev.kind {
        EvidenceKind::StateReconstructing => text.push_str(
            " ▸ restart marker: the provider held no Terraform state for this MR (it restarted, or first saw the MR) and rebuilt it from the external-name and status.atProvider",
        ),
        EvidenceKind::MissingIdentityNotFound => text.push_str(
            " ▸ not found: upjet counts Terraform's \"Missing Resource Identity After Read\" as the object not existing, so the reconciler goes on as if it were gone: it creates the object where the policies allow Create (a duplicate, or an already-exists failure, if the object does exist), and a deleted MR loses its finalizer without the object being deleted",
        ),
        EvidenceKind::CreateGateBypassed => text.push_str(
            " ▸ this reconciler is built with WithDeterministicExternalName: the create-incomplete gate does not stop it",
        ),
        EvidenceKind::ProcessStarted => text.push_str(
            " ▸ restart marker: a provider process started this kind's controller (controller-runtime starts each controller once per process); a create an earlier process had not finished ended with that process",
        ),
        _ => {}
    }
    if let Some(err) = &ev.error {
        text.push_str(&format!(" error: {err}"));
    }
    // The lines of one process start are merged into one: they are one start, not repeats.
    if ev.repeats > 0 && ev.kind != EvidenceKind::ProcessStarted {
        text.push_str(&format!(
            " (×{}, last {})",
            ev.repeats + 1,
            ev.last_time.map(|t| go_time(t).to_string()).unwrap_or_default()
        ));
    }
    if let Some(id) =
        ev.id.as_deref().filter(|_| matches!(ev.kind, EvidenceKind::Reconciler | EvidenceKind::CreateRequested))
    {
        names.see(id, at, "log");
    }
    entry(at, Source::Log, text)
}

/// One entry per audit write: who, how, the response code, and the identity fields it changed;
/// an external-name it set is a sighting.
fn audit_entry(v: &WriteView, names: &mut Names) -> Entry {
    let w = &v.write;
    let mut text = format!("{} by {}", w.action(), w.who());
    if v.by_provider {
        text.push_str(" (provider)");
    }
    if let Some(ua) = &w.user_agent {
        text.push_str(&format!(" [{ua}]"));
    }
    if !w.source_ips.is_empty() {
        text.push_str(&format!(" from {}", w.source_ips.join(", ")));
    }
    if let Some(c) = w.code {
        text.push_str(&format!(" → {c}"));
    }
    for c in &v.changes {
        let field = c.field.trim_start_matches("crossplane.io/");
        text.push_str(&format!("; {field}: {} → {}", c.before.shown(), c.after.shown()));
        if c.field == keys::EXTERNAL_NAME
            && let Some(n) = c.after.set()
        {
            names.see(n, w.at, "audit");
        }
    }
    if let Some(n) = &v.note {
        text.push_str(&format!(" ({n})"));
    }
    text.push_str(&format!(" <{}>", w.source));
    if let Some(r) = &w.repeats {
        let until = r.last_time.as_deref().unwrap_or("an unknown time");
        let also = if r.actions.is_empty() { String::new() } else { format!(" (also {})", r.actions.join(", ")) };
        text.push_str(&format!(
            "; and {} more by the same writer{also}, changing nothing, until {until} <{}>",
            r.count, r.last_source
        ));
    }
    entry(w.at, Source::Audit, text)
}

/// What matters, in plain words: the rules' findings about the create first, then what the
/// timeline itself shows (logged creations the external-name does not record, a disagreeing
/// workspace, several external-names, no events).
fn highlights(mr: &ManagedResource, inputs: &Inputs, names: &[NameSeen]) -> Vec<String> {
    let worded = Code::ALL.iter().filter_map(|code| Some((*code, code.create_highlight()?)));
    let mut out: Vec<String> = worded
        .flat_map(|(code, h)| {
            inputs.findings.iter().filter(move |f| f.code == code).map(move |f| finding_highlight(f, h))
        })
        .collect();
    let current = mr.external_name();
    out.extend(inputs.audit.iter().flat_map(|h| h.highlights.iter().cloned()));
    out.extend(inputs.findings.iter().filter(|f| f.code.highlight() == Highlight::Message).map(|f| f.message.clone()));
    out.extend(lost_object(mr, inputs));
    out.extend(unrecorded_creations(&inputs.logs, current));
    out.extend(missing_identity(&inputs.logs));
    if let Some(ws) = inputs.workspace
        && let (Some(id), Some(cur)) = (&ws.id, current)
        && !same_id(id, cur)
    {
        out.push(format!(
            "the Terraform workspace holds id {id} but the external-name is {cur}",
            id = quoted(id),
            cur = quoted(cur)
        ));
    }
    if names.len() > 1 {
        // In the order they first appeared (unknown times last), so the arrow reads as history.
        let mut ordered: Vec<&NameSeen> = names.iter().collect();
        ordered.sort_by(|a, b| (a.first.is_none(), &a.first).cmp(&(b.first.is_none(), &b.first)));
        let list: Vec<String> = ordered.iter().map(|n| format!("{}", quoted(&n.value))).collect();
        out.push(format!("external-name took {} values: {}", names.len(), list.join(" → ")));
    }
    if inputs.events_read && inputs.events.is_empty() {
        out.push("no events found (the API server keeps them for 1 hour by default)".into());
    }
    out
}

/// The create loop against an existing object, whether any ID was ever logged, and, when the MR
/// lost its object, the ranked candidate IDs and the command that adopts the best one.
fn lost_object(mr: &ManagedResource, inputs: &Inputs) -> Vec<String> {
    let mut out = Vec::new();
    let pod_starts: Vec<GoTime> = inputs.pods.iter().flat_map(ProviderPod::starts).collect();
    let attempts = create_attempts(&inputs.logs, &pod_starts);
    let span = |a: Option<GoTime>, b: Option<GoTime>| match (a, b) {
        (Some(a), Some(b)) if a != b => format!(", from {a} to {b}"),
        (Some(a), _) => format!(", at {a}"),
        _ => String::new(),
    };
    let (n, e) = (attempts.requests, attempts.already_exists);
    if e > 0 {
        out.push(format!(
            "create loop against an object that already exists: {n} create request{} and {e} create{} refused because it already exists{}",
            if n == 1 { "" } else { "s" },
            if e == 1 { "" } else { "s" },
            span(attempts.first, attempts.last)
        ));
    } else if attempts.is_loop() {
        out.push(format!(
            "create requested again and again: {} create requests by one provider process and none refused because the object exists{}: each create that ran may have made another object",
            attempts.most_in_one_process,
            span(attempts.first, attempts.last)
        ));
    }
    out.extend(cut_short(&attempts, inputs.cloud, inputs.inventory));
    // Only the lines about the MR itself carry its external-name: not its provider's starts.
    let own = || inputs.logs.iter().filter(|e| e.kind != EvidenceKind::ProcessStarted);
    if own().next().is_some() && !attempts.id_logged && mr.external_name().is_none() {
        out.push(format!(
            "no external ID was ever logged: the external-name is empty on all {} log lines and no create returned an ID",
            own().map(|e| e.repeats as usize + 1).sum::<usize>()
        ));
    }
    // Some codes say the MR lost its object only where they name one to adopt (the cloud's record
    // of a duplicate beside the object the MR tracks is no loss).
    let lost = |f: &Finding| match f.code.lost() {
        Lost::Search | Lost::Recorded => true,
        Lost::WhenNamed => f.suggested_id.is_some(),
        Lost::No => false,
    };
    if attempts.is_loop() || !attempts.interrupted.is_empty() || inputs.findings.iter().any(lost) {
        out.extend(candidate_highlights(mr, inputs.candidates));
    }
    out
}

/// The candidate IDs, best first, and the command adopting the best; or how to find one.
fn candidate_highlights(mr: &ManagedResource, candidates: &[Candidate]) -> Vec<String> {
    let kind = mr.reference().rsplit_once('/').map(|(k, _)| k.to_string()).unwrap_or_default();
    // CLI-mode output masks ProviderConfig values as REDACTED: such an ID is shown, never adopted.
    let masked = |c: &&Candidate| c.id.contains("REDACTED");
    let ranked: Vec<&Candidate> =
        candidates.iter().filter(|c| !masked(c)).chain(candidates.iter().filter(masked)).collect();
    let mut out: Vec<String> = ranked
        .iter()
        .take(5)
        .enumerate()
        .map(|(i, c)| {
            let note = if masked(c) {
                " [masked by the provider's log: not adoptable as is]"
            } else if mr.external_name().is_some_and(|t| same_id(&c.id, t)) {
                " [tracked: the MR's external-name holds it]"
            } else {
                ""
            };
            format!("candidate ID {}: {} from {} ({}){note}", i + 1, quoted(&c.id), c.source, c.evidence)
        })
        .collect();
    let Some(best) = ranked.first().filter(|c| !masked(c)) else {
        let predict = ShellCommand::upjet("doctor")
            .opt("--kind", &kind)
            .opt("--plan", "plan.json")
            .opt("--id-template", format!("{kind}=TEMPLATE"));
        out.push(format!(
            "no adoptable candidate ID (none logged unmasked, no status.atProvider.id, no event names one): predict it \
             from the spec with `{predict}`, \
             or find it in a cloud export with `--inventory EXPORT.json` or the cloud's audit record with `--cloud-audit FILE`"
        ));
        return out;
    };
    // The ID the MR already holds is no adoption: adopting it changes nothing, and a duplicate
    // beside it is an orphan to delete or adopt elsewhere, not a reason to move this MR.
    if let Some(tracked) = mr.external_name().filter(|t| same_id(&best.id, t)) {
        out.push(format!(
            "the best candidate, {}, is the ID this MR already tracks as its external-name: nothing to adopt",
            quoted(tracked)
        ));
        return out;
    }
    let adopt = mr.upjet_command("adopt").opt("--id", &best.id).word("--import");
    out.push(format!("adopt the best candidate: {adopt}"));
    out
}

/// The history's wording of a finding whose code's row says `highlight: Create`: every such code
/// is worded here, its own words or its message, and a new one does not compile until it is.
fn finding_highlight(f: &Finding, code: CreateHighlight) -> String {
    let ev = |key: &str| f.evidence.get(key).map(String::as_str);
    let pending = ev(keys::CREATE_PENDING).unwrap_or("?");
    match code {
        CreateHighlight::ProviderRestartedDuringCreate => format!(
            "provider restarted at {}, between create-pending ({pending}) and any result",
            ev("restartedAt").unwrap_or("?")
        ),
        CreateHighlight::CreateIncomplete if f.evidence.contains_key("gate bypassed") => format!(
            "creation incomplete: external-create-pending ({pending}) is newer than any result, but this provider proceeds past the gate (deterministic external-name)"
        ),
        CreateHighlight::CreateIncomplete => format!(
            "creation incomplete: external-create-pending ({pending}) is newer than any result; the provider will not proceed on its own"
        ),
        CreateHighlight::CreateInFlight => format!(
            "create in flight: external-create-pending ({pending}) has no result yet, and the provider's reconcile may still record one until {}",
            ev("resultDue").unwrap_or("?")
        ),
        // Their messages already say which creates raced or followed a rebuilt state.
        CreateHighlight::AsyncCreateRace | CreateHighlight::CreateAfterStateRebuild => f.message.clone(),
    }
}

/// upjet's "treating as resource not found" after Terraform's "Missing Resource Identity After
/// Read": how often, and when last, the provider read the object as gone this way.
fn missing_identity(logs: &[&Evidence]) -> Option<String> {
    let lines: Vec<&&Evidence> = logs.iter().filter(|e| e.kind == EvidenceKind::MissingIdentityNotFound).collect();
    if lines.is_empty() {
        return None;
    }
    let times: usize = lines.iter().map(|e| e.repeats as usize + 1).sum();
    let last = lines.iter().filter_map(|e| e.last_time.or(e.time)).max().map(|t| format!(" (last {})", go_time(t)));
    Some(format!(
        "upjet read the object as not found {times} time{}{} because Terraform answered \"Missing Resource Identity After Read\": a create that follows may duplicate an object that exists",
        if times == 1 { "" } else { "s" },
        last.unwrap_or_default()
    ))
}

/// Every logged creation, line by line, whose ID the external-name does not record. This is a
/// statement about the external-name alone, line by line: unlike the `OrphanCandidate` rule it
/// also lists an ID the MR already observes in `status.atProvider.id`, because until the
/// external-name holds it a restart still loses it.
fn unrecorded_creations(logs: &[&Evidence], current: Option<&str>) -> Vec<String> {
    let created = logs.iter().flat_map(|ev| ev.created.iter());
    created
        .filter_map(|id| match current {
            Some(cur) if same_id(id, cur) => None,
            Some(cur) => Some(format!(
                "create ended with tfID {id} but the external-name is {cur}",
                id = quoted(id),
                cur = quoted(cur)
            )),
            None => Some(format!("create ended with tfID {id} but the MR has no external-name", id = quoted(id))),
        })
        .collect()
}

#[cfg(test)]
#[path = "timeline_tests.rs"]
mod tests;
