//! Server-side apply and managed fields through the real kube client: an apply owns exactly its
//! body, an update owns what it changed, a conflicting apply is refused unless forced, and a
//! field an applier stops sending goes.

use crate::common::{Client, GCP};
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, Patch, PatchParams};
use serde_json::{Value, json};
use std::path::Path;
use testapi::TestApi;

const AV: &str = "apigee.gcp.m.upbound.io/v1beta1";
const COMPOSITE: &str = "apiextensions.crossplane.io/composed/5c0a9e0d1f2b";
const EXTERNAL_NAME: &str = "crossplane.io/external-name";

fn api() -> TestApi {
    let api = TestApi::new();
    api.add_crds_from_dir(Path::new(GCP)).unwrap();
    api.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}));
    api
}

async fn envgroups(url: &str) -> Api<DynamicObject> {
    let config = kube::Config::new(url.parse().unwrap());
    let client = kube::Client::try_from(config).unwrap();
    let gvk = GroupVersionKind::gvk("apigee.gcp.m.upbound.io", "v1beta1", "Envgroup");
    Api::namespaced_with(client, "team-a", &ApiResource::from_gvk_with_plural(&gvk, "envgroups"))
}

/// What the composite applies: the external-name it patches from the XR, and a spec field.
fn composed(id: Option<&str>) -> Value {
    let mut meta = json!({"name": "eg"});
    if let Some(id) = id {
        meta["annotations"] = json!({EXTERNAL_NAME: id});
    }
    json!({"apiVersion": AV, "kind": "Envgroup", "metadata": meta, "spec": {"forProvider": {"hostnames": ["a.example.com"]}}})
}

