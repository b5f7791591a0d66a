//! Adoption: making an MR track an existing cloud object, as a pure plan of conditional writes.
//!
//! The shell reads the MR, asks this module what to do, and executes the answer step by step.
//! Everything that decides *what* is written lives here so it can be table-tested:
//! - the preflight verdict (refuse, nothing to do, or a plan) — see [`preflight`];
//! - the guardrail warnings a user must see before confirming;
//! - the ordered steps, each a concrete JSON merge patch (the shell adds the resourceVersion it
//!   read, so every write is conditional) or a wait with a pure completion rule ([`progress`]);
//! - the undo patches ([`undo_patch`] from a backup, [`undo_from_marker`] from the marker);
//! - the candidate IDs an interactive user picks from ([`candidates`]).
//!
//! Safety argument (domain brief §4): the MR is paused before its identity changes, and it is
//! only unpaused in a single write that also completes the identity, so an interruption at any
//! step boundary leaves it as it was, paused, or with its identity complete. While an adoption is
//! in progress the MR carries the [`MARKER`] annotation, which records the original values of
//! everything the adoption touches; that makes a re-run resume, and an undo exact, even without
//! the backup file.

use super::create_marks::CreateMarks;
use super::diagnose::{ERR_OBSERVE_NOT_FOUND, Facts};
use super::finding::Finding;
use super::managed::{Condition, ManagedResource, keys};
use super::policies::Policies;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Annotation present only while an adoption is in progress: a JSON [`Marker`]. Outside the
/// `crossplane.io/` prefix so that no controller interprets it.
pub const MARKER: &str = "kubectl-upjet.io/adoption";

/// The annotations an adoption may change; the marker records their original values.
pub const TOUCHED: &[&str] =
    &[keys::PAUSED, keys::EXTERNAL_NAME, keys::CREATE_PENDING, keys::CREATE_FAILED, keys::RECONCILE_REQUESTED_AT];

/// What the user asked for, beyond the ID.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Verify through an Observe-only phase before allowing Create/Update/Delete again.
    pub import: bool,
    /// Adopt even while an async operation may be running, or over another adoption.
    pub force: bool,
    /// Add `LateInitialize` to the restored policies so upjet keeps persisting the external-name.
    pub add_late_initialize: bool,
    /// Only show and server-side dry-run the writes.
    pub dry_run: bool,
    /// Current time, RFC3339; also the base of the `reconcile-requested-at` tokens.
    pub now: String,
}

/// What an in-progress adoption records on the MR (value of the [`MARKER`] annotation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// The ID being adopted.
    pub id: String,
    /// Where the backup of the original object was written, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
    /// The original `spec.managementPolicies` (`None`: the field was absent).
    pub policies: Option<Vec<String>>,
    /// The original values of the [`TOUCHED`] annotations (`None`: absent).
    pub annotations: BTreeMap<String, Option<String>>,
    /// When the adoption started (RFC3339).
    pub started: String,
    /// Whether it verifies through an Observe-only phase.
    #[serde(default)]
    pub import: bool,
}

impl Marker {
    /// Reads the marker of an object: `Ok(None)` when absent, `Err` when present but unreadable.
    pub fn read(obj: &Value) -> Result<Option<Marker>, String> {
        match obj.pointer("/metadata/annotations").and_then(|a| a.get(MARKER)) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => serde_json::from_str(s).map(Some).map_err(|e| e.to_string()),
            Some(other) => Err(format!("expected a string, found {other}")),
        }
    }

    /// The marker a fresh adoption of `obj` writes.
    fn fresh(obj: &Value, id: &str, opts: &Options) -> Marker {
        let annotations = TOUCHED.iter().map(|k| (k.to_string(), annotation(obj, k).map(str::to_owned))).collect();
        Marker {
            id: id.to_string(),
            backup: None,
            policies: policies_of(obj),
            annotations,
            started: opts.now.clone(),
            import: opts.import,
        }
    }

    fn to_annotation(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

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
    /// The object is not a managed resource this tool can read.
    #[error("not a readable managed resource: {0}")]
    Unreadable(String),
    /// Deleting: adopting now would hand the cloud object to a deletion.
    #[error("{0} is being deleted (deletionTimestamp {1}); adopting it now could delete the adopted cloud object")]
    Deleting(String, String),
    /// An asynchronous create or update may still be running (doctor's AsyncInFlight).
    #[error(
        "an asynchronous operation may still be running on {0} ({1}); adopting now races it. Wait and check with `kubectl upjet doctor {0}`, or pass --force"
    )]
    AsyncInFlight(String, String),
    /// `spec.managementPolicies: []` pauses reconciliation for good; adopt could not finish.
    #[error(
        "spec.managementPolicies is an empty list, which pauses reconciliation: the adoption could not be verified. Set the policies first (for example [\"*\"])"
    )]
    PausedByPolicies,
    /// A previous adoption of a different ID did not finish.
    #[error(
        "an adoption of ID {other:?} is in progress on this MR (backup {backup}); run the same command with --id {other:?} to finish it, `kubectl upjet restore <backup>` to undo it, or pass --force to adopt {id:?} instead"
    )]
    OtherAdoption {
        /// The ID of the unfinished adoption.
        other: String,
        /// Its backup path (or "unknown").
        backup: String,
        /// The ID asked for now.
        id: String,
    },
    /// The marker annotation was edited into something unreadable.
    #[error(
        "the {MARKER} annotation is unreadable ({0}); restore the MR from its backup or remove the annotation, or pass --force to treat the current state as the original"
    )]
    BadMarker(String),
}

impl Refusal {
    /// Whether the refusal is the user's input being wrong (exit 2) rather than the MR's state.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, Refusal::EmptyId | Refusal::IdWhitespace(_) | Refusal::IdControl(_) | Refusal::Unreadable(_))
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

/// What a step does; also the stable names the shell prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// `crossplane.io/paused: "true"` and the marker.
    Pause,
    /// external-name, and removing the create marks that would block or mislead.
    Identity,
    /// (import) `managementPolicies: ["Observe"]`, unpause, request a reconcile.
    Observe,
    /// (import) wait for Ready=True with `status.atProvider.id` matching.
    WaitImported,
    /// (import) original policies back (+LateInitialize), marker removed, reconcile requested.
    RestorePolicies,
    /// (no import) unpause, marker removed, reconcile requested.
    Unpause,
    /// Wait for Synced=True and Ready=True.
    WaitReady,
}

impl Action {
    /// A short name for progress lines.
    pub fn name(self) -> &'static str {
        match self {
            Action::Pause => "pause",
            Action::Identity => "set identity",
            Action::Observe => "observe only",
            Action::WaitImported => "wait for import",
            Action::RestorePolicies => "restore policies",
            Action::Unpause => "unpause",
            Action::WaitReady => "wait for Ready",
        }
    }
}

/// What a wait step waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Ready=True and `status.atProvider.id` matching `id`, after the reconcile `token` asked for.
    Imported {
        /// The adopted ID.
        id: String,
        /// The `reconcile-requested-at` value of the preceding write.
        token: String,
    },
    /// Synced=True and Ready=True after the reconcile `token` asked for.
    Ready {
        /// The `reconcile-requested-at` value of the preceding write.
        token: String,
    },
}

/// One step of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// 1-based position (stable per mode, so a test hook can stop after step N).
    pub number: usize,
    /// What it does.
    pub action: Action,
    /// One line for humans.
    pub title: String,
    /// The merge patch (without resourceVersion); `None` for waits and for writes already done.
    pub patch: Option<Value>,
    /// For wait steps.
    pub wait: Option<Wait>,
}

impl Step {
    /// The patch with the resourceVersion the write is conditional on.
    pub fn patch_at(&self, resource_version: &str) -> Option<Value> {
        self.patch.as_ref().map(|p| with_resource_version(p.clone(), resource_version))
    }
}

/// One field that differs between two states of an MR, for "what will change" and conflicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// `metadata.annotations[key]` or `spec.managementPolicies`, …
    pub field: String,
    /// Before (`None`: absent).
    pub before: Option<String>,
    /// After (`None`: absent).
    pub after: Option<String>,
}

/// A complete adoption plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// `kind.group/name [-n ns]`.
    pub target: String,
    /// The ID adopted.
    pub id: String,
    /// Observe-only verification phase.
    pub import: bool,
    /// Continuing an interrupted adoption (the marker was present).
    pub resumed: bool,
    /// The marker written by step 1 (the shell records the backup path in it).
    pub marker: Marker,
    /// Guardrails to show before confirming.
    pub warnings: Vec<String>,
    /// The end state compared with now (annotations and policies).
    pub changes: Vec<Change>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

