//! `migrate plan` and `migrate apply` under exactly the shipped roles, with real RBAC semantics
//! (the in-process API server's authorizer): deploy/clusterrole-migrate.yaml, the doctor and
//! adopt roles it aggregates, the per-kind roles `kubectl upjet rbac` generates and the read role
//! Crossplane's RBAC manager makes per provider. With them the migration succeeds; with the
//! generated create rule removed, it fails and names the role to bind.

use crate::migrate::{CLOUD, cluster, migrated, never_two_acting};
use crate::rbac::{bind, install_roles};
use crate::support::{Cluster, text};
use serde_json::json;

/// The migrate cluster with RBAC on and `migrator` bound to `kubectl-upjet-migrate` only.
fn rbac_cluster() -> (Cluster, crate::migrate::CloudDeletes) {
    let (c, deletes) = cluster(CLOUD);
    // Crossplane's RBAC manager: read on each provider's kinds, both scopes.
    let groups = ["ec2.aws.upbound.io", "ec2.aws.m.upbound.io", "acm.aws.upbound.io", "acm.aws.m.upbound.io"];
    let rules: Vec<_> = groups
        .iter()
        .map(|g| json!({"apiGroups": [g], "resources": ["*"], "verbs": ["get", "list", "watch"]}))
        .collect();
    install_roles(&c, json!(rules), &["clusterrole-doctor.yaml", "clusterrole-adopt.yaml", "clusterrole-migrate.yaml"]);
    bind(&c, "migrator", "kubectl-upjet-migrate");
    (c, deletes)
}

fn as_migrator(c: &Cluster, args: &[&str]) -> std::process::Output {
    c.upjet().current_dir(c.dir()).env("KUBECONFIG", c.dir().join("migrator.kubeconfig")).args(args).output()
}

const PLAN: &[&str] = &["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "plan.json"];
const APPLY: &[&str] = &["migrate", "apply", "-f", "plan.json", "--yes", "--timeout", "20s", "--backup-dir", "b"];

#[test]
fn migrate_works_under_exactly_the_migrate_role() {
    let (c, deletes) = rbac_cluster();
    let o = as_migrator(&c, PLAN);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", text(&o.stdout), text(&o.stderr));
    let o = as_migrator(&c, APPLY);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", text(&o.stdout), text(&o.stderr));
    assert!(migrated(&c), "{}", text(&o.stdout));
    assert!(deletes.lock().unwrap().is_empty());
    let o = as_migrator(&c, &["migrate", "status", "-f", "plan.json"]);
    assert!(text(&o.stdout).contains("3 done of 3 in the plan"), "{}\n{}", text(&o.stdout), text(&o.stderr));
}

#[test]
fn a_rule_removed_from_the_role_fails_and_names_it() {
    let (c, deletes) = rbac_cluster();
    let o = as_migrator(&c, PLAN);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", text(&o.stdout), text(&o.stderr));
    // The generated role without its create rules on the namespaced kinds.
    c.api.modify("rbac.authorization.k8s.io/v1", "ClusterRole", None, "kubectl-upjet-managed-migrate", |r| {
        for rule in r["rules"].as_array_mut().unwrap() {
            rule["verbs"] = json!(["delete"]);
        }
    });
    let o = as_migrator(&c, APPLY);
    let out = text(&o.stdout);
    assert_ne!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("missing permission: create on subnets (ec2.aws.m.upbound.io) in namespace infra"), "{out}");
    assert!(out.contains("the ClusterRole kubectl-upjet-migrate (deploy/clusterrole-migrate.yaml) grants it"), "{out}");
    never_two_acting(&c, "after the denied create");
    assert!(deletes.lock().unwrap().is_empty());
}
