//! End-to-end tests of the fake API server over real HTTP.

use crate::common::{Client, GCP, KUBE_AGGREGATED_ACCEPT, crds_with_category};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use testapi::{Fault, Method, TestApi};

const ENVGROUP_M: &str = "apigee.gcp.m.upbound.io/v1beta1";

fn gcp_api() -> TestApi {
    let api = TestApi::new();
    let n = api.add_crds_from_dir(Path::new(GCP)).unwrap();
    assert_eq!(n, 158);
    api
}

fn envgroup(ns: &str, name: &str, labels: Value) -> Value {
    json!({
        "apiVersion": ENVGROUP_M, "kind": "Envgroup",
        "metadata": {"name": name, "namespace": ns, "labels": labels},
        "spec": {"forProvider": {"hostnames": ["a.example.com"]}},
    })
}

fn ensure_ns(api: &TestApi, ns: &str) {
    api.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}));
}

#[test]
fn discovery_legacy_from_real_crds() {
    let api = gcp_api();
    api.set_aggregated_discovery(false);
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);

    let v = c.get_json("/api");
    assert_eq!(v["kind"], "APIVersions");
    assert_eq!(v["versions"], json!(["v1"]));

    // Even with the aggregated Accept header an "old" server answers legacy JSON.
    let r = c.request("GET", "/apis", &[("Accept", KUBE_AGGREGATED_ACCEPT)], None).unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let groups = r.json();
    assert_eq!(groups["kind"], "APIGroupList");
    let groups = groups["groups"].as_array().unwrap();
    let names: Vec<&str> = groups.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"gcp.upbound.io"));
    assert!(names.contains(&"apiextensions.k8s.io"));

    let mut managed = BTreeSet::new();
    let mut provider_configs = vec![];
    for g in groups {
        let pref = g["preferredVersion"]["version"].as_str().unwrap();
        assert_eq!(g["versions"][0]["version"], pref, "preferred version listed first in {g}");
        for v in g["versions"].as_array().unwrap() {
            let gv = v["groupVersion"].as_str().unwrap();
            let list = c.get_json(&format!("/apis/{gv}"));
            assert_eq!(list["kind"], "APIResourceList");
            assert_eq!(list["groupVersion"], gv);
            let res = list["resources"].as_array().unwrap();
            for r in res {
                let name = r["name"].as_str().unwrap();
                if name.contains('/') {
                    assert_eq!(r["verbs"], json!(["get", "patch", "update"]));
                    continue;
                }
                let cats: Vec<&str> = r["categories"]
                    .as_array()
                    .map(|a| a.iter().map(|c| c.as_str().unwrap()).collect())
                    .unwrap_or_default();
                if cats.contains(&"managed") {
                    managed.insert((
                        g["name"].as_str().unwrap().to_string(),
                        name.to_string(),
                        v["version"].as_str().unwrap().to_string(),
                    ));
                    assert!(res.iter().any(|s| s["name"] == format!("{name}/status")), "{name} has status subresource");
                    assert!(r["singularName"].as_str().is_some_and(|s| !s.is_empty()));
                    assert!(r["verbs"].as_array().unwrap().contains(&json!("list")));
                }
                if r["kind"] == "ProviderConfig" {
                    assert!(cats.contains(&"providerconfig") && !cats.contains(&"managed"), "{r}");
                    provider_configs.push(r.clone());
                }
            }
        }
    }
    let expected = crds_with_category(GCP, "managed");
    let expected_count: usize = expected.iter().map(|(_, _, n)| n).sum();
    assert!(expected_count > 100);
    assert_eq!(managed.len(), expected_count);
    for (g, p, _) in &expected {
        assert!(managed.iter().any(|(mg, mp, _)| mg == g && mp == p), "{p}.{g} found");
    }
    assert_eq!(provider_configs.len(), 2, "cluster and namespaced ProviderConfig");
    assert!(provider_configs.iter().any(|r| r["namespaced"] == true));
    assert!(provider_configs.iter().any(|r| r["namespaced"] == false));

    // multi-version group: v1beta2 preferred over v1beta1
    let bt = groups.iter().find(|g| g["name"] == "bigtable.gcp.upbound.io").unwrap();
    assert_eq!(bt["preferredVersion"]["version"], "v1beta2");

    let core = c.get_json("/api/v1");
    let core_names: Vec<&str> =
        core["resources"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    for n in ["pods", "pods/log", "pods/exec", "events", "namespaces"] {
        assert!(core_names.contains(&n), "{n}");
    }
    let pods = core["resources"].as_array().unwrap().iter().find(|r| r["name"] == "pods").unwrap();
    assert_eq!(pods["namespaced"], true);
    assert_eq!(pods["shortNames"], json!(["po"]));

    assert_eq!(c.get("/apis/nope.example.com/v1").status, 404);
    let r = c.get("/apis/gcp.upbound.io/v1beta1/nothings");
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["reason"], "NotFound");
}