impl Plan {
    /// Records the backup path in the marker that step 1 writes (a fresh adoption writes its
    /// backup after confirmation, so the path is not known when the plan is made).
    pub fn record_backup(&mut self, path: &str) {
        if self.resumed && self.marker.backup.is_some() {
            return;
        }
        self.marker.backup = Some(path.to_string());
        let value = self.marker.to_annotation();
        for step in &mut self.steps {
            if step.action == Action::Pause
                && let Some(ann) = step.patch.as_mut().and_then(|p| p.pointer_mut("/metadata/annotations"))
                && ann.get(MARKER).is_some()
            {
                ann[MARKER] = json!(value);
            }
        }
    }

    /// The steps that write (for dry-run and counting).
    pub fn writes(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(|s| s.patch.is_some())
    }

    /// The policies the MR ends with (`None`: field absent).
    pub fn final_policies(&self, add_late_initialize: bool) -> Option<Vec<String>> {
        final_policies(&self.marker.policies, add_late_initialize)
    }
}

/// Everything the preflight looks at besides the object.
#[derive(Clone, Debug, Default)]
pub struct Context<'a> {
    /// Other MRs of the same kind whose external-name is already the ID.
    pub duplicates: &'a [ManagedResource],
}

/// Decides whether and how to adopt `id` on `obj` (the MR's full JSON).
pub fn preflight(obj: &Value, id: &str, opts: &Options, ctx: &Context) -> Verdict {
    if let Err(r) = validate_id(id) {
        return Verdict::Refused(r);
    }
    let mr = match ManagedResource::from_json(&obj.to_string()) {
        Ok(mr) => mr,
        Err(e) => return Verdict::Refused(Refusal::Unreadable(e.to_string())),
    };
    let target = mr.command_arg();
    if let Some(ts) = &mr.deletion_timestamp {
        return Verdict::Refused(Refusal::Deleting(target, ts.clone()));
    }
    let marker = match Marker::read(obj) {
        Ok(m) => m,
        Err(_) if opts.force => None,
        Err(e) => return Verdict::Refused(Refusal::BadMarker(e)),
    };
    if let Some(m) = &marker
        && m.id != id
        && !opts.force
    {
        return Verdict::Refused(Refusal::OtherAdoption {
            other: m.id.clone(),
            backup: m.backup.clone().unwrap_or_else(|| "unknown".into()),
            id: id.to_string(),
        });
    }
    let marks = CreateMarks::of(&mr);
    let paused_by_annotation = mr.annotation(keys::PAUSED) == Some("true");
    let lacks_li = !Policies::of(&mr).should_late_initialize();
    let left_to_fix = marker.is_some()
        || paused_by_annotation
        || marks.incomplete()
        || marks.last_create_failed()
        || (opts.add_late_initialize && lacks_li);
    if mr.external_name() == Some(id) && !left_to_fix {
        return Verdict::NothingToDo(format!("{target} already has external-name {id:?}; nothing to do"));
    }
    let original = match &marker {
        Some(m) => m.policies.clone(),
        None => policies_of(obj),
    };
    if matches!(&original, Some(p) if p.is_empty()) {
        return Verdict::Refused(Refusal::PausedByPolicies);
    }
    let facts = Facts::of(&mr);
    if facts.in_flight && !opts.force {
        let why = ["AsyncOperation", "Ready"]
            .iter()
            .filter_map(|t| mr.condition(t).map(|c| format!("{t}={}/{}", c.status, c.reason)))
            .collect::<Vec<_>>()
            .join(", ");
        return Verdict::Refused(Refusal::AsyncInFlight(target, why));
    }

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
    let mut end = obj.clone();
    for s in &steps {
        if let Some(p) = &s.patch {
            apply_merge_patch(&mut end, p);
        }
    }
    let changes = diff(obj, &end);
    let warnings = warnings(&mr, id, opts, &marker, ctx);
    Verdict::Adopt(Box::new(Plan {
        target,
        id: id.to_string(),
        import: opts.import,
        resumed,
        marker,
        warnings,
        changes,
        steps,
    }))
}

fn build_steps(obj: &Value, id: &str, opts: &Options, marker: &Marker) -> Vec<Step> {
    let token = opts.now.clone();
    let final_token = if opts.import { format!("{token}+adopted") } else { token.clone() };
    let mut steps = Vec::new();
    let mut push = |action: Action, title: String, patch: Option<Value>, wait: Option<Wait>| {
        let number = steps.len() + 1;
        steps.push(Step { number, action, title, patch, wait });
    };

    // 1. Pause, and record what the adoption will touch.
    let mut ann = Map::new();
    if annotation(obj, keys::PAUSED) != Some("true") {
        ann.insert(keys::PAUSED.into(), json!("true"));
    }
    if Marker::read(obj).ok().flatten().as_ref() != Some(marker) {
        ann.insert(MARKER.into(), json!(marker.to_annotation()));
    }
    let title = format!("pause reconciliation ({}: \"true\") and record the adoption ({MARKER})", keys::PAUSED);
    push(Action::Pause, title, annotations_patch(ann), None);

    // 2. Identity.
    let mut ann = Map::new();
    let mut what = Vec::new();
    if annotation(obj, keys::EXTERNAL_NAME) != Some(id) {
        ann.insert(keys::EXTERNAL_NAME.into(), json!(id));
        what.push(format!("{} = {id:?}", keys::EXTERNAL_NAME));
    }
    let mr = ManagedResource::from_json(&obj.to_string()).ok();
    if let Some(mr) = &mr {
        let marks = CreateMarks::of(mr);
        // The create marks must neither block (pending newer than any result) nor report a failed
        // create once the identity is settled. Removing one mark can expose the other: a failed
        // mark that is the latest result goes with its (older) pending mark, and removing pending
        // turns a failed mark newer than succeeded into "the last create failed".
        let remove_failed_alone = marks.last_create_failed();
        let remove_pending = marks.incomplete() || (remove_failed_alone && marks.pending.raw.is_some());
        let remove_failed = remove_failed_alone
            || (remove_pending && marks.failed.is_set() && marks.failed.at.after(&marks.succeeded.at));
        if remove_pending {
            ann.insert(keys::CREATE_PENDING.into(), Value::Null);
            what.push(format!("remove {} (the create it guards is resolved by this adoption)", keys::CREATE_PENDING));
        }
        if remove_failed {
            ann.insert(keys::CREATE_FAILED.into(), Value::Null);
            what.push(format!("remove {} (the failed create is superseded)", keys::CREATE_FAILED));
        }
    }
    let title = if what.is_empty() {
        "set identity (already set)".to_string()
    } else {
        format!("set identity: {}", what.join("; "))
    };
    push(Action::Identity, title, annotations_patch(ann), None);

    let final_policies = final_policies(&marker.policies, opts.add_late_initialize);
    if opts.import {
        // 3. Observe only, unpause, request a reconcile (one write: never unpaused with more rights).
        let patch = json!({
            "metadata": {"annotations": {keys::PAUSED: null, keys::RECONCILE_REQUESTED_AT: token}},
            "spec": {"managementPolicies": ["Observe"]}
        });
        push(
            Action::Observe,
            format!(
                "narrow spec.managementPolicies to [\"Observe\"], unpause, and request a reconcile ({} = {token:?})",
                keys::RECONCILE_REQUESTED_AT
            ),
            Some(patch),
            None,
        );
        // 4. Wait for the import.
        push(
            Action::WaitImported,
            format!("wait until Ready=True and status.atProvider.id matches {id:?}"),
            None,
            Some(Wait::Imported { id: id.to_string(), token: token.clone() }),
        );
        // 5. Original policies back.
        let patch = json!({
            "metadata": {"annotations": {keys::PAUSED: null, MARKER: null, keys::RECONCILE_REQUESTED_AT: final_token}},
            "spec": {"managementPolicies": policies_value(&final_policies)}
        });
        push(
            Action::RestorePolicies,
            format!(
                "restore spec.managementPolicies to {}, remove {MARKER}, and request a reconcile",
                describe_policies(&final_policies)
            ),
            Some(patch),
            None,
        );
    } else {
        // 3. Unpause with the identity complete.
        let mut patch = json!({
            "metadata": {"annotations": {keys::PAUSED: null, MARKER: null, keys::RECONCILE_REQUESTED_AT: final_token}}
        });
        let mut title = format!(
            "unpause, remove {MARKER}, and request a reconcile ({} = {final_token:?})",
            keys::RECONCILE_REQUESTED_AT
        );
        if policies_differ(obj, &final_policies) {
            patch["spec"] = json!({"managementPolicies": policies_value(&final_policies)});
            title.push_str(&format!("; spec.managementPolicies = {}", describe_policies(&final_policies)));
        }
        push(Action::Unpause, title, Some(patch), None);
    }
    push(
        Action::WaitReady,
        "wait until Synced=True and Ready=True".to_string(),
        None,
        Some(Wait::Ready { token: final_token }),
    );
    steps
}

