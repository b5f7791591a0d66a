//! The ClusterRoles shipped under deploy/ parse, use no wildcard, never reach Secrets, ConfigMaps
//! or RBAC objects, and aggregate what each command needs (tests/it/rbac.rs proves them against an
//! RBAC-enforcing API server); the in-cluster watch of deploy/watch/ runs as its Deployment says,
//! under the role its binding names.

use crate::rbac::install_roles;
use crate::support::Cluster;
use crate::watch::{BUCKET, Watch, bucket, journal_ids};
use serde_json::{Value, json};

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
        "clusterrole-guard-lock.yaml",
        "clusterrole-guard-declare.yaml",
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
    for needed in [
        "pods",
        "pods/log",
        "deployments",
        "events",
        "providerrevisions",
        "customresourcedefinitions",
        "validatingadmissionpolicies",
        "validatingadmissionpolicybindings",
        "identitylocks",
    ] {
        assert!(resources.contains(&needed), "doctor needs {needed}");
    }
}

/// The guard's lock is written under a role of its own, beside the doctor role: create, update
/// and patch on identitylocks, nothing else (no delete, no read: the doctor role reads).
#[test]
fn the_guard_lock_role_writes_the_lock_and_nothing_else() {
    let docs = docs("clusterrole-guard-lock.yaml");
    assert_eq!((docs.len(), &docs[0]["metadata"]["name"]), (1, &json!("kubectl-upjet-guard-lock")));
    assert!(docs[0].get("aggregationRule").is_none(), "bound beside the doctor role, it aggregates nothing");
    let r = rules(&docs);
    assert_eq!(r.len(), 1);
    assert_eq!(
        (strings(&r[0]["apiGroups"]), strings(&r[0]["resources"]), strings(&r[0]["verbs"])),
        (vec!["guard.kubectl-upjet.io"], vec!["identitylocks"], vec!["create", "update", "patch"])
    );
}

