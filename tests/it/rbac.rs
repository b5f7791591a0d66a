//! The shipped roles under real RBAC semantics: the in-process API server authorizes every request
//! as the apiserver's RBAC authorizer would (bindings, aggregated ClusterRoles, 403 messages), the
//! roles in deploy/ are applied as they are, the per-kind roles come from `kubectl upjet rbac`
//! itself, and Crossplane's RBAC manager is simulated by the read role it makes per provider
//! revision (crossplane `internal/controller/rbac/provider/roles/roles.go`). doctor, history and
//! adopt work under them; Secrets, RBAC objects and other kinds are denied; every 403 names the
//! missing permission and the role to bind.

use crate::support::NO_GUARD;
use crate::support::adopt::*;
use crate::support::{Cluster, Mr, Upjet};
use serde_json::{Value, json};

const PROVIDER_NS: &str = "crossplane-system";

/// Every document of a multi-document YAML file under deploy/.
pub(crate) fn deploy(file: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy").join(file);
    let text = std::fs::read_to_string(path).unwrap();
    text.split("\n---\n").map(|doc| serde_saphyr::from_str::<Value>(doc).unwrap()).collect()
}

/// A cluster with RBAC on: a healthy and a stuck RecordSet, a provider pod with a debug log, a
/// Secret and a ConfigMap beside it, the RBAC manager's read role, the deploy/ roles, and the
/// roles `kubectl upjet rbac` generates; `viewer` is bound to the doctor role, `operator` to the
/// adopt role.
fn cluster() -> Cluster {
    let c = Cluster::builder()
        .crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml", "gcp.upbound.io_providerconfigs.yaml"])
        .crd_files("crossplane", &["pkg.crossplane.io_providers.yaml", "pkg.crossplane.io_providerrevisions.yaml"])
        .start();
    c.add(Mr::provisioned(RS, "RecordSet", "healthy").json());
    let stuck = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .create_incomplete()
            .at_provider_id("www-A")
            .json(),
    );
    let uid = stuck["metadata"]["uid"].as_str().unwrap();
    c.add(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "provider-gcp-dns-1", "namespace": PROVIDER_NS,
                     "labels": {"pkg.crossplane.io/provider": "provider-gcp-dns", "pkg.crossplane.io/revision": "provider-gcp-dns-abc"}},
        "spec": {"containers": [{"name": "package-runtime", "image": "xpkg.upbound.io/upbound/provider-gcp-dns:v1"}]},
        "status": {"phase": "Running", "startTime": "2024-11-30T09:00:00Z",
                   "containerStatuses": [{"name": "package-runtime", "restartCount": 0, "ready": true,
                                          "state": {"running": {"startedAt": "2024-11-30T09:00:00Z"}}}]}}));
    let log = format!(
        "2024-11-30T11:00:07Z\tDEBUG\tprovider-gcp\tAsync create ended.\t{}\n",
        json!({"trackerUID": uid, "resourceName": "www", "tfID": "www-A"})
    );
    c.api.set_pod_log(PROVIDER_NS, "provider-gcp-dns-1", "package-runtime", false, &log);
    c.add(json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "gcp-creds", "namespace": PROVIDER_NS},
                 "data": {"credentials": "c2VjcmV0"}}));
    c.add(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": PROVIDER_NS}}));
    // What Crossplane's RBAC manager makes for the provider revision: read on its CRDs.
    let view = json!([{"apiGroups": ["dns.gcp.upbound.io"], "resources": ["recordsets", "recordsets/status"], "verbs": ["get", "list", "watch"]},
                      {"apiGroups": ["gcp.upbound.io"], "resources": ["providerconfigs", "providerconfigs/status"], "verbs": ["get", "list", "watch"]}]);
    install_roles(&c, view, &["clusterrole-doctor.yaml", "clusterrole-adopt.yaml", "clusterrole-workspace.yaml"]);
    for (user, role) in [("viewer", "kubectl-upjet-doctor"), ("operator", "kubectl-upjet-adopt")] {
        bind(&c, user, role);
    }
    c
}

