//! Serves a fake cluster for manual poking with kubectl:
//! `cargo run -p testapi --example serve -- <crd-dir> <kubeconfig-path> [seconds]`
//! Seeds a namespace `team-a` with one object of every namespaced managed kind.

use serde_json::json;
use std::path::Path;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .map(String::as_str)
        .unwrap_or(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/fixtures/crds/provider-upjet-gcp"));
    let kubeconfig = args.get(2).map(String::as_str).unwrap_or("/tmp/testapi-kubeconfig");
    let secs: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(300);
    let api = testapi::TestApi::new();
    let t = std::time::Instant::now();
    let n = api.add_crds_from_dir(Path::new(dir))?;
    eprintln!("loaded {n} CRDs in {:?}", t.elapsed());
    api.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}));
    let crds = api.list("apiextensions.k8s.io/v1", "CustomResourceDefinition", None);
    for crd in &crds {
        let spec = &crd["spec"];
        if !spec["names"]["categories"].as_array().is_some_and(|c| c.contains(&json!("managed"))) {
            continue;
        }
        let v = spec["versions"].as_array().unwrap().iter().find(|v| v["storage"] == true).unwrap();
        let mut meta = json!({"name": format!("{}-1", spec["names"]["singular"].as_str().unwrap())});
        if spec["scope"] == "Namespaced" {
            meta["namespace"] = json!("team-a");
        }
        api.insert(json!({
            "apiVersion": format!("{}/{}", spec["group"].as_str().unwrap(), v["name"].as_str().unwrap()),
            "kind": spec["names"]["kind"], "metadata": meta, "spec": {"forProvider": {}},
            "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "Available"}, {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]},
        }));
    }
    let srv = api.start_blocking()?;
    srv.write_kubeconfig(Path::new(kubeconfig), Some("team-a"))?;
    eprintln!("serving {} (kubeconfig {kubeconfig}) for {secs}s", srv.url);
    std::thread::sleep(std::time::Duration::from_secs(secs));
    let st = api.stats();
    eprintln!("{} requests, {} bytes, by class {:?}", st.requests, st.response_bytes, st.by_class);
    Ok(())
}