#[test]
fn discovery_aggregated_from_real_crds() {
    let api = gcp_api();
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let r = c.request("GET", "/apis", &[("Accept", KUBE_AGGREGATED_ACCEPT)], None).unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"));
    let d = r.json();
    assert_eq!(d["kind"], "APIGroupDiscoveryList");
    assert_eq!(d["apiVersion"], "apidiscovery.k8s.io/v2");
    let mut managed = 0;
    let mut saw_multi = false;
    for g in d["items"].as_array().unwrap() {
        let group = g["metadata"]["name"].as_str().unwrap();
        let versions = g["versions"].as_array().unwrap();
        if group == "bigtable.gcp.upbound.io" {
            saw_multi = true;
            assert_eq!(versions[0]["version"], "v1beta2");
            assert_eq!(versions[1]["version"], "v1beta1");
        }
        for v in versions {
            assert_eq!(v["freshness"], "Current");
            for r in v["resources"].as_array().unwrap() {
                assert_eq!(r["responseKind"]["group"], group);
                assert_eq!(r["responseKind"]["version"], v["version"]);
                assert!(matches!(r["scope"].as_str(), Some("Namespaced" | "Cluster")));
                let cats = r["categories"].as_array().cloned().unwrap_or_default();
                if cats.contains(&json!("managed")) {
                    managed += 1;
                    let sub = &r["subresources"][0];
                    assert_eq!(sub["subresource"], "status");
                    assert_eq!(sub["responseKind"]["kind"], r["responseKind"]["kind"]);
                    assert_eq!(sub["verbs"], json!(["get", "patch", "update"]));
                    assert!(r["singularResource"].is_string());
                }
                if r["responseKind"]["kind"] == "ProviderConfig" {
                    assert!(cats.contains(&json!("providerconfig")) && !cats.contains(&json!("managed")));
                }
            }
        }
    }
    assert!(saw_multi);
    let expected: usize = crds_with_category(GCP, "managed").iter().map(|(_, _, n)| n).sum();
    assert_eq!(managed, expected);

    // v2beta1 only
    let r = c
        .request(
            "GET",
            "/apis",
            &[("Accept", "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList")],
            None,
        )
        .unwrap();
    assert_eq!(
        r.header("content-type"),
        Some("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList")
    );
    assert_eq!(r.json()["apiVersion"], "apidiscovery.k8s.io/v2beta1");

    // core
    let r = c.request("GET", "/api", &[("Accept", KUBE_AGGREGATED_ACCEPT)], None).unwrap();
    let core = r.json();
    assert_eq!(core["kind"], "APIGroupDiscoveryList");
    let res = core["items"][0]["versions"][0]["resources"].as_array().unwrap();
    let pods = res.iter().find(|r| r["resource"] == "pods").unwrap();
    assert_eq!(pods["scope"], "Namespaced");
    let subs: Vec<&str> =
        pods["subresources"].as_array().unwrap().iter().map(|s| s["subresource"].as_str().unwrap()).collect();
    assert_eq!(subs, vec!["exec", "log", "status"]);
    assert!(res.iter().any(|r| r["resource"] == "namespaces" && r["scope"] == "Cluster"));
    assert!(res.iter().any(|r| r["resource"] == "events"));

    // plain Accept still gets legacy
    let r = c.request("GET", "/apis", &[("Accept", "application/json")], None).unwrap();
    assert_eq!(r.json()["kind"], "APIGroupList");
}

#[test]
fn crds_added_later_show_up_and_are_listable() {
    let api = TestApi::new();
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let before = c.request("GET", "/apis", &[("Accept", KUBE_AGGREGATED_ACCEPT)], None).unwrap().json();
    assert_eq!(before["items"].as_array().unwrap().len(), 3, "only apps, apiextensions and rbac");
    api.add_crd_yaml(&std::fs::read_to_string(format!("{GCP}/gcp.upbound.io_providerconfigs.yaml")).unwrap()).unwrap();
    let after = c.request("GET", "/apis", &[("Accept", KUBE_AGGREGATED_ACCEPT)], None).unwrap().json();
    assert_eq!(after["items"].as_array().unwrap().len(), 4);
    let crds = c.get_json("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
    assert_eq!(crds["items"][0]["metadata"]["name"], "providerconfigs.gcp.upbound.io");
    assert_eq!(crds["items"][0]["spec"]["names"]["kind"], "ProviderConfig");
}

#[test]
fn pagination_limit_continue_1200() {
    let api = gcp_api();
    for ns in ["a", "b", "c"] {
        ensure_ns(&api, ns);
        for i in 0..400 {
            api.insert(envgroup(ns, &format!("eg-{i:04}"), json!({"i": i.to_string()})));
        }
    }
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let base = "/apis/apigee.gcp.m.upbound.io/v1beta1/envgroups";
    let mut seen = vec![];
    let mut cont: Option<String> = None;
    let mut pages = vec![];
    let mut rvs = BTreeSet::new();
    loop {
        let path = match &cont {
            Some(t) => format!("{base}?limit=500&continue={t}"),
            None => format!("{base}?limit=500"),
        };
        let v = c.get_json(&path);
        assert_eq!(v["kind"], "EnvgroupList");
        assert_eq!(v["apiVersion"], ENVGROUP_M);
        rvs.insert(v["metadata"]["resourceVersion"].as_str().unwrap().to_string());
        let items = v["items"].as_array().unwrap();
        for it in items {
            assert_eq!(it["kind"], "Envgroup");
            assert_eq!(it["apiVersion"], ENVGROUP_M);
            seen.push((
                it["metadata"]["namespace"].as_str().unwrap().to_string(),
                it["metadata"]["name"].as_str().unwrap().to_string(),
            ));
        }
        pages.push((items.len(), v["metadata"]["remainingItemCount"].as_u64()));
        match v["metadata"].get("continue").and_then(Value::as_str) {
            Some(t) => cont = Some(t.to_string()),
            None => break,
        }
    }
    assert_eq!(pages, vec![(500, Some(700)), (500, Some(200)), (200, None)]);
    assert_eq!(rvs.len(), 1, "all pages report the first page's resourceVersion");
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(seen, sorted, "ordered by namespace/name, no duplicates");
    assert_eq!(seen.len(), 1200);

    // namespaced pagination
    let v = c.get_json("/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/b/envgroups?limit=300");
    assert_eq!(v["items"].as_array().unwrap().len(), 300);
    assert_eq!(v["metadata"]["remainingItemCount"], 100);
    let t = v["metadata"]["continue"].as_str().unwrap();
    let v = c.get_json(&format!("/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/b/envgroups?limit=300&continue={t}"));
    assert_eq!(v["items"].as_array().unwrap().len(), 100);
    assert!(v["items"].as_array().unwrap().iter().all(|i| i["metadata"]["namespace"] == "b"));
    assert!(v["metadata"].get("continue").is_none());

    // no limit: everything
    let v = c.get_json(base);
    assert_eq!(v["items"].as_array().unwrap().len(), 1200);
    assert!(v["metadata"].get("continue").is_none());

    // garbage continue token
    let r = c.get(&format!("{base}?limit=5&continue=%%%garbage"));
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["reason"], "BadRequest");
}