fn warnings(mr: &ManagedResource, id: &str, opts: &Options, marker: &Marker, ctx: &Context) -> Vec<String> {
    let mut out = Vec::new();
    let final_policies = Policies { listed: final_policies(&marker.policies, opts.add_late_initialize) };
    if deletes_cloud_object(mr.namespace.is_some(), mr.deletion_policy.as_deref(), &final_policies) {
        let fix = if mr.namespace.is_some() {
            "remove Delete from spec.managementPolicies"
        } else {
            "set spec.deletionPolicy: Orphan or remove Delete from spec.managementPolicies"
        };
        out.push(format!(
            "deleting this MR (for example as a duplicate) would delete the cloud object {id:?}: {}; {fix} before deleting it",
            deletion_reason(mr.namespace.is_some(), mr.deletion_policy.as_deref(), &final_policies),
        ));
    }
    for dup in ctx.duplicates.iter().filter(|d| d.uid != mr.uid) {
        let p = Policies::of(dup);
        let consequence = if deletes_cloud_object(dup.namespace.is_some(), dup.deletion_policy.as_deref(), &p) {
            format!(
                "deleting it would delete the cloud object ({})",
                deletion_reason(dup.namespace.is_some(), dup.deletion_policy.as_deref(), &p)
            )
        } else {
            "deleting it leaves the cloud object in place".to_string()
        };
        out.push(format!(
            "{} also has external-name {id:?}: two MRs would manage one cloud object; {consequence}",
            dup.command_arg()
        ));
    }
    if !final_policies.should_late_initialize() {
        out.push(format!(
            "spec.managementPolicies {} lack LateInitialize: upjet will not persist an external-name it learns later (pass --add-late-initialize)",
            final_policies.describe()
        ));
    }
    if marker.annotations.get(keys::PAUSED).cloned().flatten().as_deref() == Some("true") {
        out.push(format!("the MR is paused ({}: \"true\"); the adoption unpauses it", keys::PAUSED));
    }
    if !opts.import && final_policies.should_create() {
        out.push(
            "without --import a wrong ID is not caught: if no cloud object has it, the provider creates a new one (use --import to verify first)"
                .to_string(),
        );
    }
    let updates = match &final_policies.listed {
        None => true,
        Some(l) => l.iter().any(|p| p == "*" || p == "Update"),
    };
    if updates {
        out.push("once adopted, the provider updates the cloud object to match spec.forProvider".to_string());
    }
    out
}

/// Whether deleting an MR deletes its cloud object: its policies allow Delete and, for legacy
/// cluster-scoped MRs, `deletionPolicy` is not `Orphan` (namespaced MRs have no deletionPolicy).
pub fn deletes_cloud_object(namespaced: bool, deletion_policy: Option<&str>, policies: &Policies) -> bool {
    policies.should_delete() && (namespaced || deletion_policy != Some("Orphan"))
}

fn deletion_reason(namespaced: bool, deletion_policy: Option<&str>, policies: &Policies) -> String {
    if namespaced {
        format!("namespaced MRs have no deletionPolicy and managementPolicies {} include Delete", policies.describe())
    } else {
        format!(
            "deletionPolicy is {} and managementPolicies {} include Delete",
            deletion_policy.unwrap_or("Delete (default)"),
            policies.describe()
        )
    }
}

/// The policies an adoption ends with: the original ones, plus LateInitialize when asked and
/// missing (absent and `*` already include it).
pub fn final_policies(original: &Option<Vec<String>>, add_late_initialize: bool) -> Option<Vec<String>> {
    match original {
        Some(list)
            if add_late_initialize && !list.is_empty() && !list.iter().any(|p| p == "*" || p == "LateInitialize") =>
        {
            let mut l = list.clone();
            l.push("LateInitialize".into());
            Some(l)
        }
        other => other.clone(),
    }
}

fn policies_value(p: &Option<Vec<String>>) -> Value {
    p.as_ref().map(|l| json!(l)).unwrap_or(Value::Null)
}

fn describe_policies(p: &Option<Vec<String>>) -> String {
    Policies { listed: p.clone() }.describe()
}

fn annotations_patch(ann: Map<String, Value>) -> Option<Value> {
    (!ann.is_empty()).then(|| json!({"metadata": {"annotations": ann}}))
}

/// An annotation of a raw object.
pub fn annotation<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    obj.pointer("/metadata/annotations").and_then(|a| a.get(key)).and_then(Value::as_str)
}

/// `spec.managementPolicies` of a raw object (`None`: absent or not a list of strings).
pub fn policies_of(obj: &Value) -> Option<Vec<String>> {
    obj.pointer("/spec/managementPolicies")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
}

/// `metadata.resourceVersion` of a raw object.
pub fn resource_version(obj: &Value) -> &str {
    obj.pointer("/metadata/resourceVersion").and_then(Value::as_str).unwrap_or("")
}

/// Puts `metadata.resourceVersion` into a merge patch, making the write conditional.
pub fn with_resource_version(mut patch: Value, rv: &str) -> Value {
    if !patch.is_object() {
        patch = json!({});
    }
    if !patch.get("metadata").is_some_and(Value::is_object) {
        patch["metadata"] = json!({});
    }
    patch["metadata"]["resourceVersion"] = json!(rv);
    patch
}

/// RFC 7386 JSON merge patch, as the API server applies `application/merge-patch+json`.
pub fn apply_merge_patch(target: &mut Value, patch: &Value) {
    let Some(p) = patch.as_object() else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = json!({});
    }
    let t = target.as_object_mut().expect("object");
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
        } else {
            apply_merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

fn annotations_map(obj: &Value) -> BTreeMap<String, String> {
    obj.pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter().map(|(k, v)| (k.clone(), v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string()))).collect()
        })
        .unwrap_or_default()
}

fn policies_text(obj: &Value) -> Option<String> {
    obj.pointer("/spec/managementPolicies").map(|v| v.to_string())
}

/// Every annotation and the management policies that differ between two states of an object.
pub fn diff(before: &Value, after: &Value) -> Vec<Change> {
    let (a, b) = (annotations_map(before), annotations_map(after));
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out: Vec<Change> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| Change {
            field: format!("metadata.annotations[{k}]"),
            before: a.get(k).cloned(),
            after: b.get(k).cloned(),
        })
        .collect();
    let (pa, pb) = (policies_text(before), policies_text(after));
    if pa != pb {
        out.push(Change { field: "spec.managementPolicies".into(), before: pa, after: pb });
    }
    out
}

/// The parts of an object whose change by someone else must stop an adoption: the
/// `crossplane.io/*` annotations and the marker, the policies, deletion and identity. Status and
/// other annotations may change freely (the provider writes status all the time).
pub fn conflicting_changes(expected: &Value, fresh: &Value) -> Vec<Change> {
    let relevant = |obj: &Value| -> Value {
        let ann: Map<String, Value> = obj
            .pointer("/metadata/annotations")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| k.starts_with("crossplane.io/") || *k == MARKER)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let mut out = json!({"metadata": {"annotations": ann}});
        if let Some(p) = obj.pointer("/spec/managementPolicies") {
            out["spec"] = json!({"managementPolicies": p});
        }
        out
    };
    let mut changes = diff(&relevant(expected), &relevant(fresh));
    for (path, name) in [
        ("/spec/deletionPolicy", "spec.deletionPolicy"),
        ("/metadata/deletionTimestamp", "metadata.deletionTimestamp"),
        ("/metadata/uid", "metadata.uid"),
    ] {
        let text = |o: &Value| o.pointer(path).map(|v| v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string()));
        if text(expected) != text(fresh) {
            changes.push(Change { field: name.into(), before: text(expected), after: text(fresh) });
        }
    }
    changes
}

