//! The admissionregistration.k8s.io/v1 objects the guard prints, with every field the API
//! server would default written out, so that `kubectl apply` of the same output twice reports
//! `unchanged` and a GitOps diff settles.
//!
//! The defaults (`pkg/apis/admissionregistration/v1/defaults.go` and its generated
//! `zz_generated.defaults.go`; the v1beta1 MutatingAdmissionPolicy ones carried to v1):
//! a policy's `failurePolicy` (Fail), a `MatchResources`' `matchPolicy` (Equivalent),
//! `namespaceSelector` and `objectSelector` (`{}`), and each resource rule's `scope` (`*`). A
//! MutatingAdmissionPolicy's `reinvocationPolicy` has no default (it is required), nor has a
//! binding's `paramRef.parameterNotFoundAction` in v1. [`DEFAULTED`] lists them; every object
//! here sets each one. Empty lists are left out rather than printed as `[]`: the server drops
//! them, and a field present in the applied object but absent from the live one is a diff.

use super::cel::Cel;
use super::kind::GuardKind;
use super::labels::labels;
use super::rule::{Action, GuardRule};
use super::settings::GuardSettings;
use super::vars::Vars;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// `admissionregistration.k8s.io/v1`: ValidatingAdmissionPolicy is GA since v1.30 and
/// MutatingAdmissionPolicy since v1.36 (KEP-3962: alpha v1.32, beta v1.34, stable v1.36).
pub const API_VERSION: &str = "admissionregistration.k8s.io/v1";

/// The fields the API server defaults on the objects printed here, as (object, field path,
/// default): what [`validating_policy`], [`binding`] and the mutating policy always set.
pub const DEFAULTED: &[(&str, &str, &str)] = &[
    ("ValidatingAdmissionPolicy", "spec.failurePolicy", "Fail"),
    ("ValidatingAdmissionPolicy", "spec.matchConstraints.matchPolicy", "Equivalent"),
    ("ValidatingAdmissionPolicy", "spec.matchConstraints.namespaceSelector", "{}"),
    ("ValidatingAdmissionPolicy", "spec.matchConstraints.objectSelector", "{}"),
    ("ValidatingAdmissionPolicy", "spec.matchConstraints.resourceRules[].scope", "*"),
    ("MutatingAdmissionPolicy", "spec.failurePolicy", "Fail"),
    ("MutatingAdmissionPolicy", "spec.matchConstraints.matchPolicy", "Equivalent"),
    ("MutatingAdmissionPolicy", "spec.matchConstraints.namespaceSelector", "{}"),
    ("MutatingAdmissionPolicy", "spec.matchConstraints.objectSelector", "{}"),
    ("MutatingAdmissionPolicy", "spec.matchConstraints.resourceRules[].scope", "*"),
];

/// `HTTP 403` or `422`: the reason a refusal carries (`Forbidden`, `Invalid`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The write would lose or replace an identity.
    Forbidden,
    /// The object's content is wrong.
    Invalid,
}

/// One validation: the condition a write must meet, its messages and reason.
#[derive(Clone, Debug)]
pub struct Validation {
    /// True when the write is fine.
    pub expression: Cel,
    /// The message when `message_expression` fails or gives an unusable string (one line).
    pub message: String,
    /// The message naming the MR, the ID at stake and the command that resolves it.
    pub message_expression: Cel,
    /// The reason of a refusal.
    pub reason: Reason,
}

/// A rule's policy before it is printed.
#[derive(Clone, Debug)]
pub struct Policy {
    /// The rule.
    pub rule: GuardRule,
    /// The operations it judges (never DELETE).
    pub operations: &'static [&'static str],
    /// The kinds it covers.
    pub kinds: Vec<GuardKind>,
    /// Its variables, in order.
    pub variables: Vec<(&'static str, Cel)>,
    /// Extra match conditions besides the exemptions (name, condition).
    pub conditions: Vec<(&'static str, Cel)>,
    /// Its validations.
    pub validations: Vec<Validation>,
    /// Whether it reads the lock's shards as parameters.
    pub uses_lock: bool,
}

impl Policy {
    /// A policy of one validation over `v`'s variables, without extra match conditions and
    /// without the lock: what every rule but the lock's is, and the lock's sets `uses_lock`.
    pub fn single(
        rule: GuardRule,
        operations: &'static [&'static str],
        kinds: Vec<GuardKind>,
        v: Vars,
        validation: Validation,
    ) -> Policy {
        Policy {
            rule,
            operations,
            kinds,
            variables: v.into_defs(),
            conditions: Vec::new(),
            validations: vec![validation],
            uses_lock: false,
        }
    }
}

