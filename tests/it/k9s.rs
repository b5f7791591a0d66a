//! deploy/k9s/plugins.yaml: each plugin's command, with the values k9s puts in for a selected MR,
//! runs the real binary (through a `kubectl` that dispatches `kubectl upjet` to it, as kubectl
//! does for plugins) against the in-process API server and reaches the MR.

use crate::support::adopt::RS;
use crate::support::{Cluster, Mr};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;

fn plugins() -> serde_json::Map<String, Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/k9s/plugins.yaml");
    let doc: Value = serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["plugins"].as_object().unwrap().clone()
}

fn script(dir: &std::path::Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// What k9s does before it runs a plugin: replace its variables in the arguments.
fn k9s_expand(arg: &str, namespace: &str) -> String {
    arg.replace("$RESOURCE_NAME", "recordsets")
        .replace("$RESOURCE_GROUP", "dns.gcp.upbound.io")
        .replace("$NAMESPACE", namespace)
        .replace("$CONTEXT", "test")
        .replace("$NAME", "www")
}

#[test]
fn every_plugin_runs_its_command_on_the_selected_mr() {
    let cluster = Cluster::builder().crds("provider-upjet-gcp").start();
    cluster.add(Mr::provisioned(RS, "RecordSet", "www").create_incomplete().json());
    let base = cluster.upjet().to_std();
    let shims = tempfile::tempdir().unwrap();
    script(
        shims.path(),
        "kubectl",
        &format!("[ \"$1\" = upjet ] && shift\nexec '{}' \"$@\"", base.get_program().to_str().unwrap()),
    );
    script(shims.path(), "less", "exec cat");
    let path = format!("{}:{}", shims.path().display(), std::env::var("PATH").unwrap_or_default());
    let plugins = plugins();
    assert_eq!(plugins.len(), 3);
    let mut outputs = std::collections::BTreeMap::new();
    for (name, plugin) in &plugins {
        assert_eq!(plugin["command"], "sh", "{name}");
        assert_eq!(plugin["scopes"][0], "all", "{name}");
        assert!(plugin["shortCut"].as_str().unwrap().starts_with("Shift-"), "{name}");
        let args: Vec<String> =
            plugin["args"].as_array().unwrap().iter().map(|a| k9s_expand(a.as_str().unwrap(), "")).collect();
        let mut cmd = std::process::Command::new("sh");
        cmd.env_clear();
        for (k, v) in base.get_envs() {
            if let Some(v) = v {
                cmd.env(k, v);
            }
        }
        let out = cmd.env("PATH", &path).args(&args).stdin(std::process::Stdio::null()).output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(!text.contains("not found") && !text.contains("unknown"), "{name}: {text}");
        outputs.insert(name.clone(), text);
    }
    assert!(outputs["upjet-doctor"].contains("CreateIncomplete"), "{}", outputs["upjet-doctor"]);
    assert!(outputs["upjet-history"].contains("external-create-pending"), "{}", outputs["upjet-history"]);
    // Without a terminal adopt cannot ask which candidate to take; in k9s it has one.
    assert!(outputs["upjet-adopt"].contains("no --id given and no terminal to ask on"), "{}", outputs["upjet-adopt"]);
}
