//! `guard --authorize-declarations` end to end: the in-process API server enforces RBAC and
//! admits every write of an MR through the guard's identity-kept policy as printed, evaluated as
//! the API server evaluates it (`support::guard_cel`), its `authorizer` answering from the RBAC
//! objects the server holds. `adopt` run by a user bound to the adopt role alone is refused when
//! it writes the new ID, and the refusal names the permission, the role and the binding; once
//! the shipped `kubectl-upjet-guard-declare` role is bound, the same repair goes through.

use crate::rbac::{bind, deploy, install_roles};
use crate::support::adopt::{EXT, Provider, RS, provider};
use crate::support::guard_cel::{Compiled, Outcome, Params, Request};
use crate::support::{Cluster, Mr, Upjet};
use serde_json::json;
use std::sync::Arc;
use testapi::Denial;
use upjet_core::guard::build;
use upjet_core::guard::kind::GuardKind;
use upjet_core::guard::lock::crd::GROUP;
use upjet_core::guard::rule::GuardRule;
use upjet_core::guard::settings::GuardSettings;
use upjet_core::guard::vars::{DECLARE_RESOURCE, DECLARE_ROLE, DECLARE_VERB};

/// The guard's identity-kept policy, printed with `--authorize-declarations`, as the server's
/// admission: a write it denies is refused with the API server's wording.
fn admit_through_the_guard(c: &Cluster) {
    let kinds = [GuardKind::new("dns.gcp.upbound.io", "RecordSet", "recordsets", false)];
    let settings = GuardSettings { authorize_declarations: true, ..GuardSettings::default() };
    let set = build(&kinds, &settings, &[]);
    let printed = set.validating.iter().find(|p| p.rule == GuardRule::IdentityKept).expect("identity-kept");
    let (policy, binding) = (Arc::new(Compiled::new(&printed.policy)), printed.binding.clone());
    let name = printed.rule.policy_name();
    let api = c.api.clone();
    c.api.on_admit(move |req| {
        let user = req.user?;
        let base = match (req.operation, req.old_object) {
            ("UPDATE", Some(old)) => Request::update(old.clone(), req.object.clone(), req.resource),
            _ => Request::create(req.object.clone(), req.resource),
        };
        let groups: Vec<&str> = user.groups.iter().map(String::as_str).collect();
        let mut r = base.by(&user.name, &groups);
        // CEL's authorizer asks the server's own RBAC, as a SubjectAccessReview would.
        if api.allows(user, DECLARE_VERB, GROUP, DECLARE_RESOURCE, req.namespace) {
            r = r.granted(DECLARE_VERB, GROUP, DECLARE_RESOURCE, req.namespace);
        }
        match policy.validate(&binding, &Params::new(&[]), &r) {
            Outcome::Failed { actions, message, reason, .. } if actions.iter().any(|a| a == "Deny") => Some(Denial {
                code: if reason == "Forbidden" { 403 } else { 422 },
                message: format!(
                    "{}.{} {:?} is forbidden: ValidatingAdmissionPolicy '{name}' with binding '{name}' denied request: {message}",
                    req.resource,
                    req.group,
                    req.object["metadata"]["name"].as_str().unwrap_or_default()
                ),
                reason,
            }),
            _ => None,
        }
    });
}

fn cluster() -> Cluster {
    let c = Cluster::builder().crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml"]).start();
    for name in ["www", "api"] {
        c.add(Mr::provisioned(RS, "RecordSet", name).json());
    }
    let view = json!([{"apiGroups": ["dns.gcp.upbound.io"], "resources": ["recordsets", "recordsets/status"], "verbs": ["get", "list", "watch"]}]);
    install_roles(&c, view, &["clusterrole-doctor.yaml", "clusterrole-adopt.yaml", "clusterrole-guard-declare.yaml"]);
    bind(&c, "operator", "kubectl-upjet-adopt");
    provider(
        &c.api,
        Provider { cloud: ["www", "www-B", "api", "api-B"].map(String::from).to_vec(), handles_token: true },
    );
    admit_through_the_guard(&c);
    c
}

/// `adopt` of the RecordSet `name` to `id`, as the user `operator`.
fn adopt(c: &Cluster, name: &str, id: &str) -> Upjet {
    let mut cmd = c.upjet();
    cmd.env("KUBECONFIG", c.dir().join("operator.kubeconfig"));
    let target = format!("recordset.dns.gcp.upbound.io/{name}");
    cmd.args(["adopt", &target, "--id", id, "--yes", "--timeout", "30s"]).arg("--backup-dir").arg(c.dir().join("b"));
    cmd
}

fn external_name(c: &Cluster, name: &str) -> String {
    let obj = c.api.get(RS, "RecordSet", None, name).expect("stored");
    obj["metadata"]["annotations"][EXT].as_str().unwrap_or_default().to_string()
}

#[test]
fn a_repair_by_a_user_not_allowed_to_declare_is_refused_naming_the_permission_and_passes_once_bound() {
    let c = cluster();
    // Refused: a refused write.
    let o = adopt(&c, "www", "www-B")
        .status(5)
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-B\"")
        .stderr_contains("      the object changed meanwhile (status only); retrying on resourceVersion 1018")
        .run();
    let err = &o.stderr;
    for part in [
        "ValidatingAdmissionPolicy 'kubectl-upjet-guard-identity-kept'",
        "operator is not: missing permission: declare on identitychanges (guard.kubectl-upjet.io)",
        &format!("the ClusterRole {DECLARE_ROLE} (deploy/clusterrole-guard-declare.yaml) grants it"),
        "kubectl create clusterrolebinding kubectl-upjet-guard-declare --clusterrole=kubectl-upjet-guard-declare --user=operator",
    ] {
        assert!(err.contains(part), "{part:?} not in: {err}");
    }
    assert!(!err.contains("RBAC does not allow"), "an admission refusal is not an RBAC denial: {err}");
    assert_eq!(external_name(&c, "www"), "www", "the identity is kept");

    // The shipped role, bound as the refusal says: the same repair goes through.
    assert_eq!(deploy("clusterrole-guard-declare.yaml")[0]["metadata"]["name"], DECLARE_ROLE);
    c.add(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
        "metadata": {"name": DECLARE_ROLE},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": DECLARE_ROLE},
        "subjects": [{"kind": "User", "name": "operator", "apiGroup": "rbac.authorization.k8s.io"}]}));
    adopt(&c, "api", "api-B")
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/api as ID \"api-B\"")
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/api: external-name \"api-B\"")
        .run();
    assert_eq!(external_name(&c, "api"), "api-B");
}
