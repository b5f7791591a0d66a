//! What a cluster runs of the guard, read back from its ValidatingAdmissionPolicies and their
//! bindings: which rules are bound (a policy of the guard, and a binding that names it), and
//! which served managed kinds each bound rule judges — what doctor's and the watch's
//! `GuardMissing` and `GuardPartial` say.
//!
//! The guard's own objects are found by name (`GuardRule::policy_name`, what `guard` prints), and a
//! binding by the policy it names, whatever its own name: a binding made by hand for one of the
//! guard's policies counts. A kind is judged by a rule when the policy's `matchConstraints` match
//! it (its `resourceRules`, less its `excludeResourceRules`) and so does one of the policy's
//! bindings (no `matchResources`, or one whose rules match it too), as the API server's matcher
//! (`k8s.io/apiserver/pkg/admission/plugin/policy/matching`) decides. Namespace and object
//! selectors and the rules' operations are not read: `guard` prints none of the first, and its
//! operations are the rule's.

use super::kind::GuardKind;
use super::rule::GuardRule;
use serde_json::Value;
use std::collections::BTreeMap;

/// The rules every served managed kind must be judged by: those whose policy `guard` prints over
/// every kind (external-name-format covers only kinds with a known format, late-initialize only
/// those that create asynchronously, which only the printing knows).
pub(crate) const EVERY_KIND: [GuardRule; 5] = [
    GuardRule::IdentityKept,
    GuardRule::IdentityLocked,
    GuardRule::ManagementPolicies,
    GuardRule::PendingResolved,
    GuardRule::Placeholder,
];

/// One resource rule of a policy's `matchConstraints` or a binding's `matchResources`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ResourceRule {
    groups: Vec<String>,
    resources: Vec<String>,
    scope: String,
}

impl ResourceRule {
    fn of(v: &Value) -> ResourceRule {
        let strings = |key: &str| -> Vec<String> {
            v[key]
                .as_array()
                .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
                .unwrap_or_default()
        };
        ResourceRule {
            groups: strings("apiGroups"),
            resources: strings("resources"),
            scope: v["scope"].as_str().unwrap_or("*").to_string(),
        }
    }

    /// Whether the rule matches the kind's main resource: its group (or `*`), its plural (or `*`,
    /// `*/*`; `plural/*` is its subresources only), its scope (or `*`).
    fn matches(&self, kind: &GuardKind) -> bool {
        let group = self.groups.iter().any(|g| g == "*" || *g == kind.group);
        let resource = self.resources.iter().any(|r| r == "*" || r == "*/*" || *r == kind.plural);
        let scope = match self.scope.as_str() {
            "Namespaced" => kind.namespaced,
            "Cluster" => !kind.namespaced,
            _ => true,
        };
        group && resource && scope
    }
}

/// The resources a policy's `matchConstraints` (or a binding's `matchResources`) select: none of
/// the excluded, and any of the rules — every resource when there are none (the matcher's
/// `len(ResourceRules) == 0`: a binding's `matchResources` with selectors alone).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Selects {
    rules: Vec<ResourceRule>,
    excluded: Vec<ResourceRule>,
}

impl Selects {
    fn of(v: &Value) -> Selects {
        let rules = |key: &str| v[key].as_array().map(|a| a.iter().map(ResourceRule::of).collect()).unwrap_or_default();
        Selects { rules: rules("resourceRules"), excluded: rules("excludeResourceRules") }
    }

    fn matches(&self, kind: &GuardKind) -> bool {
        !self.excluded.iter().any(|r| r.matches(kind))
            && (self.rules.is_empty() || self.rules.iter().any(|r| r.matches(kind)))
    }
}

/// One binding of a guard policy.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Binding {
    /// Its `matchResources`, when it narrows the policy's.
    narrows: Option<Selects>,
    /// Its `validationActions`.
    actions: Vec<String>,
}

/// One rule as the cluster runs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Runs {
    /// The policy's `matchConstraints`, when the policy exists.
    policy: Option<Selects>,
    /// The bindings naming it.
    bindings: Vec<Binding>,
}

/// The guard as a cluster runs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Installed {
    rules: BTreeMap<GuardRule, Runs>,
}

/// The rule whose policy carries this name.
fn rule_named(name: &str) -> Option<GuardRule> {
    GuardRule::ALL.into_iter().find(|r| r.policy_name() == name)
}

