//! `guard --mutate`: the identity-locked rule as a MutatingAdmissionPolicy that puts the locked
//! ID back on a create that lacks it, and says so on the MR ([`IDENTITY_RESTORED`]). The
//! ValidatingAdmissionPolicy stays: mutations run first, so it sees the restored ID and lets it
//! through, and it still refuses what the mutation could not fix.
//!
//! The mutation is a JSON patch (`patchType: JSONPatch`): it needs no schema for the custom
//! resource, and two forms cover an object with or without annotations. A MutatingAdmissionPolicy
//! is evaluated per shard like the validating one; its match conditions (which may read
//! `params`) select the one shard that holds the key. Match conditions cannot read variables,
//! so they are written out; the patch reads the policy's variables.

use super::admission::{self, API_VERSION, Policy};
use super::cel::{Cel, bound, quote};
use super::identity_locked::{holds, lock_key, recorded};
use super::rule::GuardRule;
use super::settings::GuardSettings;
use super::vars::{IDENTITY_CHANGE, IDENTITY_RESTORED, Vars, annotation};
use crate::managed::keys;
use serde_json::{Value, json};

/// The match condition: this shard holds the key and the create does not carry its ID (nor is
/// it the MR's own name that upjet's initializer will give it, nor a declared repair).
pub(crate) fn missing_id() -> Cel {
    let key = lock_key();
    let ext = annotation("object", keys::EXTERNAL_NAME, false);
    let id = recorded(&key);
    let declared = Cel::and(vec![ext.ne(&Cel::lit("")), annotation("object", IDENTITY_CHANGE, false).eq(&ext)]);
    let by_initializer = Cel::and(vec![ext.eq(&Cel::lit("")), id.eq(&Cel::path("object.metadata.name", bound::NAME))]);
    Cel::and(vec![holds(&key), ext.ne(&id), by_initializer.not(), declared.not()])
}

/// The mutation's variables and its patch: the recorded ID as the external-name, and a note of
/// where it came from.
pub fn patch() -> (Vec<(&'static str, Cel)>, Cel) {
    let v = Vars::default();
    let key = v.get("lockKey", |_| lock_key());
    let id = v.get("recordedId", |_| recorded(&key));
    let ext = v.ext();
    let note = v.get("note", |_| {
        Cel::concat(vec![
            Cel::lit("external-name restored from the guard lock "),
            Cel::path("params.metadata.name", bound::NAME),
            Cel::cond(
                &ext.eq(&Cel::lit("")),
                &Cel::lit(""),
                &Cel::concat(vec![Cel::lit("; the create carried \""), ext.clone(), Cel::lit("\"")]),
            ),
        ])
    });
    // The map's values must have one type (the API server compiles with homogeneous aggregate
    // literals): the recorded ID is read from the parameters (`dyn`) and the note is a string,
    // and some releases declare every variable `dyn`, so both are converted.
    let (id, note) = (id.to_str(bound::ANNOTATION), note.to_str(note.size()));
    let op = |path: &str, value: &str| format!("JSONPatch{{op: 'add', path: {}, value: {value}}}", quote(path));
    let pointer = |key: &str| format!("/metadata/annotations/{}", key.replace('~', "~0").replace('/', "~1"));
    let each =
        format!("[{}, {}]", op(&pointer(keys::EXTERNAL_NAME), id.text()), op(&pointer(IDENTITY_RESTORED), note.text()));
    let both =
        format!("{{{}: {}, {}: {}}}", quote(keys::EXTERNAL_NAME), id.text(), quote(IDENTITY_RESTORED), note.text());
    let whole = format!("[{}]", op("/metadata/annotations", &both));
    let has = Cel::path("object.metadata.annotations", 1).has();
    // At most two patch objects (40 each, cel-go's message creation), their list and the map,
    // over the operands (their conversions included).
    let cost = has.cost() + 1 + 10 + 2 * 40 + 30 + id.cost() + note.cost();
    (v.into_defs(), Cel::raw(format!("({} ? {each} : {whole})", has.text()), cost, 2))
}

/// The MutatingAdmissionPolicy and its binding, for the kinds of `locked` (the identity-locked
/// policy).
pub fn objects(locked: &Policy, settings: &GuardSettings) -> (Value, Value) {
    let name = GuardRule::IdentityLocked.policy_name();
    let (variables, expression) = patch();
    let labels = super::labels::labels(Some(GuardRule::IdentityLocked));
    let conditions: Vec<Value> = admission::exemption(settings)
        .into_iter()
        .chain([("kubectl-upjet.io/locked-id-missing", missing_id())])
        .map(|(n, c)| json!({"name": n, "expression": c.text()}))
        .collect();
    let policy = json!({
        "apiVersion": API_VERSION,
        "kind": "MutatingAdmissionPolicy",
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "failurePolicy": "Ignore",
            "reinvocationPolicy": "Never",
            "paramKind": admission::param_kind(),
            "matchConstraints": admission::match_resources(&locked.kinds, &["CREATE"]),
            "matchConditions": conditions,
            "variables": variables.iter().map(|(n, c)| json!({"name": n, "expression": c.text()})).collect::<Vec<_>>(),
            "mutations": [{"patchType": "JSONPatch", "jsonPatch": {"expression": expression.text()}}],
        },
    });
    let binding = json!({
        "apiVersion": API_VERSION,
        "kind": "MutatingAdmissionPolicyBinding",
        "metadata": {"name": name, "labels": labels},
        "spec": {"policyName": name, "paramRef": admission::param_ref()},
    });
    (policy, binding)
}

/// The mutating policy's estimate: its patch and its match conditions.
pub fn estimate(locked: &Policy, settings: &GuardSettings) -> super::cost::PolicyCost {
    let conditions: Vec<(&str, u64)> = admission::exemption(settings)
        .into_iter()
        .map(|(n, c)| (n, c.cost()))
        .chain([("kubectl-upjet.io/locked-id-missing", missing_id().cost())])
        .collect();
    let patch = patch().1.cost();
    let (worst, worst_cost) = conditions
        .iter()
        .map(|(n, c)| (format!("matchConditions[{n}]"), *c))
        .chain([("mutations[0].jsonPatch.expression".to_string(), patch)])
        .max_by_key(|(_, c)| *c)
        .unwrap_or_default();
    super::cost::PolicyCost {
        rule: locked.rule,
        worst,
        worst_cost,
        total: patch,
        match_conditions: conditions.iter().map(|(_, c)| c).sum(),
    }
}
