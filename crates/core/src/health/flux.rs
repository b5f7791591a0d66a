//! The Flux health check: `healthCheckExprs` entries of a Kustomization, one per managed kind
//! (Flux matches an entry by exact `apiVersion` and `kind`, no wildcard), with the same three
//! CEL expressions for every kind.
//!
//! Flux evaluates `inProgress`, then `failed`, then `current`, and the first that is true
//! decides (InProgress when none is, so `inProgress` is not given); each expression sees the object's top-level fields
//! (`metadata`, `spec`, `status`) as variables. CEL has no clock and Flux passes no time, so the
//! judgements the Lua check makes that these cannot are the ones about time: upjet's async
//! deadline (an operation that still shows running stays InProgress until the Kustomization's
//! own timeout), and the reconcile timeout that tells a create still running from one stuck at
//! the create-incomplete gate: an incomplete create fails only once the reconciler reports the
//! gate (Synced False, which `failed` reads like any reconcile error), never while it may still
//! be running.

use crate::managed::keys;
use crate::placeholder::KNOWN;
use serde::Serialize;

/// One `spec.healthCheckExprs` entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HealthCheckExpr {
    /// `group/version` of the kind.
    pub api_version: String,
    /// The kind.
    pub kind: String,
    /// True when the object shows the provider failed or lost track of the cloud object.
    pub failed: String,
    /// True when the MR is Ready, or paused on purpose (Flux has no Suspended).
    pub current: String,
}

/// The expressions every managed kind gets. `inProgress` is left out on purpose: Flux evaluates
/// it first, so it would have to repeat `failed` and `current` to stay out of their way, and
/// InProgress is already Flux's verdict when neither holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expressions {
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
            failed: e.failed.clone(),
            current: e.current.clone(),
        })
        .collect()
}

/// The expressions, built from the named checks below so that each reads as what it tests.
pub fn expressions() -> Expressions {
    let paused = paused();
    let ready = condition("Ready", "c.status == 'True'");
    let failed = format!("!({paused}) && ({} || {} || {})", condition_failed(), external_name_lost(), silent_import());
    Expressions { current: format!("{paused} || {ready}"), failed }
}

/// Some condition of this type matches `test` (over `c`). An MR without conditions has none.
fn condition(kind: &str, test: &str) -> String {
    condition_of(&[kind], test)
}

/// The annotation's value, `''` when it or every annotation is absent (crossplane-runtime reads
/// an empty mark or external-name as an absent one).
fn annotation(key: &str) -> String {
    format!("(has(metadata.annotations) && '{key}' in metadata.annotations ? metadata.annotations['{key}'] : '')")
}

/// `crossplane.io/paused: "true"` (only that value pauses) or an empty policy list.
fn paused() -> String {
    format!(
        "({} == 'true' || has(spec.managementPolicies) && size(spec.managementPolicies) == 0)",
        annotation(keys::PAUSED)
    )
}

/// Argo CD's built-in Degraded: LastAsyncOperation or Synced False.
fn condition_failed() -> String {
    condition_of(&["LastAsyncOperation", "Synced"], "c.status == 'False'")
}

/// Some condition of one of these types matches `test`.
fn condition_of(kinds: &[&str], test: &str) -> String {
    let kinds: Vec<String> = kinds.iter().map(|k| format!("'{k}'")).collect();
    format!("(has(status.conditions) && status.conditions.exists(c, c.type in [{}] && {test}))", kinds.join(", "))
}

/// The value is a time Go's `time.Parse(time.RFC3339, …)` reads (how the runtime parses the
/// marks), as an RE2 match.
fn is_time(value: &str) -> String {
    format!(
        "{value}.matches('^[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}T[0-9:]{{8}}([.][0-9]+)?(Z|[+-][0-9]{{2}}:[0-9]{{2}})$')"
    )
}

/// A CEL list of the values that name no cloud object: empty, or a provider's placeholder.
fn no_id_values() -> String {
    let values: Vec<String> =
        std::iter::once("''".to_string()).chain(KNOWN.iter().map(|p| format!("'{}'", p.value))).collect();
    format!("[{}]", values.join(", "))
}

/// `status.atProvider.id`, `''` when absent.
const OBSERVED_ID: &str = "(has(status.atProvider) && has(status.atProvider.id) ? status.atProvider.id : '')";

/// The external-name is lost after a create (`ExternalNameMissing` at error severity): none
/// saved (or a placeholder) although `status.atProvider.id` holds another ID than the MR's
/// name, or, with no ID, the MR is Ready, or a create succeeded that is not shown running and
/// did not fail (upjet's legacy `Unknown` condition). An ID equal to the name is what upjet's
/// initializer writes back.
fn external_name_lost() -> String {
    let no_id = no_id_values();
    let running = format!(
        "({} && {} || {})",
        condition("Ready", "c.status == 'False' && c.reason == 'Creating'"),
        condition("Synced", "c.status == 'True'"),
        condition("AsyncOperation", "c.reason == 'Ongoing'")
    );
    format!(
        "({} in {no_id} && (!({OBSERVED_ID} in {no_id}) ? status.atProvider.id != metadata.name : {} || {} && !{running} && !{}))",
        annotation(keys::EXTERNAL_NAME),
        condition("Ready", "c.status == 'True'"),
        is_time(&annotation(keys::CREATE_SUCCEEDED)),
        condition("Unknown", "c.status == 'False'")
    )
}

/// An import that found nothing (`ObserveNotFound`'s silent shape): policies that neither
/// create nor update, not exactly `["Observe"]`, Synced True, no Ready and no observed ID.
fn silent_import() -> String {
    format!(
        "(has(spec.managementPolicies) && size(spec.managementPolicies) > 0 && !spec.managementPolicies.exists(p, p in ['*', 'Create', 'Update']) && spec.managementPolicies != ['Observe'] && {} && !{} && {OBSERVED_ID} in {})",
        condition("Synced", "c.status == 'True' && c.reason == 'ReconcileSuccess'"),
        condition("Ready", "true"),
        no_id_values()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flux keeps the expressions in the Kustomization object, which etcd caps at 1.5 MiB: one
    /// entry (4.6 KiB today) stays small enough for about 300 kinds, a provider family's, in one
    /// Kustomization (docs/gitops-health.md says to narrow to the kinds it applies).
    #[test]
    fn one_entry_stays_small() {
        let e = &entries(&[("ec2.aws.upbound.io/v1beta1".into(), "VPC".into())])[0];
        let size = serde_json::to_string(e).unwrap().len();
        assert!(size < 5 * 1024, "{size} bytes");
    }

    #[test]
    fn every_known_placeholder_counts_as_no_id() {
        let failed = expressions().failed;
        for p in KNOWN {
            assert!(failed.contains(&format!("'{}'", p.value)), "{}", p.value);
        }
    }
}