/// The merge patch that puts the annotations and management policies of `current` back exactly
/// as in `backup` (annotations added since are removed), conditional on `current`'s
/// resourceVersion; `None` when they are already equal.
pub fn undo_patch(backup: &Value, current: &Value) -> Option<Value> {
    let (was, now) = (annotations_raw(backup), annotations_raw(current));
    let mut ann = Map::new();
    for k in now.keys() {
        if !was.contains_key(k) {
            ann.insert(k.clone(), Value::Null);
        }
    }
    for (k, v) in &was {
        if now.get(k) != Some(v) {
            ann.insert(k.clone(), v.clone());
        }
    }
    let mut patch = json!({"metadata": {}});
    let mut changed = false;
    if !ann.is_empty() {
        patch["metadata"]["annotations"] = Value::Object(ann);
        changed = true;
    }
    let (pw, pn) = (backup.pointer("/spec/managementPolicies"), current.pointer("/spec/managementPolicies"));
    if pw != pn {
        patch["spec"] = json!({"managementPolicies": pw.cloned().unwrap_or(Value::Null)});
        changed = true;
    }
    changed.then(|| with_resource_version(patch, resource_version(current)))
}

fn annotations_raw(obj: &Value) -> Map<String, Value> {
    obj.pointer("/metadata/annotations").and_then(Value::as_object).cloned().unwrap_or_default()
}

/// The merge patch that undoes an in-progress adoption from its marker alone: the touched
/// annotations and the policies get their recorded original values, the marker goes.
pub fn undo_from_marker(marker: &Marker, current: &Value) -> Value {
    let mut ann = Map::new();
    for k in TOUCHED {
        let original = marker.annotations.get(*k).cloned().flatten();
        if annotation(current, k) != original.as_deref() {
            ann.insert(k.to_string(), original.map(Value::String).unwrap_or(Value::Null));
        }
    }
    ann.insert(MARKER.into(), Value::Null);
    let mut patch = json!({"metadata": {"annotations": ann}});
    if policies_differ(current, &marker.policies) {
        patch["spec"] = json!({"managementPolicies": policies_value(&marker.policies)});
    }
    with_resource_version(patch, resource_version(current))
}

fn policies_differ(current: &Value, policies: &Option<Vec<String>>) -> bool {
    current.pointer("/spec/managementPolicies").cloned() != policies.as_ref().map(|l| json!(l))
}

/// The patch that stops an adoption safely when it cannot finish (interrupted, timed out):
/// paused again, original policies back, identity and marker kept so a re-run resumes.
pub fn safe_stop_patch(marker: &Marker, current: &Value) -> Value {
    let mut patch = json!({"metadata": {"annotations": {keys::PAUSED: "true"}}});
    if policies_differ(current, &marker.policies) {
        patch["spec"] = json!({"managementPolicies": policies_value(&marker.policies)});
    }
    with_resource_version(patch, resource_version(current))
}

/// What a wait compares against: the state right after the write that asked for a reconcile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    /// The `reconcile-requested-at` token written.
    pub token: String,
    /// The Synced condition right after the write.
    pub synced: Option<Condition>,
    /// The generation the write produced, when it changed the spec (a condition with this
    /// observedGeneration proves a reconcile of the new spec).
    pub min_generation: Option<i64>,
}

impl Baseline {
    /// The baseline after a write: `before` is the object written over, `after` the answer.
    pub fn after_write(before: &Value, after: &Value, token: &str) -> Baseline {
        let generation = |o: &Value| o.pointer("/metadata/generation").and_then(Value::as_i64);
        let min_generation = match (generation(before), generation(after)) {
            (Some(b), Some(a)) if a > b => Some(a),
            _ => None,
        };
        Baseline { token: token.to_string(), synced: synced_of(after), min_generation }
    }
}

fn synced_of(obj: &Value) -> Option<Condition> {
    ManagedResource::from_json(&obj.to_string()).ok().and_then(|mr| mr.condition("Synced").cloned())
}

/// Where a wait stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Not there yet; what is seen now.
    Waiting(String),
    /// Done; what confirmed it.
    Done(String),
    /// The provider reports that no cloud object has the ID.
    NotFound(String),
}

/// Whether `status.atProvider.id` identifies the adopted ID (equal, or one embeds the other as
/// templated identifiers do).
pub fn id_matches(at_provider_id: &str, id: &str) -> bool {
    !at_provider_id.is_empty() && (at_provider_id == id || at_provider_id.contains(id) || id.contains(at_provider_id))
}

/// Judges one observation of the MR during a wait. A status older than the reconcile request
/// proves nothing, so the provider must first show it reconciled after the request: it handled
/// the token (runtime ≥ 2.3), changed Synced, or observed the generation the write produced.
pub fn progress(wait: &Wait, baseline: &Baseline, obj: &Value) -> Progress {
    let mr = match ManagedResource::from_json(&obj.to_string()) {
        Ok(mr) => mr,
        Err(e) => return Progress::Waiting(format!("unreadable object: {e}")),
    };
    let synced = mr.condition("Synced");
    let handled =
        obj.pointer("/status/lastHandledReconcileAt").and_then(Value::as_str) == Some(baseline.token.as_str());
    let synced_changed = synced.is_some_and(|s| s.reason != "ReconcilePaused") && synced != baseline.synced.as_ref();
    let generation_seen =
        baseline.min_generation.is_some_and(|g| synced.and_then(|s| s.observed_generation).is_some_and(|og| og >= g));
    let describe = |c: Option<&Condition>, t: &str| match c {
        Some(c) if c.message.is_empty() => format!("{t}={}/{}", c.status, c.reason),
        Some(c) => format!("{t}={}/{}: {}", c.status, c.reason, c.message),
        None => format!("{t} absent"),
    };
    let seen = format!("{}, {}", describe(mr.condition("Ready"), "Ready"), describe(synced, "Synced"));
    if !(handled || synced_changed || generation_seen) {
        return Progress::Waiting(format!("waiting for the provider to reconcile ({seen})"));
    }
    if let Some(s) = synced.filter(|s| s.status == "False" && s.message.contains(ERR_OBSERVE_NOT_FOUND)) {
        return Progress::NotFound(s.message.clone());
    }
    let ready = mr.is_true("Ready");
    match wait {
        Wait::Imported { id, .. } => match mr.at_provider_id.as_deref() {
            Some(at) if ready && id_matches(at, id) => {
                Progress::Done(format!("Ready=True and status.atProvider.id is {at:?}"))
            }
            Some(at) if ready => {
                Progress::Waiting(format!("Ready=True but status.atProvider.id is {at:?}, expecting {id:?}"))
            }
            _ => Progress::Waiting(seen),
        },
        Wait::Ready { .. } => {
            if ready && mr.is_true("Synced") {
                Progress::Done("Synced=True and Ready=True".to_string())
            } else {
                Progress::Waiting(seen)
            }
        }
    }
}

/// Where a candidate ID came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The cloud ID.
    pub id: String,
    /// `doctor OrphanCandidate`, `status.atProvider.id`, `event CreatedExternalResource`, …
    pub source: String,
    /// The evidence, for a human deciding.
    pub detail: String,
}

/// The `external-name` annotation the managed reconciler puts on every Event it emits for an MR
/// (`WithAnnotations("external-name", …)`): the name the MR had when the event happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventName {
    /// The annotation's value.
    pub id: String,
    /// The event reason.
    pub reason: String,
    /// When it was last seen (RFC3339), for ordering and display.
    pub time: Option<String>,
    /// The event message.
    pub message: String,
}

