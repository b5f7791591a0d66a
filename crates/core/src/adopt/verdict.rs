//! The preflight: whether to refuse, do nothing, or adopt with a plan, and the guardrail
//! warnings a user must see before confirming.

use super::create_marks::CreateMarks;
use super::managed::{ManagedResource, keys};
use super::options::{Options, final_policies};
use super::policies::{ManagementPolicies, Policies, ResolverKind};
use super::steps::{Plan, build_steps};
use super::undo::diff;
use super::{MARKER, Marker};
use crate::deletion::Deletion;
use crate::gotime::GoTime;
use crate::patch::{apply_merge_patch, policies_of};
use crate::reconcile_timeout::{JudgedAt, PendingCreate};
use crate::rules::Facts;

use crate::shell::{quoted, word};
use serde_json::Value;

/// Why an adoption is refused. `is_bad_input` separates the user's mistakes (exit 2) from
/// refusals to act on this MR now (exit 5).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// `--id ""` or only spaces.
    #[error("the ID is empty")]
    EmptyId,
    /// `--id " vpc-1"`: almost certainly a copy-and-paste mistake.
    #[error("the ID {0:?} has leading or trailing whitespace")]
    IdWhitespace(String),
    /// An ID with a newline, ESC, …
    #[error("the ID {0:?} contains control characters")]
    IdControl(String),
    /// A provider's placeholder (`STUB123456`, …): writing it would make the MR track nothing.
    #[error("{0}; adopt needs the cloud object's real ID")]
    Placeholder(String),
    /// The object is not a managed resource this tool can read.
    #[error("not a readable managed resource: {0}")]
    Unreadable(String),
    /// Deleting: adopting now would hand the cloud object to a deletion.
    #[error("{0} is being deleted (deletionTimestamp {1}); adopting it now could delete the adopted cloud object")]
    Deleting(String, String),
    /// An asynchronous create or update may still be running (doctor's AsyncInFlight): the MR,
    /// why, and the doctor command that checks it.
    #[error(
        "an asynchronous operation may still be running on {0} ({1}); adopting now races it. Wait and check with `{2}`, or pass --force"
    )]
    AsyncInFlight(String, String, String),
    /// The reconcile that marked a create pending may still be inside Create (doctor's
    /// CreateInFlight): its result, and with a synchronous create the external-name, is written
    /// after it returns and would overwrite the adoption. The MR, the mark, when its result is
    /// due, and the doctor command that checks it.
    #[error(
        "a create started at {1} may still be running on {0} (the provider's reconcile allows it until {2}); adopting now races it. Wait and check with `{3}`, or pass --force"
    )]
    CreateInFlight(String, String, String, String),
    /// `spec.managementPolicies: []` pauses reconciliation for good; adopt could not finish.
    #[error(
        "spec.managementPolicies is an empty list, which pauses reconciliation: the adoption could not be verified. Set the policies first (for example [\"*\"])"
    )]
    PausedByPolicies,
    /// The reconciler rejects the policy set (`Validate`) before doing anything, so the
    /// restored policies would leave the MR unreconciled (doctor's UnsupportedManagementPolicies).
    #[error(
        "spec.managementPolicies is a set the reconciler rejects ({0}); the adoption could not be verified. Set a supported set first (for example {1})"
    )]
    UnsupportedPolicies(String, String),
    /// A previous adoption of a different ID did not finish.
    #[error(
        "an adoption of ID {} is in progress on this MR (backup {backup}); run the same command with --id {} to finish it, `kubectl upjet restore <backup>` to undo it, or pass --force to adopt {} instead",
        quoted(.other),
        word(.other),
        quoted(.id)
    )]
    OtherAdoption {
        /// The ID of the unfinished adoption.
        other: String,
        /// Its backup path (or "unknown").
        backup: String,
        /// The ID asked for now.
        id: String,
    },
    /// The composite reconciler owns an identity field the adoption writes: its next compose
    /// would revert the adoption (see [`super::composite`]). The MR and the advice naming its XR.
    #[error("{0}'s identity belongs to its composition: {1}")]
    CompositionOwnsIdentity(String, String),
    /// The marker annotation was edited into something unreadable.
    #[error(
        "the {MARKER} annotation is unreadable ({0}); restore the MR from its backup or remove the annotation, or pass --force to treat the current state as the original"
    )]
    BadMarker(String),
}

impl Refusal {
    /// Whether the refusal is the user's input being wrong (exit 2) rather than the MR's state.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            Refusal::EmptyId
                | Refusal::IdWhitespace(_)
                | Refusal::IdControl(_)
                | Refusal::Placeholder(_)
                | Refusal::Unreadable(_)
        )
    }
}