/// What Crossplane's RBAC manager makes for a provider revision (`view`: read on its CRDs), the
/// roles of deploy/ as they are and the roles `kubectl upjet rbac` generates; then RBAC is on.
pub(crate) fn install_roles(c: &Cluster, view: Value, files: &[&str]) {
    c.add(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "crossplane:provider:provider-abc:aggregate-to-view",
                     "labels": {"rbac.crossplane.io/aggregate-to-view": "true"}},
        "rules": view}));
    for doc in files.iter().flat_map(|f| deploy(f)) {
        c.add(doc);
    }
    let generated =
        c.upjet().args(["rbac", "-o", "json"]).stderr_matches(r"\A\d+ managed kinds in \d+ API groups\n\z").run();
    for role in generated.json()["items"].as_array().unwrap() {
        c.add(role.clone());
    }
    c.api.enable_rbac();
}

/// `user` (token `USER-token`) bound to the ClusterRole `role`, with `USER.kubeconfig` in the
/// cluster's folder.
pub(crate) fn bind(c: &Cluster, user: &str, role: &str) {
    c.api.add_user(&format!("{user}-token"), user, &[]);
    c.add(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
        "metadata": {"name": format!("{role}-{user}")},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
        "subjects": [{"kind": "User", "name": user, "apiGroup": "rbac.authorization.k8s.io"}]}));
    let kubeconfig = c.server.kubeconfig_with_token(None, &format!("{user}-token"));
    std::fs::write(c.dir().join(format!("{user}.kubeconfig")), kubeconfig).unwrap();
}

/// The binary with `args`, as `user` (the kubeconfig [`bind`] wrote for it).
fn as_user(c: &Cluster, user: &str, args: &[&str]) -> Upjet {
    let mut cmd = c.upjet();
    cmd.env("KUBECONFIG", c.dir().join(format!("{user}.kubeconfig"))).args(args);
    cmd
}

/// What `user` gets for one request, through the plugin's own kube client over real HTTP:
/// `Ok(body)` or the API's `(code, message)`.
async fn request(c: &Cluster, user: &str, method: &str, path: &str) -> Result<String, (u16, String)> {
    use upjet_cluster::{connect, request};
    let opts = connect::ConnectOptions::kubeconfig(c.dir().join(format!("{user}.kubeconfig")));
    let conn = connect::connect(&opts).await.unwrap();
    let req = match method {
        "GET" => request::get(path, "application/json"),
        _ => http::Request::patch(path)
            .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
            .body(br#"{"metadata":{"annotations":{"x":"y"}}}"#.to_vec())
            .unwrap(),
    };
    request::text(&conn, req).await.map_err(|e| match e {
        request::RequestError::Kube(kube::Error::Api(s)) => (s.code, s.message),
        other => (0, other.to_string()),
    })
}

/// The shipped doctor role grants no list of CompositeResourceDefinitions (nor of the XRs and
/// claims of their kinds): doctor says it judged without the composition tree.
const NO_TREE: &str = "composition tree not read: not allowed to list CompositeResourceDefinitions";

#[test]
fn doctor_and_history_work_under_the_doctor_role() {
    let c = cluster();
    let o = as_user(&c, "viewer", &["doctor", "--logs", "-o", "json"]).status(1).stderr(format!("read 1 log sources (1 lines)\n{NO_GUARD}\n{NO_TREE}\n1 kinds scanned, 2 managed resources, 2 errors, 1 warnings, 0 info\n")).run();
    let err = &o.stderr;
    assert!(!err.contains("forbidden"), "{err}");
    let r = o.json();
    assert_eq!(r["summary"]["kindsSkipped"], json!([]), "{r}");
    let codes = crate::support::codes(&r);
    assert!(codes.contains(&("CreateIncomplete".into(), "www".into())), "{codes:?}");
    let notes = r["summary"]["notes"].to_string();
    assert!(notes.contains("read 1 log sources"), "the provider pod's log was read: {notes}");

    let o = as_user(&c, "viewer", &["history", "recordset.dns.gcp.upbound.io/www"]).run();
    let (out, err) = (&o.stdout, &o.stderr);
    assert!(out.contains("Async create ended."), "{out}");
    assert!(!out.contains("cannot read events") && !err.contains("forbidden"), "{out}{err}");

    // --workspace needs exec, which only the optional workspace role grants; the note says so.
    let o = as_user(&c, "viewer", &["history", "recordset.dns.gcp.upbound.io/www", "--workspace"]).run();
    let out = &o.stdout;
    assert!(
        out.contains("missing permission: create on pods/exec") && out.contains("kubectl-upjet-workspace"),
        "{out}"
    );
}

#[test]
fn adopt_needs_the_adopt_role_and_works_under_it() {
    let c = cluster();
    let backups = c.dir().join("backups");
    let backups = backups.to_str().unwrap();
    let o = as_user(
        &c,
        "viewer",
        &["adopt", "recordset.dns.gcp.upbound.io/www", "--id", "www-A", "--yes", "--backup-dir", backups],
    ).status(3).stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"").stderr_contains("error: forbidden: RBAC does not allow you to patch recordsets.dns.gcp.upbound.io (recordset.dns.gcp.upbound.io/www). Server said: recordsets.dns.gcp.upbound.io \"www\" is forbidden: User \"viewer\" cannot patch resource \"recordsets\" in API group \"dns.gcp.upbound.io\" at the cluster scope — missing permission: patch on recordsets (dns.gcp.upbound.io); the ClusterRole kubectl-upjet-adopt (deploy/clusterrole-adopt.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-adopt --clusterrole=kubectl-upjet-adopt --user=viewer; a managed kind installed after the roles were applied needs `kubectl upjet rbac | kubectl apply -f -` again; nothing changed").run();
    let err = &o.stderr;
    assert!(
        err.contains("missing permission: patch on recordsets (dns.gcp.upbound.io); the ClusterRole kubectl-upjet-adopt (deploy/clusterrole-adopt.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-adopt --clusterrole=kubectl-upjet-adopt --user=viewer"),
        "{err}"
    );
    assert_eq!(c.api.get(RS, "RecordSet", None, "www").unwrap()["metadata"]["annotations"].get(PAUSED), None);

    provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
    let args = ["adopt", "recordset.dns.gcp.upbound.io/www", "--id", "www-A", "--import", "--yes", "--timeout", "30s"];
    as_user(&c, "operator", &args.iter().copied().chain(["--backup-dir", backups]).collect::<Vec<_>>())
        .stderr_contains(
            "Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\" (--import: verified with Observe-only first)",
        )
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    let www = c.api.get(RS, "RecordSet", None, "www").unwrap();
    assert_eq!(a(&www, EXT), Some("www-A"));
}

