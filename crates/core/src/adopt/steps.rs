//! The ordered steps of an adoption: each a concrete JSON merge patch or a wait with a pure
//! completion rule.

use super::create_marks::CreateMarks;
use super::managed::{ManagedResource, keys};
use super::options::{Options, final_policies};
use super::policies::Policies;
use super::undo::Change;
use super::{MARKER, Marker};
use crate::patch::declare::IDENTITY_CHANGE;
use crate::patch::{annotation, policies_differ, policies_value, with_resource_version};
use crate::shell::quoted;
use serde_json::{Map, Value, json};

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
    /// (no import, paused by the user) marker removed; the user's pause stays.
    KeepPause,
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
            Action::KeepPause => "keep your pause",
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

/// The steps of an adoption of `id` on `obj`, numbered from 1 (stable per mode, so a test hook
/// can stop after step N).
pub(super) fn build_steps(obj: &Value, id: &str, opts: &Options, marker: &Marker) -> Vec<Step> {
    let token = opts.now.clone();
    let final_token = if opts.import { format!("{token}+adopted") } else { token.clone() };
    let final_policies = final_policies(&marker.policies, opts.add_late_initialize);
    let mut steps = Steps::default();
    // 1. Pause, and record what the adoption will touch.  2. Identity.
    steps.push(Action::Pause, pause_title(), pause_patch(obj, marker), None);
    let (title, patch) = identity(obj, id);
    // The guard lets the identity through because the write declares it; the next write takes
    // the declaration away (an interrupted run's too).
    let undeclare = patch
        .as_ref()
        .is_some_and(|p| p.pointer("/metadata/annotations").is_some_and(|a| a.get(IDENTITY_CHANGE).is_some()))
        || annotation(obj, IDENTITY_CHANGE).is_some();
    steps.push(Action::Identity, title, patch, None);
    // A pause the user set is never removed: the import lifts it only for its Observe-only phase
    // (nothing can be created or changed then) and puts it back; without an import the identity
    // is written and the MR stays paused, unverified, as the user left it.
    let user_paused = marker.annotations.get(keys::PAUSED).cloned().flatten().as_deref() == Some("true");
    let first = steps.0.len();
    if opts.import {
        import_steps(&mut steps, id, (&token, &final_token), &final_policies, user_paused);
    } else if user_paused {
        let (title, patch) = keep_pause(obj, &final_policies);
        steps.push(Action::KeepPause, title, Some(patch), None);
    } else {
        // 3. Unpause with the identity complete.
        let (title, patch) = unpause(obj, &final_token, &final_policies);
        steps.push(Action::Unpause, title, Some(patch), None);
    }
    if undeclare {
        undeclare_in(&mut steps.0[first]);
    }
    if !user_paused {
        let wait = Wait::Ready { token: final_token };
        steps.push(Action::WaitReady, "wait until Synced=True and Ready=True".to_string(), None, Some(wait));
    }
    steps.0
}

/// Steps numbered in the order they are pushed.
#[derive(Default)]
struct Steps(Vec<Step>);

impl Steps {
    fn push(&mut self, action: Action, title: String, patch: Option<Value>, wait: Option<Wait>) {
        let number = self.0.len() + 1;
        self.0.push(Step { number, action, title, patch, wait });
    }
}

fn pause_title() -> String {
    format!("pause reconciliation ({}: \"true\") and record the adoption ({MARKER})", keys::PAUSED)
}

fn pause_patch(obj: &Value, marker: &Marker) -> Option<Value> {
    let mut ann = Map::new();
    if annotation(obj, keys::PAUSED) != Some("true") {
        ann.insert(keys::PAUSED.into(), json!("true"));
    }
    if Marker::read(obj).ok().flatten().as_ref() != Some(marker) {
        ann.insert(MARKER.into(), json!(marker.to_annotation()));
    }
    annotations_patch(ann)
}

/// The identity write: the external-name, declared to the guard in the same write, and the
/// create marks that would block or mislead.
fn identity(obj: &Value, id: &str) -> (String, Option<Value>) {
    let mut ann = Map::new();
    let mut what = Vec::new();
    if annotation(obj, keys::EXTERNAL_NAME) != Some(id) {
        ann.insert(keys::EXTERNAL_NAME.into(), json!(id));
        ann.insert(IDENTITY_CHANGE.into(), json!(id));
        what.push(format!(
            "{} = {id}, declared to the guard ({IDENTITY_CHANGE})",
            keys::EXTERNAL_NAME,
            id = quoted(id)
        ));
    }
    if let Ok(mr) = ManagedResource::from_value(obj) {
        for key in marks_resolved_by_identity(&CreateMarks::of(&mr)) {
            ann.insert(key.into(), Value::Null);
            what.push(match key {
                keys::CREATE_PENDING => format!("remove {key} (the create it guards is resolved by this adoption)"),
                _ => format!("remove {key} (the failed create is superseded)"),
            });
        }
    }
    let title = if what.is_empty() {
        "set identity (already set)".to_string()
    } else {
        format!("set identity: {}", what.join("; "))
    };
    (title, annotations_patch(ann))
}