#[test]
fn expired_continue_410() {
    let api = gcp_api();
    ensure_ns(&api, "x");
    for i in 0..30 {
        api.insert(envgroup("x", &format!("e{i:02}"), json!({})));
    }
    api.fault(Fault::ExpireContinue { path_contains: "envgroups".into(), times: Some(1) });
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let base = "/apis/apigee.gcp.m.upbound.io/v1beta1/envgroups";
    let first = c.get_json(&format!("{base}?limit=10"));
    let t = first["metadata"]["continue"].as_str().unwrap().to_string();
    let r = c.get(&format!("{base}?limit=10&continue={t}"));
    assert_eq!(r.status, 410);
    let s = r.json();
    assert_eq!(s["kind"], "Status");
    assert_eq!(s["apiVersion"], "v1");
    assert_eq!(s["status"], "Failure");
    assert_eq!(s["reason"], "Expired");
    assert_eq!(s["code"], 410);
    assert!(s["message"].as_str().unwrap().starts_with("The provided continue parameter is too old"));
    // used up: the same token works now
    let r = c.get(&format!("{base}?limit=10&continue={t}"));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["items"][0]["metadata"]["name"], "e10");
}

#[test]
fn label_and_field_selectors() {
    let api = gcp_api();
    ensure_ns(&api, "s");
    let mk = |name: &str, labels: Value| api.insert(envgroup("s", name, labels));
    mk("a", json!({"app": "web", "tier": "front"}));
    mk("b", json!({"app": "web", "tier": "back"}));
    mk("c", json!({"app": "db"}));
    mk("d", json!({}));
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let names = |c: &mut Client, sel: &str| -> Vec<String> {
        let v = c.get_json(&format!("/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/s/envgroups?{sel}"));
        v["items"].as_array().unwrap().iter().map(|i| i["metadata"]["name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(names(&mut c, "labelSelector=app%3Dweb"), ["a", "b"]);
    assert_eq!(names(&mut c, "labelSelector=app%3D%3Dweb"), ["a", "b"]);
    assert_eq!(names(&mut c, "labelSelector=app!%3Dweb"), ["c", "d"]);
    assert_eq!(names(&mut c, "labelSelector=tier"), ["a", "b"]);
    assert_eq!(names(&mut c, "labelSelector=!tier"), ["c", "d"]);
    assert_eq!(names(&mut c, "labelSelector=app+in+(db,web)"), ["a", "b", "c"]);
    assert_eq!(names(&mut c, "labelSelector=app%20notin%20(web)"), ["c", "d"]);
    assert_eq!(names(&mut c, "labelSelector=app%3Dweb,tier%3Dback"), ["b"]);
    assert_eq!(names(&mut c, "fieldSelector=metadata.name%3Dc"), ["c"]);
    assert_eq!(names(&mut c, "fieldSelector=metadata.name!%3Dc"), ["a", "b", "d"]);
    assert_eq!(names(&mut c, "fieldSelector=metadata.namespace%3Dother"), Vec::<String>::new());
    // selectors + pagination: pages fill up with matches, no remainingItemCount
    let v = c.get_json("/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/s/envgroups?labelSelector=app&limit=2");
    assert_eq!(v["items"].as_array().unwrap().len(), 2);
    assert!(v["metadata"]["continue"].is_string());
    assert!(v["metadata"].get("remainingItemCount").is_none());
    let r = c.get("/apis/apigee.gcp.m.upbound.io/v1beta1/envgroups?labelSelector=app%3D(");
    assert_eq!(r.status, 400);
    let r = c.get("/apis/apigee.gcp.m.upbound.io/v1beta1/envgroups?fieldSelector=spec.x%3D1");
    assert_eq!(r.status, 400);
    assert!(r.json()["message"].as_str().unwrap().contains("field label not supported"));
}

#[test]
fn events_field_selectors() {
    let api = TestApi::new();
    for (i, uid) in ["u1", "u2", "u1"].iter().enumerate() {
        api.insert(json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": format!("ev{i}"), "namespace": "default"},
            "involvedObject": {"kind": "Envgroup", "name": format!("obj-{uid}"), "uid": uid, "apiVersion": ENVGROUP_M},
            "reason": "CannotObserveExternalResource", "type": "Warning", "message": "boom",
        }));
    }
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let v = c.get_json("/api/v1/namespaces/default/events?fieldSelector=involvedObject.uid%3Du1");
    assert_eq!(v["kind"], "EventList");
    assert_eq!(v["apiVersion"], "v1");
    assert_eq!(v["items"].as_array().unwrap().len(), 2);
    assert!(v["items"][0].get("kind").is_none(), "core list items carry no kind, as in Kubernetes");
    let v = c.get_json("/api/v1/events?fieldSelector=involvedObject.name%3Dobj-u2,involvedObject.kind%3DEnvgroup");
    assert_eq!(v["items"].as_array().unwrap().len(), 1);
    let v = c.get_json("/api/v1/namespaces");
    assert_eq!(v["items"].as_array().unwrap().len(), 4);
}

#[test]
fn get_create_conflicts_and_patches() {
    let api = gcp_api();
    ensure_ns(&api, "p");
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let coll = "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/p/envgroups";
    let one = format!("{coll}/eg");

    let r = c.get(&one);
    assert_eq!(r.status, 404);
    let s = r.json();
    assert_eq!(s["reason"], "NotFound");
    assert_eq!(s["message"], "envgroups.apigee.gcp.m.upbound.io \"eg\" not found");
    assert_eq!(s["details"], json!({"name": "eg", "group": "apigee.gcp.m.upbound.io", "kind": "envgroups"}));

    let r = c.send("POST", coll, "application/json", &envgroup("p", "eg", json!({"a": "1"})));
    assert_eq!(r.status, 201, "{}", r.text());
    let created = r.json();
    assert_eq!(created["metadata"]["generation"], 1);
    assert!(created["metadata"]["uid"].as_str().unwrap().len() == 36);
    let rv1 = created["metadata"]["resourceVersion"].as_str().unwrap().to_string();

    let r = c.send("POST", coll, "application/json", &envgroup("p", "eg", json!({})));
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["reason"], "AlreadyExists");

    let r = c.send(
        "POST",
        "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/missing/envgroups",
        "application/json",
        &envgroup("missing", "eg", json!({})),
    );
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["message"], "namespaces \"missing\" not found");

    // merge patch of spec: new rv, generation bump
    let r = c.send("PATCH", &one, "application/merge-patch+json", &json!({"spec": {"forProvider": {"hostnames": ["b.example.com"]}}, "metadata": {"labels": {"a": null, "b": "2"}}}));
    assert_eq!(r.status, 200, "{}", r.text());
    let p = r.json();
    assert_eq!(p["metadata"]["generation"], 2);
    assert_eq!(p["metadata"]["labels"], json!({"b": "2"}));
    assert_eq!(p["spec"]["forProvider"]["hostnames"], json!(["b.example.com"]));
    let rv2 = p["metadata"]["resourceVersion"].as_str().unwrap().to_string();
    assert_ne!(rv1, rv2);

    // label-only patch: no generation bump
    let p = c.send("PATCH", &one, "application/merge-patch+json", &json!({"metadata": {"labels": {"c": "3"}}})).json();
    assert_eq!(p["metadata"]["generation"], 2);
    let rv3 = p["metadata"]["resourceVersion"].as_str().unwrap().to_string();

    // merge patch carrying a stale resourceVersion → 409 Conflict
    let r = c.send(
        "PATCH",
        &one,
        "application/merge-patch+json",
        &json!({"metadata": {"resourceVersion": rv1}, "spec": {"x": 1}}),
    );
    assert_eq!(r.status, 409);
    let s = r.json();
    assert_eq!(s["reason"], "Conflict");
    assert_eq!(
        s["message"],
        "Operation cannot be fulfilled on envgroups.apigee.gcp.m.upbound.io \"eg\": the object has been modified; please apply your changes to the latest version and try again"
    );
    assert_eq!(s["details"]["kind"], "envgroups");
    // ... with the current one it applies
    let r = c.send(
        "PATCH",
        &one,
        "application/merge-patch+json",
        &json!({"metadata": {"resourceVersion": rv3}, "spec": {"x": 1}}),
    );
    assert_eq!(r.status, 200);

    // PUT with stale rv → 409; without rv → 422; with current → 200
    let mut obj = api.get(ENVGROUP_M, "Envgroup", Some("p"), "eg").unwrap();
    let cur_rv = obj["metadata"]["resourceVersion"].clone();
    obj["metadata"]["resourceVersion"] = json!(rv1);
    assert_eq!(c.send("PUT", &one, "application/json", &obj).status, 409);
    obj["metadata"].as_object_mut().unwrap().remove("resourceVersion");
    let r = c.send("PUT", &one, "application/json", &obj);
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["reason"], "Invalid");
    obj["metadata"]["resourceVersion"] = cur_rv;
    obj["spec"]["y"] = json!(true);
    let r = c.send("PUT", &one, "application/json", &obj);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["metadata"]["generation"], 4);

    // JSON patch: test op failure → 422 Invalid; success applies
    let r = c.send(
        "PATCH",
        &one,
        "application/json-patch+json",
        &json!([{"op": "test", "path": "/spec/y", "value": false}, {"op": "remove", "path": "/spec/y"}]),
    );
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["reason"], "Invalid");
    let r = c.send(
        "PATCH",
        &one,
        "application/json-patch+json",
        &json!([{"op": "test", "path": "/spec/y", "value": true}, {"op": "remove", "path": "/spec/y"}]),
    );
    assert_eq!(r.status, 200);
    assert!(r.json()["spec"].get("y").is_none());
    // strategic merge is not for custom resources
    assert_eq!(c.send("PATCH", &one, "application/strategic-merge-patch+json", &json!({})).status, 415);

    // delete with a finalizer: marked, then gone when the finalizer is removed
    c.send(
        "PATCH",
        &one,
        "application/merge-patch+json",
        &json!({"metadata": {"finalizers": ["finalizer.managedresource.crossplane.io"]}}),
    );
    let r = c.request("DELETE", &one, &[], None).unwrap();
    assert_eq!(r.status, 200);
    assert!(r.json()["metadata"]["deletionTimestamp"].is_string());
    assert!(api.get(ENVGROUP_M, "Envgroup", Some("p"), "eg").is_some());
    let r = c.send("PATCH", &one, "application/merge-patch+json", &json!({"metadata": {"finalizers": null}}));
    assert_eq!(r.status, 200);
    assert!(api.get(ENVGROUP_M, "Envgroup", Some("p"), "eg").is_none());
    assert_eq!(c.request("DELETE", &one, &[], None).unwrap().status, 404);
}