/// `(manager, operation)` of every managed-fields entry owning the external-name.
fn owners_of_external_name(obj: &Value) -> Vec<(String, String)> {
    let key = format!("f:{EXTERNAL_NAME}");
    obj["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["fieldsV1"]["f:metadata"]["f:annotations"].get(&key).is_some())
        .map(|e| (e["manager"].as_str().unwrap().to_string(), e["operation"].as_str().unwrap().to_string()))
        .collect()
}

fn stored(api: &TestApi) -> Value {
    api.get(AV, "Envgroup", Some("team-a"), "eg").expect("stored")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forced_apply_takes_back_the_external_name_an_update_wrote_and_an_unforced_one_is_refused() {
    let api = api();
    let srv = api.start().await.unwrap();
    let eg = envgroups(&srv.url).await;
    let force = PatchParams::apply(COMPOSITE).force();
    eg.patch("eg", &force, &Patch::Apply(composed(Some("id-1")))).await.unwrap();
    let obj = stored(&api);
    let entry = &obj["metadata"]["managedFields"][0];
    assert_eq!(entry["manager"], COMPOSITE);
    assert_eq!(entry["operation"], "Apply");
    assert_eq!(entry["apiVersion"], AV);
    assert_eq!(entry["fieldsType"], "FieldsV1");
    assert!(entry["time"].is_string());
    assert_eq!(
        entry["fieldsV1"],
        json!({"f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {}}}, "f:spec": {"f:forProvider": {"f:hostnames": {}}}})
    );

    // A repair writes the ID as a merge patch: an Update that takes the field from the composite.
    let repair = PatchParams { field_manager: Some("kubectl-upjet".into()), ..Default::default() };
    eg.patch("eg", &repair, &Patch::Merge(json!({"metadata": {"annotations": {EXTERNAL_NAME: "id-2"}}})))
        .await
        .unwrap();
    assert_eq!(owners_of_external_name(&stored(&api)), vec![("kubectl-upjet".to_string(), "Update".to_string())]);

    // The composite's next apply without force conflicts, and changes nothing.
    let err = eg.patch("eg", &PatchParams::apply(COMPOSITE), &Patch::Apply(composed(Some("id-1")))).await.unwrap_err();
    let kube::Error::Api(status) = err else { panic!("not an API error: {err}") };
    assert_eq!((status.code, status.reason.as_str()), (409, "Conflict"));
    let prefix = format!("Apply failed with 1 conflict: conflict with \"kubectl-upjet\" using {AV} at ");
    assert!(status.message.starts_with(&prefix), "{}", status.message);
    assert!(status.message.ends_with(": .metadata.annotations.crossplane.io/external-name"), "{}", status.message);
    assert_eq!(stored(&api)["metadata"]["annotations"][EXTERNAL_NAME], "id-2");

    // With force (as Crossplane composes) the old ID is back and the composite owns it again.
    eg.patch("eg", &force, &Patch::Apply(composed(Some("id-1")))).await.unwrap();
    let obj = stored(&api);
    assert_eq!(obj["metadata"]["annotations"][EXTERNAL_NAME], "id-1");
    assert_eq!(owners_of_external_name(&obj), vec![(COMPOSITE.to_string(), "Apply".to_string())]);
    let managers: Vec<&str> =
        obj["metadata"]["managedFields"].as_array().unwrap().iter().map(|e| e["manager"].as_str().unwrap()).collect();
    assert_eq!(managers, vec![COMPOSITE], "the repair's entry owned nothing more and went");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_field_the_composite_stops_sending_goes_unless_another_applier_holds_it() {
    let api = api();
    let srv = api.start().await.unwrap();
    let eg = envgroups(&srv.url).await;
    let force = PatchParams::apply(COMPOSITE).force();
    eg.patch("eg", &force, &Patch::Apply(composed(Some("id-1")))).await.unwrap();
    eg.patch("eg", &force, &Patch::Apply(composed(None))).await.unwrap();
    let obj = stored(&api);
    assert!(obj["metadata"].get("annotations").is_none(), "{obj}");
    assert_eq!(obj["spec"]["forProvider"]["hostnames"], json!(["a.example.com"]));

    // Another applier stating the same value shares the field: no conflict, and it stays.
    eg.patch("eg", &force, &Patch::Apply(composed(Some("id-1")))).await.unwrap();
    let other = json!({"apiVersion": AV, "kind": "Envgroup", "metadata": {"name": "eg", "annotations": {EXTERNAL_NAME: "id-1"}}});
    eg.patch("eg", &PatchParams::apply("platform-team"), &Patch::Apply(other)).await.unwrap();
    eg.patch("eg", &force, &Patch::Apply(composed(None))).await.unwrap();
    let obj = stored(&api);
    assert_eq!(obj["metadata"]["annotations"][EXTERNAL_NAME], "id-1");
    assert_eq!(owners_of_external_name(&obj), vec![("platform-team".to_string(), "Apply".to_string())]);
}

#[test]
fn an_apply_needs_a_field_manager_force_is_for_apply_only_and_an_update_is_counted_under_the_user_agent() {
    let api = api();
    let srv = api.start_blocking().unwrap();
    let mut c = Client::new(&srv.url);
    let path = "/apis/apigee.gcp.m.upbound.io/v1beta1/namespaces/team-a/envgroups/eg";
    let body = serde_json::to_vec(&composed(Some("id-1"))).unwrap();
    let apply = [("Content-Type", "application/apply-patch+yaml")];
    let r = c.request("PATCH", path, &apply, Some(&body)).unwrap();
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(
        r.json()["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );
    assert!(api.get(AV, "Envgroup", Some("team-a"), "eg").is_none(), "nothing was created");
    let r = c.request("PATCH", &format!("{path}?fieldManager=m"), &apply, Some(&body)).unwrap();
    assert_eq!(r.status, 201, "an apply that creates answers Created: {}", r.text());
    let r = c.request("PATCH", &format!("{path}?fieldManager=m"), &apply, Some(&body)).unwrap();
    assert_eq!(r.status, 200, "{}", r.text());

    let merge = [("Content-Type", "application/merge-patch+json")];
    let r = c.request("PATCH", &format!("{path}?force=true"), &merge, Some(b"{}")).unwrap();
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.json()["message"].as_str().unwrap().ends_with("force: Forbidden: may not be specified for non-apply patch")
    );

    let headers =
        [("Content-Type", "application/merge-patch+json"), ("User-Agent", "kubectl-upjet/0.1.0 (linux/amd64)")];
    let patch = json!({"metadata": {"annotations": {EXTERNAL_NAME: "id-2"}}}).to_string();
    let r = c.request("PATCH", path, &headers, Some(patch.as_bytes())).unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(owners_of_external_name(&stored(&api)), vec![("kubectl-upjet".to_string(), "Update".to_string())]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_status_apply_is_counted_under_its_subresource_and_a_main_apply_leaves_status_alone() {
    let api = api();
    let srv = api.start().await.unwrap();
    let eg = envgroups(&srv.url).await;
    eg.patch("eg", &PatchParams::apply(COMPOSITE).force(), &Patch::Apply(composed(Some("id-1")))).await.unwrap();
    let status = json!({"apiVersion": AV, "kind": "Envgroup", "metadata": {"name": "eg"}, "status": {"atProvider": {"id": "id-1"}}});
    eg.patch_status("eg", &PatchParams::apply("provider").force(), &Patch::Apply(status)).await.unwrap();
    let obj = stored(&api);
    assert_eq!(obj["status"]["atProvider"]["id"], "id-1");
    let entries = obj["metadata"]["managedFields"].as_array().unwrap();
    let provider = entries.iter().find(|e| e["manager"] == "provider").expect("the provider's entry");
    assert_eq!(provider["subresource"], "status");
    assert_eq!(provider["fieldsV1"], json!({"f:status": {"f:atProvider": {"f:id": {}}}}));
    eg.patch("eg", &PatchParams::apply(COMPOSITE).force(), &Patch::Apply(composed(Some("id-1")))).await.unwrap();
    assert_eq!(stored(&api)["status"]["atProvider"]["id"], "id-1");
}
