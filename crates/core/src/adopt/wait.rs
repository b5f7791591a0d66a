//! The pure judgement of a wait step: has the provider reconciled since the write, and with
//! what result.

use super::managed::{Condition, ManagedResource};
use super::steps::Wait;
use crate::identity::names_object;
use crate::rules::ERR_OBSERVE_NOT_FOUND;
use crate::shell::quoted;
use serde_json::Value;

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
    pub fn after_write(before: &Value, after: &Observed, token: &str) -> Baseline {
        let generation = |o: &Value| o.pointer("/metadata/generation").and_then(Value::as_i64);
        let min_generation = match (generation(before), generation(&after.obj)) {
            (Some(b), Some(a)) if a > b => Some(a),
            _ => None,
        };
        Baseline { token: token.to_string(), synced: after.synced(), min_generation }
    }
}

/// One read of the MR: the raw object (what writes and patches work on) and its decoding (what
/// the judgements read), decoded once per read.
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    /// The object as the API server returned it.
    pub obj: Value,
    /// The decoded MR, or why it could not be decoded.
    pub mr: Result<ManagedResource, String>,
}

impl Observed {
    /// Decodes `obj` once.
    pub fn new(obj: Value) -> Observed {
        let mr = ManagedResource::from_value(&obj).map_err(|e| e.to_string());
        Observed { obj, mr }
    }

    /// The Synced condition, if the object could be decoded and has one.
    pub fn synced(&self) -> Option<Condition> {
        self.mr.as_ref().ok().and_then(|mr| mr.condition("Synced").cloned())
    }
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
    /// The end state of a final wait (what is seen), on a provider whose runtime writes no sign
    /// of a reconcile ([`writes_no_sign`]): what it shows now is all it will ever show, so the
    /// machine accepts it once it has held for a while after an import proved the ID.
    Unmarked(String),
}

/// What a provider of [`writes_no_sign`] is, in words.
pub(crate) const NO_SIGN: &str = "its provider's runtime writes no sign of a reconcile (no observedGeneration on its conditions, no status.lastHandledReconcileAt: crossplane-runtime before v1.20)";

/// Whether the MR's provider runs a crossplane-runtime that leaves no mark of a reconcile on an
/// MR already in sync: before v1.20 no condition carries `observedGeneration` (v1.20 stamps it
/// on Synced at every reconcile; upjet's Ready never carries one) and before v2.3 there is no
/// `status.lastHandledReconcileAt`; an equal condition keeps even its lastTransitionTime
/// (`SetConditions`). Such a runtime (v1.14 is still behind many installed providers) is told
/// apart by a Synced condition without `observedGeneration`.
pub(crate) fn writes_no_sign(obj: &Value, mr: &ManagedResource) -> bool {
    mr.condition("Synced").is_some()
        && mr.conditions.iter().all(|c| c.observed_generation.is_none())
        && obj.pointer("/status/lastHandledReconcileAt").is_none()
}

/// Whether `status.atProvider.id` is the object the adopted external-name `id` names: equal, or,
/// for a templated identifier, `id` is a whole separator-bounded part of it (see
/// [`names_object`]); a mere substring is another object.
pub fn id_matches(at_provider_id: &str, id: &str) -> bool {
    names_object(id, at_provider_id)
}

/// Judges one observation of the MR during a wait. A status older than the reconcile request
/// proves nothing, so the provider must first show it reconciled after the request: it handled
/// the token (runtime ≥ 2.3), changed Synced, or observed the generation the write produced. A
/// runtime that can show none of these ([`writes_no_sign`]) is judged in the final wait by
/// what it does write: Synced and Ready True ([`Progress::Unmarked`]).
pub fn progress(wait: &Wait, baseline: &Baseline, observed: &Observed) -> Progress {
    let (obj, mr) = match &observed.mr {
        Ok(mr) => (&observed.obj, mr),
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
        if matches!(wait, Wait::Ready { .. }) && mr.is_true("Ready") && mr.is_true("Synced") && writes_no_sign(obj, mr)
        {
            let id = mr
                .at_provider_id
                .as_deref()
                .map(|id| format!(" with status.atProvider.id {id}", id = quoted(id)))
                .unwrap_or_default();
            return Progress::Unmarked(format!("Synced=True and Ready=True{id}"));
        }
        return Progress::Waiting(format!("waiting for the provider to reconcile ({seen})"));
    }
    if let Some(s) = synced.filter(|s| s.status == "False" && s.message.contains(ERR_OBSERVE_NOT_FOUND)) {
        return Progress::NotFound(s.message.clone());
    }
    let ready = mr.is_true("Ready");
    match wait {
        Wait::Imported { id, .. } => match mr.at_provider_id.as_deref() {
            Some(at) if ready && id_matches(at, id) => {
                Progress::Done(format!("Ready=True and status.atProvider.id is {at}", at = quoted(at)))
            }
            Some(at) if ready => Progress::Waiting(format!(
                "Ready=True but status.atProvider.id is {at}, expecting {id}",
                at = quoted(at),
                id = quoted(id)
            )),
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