#[test]
fn status_subresource() {
    let api = gcp_api();
    ensure_ns(&api, "st");
    let mut o = envgroup("st", "eg", json!({}));
    o["status"] = json!({"conditions": [{"type": "Ready", "status": "False"}]});
    api.insert(o);
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let one = "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/st/envgroups/eg";

    // main resource ignores status changes
    let r = c.send(
        "PATCH",
        one,
        "application/merge-patch+json",
        &json!({"status": {"conditions": [{"type": "Ready", "status": "True"}]}}),
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"]["conditions"][0]["status"], "False");

    // status subresource changes only status
    let r = c.send(
        "PATCH",
        &format!("{one}/status"),
        "application/merge-patch+json",
        &json!({"spec": {"changed": true}, "status": {"atProvider": {"id": "x"}}}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["status"]["atProvider"]["id"], "x");
    assert!(v["spec"].get("changed").is_none());
    assert_eq!(v["metadata"]["generation"], 1);

    let v = c.get_json(&format!("{one}/status"));
    assert_eq!(v["kind"], "Envgroup");
    assert_eq!(v["status"]["atProvider"]["id"], "x");

    // PUT status
    let mut obj = v.clone();
    obj["status"] = json!({"conditions": [{"type": "Synced", "status": "True"}]});
    obj["spec"] = json!({"ignored": 1});
    let r = c.send("PUT", &format!("{one}/status"), "application/json", &obj);
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["status"]["conditions"][0]["type"], "Synced");
    assert!(v["spec"].get("ignored").is_none());

    // no status subresource on namespaces/... paths that do not exist
    assert_eq!(c.get(&format!("{one}/scale")).status, 404);
}

#[test]
fn dry_run_stores_nothing() {
    let api = gcp_api();
    ensure_ns(&api, "d");
    api.insert(envgroup("d", "keep", json!({"v": "1"})));
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let coll = "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/d/envgroups";
    let rv_before = api.resource_version();

    let r = c.send("POST", &format!("{coll}?dryRun=All"), "application/json", &envgroup("d", "new", json!({})));
    assert_eq!(r.status, 201);
    assert_eq!(r.json()["metadata"]["name"], "new");
    assert!(api.get(ENVGROUP_M, "Envgroup", Some("d"), "new").is_none());

    let r = c.send(
        "PATCH",
        &format!("{coll}/keep?dryRun=All"),
        "application/merge-patch+json",
        &json!({"metadata": {"labels": {"v": "2"}}}),
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["metadata"]["labels"]["v"], "2");
    assert_eq!(api.get(ENVGROUP_M, "Envgroup", Some("d"), "keep").unwrap()["metadata"]["labels"]["v"], "1");

    // dry-run still validates
    let r = c.send(
        "PATCH",
        &format!("{coll}/keep?dryRun=All"),
        "application/merge-patch+json",
        &json!({"metadata": {"resourceVersion": "1"}}),
    );
    assert_eq!(r.status, 409);

    let r = c.request("DELETE", &format!("{coll}/keep?dryRun=All"), &[], None).unwrap();
    assert_eq!(r.status, 200);
    let r = c
        .request(
            "DELETE",
            &format!("{coll}/keep"),
            &[("Content-Type", "application/json")],
            Some(br#"{"dryRun":["All"]}"#),
        )
        .unwrap();
    assert_eq!(r.status, 200);
    assert!(api.get(ENVGROUP_M, "Envgroup", Some("d"), "keep").is_some());
    assert_eq!(api.resource_version(), rv_before);
}

#[test]
fn pod_logs() {
    let api = TestApi::new();
    api.insert(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "provider-gcp-abc", "namespace": "crossplane-system"},
        "spec": {"containers": [{"name": "package-runtime"}, {"name": "sidecar"}]}}));
    api.set_pod_log(
        "crossplane-system",
        "provider-gcp-abc",
        "package-runtime",
        false,
        "line one\nline two\nline three",
    );
    api.set_pod_log(
        "crossplane-system",
        "provider-gcp-abc",
        "package-runtime",
        true,
        "2020-01-01T00:00:00Z crashed before\n",
    );
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let base = "/api/v1/namespaces/crossplane-system/pods/provider-gcp-abc/log";

    let r = c.get(&format!("{base}?container=package-runtime"));
    assert_eq!(r.status, 200);
    assert_eq!(r.text(), "line one\nline two\nline three\n");
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));

    let r = c.get(&format!("{base}?container=package-runtime&previous=true"));
    assert_eq!(r.text(), "crashed before\n");
    let r = c.get(&format!("{base}?container=package-runtime&previous=true&timestamps=true"));
    assert_eq!(r.text(), "2020-01-01T00:00:00.000000000Z crashed before\n");
    let r = c.get(&format!("{base}?container=package-runtime&previous=true&sinceSeconds=60"));
    assert_eq!(r.text(), "");

    let r = c.get(&format!("{base}?container=sidecar&previous=true"));
    assert_eq!(r.status, 400);
    let s = r.json();
    assert_eq!(s["reason"], "BadRequest");
    assert_eq!(s["message"], "previous terminated container \"sidecar\" in pod \"provider-gcp-abc\" not found");

    let r = c.get(&format!("{base}?container=package-runtime&limitBytes=8"));
    assert_eq!(r.text(), "line one");
    let r = c.get(&format!("{base}?container=package-runtime&tailLines=1"));
    assert_eq!(r.text(), "line three\n");
    let r = c.get(&format!("{base}?container=package-runtime&timestamps=true"));
    assert!(r.text().lines().all(|l| l.len() > 31 && l.as_bytes()[29] == b'Z'), "{}", r.text());

    let r = c.get(base);
    assert_eq!(r.status, 400);
    assert!(r.json()["message"].as_str().unwrap().contains("a container name must be specified"));
    assert_eq!(c.get(&format!("{base}?container=nope")).status, 400);
    let r = c.get("/api/v1/namespaces/crossplane-system/pods/missing/log");
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["message"], "pods \"missing\" not found");
}

