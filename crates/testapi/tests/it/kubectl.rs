//! kubectl (if installed) against the fake server: the strictest client we have.

use crate::common::GCP;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use testapi::TestApi;

struct Kubectl {
    dir: PathBuf,
}

impl Kubectl {
    fn new(srv: &testapi::RunningServer, tag: &str) -> Option<Self> {
        if Command::new("kubectl").arg("version").arg("--client").output().is_err() {
            eprintln!("kubectl not installed; skipping");
            return None;
        }
        let dir = std::env::temp_dir().join(format!("testapi-kubectl-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        srv.write_kubeconfig(&dir.join("config"), Some("team-a")).unwrap();
        Some(Self { dir })
    }

    fn run(&self, args: &[&str]) -> (bool, String, String) {
        let out = Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(self.dir.join("config"))
            .arg("--cache-dir")
            .arg(self.dir.join("cache"))
            .args(args)
            .env_remove("KUBECONFIG")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (ok, out, err) = self.run(args);
        assert!(ok, "kubectl {args:?} failed: {err}\n{out}");
        out
    }
}

impl Drop for Kubectl {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn kubectl_get_patch_logs() {
    let api = TestApi::new();
    api.add_crds_from_dir(Path::new(GCP)).unwrap();
    api.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}));
    for i in 0..7 {
        api.insert(json!({
            "apiVersion": "apigee.gcp.m.upbound.io/v1beta1", "kind": "Envgroup",
            "metadata": {"name": format!("eg-{i}"), "namespace": "team-a", "labels": {"n": i.to_string()}},
            "spec": {"forProvider": {}},
            "status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "Synced", "status": "False"}]},
        }));
    }
    api.insert(json!({"apiVersion": "apigee.gcp.upbound.io/v1beta1", "kind": "Envgroup", "metadata": {"name": "cluster-eg"}, "spec": {}}));
    api.insert(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "prov", "namespace": "team-a"}, "spec": {"containers": [{"name": "main", "image": "x"}]}}));
    api.set_pod_log("team-a", "prov", "main", false, "hello\nworld");
    api.set_pod_log("team-a", "prov", "main", true, "before crash");
    let srv = api.start_blocking().unwrap();
    let Some(k) = Kubectl::new(&srv, "get") else { return };

    let out = k.ok(&["get", "envgroups.apigee.gcp.m.upbound.io", "-o", "json", "--chunk-size=3"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["items"].as_array().unwrap().len(), 7);

    // category expansion through discovery, table output (server answers plain JSON)
    let out = k.ok(&["get", "managed", "-A"]);
    assert!(out.contains("eg-6") && out.contains("cluster-eg"), "{out}");
    // server-side printing: upjet's columns
    let out = k.ok(&["get", "envgroups.apigee.gcp.m.upbound.io"]);
    let header: Vec<&str> = out.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header, ["NAME", "SYNCED", "READY", "EXTERNAL-NAME", "AGE"], "{out}");
    assert_eq!(
        out.lines().nth(1).unwrap().split_whitespace().take(3).collect::<Vec<_>>(),
        ["eg-0", "False", "True"],
        "{out}"
    );

    let out = k.ok(&["get", "envgroups.apigee.gcp.m.upbound.io", "-l", "n in (1,2)", "-o", "name"]);
    assert_eq!(out.lines().count(), 2, "{out}");

    k.ok(&[
        "patch",
        "envgroups.apigee.gcp.m.upbound.io",
        "eg-1",
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"annotations":{"crossplane.io/paused":"true"}}}"#,
    ]);
    let obj = api.get("apigee.gcp.m.upbound.io/v1beta1", "Envgroup", Some("team-a"), "eg-1").unwrap();
    assert_eq!(obj["metadata"]["annotations"]["crossplane.io/paused"], "true");

    k.ok(&["annotate", "envgroups.apigee.gcp.m.upbound.io", "eg-2", "a=b"]);
    k.ok(&["label", "envgroups.apigee.gcp.m.upbound.io", "eg-2", "x=y"]);
    assert_eq!(
        api.get("apigee.gcp.m.upbound.io/v1beta1", "Envgroup", Some("team-a"), "eg-2").unwrap()["metadata"]["labels"]["x"],
        "y"
    );

    assert_eq!(k.ok(&["logs", "prov"]), "hello\nworld\n");
    assert_eq!(k.ok(&["logs", "prov", "-c", "main", "--previous"]), "before crash\n");

    // exec over websocket (kubectl >= 1.30 speaks v5.channel.k8s.io)
    let state = r#"{"version":4,"resources":[]}"#;
    api.set_exec_file("team-a", "prov", "/tmp/uid-1/terraform.tfstate", state);
    assert_eq!(k.ok(&["exec", "prov", "--", "cat", "/tmp/uid-1/terraform.tfstate"]), state);
    assert_eq!(k.ok(&["exec", "prov", "-c", "main", "--", "sh", "-c", "ls /tmp/uid-1"]), "terraform.tfstate\n");
    let (ok, _, err) = k.run(&["exec", "prov", "--", "cat", "/tmp/nope"]);
    assert!(!ok);
    assert!(err.contains("No such file or directory") && err.contains("exit code 1"), "{err}");

    let (ok, _, err) = k.run(&["get", "envgroups.apigee.gcp.m.upbound.io", "missing"]);
    assert!(!ok);
    assert!(err.contains("NotFound") || err.contains("not found"), "{err}");

    k.ok(&["delete", "envgroups.apigee.gcp.m.upbound.io", "eg-3", "--wait=false"]);
    assert!(api.get("apigee.gcp.m.upbound.io/v1beta1", "Envgroup", Some("team-a"), "eg-3").is_none());

    // delete waits (through a watch) until a finalizer is removed
    k.ok(&[
        "patch",
        "envgroups.apigee.gcp.m.upbound.io",
        "eg-4",
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":["finalizer.managedresource.crossplane.io"]}}"#,
    ]);
    let api2 = api.clone();
    let remover = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(1500));
        api2.remove("apigee.gcp.m.upbound.io/v1beta1", "Envgroup", Some("team-a"), "eg-4")
    });
    let t = std::time::Instant::now();
    k.ok(&["delete", "envgroups.apigee.gcp.m.upbound.io", "eg-4", "--timeout=20s"]);
    assert!(t.elapsed() >= std::time::Duration::from_millis(1000), "kubectl waited for the finalizer");
    assert!(remover.join().unwrap().is_some());

    // kubectl wait on a condition
    k.ok(&["wait", "--for=condition=Ready", "envgroups.apigee.gcp.m.upbound.io/eg-5", "--timeout=5s"]);

    // apply (client-side, needs the OpenAPI v3 field-validation probe) and server-side apply
    let manifest = k.dir.join("eg.yaml");
    let yaml = |host: &str| {
        format!(
            "apiVersion: apigee.gcp.m.upbound.io/v1beta1\nkind: Envgroup\nmetadata:\n  name: applied\nspec:\n  forProvider:\n    hostnames: [{host}]\n"
        )
    };
    std::fs::write(&manifest, yaml("a.example.com")).unwrap();
    assert!(k.ok(&["apply", "-f", manifest.to_str().unwrap()]).contains("created"));
    std::fs::write(&manifest, yaml("b.example.com")).unwrap();
    assert!(k.ok(&["apply", "-f", manifest.to_str().unwrap()]).contains("configured"));
    let got = api.get("apigee.gcp.m.upbound.io/v1beta1", "Envgroup", Some("team-a"), "applied").unwrap();
    assert_eq!(got["spec"]["forProvider"]["hostnames"], json!(["b.example.com"]));
    assert_eq!(got["metadata"]["generation"], 2);
    std::fs::write(&manifest, yaml("c.example.com")).unwrap();
    assert!(k.ok(&["apply", "--server-side", "-f", manifest.to_str().unwrap()]).contains("serverside-applied"));
    let (ok, _, err) = k.run(&["create", "-f", manifest.to_str().unwrap()]);
    assert!(!ok && err.contains("AlreadyExists"), "{err}");
    k.ok(&["delete", "-f", manifest.to_str().unwrap()]);

    let out = k.ok(&["api-resources", "--categories", "managed", "-o", "name"]);
    assert!(out.lines().any(|l| l == "envgroups.apigee.gcp.m.upbound.io"), "{out}");

    // legacy discovery path too
    api.set_aggregated_discovery(false);
    let Some(k2) = Kubectl::new(&srv, "legacy") else { return };
    let out = k2.ok(&["get", "managed", "-A", "-o", "name"]);
    assert_eq!(out.lines().count(), 6, "{out}");
}