/// `guard --authorize-declarations` counts a repair's declaration only for a user allowed
/// `declare` on identitychanges of the guard's group: its role grants that and nothing else, and
/// it is the verb, resource and group the printed policies ask the authorizer about.
#[test]
fn the_guard_declare_role_grants_the_permission_the_policies_check_and_nothing_else() {
    use upjet_core::guard::vars::{DECLARE_RESOURCE, DECLARE_ROLE, DECLARE_VERB};
    let docs = docs("clusterrole-guard-declare.yaml");
    assert_eq!((docs.len(), docs[0]["metadata"]["name"].as_str()), (1, Some(DECLARE_ROLE)));
    assert!(docs[0].get("aggregationRule").is_none());
    let r = rules(&docs);
    assert_eq!(r.len(), 1);
    assert_eq!(
        (strings(&r[0]["apiGroups"]), strings(&r[0]["resources"]), strings(&r[0]["verbs"])),
        (vec![upjet_core::guard::lock::crd::GROUP], vec![DECLARE_RESOURCE], vec![DECLARE_VERB])
    );
    let role = upjet_cluster::permission::Role::GuardDeclare;
    assert_eq!((role.name(), role.file()), (DECLARE_ROLE, "deploy/clusterrole-guard-declare.yaml"));
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

/// deploy/watch/watch.yaml holds together (the ServiceAccount bound to the doctor role, the port
/// the arguments serve on named by the probes, the Service and the ServiceMonitor), and the
/// container's arguments, run as the pod runs them — against an API server that enforces RBAC,
/// as the binding's ServiceAccount, the metrics on a free port instead of :9090 and the journal
/// under a scratch folder instead of the emptyDir — judge the MRs (`-o json` lines), answer both
/// probes and the scrape, journal the IDs, and end with exit 0 on SIGTERM, as a pod is stopped.
#[test]
fn the_watch_deployment_runs_its_arguments_under_the_role_it_is_bound_to() {
    let docs = docs("watch/watch.yaml");
    let of = |kind: &str| docs.iter().find(|d| d["kind"] == kind).unwrap_or_else(|| panic!("no {kind}"));
    let (account, binding) = (of("ServiceAccount"), of("ClusterRoleBinding"));
    assert_eq!(binding["roleRef"]["name"], "kubectl-upjet-doctor");
    assert_eq!(binding["subjects"][0]["kind"], "ServiceAccount");
    assert_eq!(binding["subjects"][0]["name"], account["metadata"]["name"]);
    assert_eq!(binding["subjects"][0]["namespace"], account["metadata"]["namespace"]);
    let pod = &of("Deployment")["spec"]["template"]["spec"];
    assert_eq!(pod["serviceAccountName"], account["metadata"]["name"]);
    let container = &pod["containers"][0];
    let args: Vec<&str> = container["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(
        args,
        ["watch", "-A", "-o", "json", "--metrics-addr", ":9090", "--journal", "/var/lib/kubectl-upjet/journal"]
    );
    assert_eq!(
        (&container["ports"][0]["name"], &container["ports"][0]["containerPort"]),
        (&json!("metrics"), &json!(9090))
    );
    let (ready, live) = (&container["readinessProbe"]["httpGet"], &container["livenessProbe"]["httpGet"]);
    assert_eq!((&ready["port"], &live["port"]), (&json!("metrics"), &json!("metrics")));
    let service = &of("Service")["spec"]["ports"][0];
    assert_eq!((&service["port"], &service["targetPort"]), (&json!(9090), &json!("metrics")));
    let scrape = &of("ServiceMonitor")["spec"]["endpoints"][0];
    assert_eq!(scrape["port"], "metrics");

    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    cluster.add(bucket("healthy").json());
    cluster.add(bucket("stuck").create_incomplete().json());
    let view =
        json!([{"apiGroups": ["s3.aws.upbound.io"], "resources": ["buckets"], "verbs": ["get", "list", "watch"]}]);
    install_roles(&cluster, view, &["clusterrole-doctor.yaml"]);
    cluster.add(binding.clone());
    let user = format!(
        "system:serviceaccount:{}:{}",
        account["metadata"]["namespace"].as_str().unwrap(),
        account["metadata"]["name"].as_str().unwrap()
    );
    cluster.api.add_user("watch-pod-token", &user, &[]);
    let kubeconfig = cluster.dir().join("watch-pod.kubeconfig");
    std::fs::write(&kubeconfig, cluster.server.kubeconfig_with_token(None, "watch-pod-token")).unwrap();
    let journal = cluster.dir().join("journal");
    let local: Vec<&str> = args
        .iter()
        .map(|a| match *a {
            ":9090" => "127.0.0.1:0",
            "/var/lib/kubectl-upjet/journal" => journal.to_str().unwrap(),
            other => other,
        })
        .collect();
    let mut w = Watch::exactly(cluster.upjet().env("KUBECONFIG", &kubeconfig), &local);
    w.wait_ready();
    for probe in [ready, live] {
        assert_eq!(w.get(probe["path"].as_str().unwrap()).0, 200, "{probe}");
    }
    let appeared = w.event_until(|e| e["event"] == "appeared" && e["name"] == "stuck");
    assert_eq!((appeared["code"].as_str(), appeared["severity"].as_str()), (Some("CreateIncomplete"), Some("error")));
    w.metrics_until(|b| b.contains("upjet_watch_synced 1"));
    let (status, body) = w.get(scrape["path"].as_str().unwrap());
    assert_eq!(status, 200);
    assert!(body.contains("upjet_managed_resources{group=\"s3.aws.upbound.io\",kind=\"Bucket\"} 2"), "{body}");
    assert_eq!(w.terminate().code(), Some(0), "SIGTERM, as Kubernetes stops a pod, ends the watch with exit 0");
    let ids = journal_ids(&journal);
    assert!(ids.contains(&("healthy".into(), "external-name".into(), "healthy".into())), "{ids:?}");
}