#[test]
fn faults_429_403_delay_reset() {
    let api = gcp_api();
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let path = "/apis/apigee.gcp.upbound.io/v1beta1/envgroups";

    api.fault(Fault::Status {
        method: Some(Method::GET),
        path_contains: "envgroups".into(),
        code: 429,
        reason: "TooManyRequests".into(),
        times: Some(2),
        retry_after_secs: Some(3),
    });
    for _ in 0..2 {
        let r = c.get(path);
        assert_eq!(r.status, 429);
        assert_eq!(r.header("retry-after"), Some("3"));
        let s = r.json();
        assert_eq!(s["reason"], "TooManyRequests");
        assert_eq!(s["details"]["retryAfterSeconds"], 3);
        assert_eq!(s["code"], 429);
    }
    assert_eq!(c.get(path).status, 200, "fault used up");

    api.fault(Fault::Status {
        method: None,
        path_contains: "/envgroups".into(),
        code: 403,
        reason: "Forbidden".into(),
        times: None,
        retry_after_secs: None,
    });
    let r = c.get(path);
    assert_eq!(r.status, 403);
    let s = r.json();
    assert_eq!(s["reason"], "Forbidden");
    assert_eq!(
        s["message"],
        "envgroups.apigee.gcp.upbound.io is forbidden: User \"test\" cannot list resource \"envgroups\" in API group \"apigee.gcp.upbound.io\" at the cluster scope"
    );
    assert_eq!(s["details"], json!({"group": "apigee.gcp.upbound.io", "kind": "envgroups"}));
    assert!(r.header("retry-after").is_none());
    assert_eq!(c.get(path).status, 403, "times: None never runs out");
    api.clear_faults();

    api.fault(Fault::Status {
        method: None,
        path_contains: "/apis/apigee".into(),
        code: 503,
        reason: "ServiceUnavailable".into(),
        times: Some(1),
        retry_after_secs: None,
    });
    let r = c.get(path);
    assert_eq!(r.status, 503);
    assert_eq!(r.header("retry-after"), Some("1"));

    api.fault(Fault::Delay { path_contains: "envgroups".into(), millis: 150 });
    let t = std::time::Instant::now();
    assert_eq!(c.get(path).status, 200);
    assert!(t.elapsed() >= std::time::Duration::from_millis(150));
    api.clear_faults();

    api.fault(Fault::ResetConnection { path_contains: "envgroups".into(), times: Some(1) });
    assert!(c.request("GET", path, &[], None).is_err(), "connection dropped without a response");
    assert_eq!(c.get(path).status, 200);

    let st = api.stats();
    assert_eq!(st.requests, 9);
    assert_eq!(st.class("list"), 9);
    assert!(st.response_bytes > 0);
    assert!(st.max_in_flight >= 1);
    assert_eq!(st.recent.last().unwrap(), &("GET".to_string(), path.to_string()));
}

