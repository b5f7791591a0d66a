//! The pure decisions of `migrate apply` and `migrate status`: where one item stands, read from
//! the legacy and the namespaced object alone (so a re-run after a kill resumes), and the writes
//! each step sends.

use super::{CONFIRMED, HELD_FOR, Item, MIGRATED_FROM};
use crate::managed::keys;
use crate::patch::declare::set_annotation;
use crate::patch::{IDENTITY_CHANGE, annotation, policies_of};
use crate::shell::quoted;
use serde_json::{Map, Value, json};

/// Where one item stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Nothing done: the legacy MR is as planned. Next: a (hold it).
    Planned,
    /// The legacy MR is held (paused, unable to delete); no namespaced MR yet. Next: b (create it).
    Held,
    /// The namespaced MR exists observing only. Next: c (wait for its Observe), then d.
    Observing,
    /// The namespaced MR has its final policies; the legacy MR is still there, held (or being
    /// deleted). Next: e (delete the legacy MR), unless it is kept.
    Switched {
        /// The legacy MR is being deleted (its finalizer not yet removed).
        deleting: bool,
    },
    /// The namespaced MR has its final policies and the legacy MR is gone.
    Done,
    /// Not a state this plan leads to: left as it is, and why.
    Changed(String),
}

impl Stage {
    /// One word for `migrate status`.
    pub fn word(&self) -> &'static str {
        match self {
            Stage::Planned => "planned",
            Stage::Held => "held",
            Stage::Observing => "observing",
            Stage::Switched { .. } => "switched",
            Stage::Done => "done",
            Stage::Changed(_) => "changed",
        }
    }
}

/// Policies as the API server stores them: an absent field is `["*"]`.
fn effective(p: Option<Vec<String>>) -> Vec<String> {
    p.unwrap_or_else(|| vec!["*".into()])
}

/// Whether the legacy MR carries this item's hold.
fn is_held(item: &Item, legacy: &Value) -> bool {
    annotation(legacy, HELD_FOR) == Some(&format!("{}/{}", item.target.namespace, item.name()))
        && annotation(legacy, keys::PAUSED) == Some("true")
}

/// Whether the legacy MR is as the plan read it: same spec generation and external-name.
fn as_planned(item: &Item, legacy: &Value) -> Result<(), String> {
    let generation = legacy.pointer("/metadata/generation").and_then(Value::as_i64);
    let ext = annotation(legacy, keys::EXTERNAL_NAME).map(str::to_owned);
    if item.legacy.generation.is_some() && generation != item.legacy.generation {
        return Err(format!(
            "the legacy MR's spec changed since the plan (generation {:?}, planned {:?}): plan again",
            generation.unwrap_or_default(),
            item.legacy.generation.unwrap_or_default()
        ));
    }
    if ext != item.legacy.external_name {
        return Err(format!(
            "the legacy MR's external-name changed since the plan ({}, planned {}): plan again",
            quoted(ext.as_deref().unwrap_or_default()),
            quoted(item.legacy.external_name.as_deref().unwrap_or_default())
        ));
    }
    Ok(())
}

/// Where `item` stands, from the legacy MR and the namespaced MR as read now (`None`: absent).
pub fn stage(item: &Item, legacy: Option<&Value>, new: Option<&Value>) -> Stage {
    let Some(new) = new else {
        return match legacy {
            None => Stage::Changed("the legacy MR is gone and no namespaced MR was created: nothing to migrate".into()),
            Some(l) if is_held(item, l) => Stage::Held,
            Some(l) => match as_planned(item, l) {
                Ok(()) if l.pointer("/metadata/deletionTimestamp").is_some() => {
                    Stage::Changed("the legacy MR is being deleted: left as it is".into())
                }
                Ok(()) => Stage::Planned,
                Err(why) => Stage::Changed(why),
            },
        };
    };
    if annotation(new, MIGRATED_FROM) != Some(item.legacy.resource.as_str()) && !item.twin_exists {
        return Stage::Changed(format!(
            "{} already exists and was not created by this migration: the name is taken (rename it or plan another namespace)",
            item.target_display()
        ));
    }
    if annotation(new, keys::EXTERNAL_NAME) != Some(item.external_name.as_str()) {
        return Stage::Changed(format!(
            "{} tracks {}, not {}: left as it is",
            item.target_display(),
            quoted(annotation(new, keys::EXTERNAL_NAME).unwrap_or_default()),
            quoted(&item.external_name)
        ));
    }
    // A twin found in place by the plan: the legacy MR is held first, whatever the twin does.
    if item.twin_exists
        && let Some(l) = legacy.filter(|l| !is_held(item, l))
    {
        return match as_planned(item, l) {
            Ok(()) => Stage::Planned,
            Err(why) => Stage::Changed(why),
        };
    }
    let policies = policies_of(new);
    let observing = policies.as_deref() == Some(&["Observe".to_string()][..]);
    // An observe-only twin has its final policies from its create: it is finished only once
    // its Observe was confirmed (step d's mark), or when the plan found it in place.
    let confirmed = !observing || item.twin_exists || annotation(new, CONFIRMED) == Some("true");
    let finished = confirmed && effective(policies) == effective(item.final_policies.clone());
    match legacy {
        _ if observing && !finished => Stage::Observing,
        None if finished => Stage::Done,
        Some(l) if finished && is_held(item, l) => {
            Stage::Switched { deleting: l.pointer("/metadata/deletionTimestamp").is_some() }
        }
        Some(_) if finished => {
            Stage::Changed("the legacy MR is no longer held by this migration: left as it is".into())
        }
        _ => Stage::Changed(format!(
            "{} has managementPolicies {:?}, neither [\"Observe\"] nor the planned final ones: left as it is",
            item.target_display(),
            policies_of(new).unwrap_or_default()
        )),
    }
}