/// The candidate IDs for an interactive adoption, best evidence first, each ID once: IDs the
/// findings suggest (log evidence such as OrphanCandidate first, by severity), then
/// `status.atProvider.id`, then event annotations (newest first).
/// `extra` candidates (provider logs, workspace state) come last, merged into an existing entry
/// when they name the same ID.
pub fn candidates(
    mr: &ManagedResource,
    findings: &[Finding],
    events: &[EventName],
    extra: Vec<Candidate>,
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    let mut add = |id: &str, source: String, detail: String| {
        if id.trim().is_empty() {
            return;
        }
        if let Some(c) = out.iter_mut().find(|c| c.id == id) {
            c.detail.push_str(&format!("; also {source}"));
            return;
        }
        out.push(Candidate { id: id.to_string(), source, detail });
    };
    let mut ranked: Vec<&Finding> = findings.iter().filter(|f| f.suggested_id.is_some()).collect();
    ranked.sort_by_key(|f| std::cmp::Reverse(f.severity));
    for f in ranked {
        add(f.suggested_id.as_deref().unwrap_or_default(), format!("doctor {}", f.code), f.message.clone());
    }
    if let Some(id) = &mr.at_provider_id {
        add(id, "status.atProvider.id".into(), "the ID the provider last observed for this MR".into());
    }
    let mut evs: Vec<&EventName> = events.iter().collect();
    evs.sort_by(|a, b| b.time.cmp(&a.time));
    for e in evs {
        let when = e.time.as_deref().map(|t| format!(" at {t}")).unwrap_or_default();
        add(
            &e.id,
            format!("event {}", e.reason),
            format!("external-name on a {} event{when}: {}", e.reason, e.message),
        );
    }
    for c in extra {
        add(&c.id, c.source, c.detail);
    }
    if let Some(current) = mr.external_name() {
        for c in out.iter_mut().filter(|c| c.id == current) {
            c.detail.push_str(" (this is the current external-name)");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::finding::Code;

    /// A cluster-scoped RecordSet as the API server returns it.
    fn obj() -> Value {
        json!({
            "apiVersion": "dns.gcp.upbound.io/v1beta2", "kind": "RecordSet",
            "metadata": {"name": "www", "uid": "u-1", "resourceVersion": "10", "generation": 3,
                         "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}},
            "spec": {"forProvider": {"name": "www"}, "managementPolicies": ["*"], "deletionPolicy": "Delete"},
            "status": {"conditions": [
                {"type": "Ready", "status": "True", "reason": "Available"},
                {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]}
        })
    }

    fn with_ann(mut o: Value, k: &str, v: &str) -> Value {
        o["metadata"]["annotations"][k] = json!(v);
        o
    }

    fn incomplete(o: Value) -> Value {
        let o = with_ann(o, keys::CREATE_PENDING, "2024-11-30T11:00:05Z");
        let mut o = with_ann(o, keys::CREATE_SUCCEEDED, "2024-11-30T11:00:00Z");
        o["status"]["conditions"] = json!([
            {"type": "Ready", "status": "False", "reason": "Creating"},
            {"type": "Synced", "status": "False", "reason": "ReconcileError", "message": super::super::diagnose::ERR_CREATE_INCOMPLETE}]);
        o
    }

    fn opts() -> Options {
        Options { now: "2024-11-30T12:00:00Z".into(), ..Options::default() }
    }

    fn import() -> Options {
        Options { import: true, ..opts() }
    }

    fn plan_of(o: &Value, id: &str, opts: &Options) -> Plan {
        match preflight(o, id, opts, &Context::default()) {
            Verdict::Adopt(p) => *p,
            other => panic!("expected a plan, got {other:?}"),
        }
    }

    fn run_all(o: &Value, plan: &Plan) -> Value {
        let mut cur = o.clone();
        for s in &plan.steps {
            if let Some(p) = s.patch_at(resource_version(&cur)) {
                apply_merge_patch(&mut cur, &p);
            }
        }
        cur
    }

    #[test]
    fn refusals_and_nothing_to_do() {
        let deleting = {
            let mut o = obj();
            o["metadata"]["deletionTimestamp"] = json!("2024-11-30T11:00:00Z");
            o
        };
        let in_flight = {
            let mut o = with_ann(obj(), keys::EXTERNAL_NAME, "old");
            o["status"]["conditions"] = json!([
                {"type": "Ready", "status": "False", "reason": "Creating"},
                {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]);
            o
        };
        let empty_policies = {
            let mut o = obj();
            o["spec"]["managementPolicies"] = json!([]);
            o
        };
        let other_marker = with_ann(
            obj(),
            MARKER,
            &serde_json::to_string(&Marker {
                id: "other".into(),
                backup: Some("/b".into()),
                policies: None,
                annotations: BTreeMap::new(),
                started: "t".into(),
                import: false,
            })
            .unwrap(),
        );
        // (case, object, id, options, expected refusal or None for NothingToDo)
        let cases: Vec<(&str, Value, &str, Options, Option<Refusal>)> = vec![
            ("empty id", obj(), "", opts(), Some(Refusal::EmptyId)),
            ("blank id", obj(), " \t ", opts(), Some(Refusal::EmptyId)),
            ("padded id", obj(), " vpc-1", opts(), Some(Refusal::IdWhitespace(" vpc-1".into()))),
            ("control char", obj(), "a\u{1b}b", opts(), Some(Refusal::IdControl("a\u{1b}b".into()))),
            (
                "deleting",
                deleting,
                "x",
                opts(),
                Some(Refusal::Deleting("recordset.dns.gcp.upbound.io/www".into(), "2024-11-30T11:00:00Z".into())),
            ),
            (
                "in flight",
                in_flight.clone(),
                "new",
                opts(),
                Some(Refusal::AsyncInFlight("recordset.dns.gcp.upbound.io/www".into(), "Ready=False/Creating".into())),
            ),
            ("paused by policies", empty_policies, "x", opts(), Some(Refusal::PausedByPolicies)),
            (
                "other adoption",
                other_marker.clone(),
                "mine",
                opts(),
                Some(Refusal::OtherAdoption { other: "other".into(), backup: "/b".into(), id: "mine".into() }),
            ),
            (
                "bad marker",
                with_ann(obj(), MARKER, "{not json"),
                "x",
                opts(),
                Some(Refusal::BadMarker("key must be a string at line 1 column 2".into())),
            ),
            ("same id", with_ann(obj(), keys::EXTERNAL_NAME, "www"), "www", opts(), None),
            ("same id, import", with_ann(obj(), keys::EXTERNAL_NAME, "www"), "www", import(), None),
            (
                "same id, LI already",
                with_ann(obj(), keys::EXTERNAL_NAME, "www"),
                "www",
                Options { add_late_initialize: true, ..opts() },
                None,
            ),
        ];
        for (name, o, id, op, want) in cases {
            let got = preflight(&o, id, &op, &Context::default());
            match (want, got) {
                (Some(w), Verdict::Refused(r)) => assert_eq!(r, w, "{name}"),
                (None, Verdict::NothingToDo(msg)) => assert!(msg.contains("nothing to do"), "{name}: {msg}"),
                (w, g) => panic!("{name}: wanted {w:?}, got {g:?}"),
            }
        }
        // --force overrides the in-flight and other-adoption refusals, and a bad marker.
        let force = Options { force: true, ..opts() };
        assert!(matches!(preflight(&in_flight, "new", &force, &Context::default()), Verdict::Adopt(_)));
        assert!(matches!(preflight(&other_marker, "mine", &force, &Context::default()), Verdict::Adopt(_)));
        assert!(matches!(
            preflight(&with_ann(obj(), MARKER, "{"), "x", &force, &Context::default()),
            Verdict::Adopt(_)
        ));
        // Bad input vs refusal classes.
        assert!(Refusal::EmptyId.is_bad_input() && Refusal::IdWhitespace(String::new()).is_bad_input());
        assert!(
            !Refusal::PausedByPolicies.is_bad_input()
                && !Refusal::AsyncInFlight(String::new(), String::new()).is_bad_input()
        );
    }

    #[test]
    fn same_id_with_something_left_to_fix_is_not_nothing_to_do() {
        let same = with_ann(obj(), keys::EXTERNAL_NAME, "www");
        for (name, o, op) in [
            ("paused", with_ann(same.clone(), keys::PAUSED, "true"), opts()),
            ("pending", incomplete(same.clone()), opts()),
            (
                "failed last",
                with_ann(
                    with_ann(same.clone(), keys::CREATE_PENDING, "2024-11-30T11:00:00Z"),
                    keys::CREATE_FAILED,
                    "2024-11-30T11:00:01Z",
                ),
                opts(),
            ),
            (
                "add LI",
                {
                    let mut o = same.clone();
                    o["spec"]["managementPolicies"] = json!(["Observe", "Create"]);
                    o
                },
                Options { add_late_initialize: true, ..opts() },
            ),
        ] {
            assert!(matches!(preflight(&o, "www", &op, &Context::default()), Verdict::Adopt(_)), "{name}");
        }
    }

    #[test]
    fn steps_without_import() {
        let o = incomplete(obj());
        let plan = plan_of(&o, "www-id", &opts());
        let actions: Vec<Action> = plan.steps.iter().map(|s| s.action).collect();
        assert_eq!(actions, [Action::Pause, Action::Identity, Action::Unpause, Action::WaitReady]);
        assert_eq!(plan.steps.iter().map(|s| s.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
        let marker = serde_json::to_string(&plan.marker).unwrap();
        assert_eq!(
            plan.steps[0].patch_at("10").unwrap(),
            json!({"metadata": {"resourceVersion": "10", "annotations": {keys::PAUSED: "true", MARKER: marker}}})
        );
        assert_eq!(
            plan.steps[1].patch_at("11").unwrap(),
            json!({"metadata": {"resourceVersion": "11", "annotations": {keys::EXTERNAL_NAME: "www-id", keys::CREATE_PENDING: null}}})
        );
        assert_eq!(
            plan.steps[2].patch_at("12").unwrap(),
            json!({"metadata": {"resourceVersion": "12", "annotations": {keys::PAUSED: null, MARKER: null, keys::RECONCILE_REQUESTED_AT: "2024-11-30T12:00:00Z"}}})
        );
        assert!(plan.steps[3].patch.is_none());
        assert_eq!(plan.steps[3].wait, Some(Wait::Ready { token: "2024-11-30T12:00:00Z".into() }));
        // The marker records the originals.
        assert_eq!(plan.marker.policies, Some(vec!["*".to_string()]));
        assert_eq!(plan.marker.annotations[keys::CREATE_PENDING].as_deref(), Some("2024-11-30T11:00:05Z"));
        assert_eq!(plan.marker.annotations[keys::EXTERNAL_NAME], None);
        // End state: identity set, pending gone, unpaused, no marker; the change list says so.
        let end = run_all(&o, &plan);
        assert_eq!(annotation(&end, keys::EXTERNAL_NAME), Some("www-id"));
        assert_eq!(annotation(&end, keys::CREATE_PENDING), None);
        assert_eq!(annotation(&end, keys::PAUSED), None);
        assert_eq!(annotation(&end, MARKER), None);
        let fields: Vec<&str> = plan.changes.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "metadata.annotations[crossplane.io/external-create-pending]",
                "metadata.annotations[crossplane.io/external-name]",
                "metadata.annotations[crossplane.io/reconcile-requested-at]"
            ]
        );
    }

    #[test]
    fn steps_with_import_and_late_initialize() {
        let mut o = incomplete(obj());
        o["spec"]["managementPolicies"] = json!(["Observe", "Create", "Delete"]);
        let o = with_ann(o, keys::CREATE_FAILED, "2024-11-30T11:00:01Z");
        let op = Options { import: true, add_late_initialize: true, ..opts() };
        let plan = plan_of(&o, "www-id", &op);
        let actions: Vec<Action> = plan.steps.iter().map(|s| s.action).collect();
        assert_eq!(
            actions,
            [
                Action::Pause,
                Action::Identity,
                Action::Observe,
                Action::WaitImported,
                Action::RestorePolicies,
                Action::WaitReady
            ]
        );
        // pending newer than failed blocks; once pending goes, failed (newer than succeeded) would
        // read as "the last create failed", so it goes too.
        assert_eq!(
            plan.steps[1].patch.clone().unwrap(),
            json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "www-id", keys::CREATE_PENDING: null, keys::CREATE_FAILED: null}}})
        );
        assert_eq!(
            plan.steps[2].patch.clone().unwrap(),
            json!({"metadata": {"annotations": {keys::PAUSED: null, keys::RECONCILE_REQUESTED_AT: "2024-11-30T12:00:00Z"}},
                   "spec": {"managementPolicies": ["Observe"]}})
        );
        assert_eq!(
            plan.steps[3].wait,
            Some(Wait::Imported { id: "www-id".into(), token: "2024-11-30T12:00:00Z".into() })
        );
        assert_eq!(
            plan.steps[4].patch.clone().unwrap(),
            json!({"metadata": {"annotations": {keys::PAUSED: null, MARKER: null, keys::RECONCILE_REQUESTED_AT: "2024-11-30T12:00:00Z+adopted"}},
                   "spec": {"managementPolicies": ["Observe", "Create", "Delete", "LateInitialize"]}})
        );
        let end = run_all(&o, &plan);
        assert_eq!(
            policies_of(&end),
            Some(vec!["Observe".into(), "Create".into(), "Delete".into(), "LateInitialize".into()])
        );
        assert!(!plan.warnings.iter().any(|w| w.contains("lack LateInitialize")), "{:?}", plan.warnings);
    }

    fn marks(pending: Option<&str>, succeeded: Option<&str>, failed: Option<&str>) -> Value {
        let mut o = obj();
        for (k, v) in
            [(keys::CREATE_PENDING, pending), (keys::CREATE_SUCCEEDED, succeeded), (keys::CREATE_FAILED, failed)]
        {
            if let Some(v) = v {
                o = with_ann(o, k, v);
            }
        }
        o
    }

    #[test]
    fn no_create_mark_combination_is_left_blocking_or_failed() {
        let times = [None, Some("2024-11-30T11:00:00Z"), Some("2024-11-30T11:00:05Z"), Some("2024-11-30T11:00:09Z")];
        for pending in times {
            for succeeded in times {
                for failed in times {
                    let o = marks(pending, succeeded, failed);
                    let end = run_all(&o, &plan_of(&o, "id", &opts()));
                    let m = CreateMarks::of(&ManagedResource::from_json(&end.to_string()).unwrap());
                    let case = format!("pending {pending:?} succeeded {succeeded:?} failed {failed:?}");
                    assert!(!m.incomplete(), "{case}: still incomplete");
                    assert!(!m.last_create_failed(), "{case}: still failed");
                    assert_eq!(m.succeeded.raw.as_deref(), succeeded, "{case}: succeeded is history, kept");
                }
            }
        }
    }

    #[test]
    fn failed_mark_removed_only_when_it_is_the_last_result() {
        let both = json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "id", keys::CREATE_PENDING: null, keys::CREATE_FAILED: null}}});
        // Failed at pending, after succeeded: the failed attempt goes, with its pending mark.
        let o = marks(Some("2024-11-30T11:00:00Z"), Some("2024-11-30T10:00:00Z"), Some("2024-11-30T11:00:00Z"));
        assert_eq!(plan_of(&o, "id", &opts()).steps[1].patch.clone().unwrap(), both);
        // Failed after pending after succeeded: removing only failed would block again.
        let o = marks(Some("2024-11-30T11:00:05Z"), Some("2024-11-30T11:00:00Z"), Some("2024-11-30T11:00:09Z"));
        assert_eq!(plan_of(&o, "id", &opts()).steps[1].patch.clone().unwrap(), both);
        // Failed before succeeded: history, kept.
        let o = marks(None, Some("2024-11-30T11:00:05Z"), Some("2024-11-30T11:00:00Z"));
        let patch = plan_of(&o, "id", &opts()).steps[1].patch.clone().unwrap();
        assert_eq!(patch, json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "id"}}}));
        // Pending equal to succeeded: complete, nothing to remove.
        let o = marks(Some("2024-11-30T11:00:00Z"), Some("2024-11-30T11:00:00Z"), None);
        let patch = plan_of(&o, "id", &opts()).steps[1].patch.clone().unwrap();
        assert_eq!(patch, json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "id"}}}));
    }

    #[test]
    fn absent_policies_stay_absent_and_late_initialize_is_not_added_to_star() {
        let mut o = obj();
        o["spec"].as_object_mut().unwrap().remove("managementPolicies");
        let plan = plan_of(&o, "id", &Options { import: true, add_late_initialize: true, ..opts() });
        assert_eq!(plan.steps[4].patch.as_ref().unwrap()["spec"]["managementPolicies"], Value::Null);
        let end = run_all(&o, &plan);
        assert!(end.pointer("/spec/managementPolicies").is_none());
        assert_eq!(final_policies(&Some(vec!["*".into()]), true), Some(vec!["*".into()]));
        assert_eq!(final_policies(&None, true), None);
        assert_eq!(final_policies(&Some(vec!["Observe".into()]), false), Some(vec!["Observe".into()]));
        // Without import, LateInitialize lands in the unpause write.
        let mut o = obj();
        o["spec"]["managementPolicies"] = json!(["Observe", "Create"]);
        let plan = plan_of(&o, "id", &Options { add_late_initialize: true, ..opts() });
        assert_eq!(
            plan.steps[2].patch.as_ref().unwrap()["spec"]["managementPolicies"],
            json!(["Observe", "Create", "LateInitialize"])
        );
    }

    #[test]
    fn record_backup_rewrites_the_marker_in_step_one() {
        let mut plan = plan_of(&obj(), "id", &opts());
        plan.record_backup("/home/u/.kube/upjet/backups/x.json");
        let written =
            plan.steps[0].patch.as_ref().unwrap()["metadata"]["annotations"][MARKER].as_str().unwrap().to_string();
        let m: Marker = serde_json::from_str(&written).unwrap();
        assert_eq!(m.backup.as_deref(), Some("/home/u/.kube/upjet/backups/x.json"));
        assert_eq!(m, plan.marker);
    }

    #[test]
    fn resume_keeps_the_original_values_and_skips_done_writes() {
        let o = incomplete(obj());
        let mut plan = plan_of(&o, "id", &import());
        plan.record_backup("/b.json");
        // Interrupted after step 2: paused, identity written, marker present.
        let mut cur = o.clone();
        for s in &plan.steps[..2] {
            apply_merge_patch(&mut cur, s.patch.as_ref().unwrap());
        }
        let again = plan_of(&cur, "id", &import());
        assert!(again.resumed);
        assert_eq!(again.marker, plan.marker, "originals are kept from the first run");
        assert!(again.steps[0].patch.is_none() && again.steps[1].patch.is_none(), "{:?}", again.steps);
        assert!(again.steps[1].title.contains("already set"));
        // Interrupted after step 3 (observe-only, unpaused): the re-run pauses again, and restores
        // the ORIGINAL policies, not ["Observe"].
        apply_merge_patch(&mut cur, plan.steps[2].patch.as_ref().unwrap());
        let again = plan_of(&cur, "id", &import());
        assert_eq!(again.steps[0].patch, Some(json!({"metadata": {"annotations": {keys::PAUSED: "true"}}})));
        assert_eq!(again.steps[4].patch.as_ref().unwrap()["spec"]["managementPolicies"], json!(["*"]));
        // Same ID without import now, after an import run was interrupted: still resumes.
        let again = plan_of(&cur, "id", &opts());
        assert_eq!(again.steps[2].patch.as_ref().unwrap()["spec"]["managementPolicies"], json!(["*"]));
        // A forced different ID keeps the originals too.
        let forced = plan_of(&cur, "other", &Options { force: true, ..import() });
        assert_eq!(forced.marker.annotations, plan.marker.annotations);
        assert_eq!(forced.marker.id, "other");
        assert_eq!(forced.marker.backup.as_deref(), Some("/b.json"));
    }

    #[test]
    fn guardrail_warnings() {
        let dup = ManagedResource::from_json(
            &json!({"apiVersion": "dns.gcp.m.upbound.io/v1beta1", "kind": "RecordSet",
                    "metadata": {"name": "dup", "namespace": "team-a", "uid": "u-2",
                                 "annotations": {keys::EXTERNAL_NAME: "id"}},
                    "spec": {"managementPolicies": ["*"]}})
            .to_string(),
        )
        .unwrap();
        let safe_dup = ManagedResource::from_json(
            &json!({"apiVersion": "dns.gcp.upbound.io/v1beta2", "kind": "RecordSet",
                    "metadata": {"name": "kept", "uid": "u-3"},
                    "spec": {"deletionPolicy": "Orphan"}})
            .to_string(),
        )
        .unwrap();
        let ctx = Context { duplicates: std::slice::from_ref(&dup) };
        let Verdict::Adopt(plan) = preflight(&obj(), "id", &opts(), &ctx) else { panic!() };
        let w = plan.warnings.join("\n");
        assert!(w.contains("deleting this MR (for example as a duplicate) would delete the cloud object \"id\": deletionPolicy is Delete"), "{w}");
        assert!(w.contains("recordset.dns.gcp.m.upbound.io/dup -n team-a also has external-name \"id\""), "{w}");
        assert!(w.contains("namespaced MRs have no deletionPolicy"), "{w}");
        assert!(w.contains("without --import"), "{w}");
        assert!(!w.contains("lack LateInitialize"), "{w}");
        let ctx = Context { duplicates: std::slice::from_ref(&safe_dup) };
        let mut o = obj();
        o["spec"]["deletionPolicy"] = json!("Orphan");
        o["spec"]["managementPolicies"] = json!(["Observe", "Create", "Update", "Delete"]);
        let o = with_ann(o, keys::PAUSED, "true");
        let Verdict::Adopt(plan) = preflight(&o, "id", &import(), &ctx) else { panic!() };
        let w = plan.warnings.join("\n");
        assert!(!w.contains("deleting this MR"), "Orphan keeps the cloud object: {w}");
        assert!(w.contains("deleting it leaves the cloud object in place"), "{w}");
        assert!(w.contains("lack LateInitialize"), "{w}");
        assert!(w.contains("the MR is paused"), "{w}");
        assert!(!w.contains("without --import"), "{w}");
        // The namespaced MR itself, with Delete in its policies.
        let mut ns = obj();
        ns["apiVersion"] = json!("dns.gcp.m.upbound.io/v1beta1");
        ns["metadata"]["namespace"] = json!("team-a");
        ns["spec"].as_object_mut().unwrap().remove("deletionPolicy");
        let plan = plan_of(&ns, "id", &opts());
        assert!(plan.warnings[0].contains("namespaced MRs have no deletionPolicy"), "{:?}", plan.warnings);
        assert!(plan.warnings[0].contains("remove Delete from spec.managementPolicies"), "{:?}", plan.warnings);
        // Observe-only: no deletion, no update, no create warnings.
        ns["spec"]["managementPolicies"] = json!(["Observe", "LateInitialize"]);
        let plan = plan_of(&ns, "id", &opts());
        assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
    }

    #[test]
    fn deletion_rule() {
        let p = |l: Option<&[&str]>| Policies { listed: l.map(|l| l.iter().map(|s| s.to_string()).collect()) };
        for (namespaced, dp, pol, want) in [
            (false, None, p(None), true),
            (false, Some("Delete"), p(Some(&["*"])), true),
            (false, Some("Orphan"), p(Some(&["*"])), false),
            (false, Some("Delete"), p(Some(&["Observe", "Create"])), false),
            (true, None, p(Some(&["*"])), true),
            (true, None, p(Some(&["Observe", "Delete"])), true),
            (true, None, p(Some(&["Observe"])), false),
        ] {
            assert_eq!(deletes_cloud_object(namespaced, dp, &pol), want, "{namespaced} {dp:?} {pol:?}");
        }
    }

    #[test]
    fn undo_patches() {
        let original = incomplete(obj());
        let plan = plan_of(&original, "id", &import());
        for n in 0..=plan.steps.len() {
            let mut cur = original.clone();
            for s in &plan.steps[..n] {
                if let Some(p) = &s.patch {
                    apply_merge_patch(&mut cur, p);
                }
            }
            cur["metadata"]["annotations"]["someone.else/added"] = json!("x");
            cur["metadata"]["resourceVersion"] = json!("99");
            let want_ann = annotations_raw(&original);
            // From the backup: exactly the original annotations and policies.
            let mut restored = cur.clone();
            if let Some(p) = undo_patch(&original, &cur) {
                assert_eq!(p["metadata"]["resourceVersion"], json!("99"));
                apply_merge_patch(&mut restored, &p);
            }
            assert_eq!(annotations_raw(&restored), want_ann, "after {n} steps");
            assert_eq!(restored["spec"], original["spec"]);
            // From the marker (only while it is present): the touched annotations and policies.
            if let Ok(Some(m)) = Marker::read(&cur) {
                let mut restored = cur.clone();
                apply_merge_patch(&mut restored, &undo_from_marker(&m, &cur));
                let mut want = want_ann.clone();
                want.insert("someone.else/added".into(), json!("x"));
                assert_eq!(annotations_raw(&restored), want, "marker undo after {n} steps");
                assert_eq!(restored["spec"], original["spec"]);
            }
        }
        assert_eq!(undo_patch(&original, &original), None);
        // Absent policies in the backup are removed again.
        let mut no_pol = obj();
        no_pol["spec"].as_object_mut().unwrap().remove("managementPolicies");
        let mut cur = no_pol.clone();
        cur["spec"]["managementPolicies"] = json!(["Observe"]);
        assert_eq!(undo_patch(&no_pol, &cur).unwrap()["spec"]["managementPolicies"], Value::Null);
    }

    #[test]
    fn safe_stop_pauses_and_puts_policies_back() {
        let original = obj();
        let plan = plan_of(&original, "id", &import());
        let mut cur = original.clone();
        for s in &plan.steps[..3] {
            apply_merge_patch(&mut cur, s.patch.as_ref().unwrap());
        }
        let p = safe_stop_patch(&plan.marker, &cur);
        apply_merge_patch(&mut cur, &p);
        assert_eq!(annotation(&cur, keys::PAUSED), Some("true"));
        assert_eq!(policies_of(&cur), Some(vec!["*".to_string()]));
        assert_eq!(annotation(&cur, keys::EXTERNAL_NAME), Some("id"));
        assert!(Marker::read(&cur).unwrap().is_some(), "the marker stays so a re-run resumes");
    }

    #[test]
    fn conflicts_ignore_status_and_foreign_annotations() {
        let a = obj();
        let mut b = a.clone();
        b["status"]["conditions"] = json!([]);
        b["metadata"]["resourceVersion"] = json!("11");
        b["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"] = json!("x");
        assert!(conflicting_changes(&a, &b).is_empty());
        b["metadata"]["annotations"][keys::PAUSED] = json!("false");
        b["spec"]["deletionPolicy"] = json!("Orphan");
        let c = conflicting_changes(&a, &b);
        assert_eq!(
            c,
            vec![
                Change {
                    field: "metadata.annotations[crossplane.io/paused]".into(),
                    before: None,
                    after: Some("false".into())
                },
                Change {
                    field: "spec.deletionPolicy".into(),
                    before: Some("Delete".into()),
                    after: Some("Orphan".into())
                },
            ]
        );
        b["spec"]["managementPolicies"] = json!(["Observe"]);
        assert_eq!(conflicting_changes(&a, &b).len(), 3);
    }

    #[test]
    fn merge_patch_rfc7386() {
        let mut t = json!({"a": "b", "c": {"d": "e", "f": "g"}});
        apply_merge_patch(&mut t, &json!({"a": "z", "c": {"f": null}, "n": [1]}));
        assert_eq!(t, json!({"a": "z", "c": {"d": "e"}, "n": [1]}));
        assert_eq!(with_resource_version(json!(null), "5"), json!({"metadata": {"resourceVersion": "5"}}));
    }

    fn cond(t: &str, s: &str, r: &str, m: &str) -> Value {
        json!({"type": t, "status": s, "reason": r, "message": m, "lastTransitionTime": "2024-11-30T12:00:01Z"})
    }

    #[test]
    fn wait_progress() {
        let imported = Wait::Imported { id: "vpc-1".into(), token: "T".into() };
        let ready = Wait::Ready { token: "T".into() };
        let paused = {
            let mut o = obj();
            o["status"]["conditions"] =
                json!([cond("Ready", "True", "Available", ""), cond("Synced", "False", "ReconcilePaused", "")]);
            o["status"]["atProvider"] = json!({"id": "vpc-1"});
            o
        };
        let base = Baseline::after_write(&paused, &paused, "T");
        assert_eq!(base.min_generation, None);
        let set = |conds: Value, id: Option<&str>, handled: Option<&str>| {
            let mut o = paused.clone();
            o["status"]["conditions"] = conds;
            if let Some(id) = id {
                o["status"]["atProvider"] = json!({"id": id});
            }
            if let Some(h) = handled {
                o["status"]["lastHandledReconcileAt"] = json!(h);
            }
            o
        };
        let ok = json!([cond("Ready", "True", "Available", ""), cond("Synced", "True", "ReconcileSuccess", "")]);
        let nf = json!([
            cond("Ready", "False", "Unavailable", ""),
            cond("Synced", "False", "ReconcileError", ERR_OBSERVE_NOT_FOUND)
        ]);
        let cases: Vec<(&str, &Wait, Value, &str)> = vec![
            ("stale status proves nothing", &imported, paused.clone(), "waiting"),
            ("ready with the id", &imported, set(ok.clone(), None, None), "done"),
            ("ready with another id", &imported, set(ok.clone(), Some("vpc-9"), None), "waiting"),
            ("templated id embeds it", &imported, set(ok.clone(), Some("projects/p/vpc-1"), None), "done"),
            ("not found", &imported, set(nf.clone(), None, None), "notfound"),
            ("not found, final wait", &ready, set(nf.clone(), None, None), "notfound"),
            ("ready", &ready, set(ok.clone(), None, None), "done"),
            (
                "synced but not ready",
                &ready,
                set(
                    json!([cond("Ready", "False", "Creating", ""), cond("Synced", "True", "ReconcileSuccess", "")]),
                    None,
                    None,
                ),
                "waiting",
            ),
            (
                "other error keeps waiting",
                &ready,
                set(json!([cond("Synced", "False", "ReconcileError", "connect failed: boom")]), None, None),
                "waiting",
            ),
        ];
        for (name, wait, o, want) in cases {
            let got = match progress(wait, &base, &o) {
                Progress::Waiting(_) => "waiting",
                Progress::Done(_) => "done",
                Progress::NotFound(_) => "notfound",
            };
            assert_eq!(got, want, "{name}");
        }
        // Unchanged Synced=True (pause never processed) counts only once the token is handled…
        let healthy = set(ok.clone(), None, None);
        let base = Baseline::after_write(&healthy, &healthy, "T");
        assert!(matches!(progress(&ready, &base, &healthy), Progress::Waiting(_)));
        assert!(matches!(progress(&ready, &base, &set(ok.clone(), None, Some("T"))), Progress::Done(_)));
        assert!(matches!(progress(&ready, &base, &set(ok.clone(), None, Some("older"))), Progress::Waiting(_)));
        // …or once the generation the write produced is observed.
        let mut after = healthy.clone();
        after["metadata"]["generation"] = json!(4);
        let base = Baseline::after_write(&healthy, &after, "T");
        assert_eq!(base.min_generation, Some(4));
        let mut seen = after.clone();
        seen["status"]["conditions"] = json!([{"type": "Ready", "status": "True", "reason": "Available"},
                                             {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "observedGeneration": 4}]);
        assert!(matches!(progress(&ready, &base, &seen), Progress::Done(_)));
        seen["status"]["conditions"][1]["observedGeneration"] = json!(3);
        let base3 = Baseline { synced: synced_of(&seen), ..base.clone() };
        assert!(matches!(progress(&ready, &base3, &seen), Progress::Waiting(_)));
    }

    #[test]
    fn candidate_ids() {
        let mr = ManagedResource::from_json(
            &with_ann(
                {
                    let mut o = obj();
                    o["status"]["atProvider"] = json!({"id": "from-status"});
                    o
                },
                keys::EXTERNAL_NAME,
                "current",
            )
            .to_string(),
        )
        .unwrap();
        let findings = vec![
            Finding::new(Code::ExternalNameDrift, "drift", "next").suggest(Some("from-status")),
            Finding::new(Code::OrphanCandidate, "the provider logged an ID", "next").suggest(Some("from-log")),
            Finding::new(Code::Paused, "paused", "next"),
        ];
        let events = vec![
            EventName {
                id: "current".into(),
                reason: "ReconciliationPaused".into(),
                time: Some("2024-11-30T11:00:00Z".into()),
                message: "paused".into(),
            },
            EventName {
                id: "from-event".into(),
                reason: "CreatedExternalResource".into(),
                time: Some("2024-11-30T12:00:00Z".into()),
                message: "created".into(),
            },
            EventName { id: " ".into(), reason: "X".into(), time: None, message: String::new() },
        ];
        let c = candidates(&mr, &findings, &events, Vec::new());
        let ids: Vec<&str> = c.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["from-log", "from-status", "from-event", "current"]);
        assert_eq!(c[0].source, "doctor OrphanCandidate");
        assert_eq!(c[1].source, "doctor ExternalNameDrift");
        assert!(c[1].detail.ends_with("; also status.atProvider.id"), "{}", c[1].detail);
        assert_eq!(c[2].source, "event CreatedExternalResource");
        assert!(c[3].detail.contains("current external-name"));
        assert!(candidates(&ManagedResource::default(), &[], &[], Vec::new()).is_empty());
    }

    #[test]
    fn marker_round_trip_and_errors() {
        assert_eq!(Marker::read(&obj()), Ok(None));
        let mut o = obj();
        o["metadata"]["annotations"][MARKER] = json!(1);
        assert!(Marker::read(&o).is_err());
        let m = Marker::fresh(&with_ann(obj(), keys::PAUSED, "false"), "x", &opts());
        assert_eq!(m.annotations.len(), TOUCHED.len());
        assert_eq!(m.annotations[keys::PAUSED].as_deref(), Some("false"));
        let back: Marker = serde_json::from_str(&m.to_annotation()).unwrap();
        assert_eq!(back, m);
    }
}
