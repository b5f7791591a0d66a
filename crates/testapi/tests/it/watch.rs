//! Watch streams over real HTTP.

use crate::common::Client;
use serde_json::{Value, json};
use std::time::Duration;
use testapi::TestApi;

fn pod(name: &str, labels: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default", "labels": labels}, "spec": {"containers": [{"name": "c"}]}})
}

fn events(body: &[u8]) -> Vec<(String, String, Value)> {
    String::from_utf8_lossy(body)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let name = v["object"]["metadata"]["name"].as_str().unwrap_or_default().to_string();
            (v["type"].as_str().unwrap().to_string(), name, v)
        })
        .collect()
}

#[test]
fn watch_initial_live_and_resume() {
    let api = TestApi::new();
    api.insert(pod("a", json!({"app": "x"})));
    let srv = api.start_blocking().unwrap();
    let url = srv.url.clone();
    let watcher = std::thread::spawn(move || {
        Client::new(&url).get("/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=2")
    });
    std::thread::sleep(Duration::from_millis(300));
    let mut c = Client::new(&srv.url);
    let list_rv =
        c.get_json("/api/v1/namespaces/default/pods")["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    assert_eq!(c.send("POST", "/api/v1/namespaces/default/pods", "application/json", &pod("b", json!({}))).status, 201);
    assert_eq!(
        c.send(
            "PATCH",
            "/api/v1/namespaces/default/pods/b",
            "application/merge-patch+json",
            &json!({"metadata": {"labels": {"app": "x"}}})
        )
        .status,
        200
    );
    assert_eq!(c.request("DELETE", "/api/v1/namespaces/default/pods/a", &[], None).unwrap().status, 200);
    let r = watcher.join().unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.header("transfer-encoding"), Some("chunked"));
    let ev = events(&r.body);
    let got: Vec<(&str, &str)> = ev.iter().map(|(t, n, _)| (t.as_str(), n.as_str())).collect();
    assert_eq!(got, vec![("ADDED", "a"), ("ADDED", "b"), ("MODIFIED", "b"), ("DELETED", "a")]);
    assert_eq!(ev[1].2["object"]["kind"], "Pod", "watch objects carry kind");
    let del_rv: u64 = ev[3].2["object"]["metadata"]["resourceVersion"].as_str().unwrap().parse().unwrap();
    let mod_rv: u64 = ev[2].2["object"]["metadata"]["resourceVersion"].as_str().unwrap().parse().unwrap();
    assert!(del_rv > mod_rv, "DELETED carries the deletion's resourceVersion");

    // resume from the list's resourceVersion with a label selector: b enters the selection, a leaves
    let r = c.get(&format!(
        "/api/v1/namespaces/default/pods?watch=1&resourceVersion={list_rv}&labelSelector=app%3Dx&timeoutSeconds=1"
    ));
    let got: Vec<(String, String)> = events(&r.body).into_iter().map(|(t, n, _)| (t, n)).collect();
    assert_eq!(got, vec![("ADDED".to_string(), "b".to_string()), ("DELETED".to_string(), "a".to_string())]);

    // streaming list: initial events, then a bookmark
    let r = c.get("/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1");
    let ev = events(&r.body);
    assert_eq!(ev.len(), 2);
    assert_eq!((ev[0].0.as_str(), ev[0].1.as_str()), ("ADDED", "b"));
    assert_eq!(ev[1].0, "BOOKMARK");
    assert_eq!(ev[1].2["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"], "true");
}

#[test]
fn watch_too_old_resource_version() {
    let api = TestApi::new();
    for i in 0..10_050 {
        api.insert(
            json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": format!("e{i}"), "namespace": "default"}}),
        );
    }
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let r = c.get("/api/v1/events?watch=true&resourceVersion=1001&timeoutSeconds=1");
    let ev = events(&r.body);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].0, "ERROR");
    assert_eq!(ev[0].2["object"]["code"], 410);
    assert_eq!(ev[0].2["object"]["reason"], "Expired");
}

#[test]
fn metadata_only_lists_and_watches_answer_partial_object_metadata() {
    let api = TestApi::new();
    api.insert(pod("a", json!({"app": "x"})));
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let accept = [("Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")];
    let list = c.request("GET", "/api/v1/namespaces/default/pods", &accept, None).unwrap().json();
    assert_eq!(list["kind"], "PartialObjectMetadataList");
    assert_eq!(list["apiVersion"], "meta.k8s.io/v1");
    let item = &list["items"][0];
    assert_eq!(item["kind"], "PartialObjectMetadata");
    assert_eq!(item["metadata"]["name"], "a");
    assert_eq!(item["metadata"]["labels"]["app"], "x");
    assert!(item.get("spec").is_none(), "metadata only: {item}");

    let url = srv.url.clone();
    let body = Client::new(&url)
        .request(
            "GET",
            "/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1",
            &[("Accept", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1")],
            None,
        )
        .unwrap()
        .body;
    let seen = events(&body);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].0, "ADDED");
    assert_eq!(seen[0].2["object"]["kind"], "PartialObjectMetadata");
    assert!(seen[0].2["object"].get("spec").is_none());
}