#[test]
fn faults_cut_bodies_and_chance() {
    let api = gcp_api();
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let path = "/apis/apigee.gcp.upbound.io/v1beta1/envgroups";
    let whole = c.get(path).body;

    // Framed: a complete, shorter response whose JSON is cut.
    api.fault(Fault::CutBody { path_contains: "envgroups".into(), times: Some(1), framed: true });
    let r = c.get(path);
    assert_eq!(r.status, 200);
    assert!(r.body.len() < whole.len() && whole.starts_with(&r.body), "a prefix of the whole body");
    assert!(serde_json::from_slice::<serde_json::Value>(&r.body).is_err());

    // Unframed: the full Content-Length is announced, then the connection closes after a prefix.
    api.fault(Fault::CutBody { path_contains: "envgroups".into(), times: Some(1), framed: false });
    let err = c.request("GET", path, &[], None).expect_err("body cut off before its announced length");
    assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
    assert_eq!(c.get(path).body, whole, "fault used up");

    // Chance: the same seed fires on the same requests; 0 % never, 100 % always.
    let fired = |seed: u64, percent: u8| -> Vec<bool> {
        api.clear_faults();
        let status = Fault::Status {
            method: None,
            path_contains: "envgroups".into(),
            code: 500,
            reason: "InternalError".into(),
            times: None,
            retry_after_secs: None,
        };
        api.fault(Fault::Chance { percent, seed, fault: Box::new(status) });
        let mut c = Client::new(&srv.url);
        (0..40).map(|_| c.get(path).status == 500).collect()
    };
    let a = fired(7, 30);
    assert_eq!(a, fired(7, 30), "replayable");
    let n = a.iter().filter(|f| **f).count();
    assert!((4..=20).contains(&n), "about 30 % of 40: {n}");
    assert!(fired(7, 0).iter().all(|f| !f) && fired(7, 100).iter().all(|f| *f));
    api.clear_faults();
}