impl Installed {
    /// The guard's rules among listed ValidatingAdmissionPolicies and their bindings (every other
    /// object is left out).
    pub fn of(policies: &[Value], bindings: &[Value]) -> Installed {
        let mut rules: BTreeMap<GuardRule, Runs> = BTreeMap::new();
        for p in policies {
            if let Some(rule) = p["metadata"]["name"].as_str().and_then(rule_named) {
                rules.entry(rule).or_default().policy = Some(Selects::of(&p["spec"]["matchConstraints"]));
            }
        }
        for b in bindings {
            let Some(rule) = b["spec"]["policyName"].as_str().and_then(rule_named) else { continue };
            let narrows = b["spec"].get("matchResources").filter(|m| m.is_object()).map(Selects::of);
            let actions = b["spec"]["validationActions"]
                .as_array()
                .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            rules.entry(rule).or_default().bindings.push(Binding { narrows, actions });
        }
        Installed { rules }
    }

    /// Whether `rule`'s policy exists and a binding names it: the API server judges with it.
    pub fn bound(&self, rule: GuardRule) -> bool {
        self.rules.get(&rule).is_some_and(|r| r.policy.is_some() && !r.bindings.is_empty())
    }

    /// Whether any rule is bound: the guard runs at all.
    pub(crate) fn any_bound(&self) -> bool {
        GuardRule::ALL.into_iter().any(|r| self.bound(r))
    }

    /// The guard's policies found without a binding, and its bindings without their policy.
    pub(crate) fn half_installed(&self) -> Vec<String> {
        self.rules
            .iter()
            .filter_map(|(rule, r)| match (&r.policy, r.bindings.is_empty()) {
                (Some(_), true) => Some(format!("{rule} (a policy, no binding)")),
                (None, false) => Some(format!("{rule} (a binding, no policy)")),
                _ => None,
            })
            .collect()
    }

    /// Whether `rule` judges writes to `kind`: bound, its policy matches it, and so does one of
    /// its bindings.
    pub fn judges(&self, rule: GuardRule, kind: &GuardKind) -> bool {
        let Some(r) = self.rules.get(&rule) else { return false };
        let Some(policy) = &r.policy else { return false };
        policy.matches(kind) && r.bindings.iter().any(|b| b.narrows.as_ref().is_none_or(|n| n.matches(kind)))
    }

    /// The actions the bindings of `rule` take (`Deny`, `Warn`, `Audit`), each once, sorted.
    pub fn actions(&self, rule: GuardRule) -> Vec<String> {
        let mut out: Vec<String> = self
            .rules
            .get(&rule)
            .map(|r| r.bindings.iter().flat_map(|b| b.actions.clone()).collect())
            .unwrap_or_default();
        out.sort();
        out.dedup();
        out
    }

