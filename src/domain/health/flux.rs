//! The Flux health check: `healthCheckExprs` entries of a Kustomization, one per managed kind
//! (Flux matches an entry by exact `apiVersion` and `kind`, no wildcard), with the same three
//! CEL expressions for every kind.
//!
//! Flux evaluates `inProgress`, then `failed`, then `current`, and the first that is true
//! decides (InProgress when none is); each expression sees the object's top-level fields
//! (`metadata`, `spec`, `status`) as variables. CEL has no clock and Flux passes no time, so the
//! one judgement the Lua check makes that these cannot is upjet's async deadline: an operation
//! that still shows running stays InProgress until the Kustomization's own timeout.

use crate::domain::managed::keys;
use crate::domain::placeholder::KNOWN;
use serde::Serialize;

/// One `spec.healthCheckExprs` entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HealthCheckExpr {
    /// `group/version` of the kind.
    pub api_version: String,
    /// The kind.
    pub kind: String,
    /// True while the MR is neither failed, paused nor Ready.
    pub in_progress: String,
    /// True when the object shows the provider failed or lost track of the cloud object.
    pub failed: String,
    /// True when the MR is Ready, or paused on purpose (Flux has no Suspended).
    pub current: String,
}

/// The three expressions every managed kind gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expressions {
    /// `inProgress`.
    pub in_progress: String,
    /// `failed`.
    pub failed: String,
    /// `current`.
    pub current: String,
}

/// The entries for these kinds, `(apiVersion, kind)` each, in the order given.
pub fn entries(kinds: &[(String, String)]) -> Vec<HealthCheckExpr> {
    let e = expressions();
    kinds
        .iter()
        .map(|(api_version, kind)| HealthCheckExpr {
            api_version: api_version.clone(),
            kind: kind.clone(),
            in_progress: e.in_progress.clone(),
            failed: e.failed.clone(),
            current: e.current.clone(),
        })
        .collect()
}

/// The expressions, built from the named checks below so that each reads as what it tests.
pub fn expressions() -> Expressions {
    let paused = paused();
    let ready = condition("Ready", "c.status == 'True'");
    let failed = format!(
        "!({paused}) && ({} || {} || {} || {})",
        condition_failed(),
        create_incomplete(),
        external_name_lost(),
        silent_import()
    );
    Expressions {
        in_progress: format!("!({paused}) && !({ready}) && !({failed})"),
        current: format!("{paused} || {ready}"),
        failed,
    }
}

/// Some condition of this type matches `test` (over `c`). An MR without conditions has none.
fn condition(kind: &str, test: &str) -> String {
    format!("(has(status.conditions) && status.conditions.exists(c, c.type == '{kind}' && {test}))")
}

/// The annotation is present (with any value).
fn has_annotation(key: &str) -> String {
    format!("(has(metadata.annotations) && '{key}' in metadata.annotations)")
}

fn annotation(key: &str) -> String {
    format!("metadata.annotations['{key}']")
}

/// `crossplane.io/paused: "true"` (only that value pauses) or an empty policy list.
fn paused() -> String {
    format!(
        "({} && {} == 'true' || has(spec.managementPolicies) && size(spec.managementPolicies) == 0)",
        has_annotation(keys::PAUSED),
        annotation(keys::PAUSED)
    )
}

/// Argo CD's built-in Degraded: LastAsyncOperation or Synced False.
fn condition_failed() -> String {
    format!(
        "{} || {}",
        condition("LastAsyncOperation", "c.status == 'False'"),
        condition("Synced", "c.status == 'False'")
    )
}

/// crossplane-runtime's `ExternalCreateIncomplete`: pending strictly after both succeeded and
/// failed (after their later one), times parsed as RFC 3339 as the runtime parses them.
fn create_incomplete() -> String {
    let pending = format!("timestamp({})", annotation(keys::CREATE_PENDING));
    let after = |key: &str| format!("(!{} || {pending} > timestamp({}))", has_annotation(key), annotation(key));
    format!(
        "({} && {} && {})",
        has_annotation(keys::CREATE_PENDING),
        after(keys::CREATE_SUCCEEDED),
        after(keys::CREATE_FAILED)
    )
}

/// A CEL list of the values that name no cloud object: empty, or a provider's placeholder.
fn no_id_values() -> String {
    let values: Vec<String> =
        std::iter::once("''".to_string()).chain(KNOWN.iter().map(|p| format!("'{}'", p.value))).collect();
    format!("[{}]", values.join(", "))
}

/// `status.atProvider.id` holds an ID (not empty, not a placeholder).
fn observed_id() -> String {
    format!("(has(status.atProvider) && has(status.atProvider.id) && !(status.atProvider.id in {}))", no_id_values())
}

/// The external-name is lost after a create (`ExternalNameMissing` at error severity): none
/// saved although `status.atProvider.id` holds another value than the MR's name, or the MR is
/// Ready, or a create succeeded that is not shown running and did not fail (upjet's legacy
/// `Unknown` condition). An ID equal to the name is what upjet's initializer writes back.
fn external_name_lost() -> String {
    let saved = format!(
        "({} && !({} in {}))",
        has_annotation(keys::EXTERNAL_NAME),
        annotation(keys::EXTERNAL_NAME),
        no_id_values()
    );
    let id = observed_id();
    let running = format!(
        "({} && {} || {})",
        condition("Ready", "c.status == 'False' && c.reason == 'Creating'"),
        condition("Synced", "c.status == 'True'"),
        condition("AsyncOperation", "c.reason == 'Ongoing'")
    );
    format!(
        "(!{saved} && ({id} && status.atProvider.id != metadata.name || !{id} && {} || !{id} && {} && !{running} && !{}))",
        condition("Ready", "c.status == 'True'"),
        has_annotation(keys::CREATE_SUCCEEDED),
        condition("Unknown", "c.status == 'False'")
    )
}

/// An import that found nothing (`ObserveNotFound`'s silent shape): policies that neither
/// create nor update, not exactly `["Observe"]`, Synced True, no Ready and no observed ID.
fn silent_import() -> String {
    format!(
        "(has(spec.managementPolicies) && size(spec.managementPolicies) > 0 && !spec.managementPolicies.exists(p, p in ['*', 'Create', 'Update']) && !(size(spec.managementPolicies) == 1 && spec.managementPolicies[0] == 'Observe') && {} && !{} && !{})",
        condition("Synced", "c.status == 'True' && c.reason == 'ReconcileSuccess'"),
        condition("Ready", "true"),
        observed_id()
    )
}
