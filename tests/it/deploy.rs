//! The ClusterRoles shipped under deploy/ parse, use no wildcard, never reach Secrets, ConfigMaps
//! or RBAC objects, and aggregate what each command needs (tests/it/rbac.rs proves them against an
//! RBAC-enforcing API server).

use serde_json::Value;

fn docs(file: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy").join(file);
    std::fs::read_to_string(path).unwrap().split("\n---\n").map(|d| serde_saphyr::from_str(d).unwrap()).collect()
}

fn rules(docs: &[Value]) -> Vec<&Value> {
    docs.iter().flat_map(|d| d["rules"].as_array().into_iter().flatten()).collect()
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

fn selectors(doc: &Value) -> Vec<String> {
    doc["aggregationRule"]["clusterRoleSelectors"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| {
            s["matchLabels"].as_object().into_iter().flatten().map(|(k, v)| format!("{k}={}", v.as_str().unwrap()))
        })
        .collect()
}

#[test]
fn every_role_is_a_cluster_role_without_wildcards_or_secrets() {
    for file in [
        "clusterrole-doctor.yaml",
        "clusterrole-adopt.yaml",
        "clusterrole-workspace.yaml",
        "clusterrole-migrate.yaml",
        "clusterrole-watch-events.yaml",
    ] {
        let docs = docs(file);
        for d in &docs {
            assert_eq!(
                (d["apiVersion"].as_str(), d["kind"].as_str()),
                (Some("rbac.authorization.k8s.io/v1"), Some("ClusterRole"))
            );
        }
        for r in rules(&docs) {
            for field in ["apiGroups", "resources", "verbs"] {
                assert!(!strings(&r[field]).contains(&"*"), "{file}: wildcard in {field}: {r}");
            }
            for forbidden in ["secrets", "configmaps", "clusterroles", "clusterrolebindings", "roles", "rolebindings"] {
                assert!(!strings(&r["resources"]).contains(&forbidden), "{file} grants {forbidden}");
            }
            assert!(!strings(&r["apiGroups"]).contains(&"rbac.authorization.k8s.io"), "{file} reaches RBAC");
        }
    }
}

#[test]
fn doctor_role_is_read_only_and_aggregates_the_managed_kinds() {
    let docs = docs("clusterrole-doctor.yaml");
    assert_eq!(docs[0]["metadata"]["name"], "kubectl-upjet-doctor");
    assert_eq!(
        selectors(&docs[0]),
        ["rbac.crossplane.io/aggregate-to-view=true", "kubectl-upjet.io/aggregate-to-doctor=true"]
    );
    assert_eq!(docs[1]["metadata"]["labels"]["kubectl-upjet.io/aggregate-to-doctor"], "true");
    for r in rules(&docs) {
        for verb in strings(&r["verbs"]) {
            assert!(["get", "list", "watch"].contains(&verb), "doctor role must be read-only: {verb}");
        }
    }
    let resources: Vec<&str> = rules(&docs).iter().flat_map(|r| strings(&r["resources"])).collect();
    for needed in ["pods", "pods/log", "events", "providerrevisions", "customresourcedefinitions"] {
        assert!(resources.contains(&needed), "doctor needs {needed}");
    }
}

#[test]
fn adopt_role_adds_only_the_generated_patch_role_and_exec_is_separate() {
    let adopt = docs("clusterrole-adopt.yaml");
    assert_eq!(
        selectors(&adopt[0]),
        [
            "rbac.crossplane.io/aggregate-to-view=true",
            "kubectl-upjet.io/aggregate-to-doctor=true",
            "kubectl-upjet.io/aggregate-to-adopt=true"
        ]
    );
    assert!(rules(&adopt).is_empty(), "its rules come from aggregation only");
    let workspace = docs("clusterrole-workspace.yaml");
    let r = rules(&workspace);
    assert_eq!(r.len(), 1);
    assert_eq!((strings(&r[0]["resources"]), strings(&r[0]["verbs"])), (vec!["pods/exec"], vec!["create"]));
}