#[tokio::test]
async fn secrets_rbac_objects_and_other_kinds_are_denied() {
    let c = cluster();
    c.add(json!({"apiVersion": "gcp.upbound.io/v1beta1", "kind": "ProviderConfig", "metadata": {"name": "default"}}));
    let ns = format!("/api/v1/namespaces/{PROVIDER_NS}");
    for user in ["viewer", "operator"] {
        for (method, path, says) in [
            (
                "GET",
                format!("{ns}/secrets"),
                "cannot list resource \"secrets\" in API group \"\" in the namespace \"crossplane-system\"",
            ),
            ("GET", format!("{ns}/secrets/gcp-creds"), "cannot get resource \"secrets\""),
            (
                "GET",
                "/api/v1/secrets".into(),
                "cannot list resource \"secrets\" in API group \"\" at the cluster scope",
            ),
            ("GET", format!("{ns}/configmaps"), "cannot list resource \"configmaps\""),
            (
                "GET",
                "/apis/rbac.authorization.k8s.io/v1/clusterroles".into(),
                "cannot list resource \"clusterroles\" in API group \"rbac.authorization.k8s.io\"",
            ),
            (
                "GET",
                "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings".into(),
                "cannot list resource \"clusterrolebindings\"",
            ),
            ("PATCH", "/api/v1/namespaces/default".into(), "cannot patch resource \"namespaces\""),
            ("PATCH", format!("{ns}/pods/provider-gcp-dns-1"), "cannot patch resource \"pods\""),
            (
                "PATCH",
                "/apis/gcp.upbound.io/v1beta1/providerconfigs/default".into(),
                "cannot patch resource \"providerconfigs\"",
            ),
        ] {
            match request(&c, user, method, &path).await {
                Err((403, message)) => assert!(message.contains(says), "{user} {method} {path}: {message}"),
                other => panic!("{user} {method} {path} must be denied, got {other:?}"),
            }
        }
    }
    // Managed resources themselves: read for both, patch for the operator only.
    let mr = "/apis/dns.gcp.upbound.io/v1beta2/recordsets/healthy";
    assert!(request(&c, "viewer", "GET", mr).await.is_ok());
    assert!(matches!(request(&c, "viewer", "PATCH", mr).await, Err((403, _))));
    assert!(request(&c, "operator", "PATCH", mr).await.is_ok());
}
