//! A quick performance figure (printed, not asserted):
//! `cargo test -p testapi --test it perf:: -- --nocapture`

use crate::common::{Client, GCP};
use serde_json::json;
use std::path::Path;
use std::time::Instant;
use testapi::TestApi;

#[test]
fn serve_100_pages_of_500_5kb_objects() {
    let api = TestApi::new();
    let t = Instant::now();
    api.add_crds_from_dir(Path::new(GCP)).unwrap();
    let crd_time = t.elapsed();
    api.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "bench"}}));
    let filler = "x".repeat(4200);
    let t = Instant::now();
    for i in 0..50_000 {
        api.insert(json!({
            "apiVersion": "apigee.gcp.m.upbound.io/v1beta1", "kind": "Envgroup",
            "metadata": {"name": format!("eg-{i:05}"), "namespace": "bench", "labels": {"shard": (i % 10).to_string()},
                "annotations": {"crossplane.io/external-name": format!("projects/p/envgroups/eg-{i}")}},
            "spec": {"forProvider": {"hostnames": [format!("h{i}.example.com")], "orgId": "organizations/123"}, "providerConfigRef": {"name": "default"}},
            "status": {"atProvider": {"id": format!("eg-{i}"), "blob": filler},
                "conditions": [{"type": "Ready", "status": "True", "reason": "Available"}, {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]},
        }));
    }
    let insert_time = t.elapsed();
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    api.reset_stats();
    let base = "/apis/apigee.gcp.m.upbound.io/v1beta1/envgroups?limit=500";
    let t = Instant::now();
    let mut cont: Option<String> = None;
    let (mut pages, mut items, mut bytes) = (0, 0, 0);
    loop {
        let path = match &cont {
            Some(tok) => format!("{base}&continue={tok}"),
            None => base.to_string(),
        };
        let r = c.get(&path);
        assert_eq!(r.status, 200);
        bytes += r.body.len();
        let v = r.json();
        pages += 1;
        items += v["items"].as_array().unwrap().len();
        match v["metadata"]["continue"].as_str() {
            Some(tok) => cont = Some(tok.to_string()),
            None => break,
        }
    }
    let total = t.elapsed();
    // the same without client-side JSON parsing: what the server itself costs
    let t = Instant::now();
    let mut cont: Option<String> = None;
    let mut raw_pages = 0;
    loop {
        let path = match &cont {
            Some(tok) => format!("{base}&continue={tok}"),
            None => base.to_string(),
        };
        let r = c.get(&path);
        raw_pages += 1;
        let text = r.text();
        cont = text.find("\"continue\":\"").map(|p| {
            let s = &text[p + 12..];
            s[..s.find('"').unwrap()].to_string()
        });
        if cont.is_none() {
            break;
        }
    }
    let raw = t.elapsed();
    assert_eq!((pages, items, raw_pages), (100, 50_000, 100));
    println!(
        "testapi perf: {} CRDs loaded in {crd_time:?}; 50,000 inserts in {insert_time:?}; \
         100 pages x 500 items ({:.1} MB, {:.1} KB/object): {total:?} incl. client JSON parsing, \
         {raw:?} transfer only ({:.2} ms/page)",
        158,
        bytes as f64 / 1e6,
        bytes as f64 / items as f64 / 1e3,
        raw.as_secs_f64() * 1e3 / 100.0
    );
    let st = api.stats();
    assert_eq!(st.class("list"), 200);
}
