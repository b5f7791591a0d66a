//! The ClusterRoles shipped under deploy/ parse and grant what each command needs.

use serde_json::Value;

fn role(file: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy").join(file);
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn grants(role: &Value, group: &str, resource: &str, verb: &str) -> bool {
    role["rules"].as_array().unwrap().iter().any(|r| {
        let has = |k: &str, v: &str| r[k].as_array().is_some_and(|a| a.iter().any(|x| x == v || x == "*"));
        has("apiGroups", group) && has("resources", resource) && has("verbs", verb)
    })
}

#[test]
fn doctor_role_is_read_only_and_sufficient() {
    let r = role("clusterrole-doctor.yaml");
    assert_eq!(
        (r["apiVersion"].as_str(), r["kind"].as_str()),
        (Some("rbac.authorization.k8s.io/v1"), Some("ClusterRole"))
    );
    assert!(grants(&r, "dns.gcp.upbound.io", "recordsets", "list"));
    assert!(grants(&r, "ec2.aws.m.upbound.io", "vpcs", "get"));
    assert!(grants(&r, "", "pods/log", "get"));
    for rule in r["rules"].as_array().unwrap() {
        for verb in rule["verbs"].as_array().unwrap() {
            assert!(
                ["get", "list", "watch"].contains(&verb.as_str().unwrap()),
                "doctor role must be read-only: {verb}"
            );
        }
    }
}

#[test]
fn adopt_role_can_patch() {
    let r = role("clusterrole-adopt.yaml");
    assert!(grants(&r, "route53.aws.upbound.io", "records", "patch"));
    assert!(grants(&r, "", "pods/exec", "create"));
}
