//! The least-privilege ClusterRoles for the managed kinds a cluster serves: `kubectl upjet rbac`
//! prints them, and the roles under `deploy/` aggregate them by label.
//!
//! RBAC has no wildcard for "every managed resource", and a group wildcard (`*`) reaches Secrets,
//! RBAC and everything else. Crossplane's RBAC manager grants read access per provider
//! (`crossplane:provider:<revision>:aggregate-to-view`, label
//! `rbac.crossplane.io/aggregate-to-view`), but its write roles grant every verb on every CRD of a
//! provider, ProviderConfigs included. So the write access adopt needs — `patch` on managed kinds
//! and nothing else — is listed kind by kind, from what discovery says is in the `managed`
//! category; the read role is listed the same way for clusters that run without the RBAC manager.

use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The label that pulls a role into `kubectl-upjet-doctor` (and `kubectl-upjet-adopt`).
pub(crate) const AGGREGATE_TO_DOCTOR: &str = "kubectl-upjet.io/aggregate-to-doctor";
/// The label that pulls a role into `kubectl-upjet-adopt`.
pub(crate) const AGGREGATE_TO_ADOPT: &str = "kubectl-upjet.io/aggregate-to-adopt";

/// One served managed kind: its API group and plural resource name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ManagedKind {
    /// API group, e.g. `dns.gcp.upbound.io`.
    pub group: String,
    /// Plural, e.g. `recordsets`.
    pub plural: String,
}

/// The two roles for `kinds`: read (get/list/watch) and patch, each labelled for aggregation,
/// one rule per API group with its plurals sorted, so the output is stable and diffable.
pub fn managed_roles(kinds: &[ManagedKind]) -> Vec<Value> {
    let mut by_group: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for k in kinds {
        by_group.entry(&k.group).or_default().push(&k.plural);
    }
    let rules = |verbs: &[&str]| -> Vec<Value> {
        by_group
            .iter()
            .map(|(group, plurals)| {
                let mut plurals = plurals.clone();
                plurals.sort_unstable();
                plurals.dedup();
                json!({"apiGroups": [group], "resources": plurals, "verbs": verbs})
            })
            .collect()
    };
    let role = |name: &str, label: &str, what: &str, verbs: &[&str]| {
        json!({
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRole",
            "metadata": {
                "name": name,
                "labels": {"app.kubernetes.io/name": "kubectl-upjet", label: "true"},
                "annotations": {"kubectl-upjet.io/grants": what},
            },
            "rules": rules(verbs),
        })
    };
    vec![
        role(
            "kubectl-upjet-managed-read",
            AGGREGATE_TO_DOCTOR,
            "get, list and watch on the managed kinds this cluster served when the role was generated",
            &["get", "list", "watch"],
        ),
        role(
            "kubectl-upjet-managed-patch",
            AGGREGATE_TO_ADOPT,
            "patch on the managed kinds this cluster served when the role was generated, nothing else",
            &["patch"],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_per_group_read_and_patch_only() {
        let k = |g: &str, p: &str| ManagedKind { group: g.into(), plural: p.into() };
        let roles = managed_roles(&[
            k("ec2.aws.upbound.io", "vpcs"),
            k("dns.gcp.upbound.io", "recordsets"),
            k("ec2.aws.upbound.io", "subnets"),
        ]);
        assert_eq!(roles.len(), 2);
        assert_eq!(
            roles[0]["rules"],
            json!([
                {"apiGroups": ["dns.gcp.upbound.io"], "resources": ["recordsets"], "verbs": ["get", "list", "watch"]},
                {"apiGroups": ["ec2.aws.upbound.io"], "resources": ["subnets", "vpcs"], "verbs": ["get", "list", "watch"]}
            ])
        );
        assert_eq!(roles[1]["metadata"]["labels"][AGGREGATE_TO_ADOPT], "true");
        for rule in roles[1]["rules"].as_array().unwrap() {
            assert_eq!(rule["verbs"], json!(["patch"]));
            assert!(!rule["apiGroups"].as_array().unwrap().iter().any(|g| g == "*" || g == ""), "no wildcard, no core");
        }
    }
}
