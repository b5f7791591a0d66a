//! The create attempts in one MR's provider log lines: the loop against an object that already
//! exists, and the creates a provider restart cut short.
//!
//! Exists because these are the commonest ways an MR loses its cloud object and every line of
//! them looks routine on its own. upjet#305: a node shutdown, then thousands of RecordSets asking
//! to create again, every attempt answered `409 … already exists` — only counting the attempts
//! and noticing that no ID was ever logged tells a person what happened. And a restart: upjet runs
//! an async create in a goroutine of the provider process (its Terraform workspace under `/tmp`,
//! or its state tracker in memory), so a process that ends before the create does takes its
//! result along; the next process finds no ID and creates again. In Terraform CLI mode upjet logs
//! no "Instance state not found in cache" then: the new process shows only as controller-runtime's
//! start lines, which every process logs (`ProcessStarted`, or the pods' container starts).

use super::correlate::go_time;
use super::logs::{Evidence, EvidenceKind};
use upjet_core::cloud_audit::MrCloudAudit;
use upjet_core::gotime::GoTime;
use upjet_core::inventory::{MrInventory, TaggedObject, Tracking};
use upjet_core::rules::says_already_exists;

/// What one MR's log lines say about its create attempts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CreateAttempts {
    /// `Successfully requested creation of external resource` lines (or, when the provider does
    /// not log those, `Async create starting...`).
    pub requests: u32,
    /// Create results that said the object already exists (`Async create ended.`, CLI
    /// `apply async ended`, `Cannot create external resource`).
    pub already_exists: u32,
    /// The first attempt or failure.
    pub first: Option<GoTime>,
    /// The last attempt or failure.
    pub last: Option<GoTime>,
    /// Whether any line carried a non-empty external ID (external-name, tfID, Terraform id).
    pub id_logged: bool,
    /// The most create requests one provider process made: requests a restart separates are
    /// each process's first, not a loop.
    pub most_in_one_process: u32,
    /// The creates a provider restart cut short, oldest first.
    pub interrupted: Vec<Interrupted>,
}

/// A create requested with no result logged before a new provider process started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// When the (last) create before the restart was requested.
    pub requested: GoTime,
    /// When the next provider process started.
    pub restarted: GoTime,
    /// When a create was requested again after the restart, if it was.
    pub again: Option<GoTime>,
}

impl CreateAttempts {
    /// Whether the lines show a loop: a create refused because the object exists, or creates
    /// requested again and again by one provider process.
    pub(crate) fn is_loop(&self) -> bool {
        self.already_exists > 0 || self.most_in_one_process > 1
    }
}

/// What a line says of a create.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    /// A new provider process (sorted first among lines of one second: it precedes them).
    Start,
    /// A create requested, this many lines of it.
    Request(u32),
    /// A create's result: the object made, or the create refused or failed.
    End,
}

