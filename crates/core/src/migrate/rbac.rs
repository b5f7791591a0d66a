//! The ClusterRole that adds what `migrate` writes beyond adopt's `patch`: `create` and
//! `delete` on the namespaced managed kinds (step b; step f deletes a twin whose Observe found
//! nothing) and `delete` on the legacy ones (step e). Listed kind by kind, like the other roles
//! of [`crate::rbac`], and aggregated into `kubectl-upjet-migrate` by its label.

use crate::rbac::ManagedKind;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The label that pulls a role into `kubectl-upjet-migrate`.
pub(crate) const AGGREGATE_TO_MIGRATE: &str = "kubectl-upjet.io/aggregate-to-migrate";

/// The migrate role for the served managed kinds, each with whether it is namespaced.
pub fn migrate_role(kinds: &[(ManagedKind, bool)]) -> Value {
    let mut by_rule: BTreeMap<(bool, &str), Vec<&str>> = BTreeMap::new();
    for (k, namespaced) in kinds {
        by_rule.entry((*namespaced, &k.group)).or_default().push(&k.plural);
    }
    let rules: Vec<Value> = by_rule
        .into_iter()
        .map(|((namespaced, group), mut plurals)| {
            plurals.sort_unstable();
            plurals.dedup();
            let verbs = if namespaced { json!(["create", "delete"]) } else { json!(["delete"]) };
            json!({"apiGroups": [group], "resources": plurals, "verbs": verbs})
        })
        .collect();
    json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {
            "name": "kubectl-upjet-managed-migrate",
            "labels": {"app.kubernetes.io/name": "kubectl-upjet", AGGREGATE_TO_MIGRATE: "true"},
            "annotations": {"kubectl-upjet.io/grants": "create and delete on the namespaced managed kinds, delete on the legacy ones, as this cluster served them when the role was generated"},
        },
        "rules": rules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_only_on_namespaced_kinds_delete_on_both() {
        let k = |g: &str, p: &str| ManagedKind { group: g.into(), plural: p.into() };
        let role = migrate_role(&[
            (k("ec2.aws.upbound.io", "subnets"), false),
            (k("ec2.aws.m.upbound.io", "vpcs"), true),
            (k("ec2.aws.m.upbound.io", "subnets"), true),
        ]);
        assert_eq!(
            role["rules"],
            json!([
                {"apiGroups": ["ec2.aws.upbound.io"], "resources": ["subnets"], "verbs": ["delete"]},
                {"apiGroups": ["ec2.aws.m.upbound.io"], "resources": ["subnets", "vpcs"], "verbs": ["create", "delete"]}
            ])
        );
    }
}
