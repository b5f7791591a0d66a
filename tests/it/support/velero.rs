//! Velero, as far as the tests need it: the entries of a backup archive, and a restore that
//! applies resource-modifier rules the way Velero does and resets what
//! `pkg/restore/restore.go` `resetMetadataAndStatus` resets.

use serde_json::Value;
use std::io::Read;
use std::path::Path;
use upjet_core::patch::apply_merge_patch;
use upjet_core::restore::modifiers::{ResourceModifierRule, exact_name};

/// Every entry of a gzip tar: name → bytes.
pub fn entries(path: &Path) -> Vec<(String, Vec<u8>)> {
    let gz = flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap());
    let mut tar = tar::Archive::new(gz);
    let mut out = Vec::new();
    for e in tar.entries().unwrap() {
        let mut e = e.unwrap();
        let name = e.path().unwrap().to_string_lossy().into_owned();
        let mut body = Vec::new();
        e.read_to_end(&mut body).unwrap();
        out.push((name, body));
    }
    out
}

/// The objects of a backup at their plain paths, with their group resource.
pub fn objects(path: &Path) -> Vec<(String, Value)> {
    entries(path)
        .into_iter()
        .filter(|(n, _)| n.starts_with("resources/") && n.split('/').count() == 4)
        .map(|(n, b)| (n.split('/').nth(1).unwrap().to_string(), serde_json::from_slice(&b).unwrap()))
        .collect()
}

/// Velero's matching (`internal/resourcemodifiers` `Conditions`): group resource, namespace
/// (namespaced objects only), anchored name regex; each matching rule's merge patches in order.
pub fn modified(obj: &Value, group_resource: &str, rules: &[ResourceModifierRule]) -> Value {
    let mut out = obj.clone();
    let name = obj["metadata"]["name"].as_str().unwrap_or_default();
    for r in rules {
        let c = &r.conditions;
        let ns_ok = c.namespaces.is_empty()
            || obj["metadata"]["namespace"].as_str().is_none_or(|n| c.namespaces.iter().any(|x| x == n));
        let name_ok = c.resource_name_regex.as_deref().is_none_or(|re| re == exact_name(name));
        if c.group_resource == group_resource && ns_ok && name_ok {
            for p in &r.merge_patches {
                apply_merge_patch(&mut out, &serde_json::from_str(&p.patch_data).unwrap());
            }
        }
    }
    out
}

/// The object Velero creates: modified, then metadata and status reset.
pub fn restored(obj: &Value, group_resource: &str, rules: &[ResourceModifierRule]) -> Value {
    let mut out = modified(obj, group_resource, rules);
    if let Some(m) = out["metadata"].as_object_mut() {
        for k in [
            "generateName",
            "selfLink",
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "ownerReferences",
        ] {
            m.remove(k);
        }
    }
    if let Some(o) = out.as_object_mut() {
        o.remove("status");
    }
    out
}

/// The rules Velero would read: runs the `kubectl create cm … --from-file … -n velero` line that
/// `restore-plan` printed (client-side dry run, so no cluster is needed) in `dir`, and reads the
/// ConfigMap it makes as Velero does (exactly one data key, strict YAML, validated).
pub fn rules_from_printed_command(stdout: &str, dir: &Path) -> Vec<ResourceModifierRule> {
    let line =
        stdout.lines().map(str::trim).find(|l| l.starts_with("kubectl create cm ")).expect("the printed command");
    let args: Vec<&str> = line.split_whitespace().skip(1).collect();
    let out = std::process::Command::new("kubectl")
        .args(&args)
        .args(["--dry-run=client", "-o", "yaml"])
        .current_dir(dir)
        .env("KUBECONFIG", dir.join("no-kubeconfig"))
        .output()
        .expect("kubectl runs");
    assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    let cm = String::from_utf8(out.stdout).unwrap();
    assert!(cm.contains("namespace: velero") && cm.contains("kind: ConfigMap"), "{cm}");
    upjet_core::restore::modifiers::from_config_map(&cm).expect("Velero accepts it").resource_modifier_rules
}