#[test]
fn on_write_hook_simulates_controller() {
    let api = gcp_api();
    ensure_ns(&api, "h");
    api.insert(envgroup("h", "eg", json!({})));
    api.on_write(|obj| {
        if obj["metadata"]["annotations"]["crossplane.io/paused"] != "true" {
            obj["status"] = json!({"conditions": [{"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]});
        }
    });
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let one = "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/h/envgroups/eg";
    let r = c.send("PATCH", one, "application/merge-patch+json", &json!({"metadata": {"labels": {"x": "y"}}}));
    assert_eq!(r.status, 200);
    assert!(r.json().get("status").is_none(), "response is the pre-hook object");
    let v = c.get_json(one);
    assert_eq!(v["status"]["conditions"][0]["reason"], "ReconcileSuccess");
    assert_eq!(v["metadata"]["labels"]["x"], "y");
    // dry-run does not trigger the hook
    let r = c.send(
        "PATCH",
        &format!("{one}?dryRun=All"),
        "application/merge-patch+json",
        &json!({"metadata": {"labels": {"z": "1"}}}),
    );
    assert_eq!(r.status, 200);
}

#[test]
fn kubeconfig_and_misc_endpoints() {
    let api = TestApi::new();
    let srv = api.start_blocking().unwrap();
    let dir = std::env::temp_dir().join(format!("testapi-kc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kc = dir.join("config");
    srv.write_kubeconfig(&kc, Some("team-a")).unwrap();
    let text = std::fs::read_to_string(&kc).unwrap();
    assert!(text.contains(&format!("server: {}", srv.url)));
    assert!(text.contains("token: test-token"));
    assert!(text.contains("namespace: \"team-a\""));
    assert!(text.contains("current-context: test"));
    let mut c = Client::new(&srv.url);
    assert_eq!(c.get_json("/version")["major"], "1");
    let r = c.get("/no/such/path");
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["kind"], "Status");
    let r = c.request("POST", "/api/v1/namespaces/default/pods/p/exec?command=ls", &[], None).unwrap();
    assert_eq!(r.status, 400);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stop_on_drop() {
    let api = TestApi::new();
    let srv = api.start_blocking().unwrap();
    let url = srv.url.clone();
    drop(srv);
    let mut c = Client::new(&url);
    assert!(c.request("GET", "/api", &[], None).is_err());
}

#[tokio::test]
async fn async_start_serves_while_blocked() {
    let api = TestApi::new();
    let srv = api.start().await.unwrap();
    // A blocking client on the test's (current-thread) runtime still gets answers.
    let mut c = Client::new(&srv.url);
    assert_eq!(c.get("/api").status, 200);
    let _ = BTreeMap::<u8, u8>::new();
}

const WIDGETS: &str = r#"
apiVersion: v1
kind: ConfigMap
metadata:
  name: ignored
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    listKind: WidgetList
    plural: widgets
    singular: widget
    shortNames: [wd]
    categories: [all, managed]
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - name: COLOR
      type: string
      jsonPath: .spec.color
    - name: SIZE
      type: integer
      jsonPath: .spec.size
      priority: 1
    schema:
      openAPIV3Schema:
        type: object
  - name: v2
    served: false
    storage: false
"#;

#[test]
fn inline_crd_versions_deprecation_and_no_status_subresource() {
    let api = TestApi::new();
    api.add_crd_yaml(WIDGETS).unwrap();
    api.insert(json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "default"}, "spec": {"color": "red", "size": 3}, "status": {"ok": false}}));
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let g = c.get_json("/apis/example.com");
    assert_eq!(g["preferredVersion"]["version"], "v1");
    let versions: Vec<&str> =
        g["versions"].as_array().unwrap().iter().map(|v| v["version"].as_str().unwrap()).collect();
    assert_eq!(versions, ["v1", "v1alpha1"], "v2 is not served");
    assert_eq!(c.get("/apis/example.com/v2/widgets").status, 404);
    let rl = c.get_json("/apis/example.com/v1");
    assert_eq!(rl["resources"].as_array().unwrap().len(), 1, "no status subresource");
    assert_eq!(rl["resources"][0]["shortNames"], json!(["wd"]));

    // the same object through both served versions
    let r = c.get("/apis/example.com/v1alpha1/namespaces/default/widgets/w");
    assert_eq!(r.json()["apiVersion"], "example.com/v1alpha1");
    assert_eq!(r.header("warning"), Some("299 - \"example.com/v1alpha1 Widget is deprecated\""));
    assert!(c.get("/apis/example.com/v1/namespaces/default/widgets/w").header("warning").is_none());

    // without a status subresource, status is written through the main resource and bumps generation
    let r = c.send(
        "PATCH",
        "/apis/example.com/v1/namespaces/default/widgets/w",
        "application/merge-patch+json",
        &json!({"status": {"ok": true}}),
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"]["ok"], true);
    assert_eq!(r.json()["metadata"]["generation"], 2);
    assert_eq!(c.get("/apis/example.com/v1/namespaces/default/widgets/w/status").status, 404);

    // server-side printing from additionalPrinterColumns
    let accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
    let r = c.request("GET", "/apis/example.com/v1/namespaces/default/widgets", &[("Accept", accept)], None).unwrap();
    assert_eq!(r.header("content-type"), Some("application/json;as=Table;v=v1;g=meta.k8s.io"));
    let t = r.json();
    assert_eq!(t["kind"], "Table");
    let cols: Vec<&str> =
        t["columnDefinitions"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(cols, ["Name", "COLOR", "SIZE"]);
    assert_eq!(t["columnDefinitions"][2]["priority"], 1);
    assert_eq!(t["rows"][0]["cells"], json!(["w", "red", 3]));
    assert_eq!(t["rows"][0]["object"]["kind"], "PartialObjectMetadata");
    assert_eq!(t["rows"][0]["object"]["metadata"]["namespace"], "default");
    // v1alpha1 has no columns: Name + Age
    let r = c
        .request("GET", "/apis/example.com/v1alpha1/namespaces/default/widgets/w", &[("Accept", accept)], None)
        .unwrap();
    let t = r.json();
    assert_eq!(t["columnDefinitions"][1]["name"], "Age");
    assert!(t["rows"][0]["cells"][1].as_str().unwrap().ends_with('s'));
}

#[test]
fn table_for_upjet_columns() {
    let api = gcp_api();
    ensure_ns(&api, "t");
    let mut o = envgroup("t", "eg", json!({}));
    o["metadata"]["annotations"] = json!({"crossplane.io/external-name": "organizations/1/envgroups/eg"});
    o["status"] = json!({"conditions": [{"type": "Ready", "status": "True"}, {"type": "Synced", "status": "False"}]});
    api.insert(o);
    api.insert(envgroup("t", "fresh", json!({})));
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let r = c
        .request(
            "GET",
            "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/t/envgroups?limit=500",
            &[("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")],
            None,
        )
        .unwrap();
    let t = r.json();
    let cols: Vec<&str> =
        t["columnDefinitions"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(cols, ["Name", "SYNCED", "READY", "EXTERNAL-NAME", "AGE"]);
    let cells = t["rows"][0]["cells"].as_array().unwrap();
    assert_eq!(cells[0..4], [json!("eg"), json!("False"), json!("True"), json!("organizations/1/envgroups/eg")]);
    assert!(cells[4].as_str().unwrap().ends_with('s'));
    assert_eq!(t["rows"][1]["cells"][1], Value::Null, "missing values are null cells");
}

#[test]
fn concurrent_clients() {
    let api = gcp_api();
    ensure_ns(&api, "c");
    for i in 0..300 {
        api.insert(envgroup("c", &format!("e{i:03}"), json!({})));
    }
    api.fault(Fault::Delay { path_contains: "limit=7".into(), millis: 20 });
    let srv = api.start_blocking().unwrap();
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let url = srv.url.clone();
            std::thread::spawn(move || {
                let mut c = Client::new(&url);
                let mut n = 0;
                for _ in 0..10 {
                    let v = c.get_json("/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/c/envgroups?limit=7");
                    n += v["items"].as_array().unwrap().len();
                }
                n
            })
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap(), 70);
    }
    let st = api.stats();
    assert_eq!(st.class("list"), 80);
    assert!(st.max_in_flight > 1, "requests overlapped: {}", st.max_in_flight);
}

/// RBAC on: unknown tokens are 401, a user gets exactly what its bindings grant (an aggregated
/// ClusterRole holds the rules of the roles its selector matches), and a denial carries the
/// apiserver's own message.
#[test]
fn rbac_grants_what_bindings_say_and_denies_like_the_apiserver() {
    let api = TestApi::new();
    api.enable_rbac();
    api.add_user("jane-token", "jane", &["team-a"]);
    api.insert(
        serde_json::json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "default"}}),
    );
    api.insert(serde_json::json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "reader"}, "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"x/read": "true"}}]}}));
    api.insert(serde_json::json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "pods-read", "labels": {"x/read": "true"}},
        "rules": [{"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list"]}]}));
    api.insert(serde_json::json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
        "metadata": {"name": "team-a-reader"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "reader"},
        "subjects": [{"kind": "Group", "name": "team-a", "apiGroup": "rbac.authorization.k8s.io"}]}));
    let srv = api.start_blocking().unwrap();
    assert_eq!(Client::with_token(&srv.url, "nobody").get("/api/v1/pods").status, 401);
    let mut jane = Client::with_token(&srv.url, "jane-token");
    assert_eq!(jane.get("/api/v1/pods").status, 200, "aggregated rule");
    let denied = jane.get("/api/v1/namespaces/default/secrets/s");
    assert_eq!(denied.status, 403);
    assert_eq!(
        denied.json()["message"],
        "secrets \"s\" is forbidden: User \"jane\" cannot get resource \"secrets\" in API group \"\" in the namespace \"default\""
    );
    let listed = jane.get("/apis/rbac.authorization.k8s.io/v1/clusterroles");
    assert_eq!(
        listed.json()["message"],
        "clusterroles.rbac.authorization.k8s.io is forbidden: User \"jane\" cannot list resource \"clusterroles\" in API group \"rbac.authorization.k8s.io\" at the cluster scope"
    );
    assert_eq!(jane.get("/apis").json()["message"], "forbidden: User \"jane\" cannot get path \"/apis\"");
    assert_eq!(Client::new(&srv.url).get("/api/v1/namespaces/default/secrets/s").status, 200, "the admin token");
}