/// Checks an ID typed by a user or read from a plan.
pub fn validate_id(id: &str) -> Result<(), Refusal> {
    if id.trim().is_empty() {
        return Err(Refusal::EmptyId);
    }
    if id.trim() != id {
        return Err(Refusal::IdWhitespace(id.to_string()));
    }
    if id.chars().any(char::is_control) {
        return Err(Refusal::IdControl(id.to_string()));
    }
    if let Some(stub) = crate::placeholder::placeholder(id) {
        return Err(Refusal::Placeholder(stub.describe()));
    }
    Ok(())
}

/// The outcome of the preflight.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Do not touch the MR.
    Refused(Refusal),
    /// The MR already tracks the ID and nothing else needs fixing (exit 0; plans resume this way).
    NothingToDo(String),
    /// Adopt with this plan.
    Adopt(Box<Plan>),
}

/// Everything the preflight looks at besides the object.
#[derive(Clone, Debug, Default)]
pub struct Context<'a> {
    /// Other MRs of the same kind whose external-name is already the ID.
    pub duplicates: &'a [ManagedResource],
    /// The MR's XR is paused for this repair (`--pause-composite`): no compose runs meanwhile,
    /// so a field the composition sets does not refuse the adoption.
    pub composite_paused: bool,
}

/// Decides whether and how to adopt `id` on `obj` (the MR's full JSON).
pub fn preflight(obj: &Value, id: &str, opts: &Options, ctx: &Context) -> Verdict {
    let (mr, marker) = match admissible(obj, id, opts) {
        Ok(x) => x,
        Err(verdict) => return verdict,
    };
    let resumed = marker.is_some();
    let mut marker = match marker {
        Some(mut m) => {
            m.id = id.to_string();
            m.import = opts.import;
            m
        }
        None => Marker::fresh(obj, id, opts),
    };
    if marker.started.is_empty() {
        marker.started = opts.now.clone();
    }
    let steps = build_steps(obj, id, opts, &marker);
    if let Some(hold) = super::composite::composite_hold(&mr).filter(|_| !ctx.composite_paused)
        && steps.iter().filter_map(|s| s.patch.as_ref()).any(|p| hold.touched_by(p))
    {
        return Verdict::Refused(Refusal::CompositionOwnsIdentity(mr.command_arg(), hold.advice()));
    }
    let mut end = obj.clone();
    for s in &steps {
        if let Some(p) = &s.patch {
            apply_merge_patch(&mut end, p);
        }
    }
    let changes = diff(obj, &end);
    let warnings = warnings(&mr, id, opts, &marker, ctx);
    Verdict::Adopt(Box::new(Plan {
        target: mr.command_arg(),
        id: id.to_string(),
        import: opts.import,
        resumed,
        marker,
        warnings,
        changes,
        steps,
    }))
}

/// The refusals and "nothing to do", in the order they are checked; otherwise the decoded MR and
/// the marker of an adoption in progress (ignored when unreadable and forced).
fn admissible(obj: &Value, id: &str, opts: &Options) -> Result<(ManagedResource, Option<Marker>), Verdict> {
    validate_id(id).or_else(refuse)?;
    let mr = match ManagedResource::from_json(&obj.to_string()) {
        Ok(mr) => mr,
        Err(e) => return refuse(Refusal::Unreadable(e.to_string())),
    };
    let target = mr.command_arg();
    let doctor = mr.upjet_command("doctor").to_string();
    if let Some(ts) = &mr.deletion_timestamp {
        return refuse(Refusal::Deleting(target, ts.clone()));
    }
    let marker = match Marker::read(obj) {
        Ok(m) => m,
        Err(_) if opts.force => None,
        Err(e) => return refuse(Refusal::BadMarker(e)),
    };
    if let Some(m) = &marker
        && m.id != id
        && !opts.force
    {
        let backup = m.backup.clone().unwrap_or_else(|| "unknown".into());
        return refuse(Refusal::OtherAdoption { other: m.id.clone(), backup, id: id.to_string() });
    }
    if mr.external_name() == Some(id) && !left_to_fix(&mr, marker.is_some(), opts) {
        return Err(Verdict::NothingToDo(format!(
            "{target} already has external-name {id}; nothing to do",
            id = quoted(id)
        )));
    }
    let original = match &marker {
        Some(m) => m.policies.clone(),
        None => policies_of(obj),
    };
    if matches!(&original, Some(p) if p.is_empty()) {
        return refuse(Refusal::PausedByPolicies);
    }
    let resolver = ManagementPolicies::new(true, &Policies { listed: original }, ResolverKind::of(&mr));
    if let Err(e) = resolver.validate() {
        let nearest = serde_json::to_string(&resolver.nearest_supported()).unwrap_or_default();
        return refuse(Refusal::UnsupportedPolicies(e.message, nearest));
    }
    // Past upjet's deadline nothing will finish the operation, so adopting races nothing.
    let judged_at = opts.judged_at.unwrap_or(JudgedAt::upjet(GoTime::ZERO));
    if let (Some(_), PendingCreate::InFlight { due }) = (opts.judged_at, Facts::of(&mr, judged_at).pending_create)
        && !opts.force
    {
        let pending = mr.annotation(keys::CREATE_PENDING).unwrap_or("?").to_string();
        return refuse(Refusal::CreateInFlight(target, pending, due.to_string(), doctor));
    }
    if Facts::of(&mr, judged_at).in_flight && !opts.force {
        let why = ["AsyncOperation", "Ready"]
            .iter()
            .filter_map(|t| mr.condition(t).map(|c| format!("{t}={}/{}", c.status, c.reason)))
            .collect::<Vec<_>>()
            .join(", ");
        return refuse(Refusal::AsyncInFlight(target, why, doctor));
    }
    Ok((mr, marker))
}