/// The policy's `matchConstraints`: one resource rule per API group and scope, its plurals
/// sorted, every version (`*`: a version served later is covered, and Equivalent matching
/// sees every request).
pub(crate) fn match_resources(kinds: &[GuardKind], operations: &[&str]) -> Value {
    let mut by_group: BTreeMap<(&str, bool), Vec<&str>> = BTreeMap::new();
    for k in kinds {
        by_group.entry((&k.group, k.namespaced)).or_default().push(&k.plural);
    }
    let rules: Vec<Value> = by_group
        .into_iter()
        .map(|((group, namespaced), mut plurals)| {
            plurals.sort_unstable();
            plurals.dedup();
            json!({
                "apiGroups": [group],
                "apiVersions": ["*"],
                "operations": operations,
                "resources": plurals,
                "scope": if namespaced { "Namespaced" } else { "Cluster" },
            })
        })
        .collect();
    json!({"matchPolicy": "Equivalent", "namespaceSelector": {}, "objectSelector": {}, "resourceRules": rules})
}

/// The match condition that lets the exempt users and groups through: the providers' service
/// accounts, `--allow-user` and `--allow-group`. `None` when nobody is exempt.
pub(crate) fn exemption(settings: &GuardSettings) -> Option<(&'static str, Cel)> {
    let mut parts = Vec::new();
    if !settings.users.is_empty() {
        let users: Vec<String> = settings.users.iter().cloned().collect();
        let user = Cel::path("request.userInfo.username", super::cel::bound::USERNAME);
        parts.push(Cel::set(&users).has_key(&user).not());
    }
    if !settings.groups.is_empty() {
        let groups: Vec<String> = settings.groups.iter().cloned().collect();
        let list = Cel::path("request.userInfo.groups", super::cel::bound::USER_GROUPS);
        let member = list.exists("g", super::cel::bound::USERNAME, |g| Cel::set(&groups).has_key(g));
        parts.push(Cel::or(vec![list.has().not(), member.not()]));
    }
    (!parts.is_empty()).then(|| ("kubectl-upjet.io/not-exempt", Cel::and(parts)))
}

fn conditions(policy: &Policy, settings: &GuardSettings) -> Vec<Value> {
    exemption(settings)
        .into_iter()
        .chain(policy.conditions.iter().cloned())
        .map(|(name, c)| json!({"name": name, "expression": c.text()}))
        .collect()
}

/// The shards' kind, as a policy's `paramKind`.
pub(crate) fn param_kind() -> Value {
    json!({"apiVersion": super::lock::crd::API_VERSION, "kind": super::lock::crd::KIND})
}

/// A binding's `paramRef`: every shard by label, none found is allowed.
pub(crate) fn param_ref() -> Value {
    json!({"selector": {"matchLabels": super::lock::crd::shard_labels()}, "parameterNotFoundAction": "Allow"})
}

/// The rule's ValidatingAdmissionPolicy: `failurePolicy: Ignore`, so a CEL error, a cost over
/// the limit or a missing lock CRD lets the write through.
pub(crate) fn validating_policy(policy: &Policy, settings: &GuardSettings) -> Value {
    let mut spec = json!({
        "failurePolicy": "Ignore",
        "matchConstraints": match_resources(&policy.kinds, policy.operations),
        "validations": policy.validations.iter().map(validation).collect::<Vec<_>>(),
    });
    let conds = conditions(policy, settings);
    if !conds.is_empty() {
        spec["matchConditions"] = json!(conds);
    }
    if !policy.variables.is_empty() {
        spec["variables"] =
            json!(policy.variables.iter().map(|(n, c)| json!({"name": n, "expression": c.text()})).collect::<Vec<_>>());
    }
    if policy.uses_lock {
        spec["paramKind"] = param_kind();
    }
    json!({
        "apiVersion": API_VERSION,
        "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": policy.rule.policy_name(), "labels": labels(Some(policy.rule))},
        "spec": spec,
    })
}

fn validation(v: &Validation) -> Value {
    json!({
        "expression": v.expression.text(),
        "message": v.message,
        "messageExpression": v.message_expression.text(),
        "reason": match v.reason { Reason::Forbidden => "Forbidden", Reason::Invalid => "Invalid" },
    })
}

/// The rule's binding, with the rule's action.
pub fn binding(policy: &Policy, action: Action) -> Value {
    let mut spec = json!({"policyName": policy.rule.policy_name(), "validationActions": [action.as_str()]});
    if policy.uses_lock {
        spec["paramRef"] = param_ref();
    }
    json!({
        "apiVersion": API_VERSION,
        "kind": "ValidatingAdmissionPolicyBinding",
        "metadata": {"name": policy.rule.policy_name(), "labels": labels(Some(policy.rule))},
        "spec": spec,
    })
}

/// The match conditions a policy's evaluation passes through (exemptions first), with their
/// costs: what the cost estimate adds up against the match conditions' budget.
pub(crate) fn condition_costs(policy: &Policy, settings: &GuardSettings) -> Vec<(&'static str, u64)> {
    exemption(settings).into_iter().chain(policy.conditions.iter().cloned()).map(|(n, c)| (n, c.cost())).collect()
}
