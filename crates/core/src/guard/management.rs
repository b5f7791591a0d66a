//! management policies and late-initialize: doctor's UnsupportedManagementPolicies and
//! LateInitializeMissing judged at the door, from the same code: the sets the reconciler
//! accepts are `policies::SUPPORTED`, turned into CEL here, and the actions are
//! `policies::{ALL, ACTIONS}`; tests compare the expressions with both rules over every set.
//!
//! A policy list is judged as a set, as `ManagementPoliciesResolver.Validate` does: which of the
//! six actions it holds, and nothing else. A write is judged when it creates the MR or changes
//! its policies, so an MR already holding a bad set can still be edited (a finalizer removed, a
//! pause set). Lists longer than [`bound::LIST`] are left alone: no real MR lists an action
//! that often, and the bound keeps the cost fixed.

use super::admission::{Policy, Reason, Validation};
use super::cel::{Cel, bound};
use super::kind::GuardKind;
use super::rule::GuardRule;
use super::vars::{self, Vars};
use crate::policies::{ACTIONS, ALL, SUPPORTED};

/// The fallback messages.
pub(crate) const UNSUPPORTED: &str = "kubectl upjet guard: spec.managementPolicies is not a set the reconciler supports: it would reject the MR before doing anything; kubectl upjet doctor KIND/NAME names the nearest supported set";
/// See [`UNSUPPORTED`].
pub(crate) const NO_LATE_INITIALIZE: &str = "kubectl upjet guard: spec.managementPolicies lack LateInitialize and \"*\": upjet never saves the external-name it learns after an asynchronous create, and a provider restart then creates a duplicate; add LateInitialize (see kubectl upjet doctor KIND/NAME)";

/// Every value a policy list may hold: `*` and the five actions.
fn universe() -> Vec<&'static str> {
    std::iter::once(ALL).chain(ACTIONS).collect()
}

/// The policy variable that says whether the list holds `action`.
fn holds_var(action: &str) -> &'static str {
    match action {
        "*" => "policiesHoldAll",
        "Observe" => "policiesHoldObserve",
        "Create" => "policiesHoldCreate",
        "Update" => "policiesHoldUpdate",
        "LateInitialize" => "policiesHoldLateInitialize",
        _ => "policiesHoldDelete",
    }
}

struct Sets<'a> {
    v: &'a Vars,
}

impl Sets<'_> {
    /// The written list (absent: the API default `["*"]`).
    fn list(&self) -> Cel {
        self.v.get("policies", |_| {
            let p = Cel::path("object.spec.managementPolicies", bound::OBJECT_LIST);
            Cel::cond(&Cel::and(vec![Cel::path("object.spec", 1).has(), p.has()]), &p, &Cel::list(vec![Cel::lit(ALL)]))
        })
    }

    /// Whether the list holds `action` (read only behind the size guard).
    fn holds(&self, action: &'static str) -> Cel {
        self.v.get(holds_var(action), |_| self.list().bounded(bound::LIST).contains(&Cel::lit(action), bound::KIND))
    }

    /// `size(list) <= LIST`: the guard in front of every other read.
    fn small(&self) -> Cel {
        self.list().size_of().int_cmp("<=", bound::LIST)
    }

    /// `Validate` with management policies enabled: the list, as a set, is one of [`SUPPORTED`].
    fn supported(&self) -> Cel {
        self.v.get("policiesSupported", |_| {
            let known = self.list().bounded(bound::LIST).all("a", bound::KIND, |a| a.one_of(&universe()));
            let one_of = SUPPORTED.iter().map(|set| {
                Cel::and(
                    universe()
                        .into_iter()
                        .map(|a| if set.contains(&a) { self.holds(a) } else { self.holds(a).not() })
                        .collect(),
                )
            });
            Cel::and(vec![known, Cel::or(one_of.collect())])
        })
    }

    /// Whether the write creates the MR or changes its policies.
    fn changed(&self) -> Cel {
        self.v.get("policiesChanged", |_| {
            let old = Cel::path("oldObject.spec.managementPolicies", bound::OBJECT_LIST);
            let old_has = Cel::and(vec![
                Cel::path("oldObject", 1).ne(&Cel::constant("null")),
                Cel::path("oldObject.spec", 1).has(),
                old.has(),
            ]);
            let old_list = Cel::cond(&old_has, &old, &Cel::list(vec![Cel::lit(ALL)]));
            Cel::or(vec![
                Cel::path("request.operation", 1).eq(&Cel::lit("CREATE")),
                old_list.size_of().int_cmp(">", bound::LIST),
                self.list().bounded(bound::LIST).list_ne(&old_list.bounded(bound::LIST), bound::KIND),
            ])
        })
    }
}

/// Both rules judge what a create or an update would set.
const BOTH: &[&str] = &["CREATE", "UPDATE"];

/// The unsupported-set rule over `kinds`.
pub(crate) fn unsupported(kinds: &[GuardKind]) -> Policy {
    let v = Vars::default();
    let s = Sets { v: &v };
    let expression = Cel::or(vec![s.small().not(), s.changed().not(), s.supported()]);
    let message_expression = Cel::concat(vec![
        Cel::lit("kubectl upjet guard: spec.managementPolicies of "),
        v.target(),
        Cel::lit(
            " is not a set the reconciler supports: it would reject the MR before doing anything (Synced=False; nothing observed, created, updated or deleted). kubectl upjet doctor ",
        ),
        v.target(),
        Cel::lit(" names the nearest supported set"),
    ]);
    let validation =
        Validation { expression, message: UNSUPPORTED.into(), message_expression, reason: Reason::Invalid };
    Policy::single(GuardRule::ManagementPolicies, BOTH, kinds.to_vec(), v, validation)
}

/// The LateInitialize rule over the kinds that create asynchronously; `None` when none does.
/// LateInitializeMissing's judgement: a listed, supported, unpaused set that creates but holds
/// neither LateInitialize nor `*`, on an MR whose identity is not yet durable (no ID, or not
/// Ready).
pub(crate) fn late_initialize(kinds: &[GuardKind]) -> Option<Policy> {
    let kinds: Vec<GuardKind> = kinds.iter().filter(|k| k.creates_async).cloned().collect();
    if kinds.is_empty() {
        return None;
    }
    let v = Vars::default();
    let s = Sets { v: &v };
    let listed =
        Cel::and(vec![Cel::path("object.spec", 1).has(), Cel::path("object.spec.managementPolicies", 1).has()]);
    let durable = Cel::and(vec![v.ext_is_id(), vars::ready("object")]);
    let missing = Cel::and(vec![
        listed,
        s.supported(),
        s.list().size_of().int_cmp(">", 0),
        s.holds(ALL).not(),
        s.holds("LateInitialize").not(),
        s.holds("Create"),
        durable.not(),
    ]);
    let expression = Cel::or(vec![s.small().not(), s.changed().not(), missing.not()]);
    let message_expression = Cel::concat(vec![
        Cel::lit("kubectl upjet guard: spec.managementPolicies of "),
        v.target(),
        Cel::lit(
            " lack LateInitialize and \"*\": upjet never saves the external-name it learns after this kind's asynchronous create, and a provider restart then creates a duplicate. Add LateInitialize (kubectl upjet doctor ",
        ),
        v.target(),
        Cel::lit(" gives the patch)"),
    ]);
    let validation =
        Validation { expression, message: NO_LATE_INITIALIZE.into(), message_expression, reason: Reason::Invalid };
    Some(Policy::single(GuardRule::LateInitialize, BOTH, kinds, v, validation))
}
