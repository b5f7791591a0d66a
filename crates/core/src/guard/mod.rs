//! `kubectl upjet guard`, pure: the admission policies the API server itself enforces so that
//! an MR's identity cannot be dropped, changed or forgotten by a single write — one
//! ValidatingAdmissionPolicy and binding per rule ([`rule::GuardRule`]), the lock's CRD and shards
//! ([`lock`]), and with `--mutate` the MutatingAdmissionPolicy that puts a locked ID back.
//!
//! Every policy fails open (`failurePolicy: Ignore`, `parameterNotFoundAction: Allow`): a CEL
//! error, a cost over the limit, a missing lock CRD or shard lets the write through. None
//! matches DELETE. The providers' service accounts and the allowed users and groups pass
//! untouched (a match condition); kubectl-upjet's own repairs pass when they declare the ID
//! they write ([`vars::IDENTITY_CHANGE`]). The CEL is built with its cost ([`cel`], [`cost`]);
//! docs/guard.md lists the functions it relies on.

pub mod admission;
pub mod cel;
pub mod cost;
pub mod facts;
pub(crate) mod identity_kept;
pub(crate) mod identity_locked;
pub mod installed;
pub mod kind;
pub mod labels;
pub mod lock;
pub mod management;
pub mod mutate;
pub(crate) mod name_format;
pub mod pending;
pub mod placeholder;
pub mod rule;
pub mod settings;
pub mod vars;
pub mod version;

use admission::Policy;
use cost::PolicyCost;
use kind::GuardKind;
use lock::shard::Shard;
use rule::GuardRule;
use serde_json::Value;
use settings::GuardSettings;

/// One rule's printed policy and binding, with its estimated cost.
#[derive(Clone, Debug)]
pub struct Printed {
    /// The rule.
    pub rule: GuardRule,
    /// The ValidatingAdmissionPolicy (or MutatingAdmissionPolicy).
    pub policy: Value,
    /// Its binding.
    pub binding: Value,
    /// Its estimated CEL cost.
    pub cost: PolicyCost,
}

/// Everything `guard` prints.
#[derive(Clone, Debug)]
pub struct GuardSet {
    /// The lock's CRD.
    pub crd: Value,
    /// The lock's shards given to [`build`], as objects for `kubectl apply`.
    pub shards: Vec<Value>,
    /// One validating policy and binding per rule that covers at least one kind.
    pub validating: Vec<Printed>,
    /// With `--mutate`: the identity-locked rule's mutating policy and binding.
    pub mutating: Option<Printed>,
}

impl GuardSet {
    /// Every object in the order to apply them: the CRD, the shards, each policy before its
    /// binding.
    pub fn objects(&self) -> Vec<&Value> {
        let mut out = vec![&self.crd];
        out.extend(&self.shards);
        for p in self.validating.iter().chain(&self.mutating) {
            out.push(&p.policy);
            out.push(&p.binding);
        }
        out
    }

    /// The policy whose most expensive expression costs most.
    pub fn worst(&self) -> Option<&PolicyCost> {
        self.validating.iter().chain(&self.mutating).map(|p| &p.cost).max_by_key(|c| c.worst_cost)
    }
}

/// The policies of every rule for `kinds` (each `group/Kind` once, sorted), under `settings`,
/// with the lock's CRD and `shards` (none: the lock is written later by `guard lock`).
pub fn build(kinds: &[GuardKind], settings: &GuardSettings, shards: &[Shard]) -> GuardSet {
    let mut kinds = kinds.to_vec();
    kinds.sort_by(|a, b| (&a.group, &a.kind).cmp(&(&b.group, &b.kind)));
    kinds.dedup_by(|a, b| a.group == b.group && a.kind == b.kind);
    let policies: Vec<Policy> = [
        Some(identity_kept::policy(&kinds, settings.declarers())),
        Some(identity_locked::policy(&kinds, settings.declarers())),
        name_format::policy(&kinds),
        Some(management::unsupported(&kinds)),
        management::late_initialize(&kinds),
        Some(pending::policy(&kinds)),
        Some(placeholder::policy(&kinds)),
    ]
    .into_iter()
    .flatten()
    .filter(|p| !p.kinds.is_empty())
    .collect();
    let mutating = policies.iter().find(|p| p.rule == GuardRule::IdentityLocked && settings.mutate).map(|p| {
        let (policy, binding) = mutate::objects(p, settings);
        Printed { rule: p.rule, policy, binding, cost: mutate::estimate(p, settings) }
    });
    let validating = policies
        .iter()
        .map(|p| Printed {
            rule: p.rule,
            policy: admission::validating_policy(p, settings),
            binding: admission::binding(p, settings.action(p.rule)),
            cost: cost::estimate(p, settings),
        })
        .collect();
    GuardSet {
        crd: lock::crd::crd(),
        shards: shards.iter().map(|s| lock::crd::shard_object(s, false)).collect(),
        validating,
        mutating,
    }
}
