//! The discovery documents a registry answers with: legacy (`APIVersions`, `APIGroupList`,
//! `APIGroup`, `APIResourceList`) and aggregated (`APIGroupDiscoveryList`).

use crate::crd::{Registry, ResourceDef};
use serde_json::{Value, json};

impl Registry {
    /// `GET /api` legacy body.
    pub(crate) fn api_versions(server_address: &str) -> Value {
        json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]})
    }

    fn group_json(group: &str, versions: &[String]) -> Value {
        let gv = |v: &String| json!({"groupVersion": format!("{group}/{v}"), "version": v});
        json!({"name": group, "versions": versions.iter().map(gv).collect::<Vec<_>>(), "preferredVersion": gv(&versions[0])})
    }

    /// `GET /apis` legacy body (APIGroupList).
    pub(crate) fn api_group_list(&self) -> Value {
        let groups: Vec<Value> = self.groups().iter().map(|(g, vs)| Self::group_json(g, vs)).collect();
        json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
    }

    /// `GET /apis/{group}` body (APIGroup), if the group exists.
    pub(crate) fn api_group(&self, group: &str) -> Option<Value> {
        let (g, vs) = self.groups().into_iter().find(|(g, _)| g == group)?;
        let mut v = Self::group_json(&g, &vs);
        v["kind"] = json!("APIGroup");
        v["apiVersion"] = json!("v1");
        Some(v)
    }

    /// `GET /api/v1` or `GET /apis/{g}/{v}` body (APIResourceList), if served.
    pub(crate) fn api_resource_list(&self, group: &str, version: &str) -> Option<Value> {
        let defs = self.resources(group, version);
        if defs.is_empty() {
            return None;
        }
        let mut res = vec![];
        for d in &defs {
            let mut r = json!({"name": d.plural, "singularName": d.singular, "namespaced": d.namespaced, "kind": d.kind, "verbs": d.verbs});
            if !d.short_names.is_empty() {
                r["shortNames"] = json!(d.short_names);
            }
            if !d.categories.is_empty() {
                r["categories"] = json!(d.categories);
            }
            res.push(r);
            let mut subs: Vec<(&str, &str, Vec<&str>)> =
                d.extra_subresources.iter().map(|(n, k, v)| (*n, *k, v.clone())).collect();
            if d.status_subresource {
                subs.push(("status", &d.kind, vec!["get", "patch", "update"]));
            }
            subs.sort_by(|a, b| a.0.cmp(b.0));
            for (sub, kind, verbs) in subs {
                let mut s = json!({"name": format!("{}/{}", d.plural, sub), "singularName": "", "namespaced": d.namespaced, "kind": kind, "verbs": verbs});
                if sub == "scale" {
                    s["group"] = json!("autoscaling");
                    s["version"] = json!("v1");
                }
                res.push(s);
            }
        }
        let gv = if group.is_empty() { version.to_string() } else { format!("{group}/{version}") };
        Some(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": res}))
    }

    fn discovery_resource(d: &ResourceDef) -> Value {
        let rk = json!({"group": d.group, "version": d.version, "kind": d.kind});
        let mut r = json!({
            "resource": d.plural,
            "responseKind": rk,
            "scope": if d.namespaced { "Namespaced" } else { "Cluster" },
            "singularResource": d.singular,
            "verbs": d.verbs,
        });
        if !d.short_names.is_empty() {
            r["shortNames"] = json!(d.short_names);
        }
        if !d.categories.is_empty() {
            r["categories"] = json!(d.categories);
        }
        let mut subs: Vec<Value> = vec![];
        let mut extra: Vec<_> = d.extra_subresources.iter().map(|(n, k, v)| (*n, *k, v.clone())).collect();
        if d.status_subresource {
            extra.push(("status", &d.kind, vec!["get", "patch", "update"]));
        }
        extra.sort_by(|a, b| a.0.cmp(b.0));
        for (sub, kind, verbs) in extra {
            let srk = if sub == "scale" {
                json!({"group": "autoscaling", "version": "v1", "kind": kind})
            } else {
                json!({"group": d.group, "version": d.version, "kind": kind})
            };
            subs.push(json!({"subresource": sub, "responseKind": srk, "verbs": verbs}));
        }
        if !subs.is_empty() {
            r["subresources"] = json!(subs);
        }
        r
    }

    /// Aggregated discovery (`apidiscovery.k8s.io/v2` APIGroupDiscoveryList) for
    /// `/api` (core = true) or `/apis`.
    pub(crate) fn aggregated(&self, core: bool, api_version: &str) -> Value {
        let group_item = |group: &str, versions: &[String]| {
            let vs: Vec<Value> = versions
                .iter()
                .map(|v| {
                    let res: Vec<Value> =
                        self.resources(group, v).iter().map(|d| Self::discovery_resource(d)).collect();
                    json!({"version": v, "resources": res, "freshness": "Current"})
                })
                .collect();
            let meta = if group.is_empty() {
                json!({"creationTimestamp": null})
            } else {
                json!({"name": group, "creationTimestamp": null})
            };
            json!({"metadata": meta, "versions": vs})
        };
        let items: Vec<Value> = if core {
            vec![group_item("", &["v1".to_string()])]
        } else {
            self.groups().iter().map(|(g, vs)| group_item(g, vs)).collect()
        };
        json!({"kind": "APIGroupDiscoveryList", "apiVersion": api_version, "metadata": {}, "items": items})
    }
}