/// The write after the identity's takes its declaration away (and an interrupted run's).
fn undeclare_in(step: &mut Step) {
    if let Some(patch) = step.patch.as_mut() {
        crate::patch::declare::set_annotation(patch, Value::Null);
        step.title.push_str(&format!("; remove {IDENTITY_CHANGE}"));
    }
}

/// The create marks that go once an identity is settled (an adoption, or a staged restore): they
/// must neither block (pending newer than any result) nor report a failed create. Removing one
/// mark can expose the other: a failed mark that is the latest result goes with its (older)
/// pending mark, and removing pending turns a failed mark newer than succeeded into "the last
/// create failed".
pub fn marks_resolved_by_identity(marks: &CreateMarks) -> Vec<&'static str> {
    let remove_failed_alone = marks.last_create_failed();
    let remove_pending = marks.incomplete() || (remove_failed_alone && marks.pending.raw.is_some());
    let remove_failed =
        remove_failed_alone || (remove_pending && marks.failed.is_set() && marks.failed.at.after(&marks.succeeded.at));
    let mut out = Vec::new();
    if remove_pending {
        out.push(keys::CREATE_PENDING);
    }
    if remove_failed {
        out.push(keys::CREATE_FAILED);
    }
    out
}

/// Steps 3–5 of an import: observe only, wait for the import, original policies back (and the
/// user's own pause, when there was one).
fn import_steps(
    steps: &mut Steps,
    id: &str,
    (token, final_token): (&str, &str),
    final_policies: &Option<Vec<String>>,
    user_paused: bool,
) {
    // 3. Observe only, unpause, request a reconcile (one write: never unpaused with more rights).
    let patch = json!({
        "metadata": {"annotations": {keys::PAUSED: null, keys::RECONCILE_REQUESTED_AT: token}},
        "spec": {"managementPolicies": ["Observe"]}
    });
    let title = format!(
        "narrow spec.managementPolicies to [\"Observe\"], unpause, and request a reconcile ({} = {token})",
        keys::RECONCILE_REQUESTED_AT,
        token = quoted(token)
    );
    steps.push(Action::Observe, title, Some(patch), None);
    // 4. Wait for the import.
    steps.push(
        Action::WaitImported,
        format!("wait until Ready=True and status.atProvider.id matches {id}", id = quoted(id)),
        None,
        Some(Wait::Imported { id: id.to_string(), token: token.to_string() }),
    );
    // 5. Original policies back.
    let (paused, how) = if user_paused {
        (json!("true"), format!("pause it again as you had it ({}: \"true\")", keys::PAUSED))
    } else {
        (Value::Null, "request a reconcile".to_string())
    };
    let patch = json!({
        "metadata": {"annotations": {keys::PAUSED: paused, MARKER: null, keys::RECONCILE_REQUESTED_AT: final_token}},
        "spec": {"managementPolicies": policies_value(final_policies)}
    });
    let title =
        format!("restore spec.managementPolicies to {}, remove {MARKER}, and {how}", describe_policies(final_policies));
    steps.push(Action::RestorePolicies, title, Some(patch), None);
}

/// The unpause write of an adoption without import (with the final policies when they differ).
fn unpause(obj: &Value, final_token: &str, final_policies: &Option<Vec<String>>) -> (String, Value) {
    let mut patch = json!({
        "metadata": {"annotations": {keys::PAUSED: null, MARKER: null, keys::RECONCILE_REQUESTED_AT: final_token}}
    });
    let mut title = format!(
        "unpause, remove {MARKER}, and request a reconcile ({} = {final_token})",
        keys::RECONCILE_REQUESTED_AT,
        final_token = quoted(final_token)
    );
    if policies_differ(obj, final_policies) {
        patch["spec"] = json!({"managementPolicies": policies_value(final_policies)});
        title.push_str(&format!("; spec.managementPolicies = {}", describe_policies(final_policies)));
    }
    (title, patch)
}

/// The last write of an adoption without import on an MR the user paused: the marker goes, the
/// final policies are set, and the pause stays (no reconcile is requested: a paused MR ignores it).
fn keep_pause(obj: &Value, final_policies: &Option<Vec<String>>) -> (String, Value) {
    let mut patch = json!({"metadata": {"annotations": {MARKER: null}}});
    let mut title = format!(
        "remove {MARKER} and leave the MR paused as you set it ({}: \"true\"): the provider verifies the new external-name once you remove the pause",
        keys::PAUSED
    );
    if policies_differ(obj, final_policies) {
        patch["spec"] = json!({"managementPolicies": policies_value(final_policies)});
        title.push_str(&format!("; spec.managementPolicies = {}", describe_policies(final_policies)));
    }
    (title, patch)
}

fn describe_policies(p: &Option<Vec<String>>) -> String {
    Policies { listed: p.clone() }.describe()
}

fn annotations_patch(ann: Map<String, Value>) -> Option<Value> {
    (!ann.is_empty()).then(|| json!({"metadata": {"annotations": ann}}))
}
