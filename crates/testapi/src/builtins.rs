//! The built-in resources every server serves: core v1 events, namespaces and pods, apps/v1
//! Deployments and apiextensions.k8s.io/v1 CustomResourceDefinitions.

use crate::crd::{Registry, ResourceDef};

/// Field selector paths of core v1 Events beyond name and namespace.
const EVENT_FIELDS: &[&str] = &[
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
];

/// Field selector paths of core v1 Pods beyond name and namespace.
const POD_FIELDS: &[&str] = &[
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
];

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

impl Registry {
    /// A registry with core v1 (pods, events, namespaces), apps/v1 Deployments and apiextensions
    /// (CRDs).
    pub(crate) fn with_builtins() -> Self {
        let mut r = Self::default();
        let store = r.store_for("", "events");
        let events = ResourceDef::builtin(("", "events", "event"), "Event", true, store);
        r.add(ResourceDef { short_names: strings(&["ev"]), selectable: strings(EVENT_FIELDS), ..events });
        let store = r.store_for("", "namespaces");
        let namespaces = ResourceDef::builtin(("", "namespaces", "namespace"), "Namespace", false, store);
        r.add(ResourceDef {
            short_names: strings(&["ns"]),
            verbs: vec!["create", "delete", "get", "list", "patch", "update", "watch"],
            status_subresource: true,
            extra_subresources: vec![("finalize", "Namespace", vec!["update"])],
            selectable: strings(&["status.phase"]),
            ..namespaces
        });
        let store = r.store_for("", "pods");
        let pods = ResourceDef::builtin(("", "pods", "pod"), "Pod", true, store);
        r.add(ResourceDef {
            short_names: strings(&["po"]),
            categories: strings(&["all"]),
            status_subresource: true,
            extra_subresources: vec![("exec", "PodExecOptions", vec!["create", "get"]), ("log", "Pod", vec!["get"])],
            selectable: strings(POD_FIELDS),
            ..pods
        });
        // apps/v1 Deployments: a provider's runtime, which safe-start keeps at zero replicas.
        let store = r.store_for("apps", "deployments");
        let deployments = ResourceDef::builtin(("apps", "deployments", "deployment"), "Deployment", true, store);
        r.add(ResourceDef {
            short_names: vec!["deploy".into()],
            categories: vec!["all".into()],
            status_subresource: true,
            extra_subresources: vec![("scale", "Scale", vec!["get", "patch", "update"])],
            ..deployments
        });
        let store = r.store_for("apiextensions.k8s.io", "customresourcedefinitions");
        let crd = ResourceDef::builtin(
            ("apiextensions.k8s.io", "customresourcedefinitions", "customresourcedefinition"),
            "CustomResourceDefinition",
            false,
            store,
        );
        r.add(ResourceDef {
            short_names: vec!["crd".into(), "crds".into()],
            categories: vec!["api-extensions".into()],
            status_subresource: true,
            ..crd
        });
        r
    }
}