#[test]
fn version_answers_what_the_test_sets() {
    let api = TestApi::new();
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    assert_eq!(c.get_json("/version")["gitVersion"], "v1.32.0");
    api.set_version("1", "29+", "v1.29.8-gke.1031000");
    let v = c.get_json("/version");
    assert_eq!((v["major"].as_str(), v["minor"].as_str()), (Some("1"), Some("29+")));
    assert_eq!(v["gitVersion"], "v1.29.8-gke.1031000");
}

/// A test's admission hook sees each create and update of a custom resource, with its
/// requester, before it is stored, and may refuse it with its own status; `allows` answers as
/// the RBAC authorizer does; apps/v1 Deployments are served like any built-in.
#[test]
fn admission_hooks_refuse_writes_with_the_requester_and_allows_answers_as_rbac() {
    let api = gcp_api();
    ensure_ns(&api, "h");
    api.insert(envgroup("h", "eg", json!({})));
    api.insert(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": "edit"}, "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]}));
    api.insert(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": "jane-edit", "namespace": "h"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "edit"},
        "subjects": [{"kind": "User", "name": "jane", "apiGroup": "rbac.authorization.k8s.io"}]}));
    api.enable_rbac();
    api.add_user("jane-token", "jane", &[]);
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    api.on_admit(move |req| {
        let user = req.user.map(|u| u.name.clone()).unwrap_or_default();
        log.lock().unwrap().push((req.operation.to_string(), user, req.old_object.is_some()));
        (req.object["metadata"]["labels"]["refuse"] == "yes").then(|| testapi::Denial {
            code: 403,
            reason: "Forbidden".into(),
            message: "envgroups \"eg\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'p' denied request: no"
                .into(),
        })
    });
    let srv = api.start_blocking().unwrap();
    let mut jane = Client::with_token(&srv.url, "jane-token");
    let one = "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/h/envgroups/eg";
    let refused =
        jane.send("PATCH", one, "application/merge-patch+json", &json!({"metadata": {"labels": {"refuse": "yes"}}}));
    assert_eq!((refused.status, refused.json()["reason"].as_str()), (403, Some("Forbidden")));
    assert!(refused.json()["message"].as_str().unwrap().ends_with("denied request: no"));
    assert!(api.get(ENVGROUP_M, "Envgroup", Some("h"), "eg").unwrap()["metadata"]["labels"]["refuse"].is_null());
    let ok =
        jane.send("PATCH", one, "application/merge-patch+json", &json!({"metadata": {"labels": {"refuse": "no"}}}));
    assert_eq!(ok.status, 200);
    let created = jane.send(
        "POST",
        "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/h/envgroups",
        "application/json",
        &envgroup("h", "two", json!({})),
    );
    assert_eq!(created.status, 201);
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            ("UPDATE".to_string(), "jane".to_string(), true),
            ("UPDATE".into(), "jane".into(), true),
            ("CREATE".into(), "jane".into(), false)
        ]
    );
    let jane_user = testapi::User { name: "jane".into(), groups: vec!["system:authenticated".into()] };
    assert!(
        api.allows(&jane_user, "declare", "guard.kubectl-upjet.io", "identitychanges", Some("h")),
        "a wildcard rule"
    );
    assert!(
        !api.allows(&jane_user, "declare", "guard.kubectl-upjet.io", "identitychanges", None),
        "a RoleBinding is no cluster-wide grant"
    );
    let d = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "p", "namespace": "h"}, "spec": {"replicas": 0}});
    api.insert(d);
    let listed = Client::new(&srv.url).get_json("/apis/apps/v1/deployments?limit=500");
    assert_eq!(listed["items"][0]["spec"]["replicas"], 0);
}

/// Deleting a CRD as kube-apiserver does: Terminating (its cleanup finalizer, `deletionTimestamp`,
/// the `Terminating` condition), its objects deleted (one holding a finalizer only marked), new
/// ones refused; it is still served until its last object is gone, then it goes too.
#[test]
fn a_crd_being_deleted_stays_terminating_until_its_last_object_goes() {
    let api = gcp_api();
    ensure_ns(&api, "d");
    let mut held = envgroup("d", "held", json!({}));
    held["metadata"]["finalizers"] = json!(["finalizer.managedresource.crossplane.io"]);
    api.insert(held);
    api.insert(envgroup("d", "free", json!({})));
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let crd = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/envgroups.apigee.gcp.m.upbound.io";
    let collection = "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/d/envgroups";

    let r = c.request("DELETE", crd, &[], None).unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    let terminating = c.get_json(crd);
    assert!(terminating["metadata"]["deletionTimestamp"].is_string(), "{terminating:#}");
    assert_eq!(terminating["metadata"]["finalizers"], json!(["customresourcecleanup.apiextensions.k8s.io"]));
    let conditions = terminating["status"]["conditions"].as_array().unwrap();
    assert!(conditions.iter().any(|c| c["type"] == "Terminating" && c["status"] == "True"), "{conditions:?}");

    let held = api.get(ENVGROUP_M, "Envgroup", Some("d"), "held").expect("held by its finalizer");
    assert!(held["metadata"]["deletionTimestamp"].is_string());
    assert!(api.get(ENVGROUP_M, "Envgroup", Some("d"), "free").is_none(), "no finalizer: gone at once");
    assert_eq!(c.get(collection).status, 200, "still served while Terminating");
    let r = c.send("POST", collection, "application/json", &envgroup("d", "new", json!({})));
    assert_eq!(r.status, 405, "{}", r.text());
    assert_eq!(r.json()["message"], "create not allowed while custom resource definition is terminating");

    let one = format!("{collection}/held");
    let r = c.send("PATCH", &one, "application/merge-patch+json", &json!({"metadata": {"finalizers": null}}));
    assert_eq!(r.status, 200);
    assert_eq!(c.get(crd).status, 404, "its last object gone, the CRD goes");
    assert_eq!(c.get(collection).status, 404, "and is no longer served");
}