    /// Per served kind that some rule of [`EVERY_KIND`] does not judge, those rules; kinds in
    /// the order given.
    pub fn uncovered<'k>(&self, kinds: &'k [GuardKind]) -> Vec<(&'k GuardKind, Vec<GuardRule>)> {
        kinds
            .iter()
            .filter_map(|k| {
                let missing: Vec<GuardRule> = EVERY_KIND.into_iter().filter(|r| !self.judges(*r, k)).collect();
                (!missing.is_empty()).then_some((k, missing))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::settings::GuardSettings;
    use crate::guard::{GuardSet, build};
    use serde_json::json;

    fn vpc() -> GuardKind {
        GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false)
    }
    fn twin() -> GuardKind {
        GuardKind::new("ec2.aws.m.upbound.io", "VPC", "vpcs", true)
    }
    fn bucket() -> GuardKind {
        GuardKind::new("s3.aws.upbound.io", "Bucket", "buckets", false)
    }

    /// The objects `guard` prints for `kinds`, as lists of policies and bindings.
    fn printed(kinds: &[GuardKind]) -> (Vec<Value>, Vec<Value>) {
        let set: GuardSet = build(kinds, &GuardSettings::default(), &[]);
        (
            set.validating.iter().map(|p| p.policy.clone()).collect(),
            set.validating.iter().map(|p| p.binding.clone()).collect(),
        )
    }

    #[test]
    fn what_guard_prints_judges_every_kind_it_was_printed_for() {
        let (policies, bindings) = printed(&[vpc(), twin()]);
        let installed = Installed::of(&policies, &bindings);
        assert!(installed.any_bound() && installed.half_installed().is_empty());
        assert!(installed.uncovered(&[vpc(), twin()]).is_empty());
        assert_eq!(installed.actions(GuardRule::IdentityKept), ["Deny"]);
        let served = [vpc(), bucket()];
        let later = installed.uncovered(&served);
        assert_eq!(later.len(), 1);
        assert_eq!((later[0].0, later[0].1.as_slice()), (&bucket(), &EVERY_KIND[..]));
    }

    #[test]
    fn a_rule_is_bound_only_with_its_policy_and_a_binding_naming_it() {
        let (policies, mut bindings) = printed(&[vpc()]);
        bindings.retain(|b| b["spec"]["policyName"] != GuardRule::IdentityLocked.policy_name());
        let mut installed = Installed::of(&policies, &bindings);
        assert!(!installed.bound(GuardRule::IdentityLocked) && installed.bound(GuardRule::IdentityKept));
        assert_eq!(installed.half_installed(), ["identity-locked (a policy, no binding)"]);
        assert_eq!(installed.uncovered(&[vpc()])[0].1, [GuardRule::IdentityLocked]);
        // A binding made by hand, under another name, for the guard's policy counts.
        let mine = json!({"metadata": {"name": "my-own"}, "spec": {"policyName": GuardRule::IdentityLocked.policy_name(),
            "validationActions": ["Audit"]}});
        bindings.push(mine);
        installed = Installed::of(&policies, &bindings);
        assert!(installed.uncovered(&[vpc()]).is_empty());
        assert_eq!(installed.actions(GuardRule::IdentityLocked), ["Audit"]);
        // Someone else's objects are not the guard's.
        let other = json!({"metadata": {"name": "team-policy"}, "spec": {"policyName": "team-policy"}});
        assert_eq!(Installed::of(std::slice::from_ref(&other), std::slice::from_ref(&other)), Installed::default());
        assert!(!Installed::default().any_bound());
    }

    #[test]
    fn matching_follows_the_api_servers_resource_rules() {
        let policy = |rules: Value, excluded: Value| {
            json!({"metadata": {"name": GuardRule::IdentityKept.policy_name()},
                "spec": {"matchConstraints": {"resourceRules": rules, "excludeResourceRules": excluded}}})
        };
        let binding = |narrows: Option<Value>| {
            let mut b =
                json!({"spec": {"policyName": GuardRule::IdentityKept.policy_name(), "validationActions": ["Deny"]}});
            if let Some(n) = narrows {
                b["spec"]["matchResources"] = n;
            }
            b
        };
        let rule = |g: &str, r: &str, scope: &str| json!({"apiGroups": [g], "resources": [r], "scope": scope});
        let cases: Vec<(&str, Value, Value, Option<Value>, GuardKind, bool)> = vec![
            ("by name", json!([rule("ec2.aws.upbound.io", "vpcs", "Cluster")]), json!([]), None, vpc(), true),
            ("wrong scope", json!([rule("ec2.aws.upbound.io", "vpcs", "Namespaced")]), json!([]), None, vpc(), false),
            ("any scope", json!([rule("ec2.aws.m.upbound.io", "vpcs", "*")]), json!([]), None, twin(), true),
            ("no scope is any", json!([{"apiGroups": ["*"], "resources": ["*"]}]), json!([]), None, bucket(), true),
            ("subresources only", json!([rule("*", "vpcs/*", "*")]), json!([]), None, vpc(), false),
            ("everything", json!([rule("*", "*/*", "*")]), json!([]), None, vpc(), true),
            (
                "excluded",
                json!([rule("*", "*", "*")]),
                json!([rule("s3.aws.upbound.io", "*", "*")]),
                None,
                bucket(),
                false,
            ),
            (
                "a binding narrowing it",
                json!([rule("*", "*", "*")]),
                json!([]),
                Some(json!({"resourceRules": [rule("ec2.aws.upbound.io", "*", "*")]})),
                bucket(),
                false,
            ),
            ("a binding without resource rules", json!([rule("*", "*", "*")]), json!([]), Some(json!({})), vpc(), true),
        ];
        for (name, rules, excluded, narrows, kind, judged) in cases {
            let installed = Installed::of(&[policy(rules, excluded)], &[binding(narrows)]);
            assert_eq!(installed.judges(GuardRule::IdentityKept, &kind), judged, "{name}");
        }
    }
}
