//! `kubectl upjet <TAB>` through the real kubectl (≥ 1.26 runs `kubectl_complete-upjet`), with
//! dynamic candidates from the test API server.

use crate::support::{Cluster, Mr};
use std::path::Path;
use std::process::Command;

fn kubectl_available() -> bool {
    Command::new("kubectl").arg("version").arg("--client").output().is_ok_and(|o| o.status.success())
}

/// Runs `kubectl __complete upjet ARGS…` with the plugin and its completer on PATH, under the
/// tests' environment policy (kubectl passes it on to the plugin).
fn complete(c: &Cluster, bin_dir: &Path, kubeconfig: &Path, args: &[&str]) -> Vec<String> {
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("kubectl")
        .env_clear()
        .envs(c.upjet().envs())
        .args(["__complete", "upjet"])
        .args(args)
        .env("PATH", path)
        .env("KUBECONFIG", kubeconfig)
        .env("HOME", bin_dir)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect()
}

#[test]
fn kubectl_plugin_completion_end_to_end() {
    if !kubectl_available() {
        eprintln!("kubectl not installed; skipping");
        return;
    }
    let c = Cluster::builder()
        .crd_files(
            "provider-upjet-gcp",
            &[
                "dns.gcp.upbound.io_recordsets.yaml",
                "dns.gcp.m.upbound.io_recordsets.yaml",
                "gcp.upbound.io_providerconfigs.yaml",
            ],
        )
        .start();
    c.add(Mr::provisioned("dns.gcp.upbound.io/v1beta2", "RecordSet", "www").json());
    c.add(Mr::provisioned("dns.gcp.upbound.io/v1beta2", "RecordSet", "api").json());
    c.add(serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}));
    let bin = c.dir().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kubectl-upjet"), bin.join("kubectl-upjet")).unwrap();
    // The helper installed the way the README says.
    c.upjet().args(["completion", "kubectl-plugin", "--install-dir"]).arg(&bin).run();
    let kc = c.kubeconfig();

    let top = complete(&c, &bin, &kc, &[""]);
    assert!(top.iter().any(|l| l.starts_with("doctor\t")), "{top:?}");
    assert!(top.iter().any(|l| l.starts_with("history\t")), "{top:?}");
    assert_eq!(top.last().map(String::as_str), Some(":4"), "no file completion: {top:?}");

    let kinds = complete(&c, &bin, &kc, &["doctor", "--kind", "rec"]);
    assert!(kinds.iter().any(|l| l.starts_with("recordset.dns.gcp.upbound.io\t")), "{kinds:?}");
    assert!(kinds.iter().any(|l| l.starts_with("recordset.dns.gcp.m.upbound.io\t")), "{kinds:?}");
    assert!(!kinds.iter().any(|l| l.contains("providerconfig")), "{kinds:?}");

    let targets = complete(&c, &bin, &kc, &["doctor", "recordset.dns"]);
    assert!(targets.iter().any(|l| l.starts_with("recordset.dns.gcp.upbound.io/")), "{targets:?}");
    assert_eq!(targets.last().map(String::as_str), Some(":6"), "a kind ends in '/': no space after it: {targets:?}");

    let names = complete(&c, &bin, &kc, &["doctor", "recordset.dns.gcp.upbound.io/w"]);
    assert_eq!(names, vec!["recordset.dns.gcp.upbound.io/www".to_string(), ":4".to_string()]);

    let codes = complete(&c, &bin, &kc, &["doctor", "--only", "Orph"]);
    assert!(codes.iter().any(|l| l.starts_with("OrphanCandidate\t")), "{codes:?}");

    let namespaces = complete(&c, &bin, &kc, &["doctor", "-n", "team"]);
    assert!(namespaces.iter().any(|l| l == "team-a"), "{namespaces:?}");

    // No cluster: candidates that need it are silently absent, nothing on stderr, still a directive.
    let broken = c.dir().join("broken-kubeconfig");
    std::fs::write(&broken, "not: [valid").unwrap();
    let quiet = complete(&c, &bin, &broken, &["doctor", "--kind", "rec"]);
    assert_eq!(quiet, vec![":4".to_string()]);
}