/// Step b's object, ready to create: with its external-name declared to the guard
/// (`kubectl-upjet.io/identity-change` equal to it), so that the identity-locked rule lets the
/// twin through whatever the lock recorded under its new key; step c takes the declaration away.
pub fn manifest(item: &Item) -> Value {
    let mut obj = item.manifest.clone();
    if !item.external_name.is_empty() {
        set_annotation(&mut obj, json!(item.external_name));
    }
    obj
}

/// Step c: ask the namespaced MR for a fresh Observe, and take step b's declaration away.
pub fn request_patch(token: &str) -> Value {
    json!({"metadata": {"annotations": {keys::RECONCILE_REQUESTED_AT: token, IDENTITY_CHANGE: null}}})
}

/// Step d: the final policies (the legacy's pause, if its owner had paused it), and a fresh
/// reconcile requested.
pub fn switch_patch(item: &Item, token: &str) -> Value {
    let policies = item.final_policies.as_ref().map_or(Value::Null, |p| json!(p));
    let mut ann = Map::new();
    ann.insert(keys::RECONCILE_REQUESTED_AT.into(), json!(token));
    ann.insert(CONFIRMED.into(), json!("true"));
    if item.legacy.paused.as_deref() == Some("true") {
        ann.insert(keys::PAUSED.into(), json!("true"));
    }
    json!({"metadata": {"annotations": ann}, "spec": {"managementPolicies": policies}})
}

/// Step e, after the DELETE: the pause lifted so that the provider handles the deletion. The
/// legacy MR is Orphan without `Delete`, so its reconciler only removes its finalizer.
pub fn release_patch() -> Value {
    json!({"metadata": {"annotations": {keys::PAUSED: null}}})
}

/// Step f: the legacy MR put back as the plan read it (its pause, deletion policy and
/// management policies), the hold's mark removed.
pub fn rollback_patch(item: &Item) -> Value {
    let or_null = |v: Option<Value>| v.unwrap_or(Value::Null);
    json!({
        "metadata": {"annotations": {
            keys::PAUSED: or_null(item.legacy.paused.clone().map(Value::String)),
            HELD_FOR: null
        }},
        "spec": {
            "deletionPolicy": or_null(item.legacy.deletion_policy.clone().map(Value::String)),
            "managementPolicies": or_null(item.legacy.management_policies.as_ref().map(|p| json!(p)))
        }
    })
}

/// Whether `obj` carries Crossplane's in-use label: a Usage names it, and Crossplane's webhook
/// refuses its deletion while one does.
pub fn in_use(obj: &Value) -> bool {
    obj.pointer("/metadata/labels").and_then(|l| l.get(keys::IN_USE_LABEL)).and_then(Value::as_str) == Some("true")
}

/// What step e says when an admission webhook refused to delete the legacy MR (`server`: the
/// API server's message): a Crossplane Usage that names it (the in-use label; crossplane
/// `internal/webhook/protection/usage/handler.go` answers 409) holds the migration at its last
/// step, harmlessly: the legacy MR stays held, and the namespaced twin already manages the object.
pub fn delete_refused(item: &Item, in_use: bool, server: &str) -> String {
    let held = "the legacy MR stays held (paused, deletionPolicy Orphan), so nothing acts on the object but the namespaced MR; run migrate apply again to finish";
    match in_use {
        true => format!(
            "a Crossplane Usage names the legacy MR (label {}), and Crossplane's webhook refuses to delete it while one does ({server}): point the Usage's spec.of at {} or delete the Usage; {held}",
            keys::IN_USE_LABEL,
            item.target_display()
        ),
        false => format!("an admission webhook refused to delete the legacy MR ({server}); {held}"),
    }
}