fn refuse<T>(r: Refusal) -> Result<T, Verdict> {
    Err(Verdict::Refused(r))
}

/// Whether an MR that already tracks the ID still needs an adoption run: a marker to finish, a
/// pause to lift, a create mark to clear, or LateInitialize to add.
fn left_to_fix(mr: &ManagedResource, has_marker: bool, opts: &Options) -> bool {
    let marks = CreateMarks::of(mr);
    let lacks_li = !Policies::of(mr).should_late_initialize();
    has_marker
        || mr.annotation(keys::PAUSED) == Some("true")
        || marks.incomplete()
        || marks.last_create_failed()
        || (opts.add_late_initialize && lacks_li)
}

fn warnings(mr: &ManagedResource, id: &str, opts: &Options, marker: &Marker, ctx: &Context) -> Vec<String> {
    let mut out = Vec::new();
    let final_policies = Policies { listed: final_policies(&marker.policies, opts.add_late_initialize) };
    let resolver = ManagementPolicies::new(true, &final_policies, ResolverKind::of(mr));
    if let Some(fix) = resolver.keep_cloud_object_fix() {
        out.push(format!(
            "deleting this MR (for example as a duplicate) would delete the cloud object {id}: {}; to keep the cloud object, {fix} before deleting it",
            resolver.delete_reason(), id = quoted(id)));
    }
    for dup in ctx.duplicates.iter().filter(|d| d.uid != mr.uid) {
        out.push(format!(
            "{} also has external-name {id}: two MRs would manage one cloud object; deleting it {}",
            dup.command_arg(),
            Deletion::of(dup).describe(),
            id = quoted(id)
        ));
    }
    if !final_policies.should_late_initialize() {
        out.push(format!(
            "spec.managementPolicies {} lack LateInitialize: upjet will not persist an external-name it learns later (pass --add-late-initialize)",
            final_policies.describe()
        ));
    }
    if marker.annotations.get(keys::PAUSED).cloned().flatten().as_deref() == Some("true") {
        let how = if opts.import {
            "the import lifts it only while the MR observes (nothing can be created or changed then) and puts it back"
        } else {
            "the adoption keeps it, so the new external-name is not verified until you remove the pause (--import verifies it first)"
        };
        out.push(format!("the MR is paused ({}: \"true\"); {how}", keys::PAUSED));
    }
    if !opts.import && final_policies.should_create() {
        out.push(
            "without --import a wrong ID is not caught: if no cloud object has it, the provider creates a new one (use --import to verify first)"
                .to_string(),
        );
    }
    if resolver.should_update() {
        out.push("once adopted, the provider updates the cloud object to match spec.forProvider".to_string());
    }
    out
}

/// Whether deleting an MR with these policies deletes its cloud object: crossplane-runtime's
/// `ShouldDelete` for the MR's scope (legacy cluster-scoped MRs also weigh `deletionPolicy`, and
/// a non-default policy set containing Delete wins over `Orphan`).
pub fn deletes_cloud_object(mr: &ManagedResource, policies: &Policies) -> bool {
    ManagementPolicies::new(true, policies, ResolverKind::of(mr)).should_delete()
}