/// Counts the create attempts and already-exists failures in one MR's log evidence (merged runs
/// of identical lines count once per line), and tells the creates that `starts` (the provider's
/// process starts besides those the lines show) cut short.
pub(crate) fn create_attempts(logs: &[&Evidence], starts: &[GoTime]) -> CreateAttempts {
    let mut out = CreateAttempts::default();
    let lines = |ev: &Evidence| ev.repeats + 1;
    let see = |out: &mut CreateAttempts, ev: &Evidence| {
        let (first, last) = (ev.time.map(go_time), ev.last_time.or(ev.time).map(go_time));
        out.first = match (out.first, first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        out.last = out.last.max(last);
    };
    let requested = |k: EvidenceKind| k == EvidenceKind::CreateRequested;
    let any_requested = logs.iter().any(|ev| requested(ev.kind));
    let mut steps: Vec<(GoTime, Step)> = starts.iter().map(|t| (*t, Step::Start)).collect();
    for ev in logs {
        let at = ev.time.map(go_time);
        let is_request = requested(ev.kind) || (!any_requested && ev.kind == EvidenceKind::AsyncCreateStarting);
        let is_result =
            matches!(ev.kind, EvidenceKind::AsyncCreateEnded | EvidenceKind::CliApply | EvidenceKind::CreateFailed);
        if is_request {
            out.requests += lines(ev);
            see(&mut out, ev);
            // A run of identical requests (no restart breaks one): its first line, and the rest
            // at its last time, the one a restart after it cuts short.
            let last = ev.last_time.map(go_time).filter(|_| ev.repeats > 0);
            steps.extend(at.map(|t| (t, Step::Request(1))));
            steps.extend(last.map(|t| (t, Step::Request(ev.repeats))));
        }
        if is_result && ev.error.as_deref().is_some_and(says_already_exists) {
            out.already_exists += lines(ev);
            see(&mut out, ev);
        }
        if is_result || ev.kind == EvidenceKind::CriticalAnnotationsUpdated {
            steps.extend(at.map(|t| (t, Step::End)));
        }
        if ev.kind == EvidenceKind::ProcessStarted {
            steps.extend(at.map(|t| (t, Step::Start)));
        }
        let logged = ev.kind.carries_logged_id() && ev.id.as_deref().is_some_and(|id| !id.is_empty());
        out.id_logged |= logged || !ev.created.is_empty();
    }
    steps.sort();
    steps.dedup_by(|a, b| a.1 == Step::Start && b.1 == Step::Start && a.0 == b.0);
    walk(&steps, &mut out);
    out
}

/// Walks the steps in time order: the requests each process made, and each request that no
/// result followed before the next process started.
fn walk(steps: &[(GoTime, Step)], out: &mut CreateAttempts) {
    let (mut in_process, mut open): (u32, Option<GoTime>) = (0, None);
    for (at, step) in steps {
        match step {
            Step::Start => {
                if let Some(requested) = open.take() {
                    out.interrupted.push(Interrupted { requested, restarted: *at, again: None });
                }
                in_process = 0;
            }
            Step::Request(n) => {
                if let Some(cut) = out.interrupted.last_mut().filter(|c| c.again.is_none() && c.restarted <= *at) {
                    cut.again = Some(*at);
                }
                in_process += n;
                out.most_in_one_process = out.most_in_one_process.max(in_process);
                open = Some(*at);
            }
            Step::End => open = None,
        }
    }
}

/// What the history words about each create a restart cut short: the restart, and the object
/// the create made when the cloud's audit record (`--cloud-audit`) or the inventory
/// (`--inventory`) shows it.
pub(crate) fn cut_short(
    attempts: &CreateAttempts,
    cloud: Option<&MrCloudAudit>,
    inventory: Option<&MrInventory>,
) -> Vec<String> {
    attempts.interrupted.iter().flat_map(|cut| interrupted(cut, (cloud, inventory), attempts)).collect()
}

/// What names the objects the creates made: the cloud's record, the inventory.
type Made<'a> = (Option<&'a MrCloudAudit>, Option<&'a MrInventory>);

/// A create a provider restart cut short, in words, and the object it made when the cloud's
/// audit record or the inventory shows it.
fn interrupted(cut: &Interrupted, made: Made, attempts: &CreateAttempts) -> Vec<String> {
    let mut line = format!(
        "provider restarted during a create: a new provider process started at {} while the create requested at {} had logged no result, so the object it made, if any, is tracked by nothing (an orphan)",
        cut.restarted, cut.requested
    );
    if let Some(again) = cut.again {
        line.push_str(&format!("; the create requested again at {again} may have made a second one (a duplicate)"));
    }
    let mut out = vec![line];
    out.extend(made_by(cut, made, attempts));
    out
}

/// How long before its request line a create's cloud call may come: crossplane-runtime logs the
/// request once `Create` returned, up to the reconcile timeout upjet gives it (3 min) later.
const REQUEST_LAG_SECS: i64 = 180 + 30;

/// The object a create cut short made, as the cloud's record shows it (a create call by the
/// provider between the request and the restart), or as the inventory does (the one object
/// tagged for the MR that it does not track, when only one create was cut short and the MR
/// tracks the object another made).
fn made_by(cut: &Interrupted, (cloud, inventory): Made, attempts: &CreateAttempts) -> Option<String> {
    let from = cut.requested.add_secs(-REQUEST_LAG_SECS);
    let called = cloud
        .iter()
        .flat_map(|c| &c.creates)
        .find(|o| o.call.at.is_some_and(|t| !t.before(&from) && !t.after(&cut.restarted)) && o.object().is_some());
    if let Some(o) = called {
        let state = if o.tracked { "which the MR tracks" } else { "which nothing tracks" };
        let when = o.call.at.map(|t| format!(" at {t}")).unwrap_or_default();
        return Some(format!(
            "the create requested at {} made {:?}, {state}: the cloud's audit record shows its {}{when} <{}>",
            cut.requested,
            o.object().unwrap_or_default(),
            o.call.action,
            o.call.file
        ));
    }
    let inv = inventory?;
    let untracked: Vec<&TaggedObject> = inv.objects.iter().filter(|o| o.tracking == Tracking::Untracked).collect();
    let tracks_one = inv.objects.iter().any(|o| o.tracking == Tracking::Tracked);
    match untracked.as_slice() {
        [one] if tracks_one && attempts.interrupted.len() == 1 => Some(format!(
            "the create requested at {} made {:?}: the inventory lists it tagged for this MR and tracked by nothing, beside the object the MR tracks <{}>",
            cut.requested, one.id, one.source
        )),
        [] => None,
        many if Some(cut) == attempts.interrupted.first() => Some(format!(
            "the inventory lists {} tagged for this MR and tracked by nothing: what the creates a restart cut short made",
            many.iter().map(|o| format!("{:?}", o.id)).collect::<Vec<_>>().join(", ")
        )),
        _ => None,
    }
}

#[cfg(test)]
#[path = "create_loop_tests.rs"]
mod tests;
