//! `migrate plan` and `migrate apply` under exactly the shipped roles, with real RBAC semantics
//! (the in-process API server's authorizer): deploy/clusterrole-migrate.yaml, the doctor and
//! adopt roles it aggregates, the per-kind roles `kubectl upjet rbac` generates and the read role
//! Crossplane's RBAC manager makes per provider. With them the migration succeeds; with the
//! generated create rule removed, it fails and names the role to bind.

use crate::migrate::{CLOUD, cluster, migrated, never_two_acting};
use crate::rbac::{bind, install_roles};
use crate::support::NO_GUARD;
use crate::support::{Cluster, Upjet};
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

/// The binary with `args`, from the cluster's folder, as the user `migrator`.
fn as_migrator(c: &Cluster, args: &[&str]) -> Upjet {
    let mut cmd = c.upjet();
    cmd.current_dir(c.dir()).env("KUBECONFIG", c.dir().join("migrator.kubeconfig")).args(args);
    cmd
}

const PLAN: &[&str] = &["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "plan.json"];
const APPLY: &[&str] = &["migrate", "apply", "-f", "plan.json", "--yes", "--timeout", "20s", "--backup-dir", "b"];

#[test]
fn migrate_works_under_exactly_the_migrate_role() {
    let (c, deletes) = rbac_cluster();
    as_migrator(&c, PLAN).run();
    let o = as_migrator(&c, APPLY)
        .stderr_contains("vpc.ec2.aws.m.upbound.io/main -n infra: its Observe found \"vpc-main\"")
        .stderr_contains("subnet.ec2.aws.m.upbound.io/private-a -n infra: its Observe found \"subnet-private-a\"")
        .run();
    assert!(migrated(&c), "{}", o.stdout);
    assert!(deletes.lock().unwrap().is_empty());
    as_migrator(&c, &["migrate", "status", "-f", "plan.json"]).stdout_contains("3 done of 3 in the plan").run();
}

#[test]
fn a_rule_removed_from_the_role_fails_and_names_it() {
    let (c, deletes) = rbac_cluster();
    as_migrator(&c, PLAN).run();
    // The generated role without its create rules on the namespaced kinds.
    c.api.modify("rbac.authorization.k8s.io/v1", "ClusterRole", None, "kubectl-upjet-managed-migrate", |r| {
        for rule in r["rules"].as_array_mut().unwrap() {
            rule["verbs"] = json!(["delete"]);
        }
    });
    // A refused write.
    let o = as_migrator(&c, APPLY).status(5).stderr_contains("certificate.acm.aws.upbound.io/www: backup").run();
    let out = &o.stdout;
    assert!(out.contains("missing permission: create on subnets (ec2.aws.m.upbound.io) in namespace infra"), "{out}");
    assert!(out.contains("the ClusterRole kubectl-upjet-migrate (deploy/clusterrole-migrate.yaml) grants it"), "{out}");
    never_two_acting(&c, "after the denied create");
    assert!(deletes.lock().unwrap().is_empty());
}

/// A namespaced twin kind whose ManagedResourceDefinition is inactive, under RBAC: the migrate
/// role may list MRDs (through the doctor role's base rules), so `migrate plan` names the MRD and
/// the command that activates it instead of falling back to "not installed"; the doctor role
/// alone counts the inactive MRDs on doctor's scan line.
#[test]
fn the_activation_hint_works_under_the_shipped_roles() {
    let c = Cluster::builder()
        .crd_files("provider-upjet-aws", &["ec2.aws.upbound.io_vpcs.yaml"])
        .crd_files("crossplane", &["apiextensions.crossplane.io_managedresourcedefinitions.yaml"])
        .start();
    c.add(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "infra"}}));
    c.add(crate::migrate::vpc("main"));
    crate::crossplane_v2::mrd(&c, "vpcs", "ec2.aws.m.upbound.io", "VPC", "Inactive");
    crate::crossplane_v2::mrd(&c, "vpcs", "ec2.aws.upbound.io", "VPC", "Active");
    let view = json!([{"apiGroups": ["ec2.aws.upbound.io"], "resources": ["*"], "verbs": ["get", "list", "watch"]}]);
    install_roles(&c, view, &["clusterrole-doctor.yaml", "clusterrole-adopt.yaml", "clusterrole-migrate.yaml"]);
    bind(&c, "migrator", "kubectl-upjet-migrate");
    bind(&c, "viewer", "kubectl-upjet-doctor");

    let o =
        as_migrator(&c, &["migrate", "plan", "--all", "--to-namespace", "infra", "-o", "plan.json"]).status(5).run();
    let out = &o.stdout;
    let activate = "its ManagedResourceDefinition vpcs.ec2.aws.m.upbound.io is inactive; activate it (kubectl patch managedresourcedefinition vpcs.ec2.aws.m.upbound.io --type merge -p '{\"spec\":{\"state\":\"Active\"}}'";
    assert!(out.contains(activate), "{out}");
    assert!(!out.contains("is not installed"), "{out}");

    let o = c
        .upjet()
        .env("KUBECONFIG", c.dir().join("viewer.kubeconfig"))
        .args(["doctor", "-o", "json", "--fail-on", "never"])
        .stderr(format!("1 of 2 ManagedResourceDefinitions are inactive: no CRD is served for their kinds until activated (spec.state Active, or a ManagedResourceActivationPolicy)\n{NO_GUARD}\ncomposition tree not read: not allowed to list CompositeResourceDefinitions\n1 kinds scanned, 1 managed resources, 0 errors, 0 warnings, 0 info\n")).run();
    let err = &o.stderr;
    assert!(err.contains("1 of 2 ManagedResourceDefinitions are inactive") && !err.contains("forbidden"), "{err}");
}
