//! A minimal OpenAPI v3 (`/openapi/v3`, `/openapi/v3/apis/{g}/{v}`): enough for
//! kubectl to see that the server does field validation (so `kubectl apply` /
//! `create` work without `--validate=false`) and that custom resources take
//! merge patches, not strategic ones. Schemas are open (`x-kubernetes-preserve-unknown-fields`).

use crate::crd::Registry;
use serde_json::{Map, Value, json};

/// Root document: one entry per served group/version.
pub(crate) fn root(reg: &Registry) -> Value {
    let mut paths = Map::new();
    paths.insert("api/v1".into(), json!({"serverRelativeURL": "/openapi/v3/api/v1?hash=testapi"}));
    for (g, vs) in reg.groups() {
        for v in vs {
            paths.insert(
                format!("apis/{g}/{v}"),
                json!({"serverRelativeURL": format!("/openapi/v3/apis/{g}/{v}?hash=testapi")}),
            );
        }
    }
    json!({"paths": paths})
}

fn schema_name(group: &str, version: &str, kind: &str) -> String {
    if group.is_empty() {
        return format!("io.k8s.api.core.{version}.{kind}");
    }
    let rev: Vec<&str> = group.split('.').rev().collect();
    format!("{}.{version}.{kind}", rev.join("."))
}

/// The document of one group/version, if served.
pub(crate) fn group_version(reg: &Registry, group: &str, version: &str) -> Option<Value> {
    let defs = reg.resources(group, version);
    if defs.is_empty() {
        return None;
    }
    let mut paths = Map::new();
    let mut schemas = Map::new();
    let prefix = if group.is_empty() { format!("/api/{version}") } else { format!("/apis/{group}/{version}") };
    let q = |name: &str| json!({"name": name, "in": "query", "schema": {"type": "string"}, "uniqueItems": true});
    for d in &defs {
        let gvk = json!({"group": d.group, "version": d.version, "kind": d.kind});
        let sname = schema_name(&d.group, &d.version, &d.kind);
        let sref = json!({"$ref": format!("#/components/schemas/{sname}")});
        schemas.insert(
            sname.clone(),
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-group-version-kind": [gvk]}),
        );
        let base = if d.namespaced {
            format!("{prefix}/namespaces/{{namespace}}/{}", d.plural)
        } else {
            format!("{prefix}/{}", d.plural)
        };
        let patch = |suffix: &str| {
            json!({
                "operationId": format!("patch{}{}", d.kind, suffix),
                "parameters": [q("dryRun"), q("fieldManager"), q("fieldValidation"), {"name": "force", "in": "query", "schema": {"type": "boolean"}, "uniqueItems": true}],
                "requestBody": {"content": {
                    "application/json-patch+json": {"schema": {"type": "object"}},
                    "application/merge-patch+json": {"schema": {"type": "object"}},
                    "application/apply-patch+yaml": {"schema": {"type": "object"}},
                }, "required": true},
                "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": sref}}}},
                "x-kubernetes-action": "patch",
                "x-kubernetes-group-version-kind": gvk,
            })
        };
        let create = json!({
            "operationId": format!("create{}", d.kind),
            "parameters": [q("dryRun"), q("fieldManager"), q("fieldValidation")],
            "requestBody": {"content": {"application/json": {"schema": sref}}, "required": true},
            "responses": {"201": {"description": "Created", "content": {"application/json": {"schema": sref}}}},
            "x-kubernetes-action": "post",
            "x-kubernetes-group-version-kind": gvk,
        });
        paths.insert(base.clone(), json!({"post": create}));
        paths.insert(format!("{base}/{{name}}"), json!({"patch": patch("")}));
        if d.status_subresource {
            paths.insert(format!("{base}/{{name}}/status"), json!({"patch": patch("Status")}));
        }
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "v1.32.0"},
        "paths": paths,
        "components": {"schemas": schemas},
    }))
}
