//! What the reconciler does with an MR restored from a Velero backup, or met by a restarted
//! provider: the judgement the rules `Restore*` report and the live summary's restart count
//! uses. It reads [`Facts`], so it lives in the rule book; what it depends on beyond the object
//! is `domain::restore`'s.

use super::facts::Facts;
use crate::domain::identity::Peers;
use crate::domain::managed::{ManagedResource, keys};
use crate::domain::restore::{MrRestore, name_initialized};

/// What the reconciler does with an MR restored from a backup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It will be created again although its cloud object exists; the reason.
    Duplicate(String),
    /// It stops at the create-incomplete gate.
    Gate,
    /// Its cloud object is still managed by the source cluster (that MR).
    Fight(String),
    /// Nothing is created twice; the reason.
    Safe(String),
    /// Its kind is inactive on the target: the restore skips it; the command that activates it.
    Inactive(String),
}

/// What shows that the MR's cloud object was created, if anything does.
pub fn created_by(facts: &Facts) -> Option<String> {
    let mr = facts.mr;
    if let Some(id) = &mr.at_provider_id {
        return Some(format!("status.atProvider.id is {id:?}"));
    }
    if mr.is_true("Ready") {
        return Some("it was Ready".into());
    }
    let m = &facts.marks;
    (m.succeeded.is_set() && !m.last_create_failed())
        .then(|| format!("{} is {}", keys::CREATE_SUCCEEDED, m.succeeded.raw.as_deref().unwrap_or_default()))
}

/// Whether a provider restart would create this MR's cloud object again right now: the restore
/// verdict with nothing lost but the provider's memory (annotations and status stay), for the
/// live summary's "N would be created again by a provider restart".
pub fn restart_duplicates(mr: &ManagedResource, peers: &Peers, at: crate::domain::reconcile_timeout::JudgedAt) -> bool {
    let ctx = MrRestore {
        name_initialized: name_initialized(peers.identity(mr.group(), &mr.kind)),
        source_tracker: None,
        inactive_kind: None,
    };
    let facts = Facts::of(mr, at);
    matches!(verdict(&facts, &ctx), Verdict::Duplicate(_)) && !facts.paused && !facts.in_flight
}

/// The reconciler's path for a restored MR (crossplane-runtime `pkg/reconciler/managed/reconciler.go`
/// `Reconcile`): pause, policy validation, name initializer, create-incomplete gate, then Observe
/// with state rebuilt from the external-name, and Create when Observe finds nothing.
pub fn verdict(facts: &Facts, ctx: &MrRestore) -> Verdict {
    let mr = facts.mr;
    if let Some(activate) = &ctx.inactive_kind {
        return Verdict::Inactive(activate.clone());
    }
    if facts.management.validate().is_err() {
        return Verdict::Safe("its management policies are not supported: the reconciler stops at Validate".into());
    }
    if facts.marks.incomplete() {
        return Verdict::Gate;
    }
    if let Some(who) = &ctx.source_tracker {
        return Verdict::Fight(who.clone());
    }
    let paused = if facts.paused { " (it is restored paused: that happens once the pause is lifted)" } else { "" };
    if let Some(ext) = mr.external_name() {
        return Verdict::Safe(format!(
            "the external-name {ext:?} is restored: upjet rebuilds the state from it and Observe finds the object"
        ));
    }
    let stub = mr.external_name_placeholder();
    if stub.is_none() && ctx.name_initialized == Some(true) {
        return Verdict::Safe(
            "upjet's name initializer sets the external-name to metadata.name, as every healthy peer of its kind shows, so Observe finds the object".into(),
        );
    }
    let Some(created) = created_by(facts) else {
        return Verdict::Safe(
            "the backup shows no cloud object was created: restoring it creates one, as the source would have".into(),
        );
    };
    if !facts.management.should_create() {
        return Verdict::Safe(format!(
            "its management policies ({}) do not allow Create: Observe finds nothing, nothing is created",
            facts.policies.describe()
        ));
    }
    let held = match stub {
        Some(p) => format!("only the placeholder {:?} as external-name", p.value),
        None => "no external-name".to_string(),
    };
    let why = match ctx.name_initialized {
        Some(false) => " (its kind's IDs are provider-assigned: no initializer fills it)",
        _ => "",
    };
    Verdict::Duplicate(format!("it is restored with {held}{why} although {created}{paused}"))
}
