//! Helpers shared by the adopt tests: a simulated provider (an `on_write` hook of the test API
//! server), a record of every write it saw, and state checks on stored MRs.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use testapi::TestApi;

pub const RS: &str = "dns.gcp.upbound.io/v1beta2";
pub const RS_NS: &str = "dns.gcp.m.upbound.io/v1beta1";
pub const TARGET: &str = "recordset.dns.gcp.upbound.io/www";
pub const PAUSED: &str = "crossplane.io/paused";
pub const EXT: &str = "crossplane.io/external-name";
pub const PENDING: &str = "crossplane.io/external-create-pending";
pub const SUCCEEDED: &str = "crossplane.io/external-create-succeeded";
pub const FAILED: &str = "crossplane.io/external-create-failed";
pub const RRA: &str = "crossplane.io/reconcile-requested-at";
pub const MARKER: &str = "kubectl-upjet.io/adoption";
pub const NOT_FOUND: &str = "observe failed: external resource does not exist";

/// What the simulated provider knows and how it behaves. Like crossplane-runtime's
/// `SetConditions`, it keeps a condition that is equal but for its time (type, status, reason,
/// message), lastTransitionTime included, and it stamps no `observedGeneration`: without the
/// token it is a runtime before v1.20 (v1.14 is still behind many installed providers), whose
/// reconcile of an MR already in sync writes nothing at all.
#[derive(Clone)]
pub struct Provider {
    /// IDs of cloud objects that exist.
    pub cloud: Vec<String>,
    /// Runtime >= v2.3: copies the reconcile token to status.lastHandledReconcileAt.
    pub handles_token: bool,
}

/// One write the provider saw (after it was stored).
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    pub paused: bool,
    pub external_name: Option<String>,
    pub pending: bool,
    pub policies: Value,
    pub marker: bool,
}

fn set_cond(obj: &mut Value, t: &str, status: &str, reason: &str, message: &str) {
    if !obj["status"].is_object() {
        obj["status"] = json!({});
    }
    if !obj["status"]["conditions"].is_array() {
        obj["status"]["conditions"] = json!([]);
    }
    let conds = obj["status"]["conditions"].as_array_mut().unwrap();
    let equal = |c: &Value| c["type"] == t && c["status"] == status && c["reason"] == reason;
    if conds.iter().any(|c| equal(c) && c["message"].as_str().unwrap_or("") == message) {
        return;
    }
    conds.retain(|c| c["type"] != t);
    conds.push(json!({"type": t, "status": status, "reason": reason, "message": message,
                      "lastTransitionTime": chrono::Utc::now().to_rfc3339()}));
}

/// Registers the simulated provider; returns the log of writes it saw.
pub fn provider(api: &TestApi, p: Provider) -> Arc<Mutex<Vec<Seen>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    api.on_write(move |obj| {
        let ann = obj["metadata"]["annotations"].clone();
        let s = |k: &str| ann.get(k).and_then(Value::as_str).map(str::to_owned);
        log.lock().unwrap().push(Seen {
            paused: s(PAUSED).as_deref() == Some("true"),
            external_name: s(EXT),
            pending: s(PENDING).is_some(),
            policies: obj["spec"]["managementPolicies"].clone(),
            marker: s(MARKER).is_some(),
        });
        if s(PAUSED).as_deref() == Some("true") {
            set_cond(obj, "Synced", "False", "ReconcilePaused", "Reconciliation is paused");
            return;
        }
        if p.handles_token
            && let Some(t) = s(RRA)
        {
            obj["status"]["lastHandledReconcileAt"] = json!(t);
        }
        // meta.ExternalCreateIncomplete (RFC3339 in one format compares as text).
        let latest = match (s(SUCCEEDED), s(FAILED)) {
            (Some(ok), Some(f)) if f > ok => Some(f),
            (Some(ok), _) => Some(ok),
            (None, f) => f,
        };
        if s(PENDING).is_some_and(|p| latest.is_none_or(|l| p > l)) {
            set_cond(obj, "Ready", "False", "Creating", "");
            set_cond(obj, "Synced", "False", "ReconcileError", "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed");
            return;
        }
        let observe_only = obj["spec"]["managementPolicies"] == json!(["Observe"]);
        match s(EXT) {
            Some(id) if p.cloud.contains(&id) => {
                obj["status"]["atProvider"]["id"] = json!(id);
                set_cond(obj, "Ready", "True", "Available", "");
                set_cond(obj, "Synced", "True", "ReconcileSuccess", "");
            }
            _ if observe_only => {
                set_cond(obj, "Ready", "False", "Unavailable", "");
                set_cond(obj, "Synced", "False", "ReconcileError", NOT_FOUND);
            }
            other => {
                // Would create: the provider invents an ID.
                let id = other.unwrap_or_else(|| "created-by-provider".into());
                obj["status"]["atProvider"]["id"] = json!(id);
                set_cond(obj, "Ready", "True", "Available", "");
                set_cond(obj, "Synced", "True", "ReconcileSuccess", "");
            }
        }
    });
    seen
}

/// A stored object's annotations.
pub fn ann(obj: &Value) -> serde_json::Map<String, Value> {
    obj["metadata"]["annotations"].as_object().cloned().unwrap_or_default()
}

/// One annotation.
pub fn a<'a>(obj: &'a Value, k: &str) -> Option<&'a str> {
    obj["metadata"]["annotations"].get(k).and_then(Value::as_str)
}

/// Asserts that annotations and spec equal the original's (what restore and undo promise).
pub fn assert_as_original(original: &Value, now: &Value, what: &str) {
    assert_eq!(ann(now), ann(original), "{what}: annotations");
    assert_eq!(now["spec"], original["spec"], "{what}: spec");
}

/// The backup path printed on stderr.
pub fn backup_path(stderr: &str) -> Option<std::path::PathBuf> {
    stderr.lines().find_map(|l| {
        l.strip_prefix("backup: ")
            .or_else(|| l.split("original backup: ").nth(1))
            .map(|p| std::path::PathBuf::from(p.trim()))
    })
}
