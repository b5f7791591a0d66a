//! Which provider serves an MR kind, and its pods: the runtime facts behind log evidence.
//!
//! Crossplane labels provider pods `pkg.crossplane.io/provider=<provider>` and
//! `pkg.crossplane.io/revision=<revision>` in whatever namespace Crossplane runs; a
//! ProviderRevision lists the CRDs it installed in `status.objectRefs`. When revisions cannot be
//! read, a kind is matched to a provider by name (`provider-aws-ec2` serves `ec2.aws.upbound.io`).

use super::connect::Connection;
use super::kinds::{ApiKind, provider_matches};
use super::request::{self, RequestError};
use crate::domain::gotime::GoTime;
use serde::Deserialize;
use std::collections::HashMap;

/// One provider pod, with what the timeline and restart detection need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderPod {
    /// Provider name (label `pkg.crossplane.io/provider`).
    pub provider: String,
    /// Namespace.
    pub namespace: String,
    /// Pod name.
    pub name: String,
    /// The container that runs the provider.
    pub container: String,
    /// When the pod started.
    pub pod_started: Option<GoTime>,
    /// When the current container started.
    pub container_started: Option<GoTime>,
    /// Container restarts.
    pub restart_count: i64,
    /// The previous container's end, if it terminated.
    pub last_termination: Option<Termination>,
}

/// How the previous container ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Termination {
    /// When it started.
    pub started: Option<GoTime>,
    /// When it ended.
    pub finished: Option<GoTime>,
    /// Kubernetes' reason, e.g. `OOMKilled`, `Error`.
    pub reason: String,
    /// Exit code.
    pub exit_code: i64,
}

impl ProviderPod {
    /// Every time this pod's provider process started.
    pub fn starts(&self) -> Vec<GoTime> {
        let mut s: Vec<GoTime> =
            [self.pod_started, self.container_started, self.last_termination.as_ref().and_then(|t| t.started)]
                .into_iter()
                .flatten()
                .collect();
        s.sort();
        s.dedup();
        s
    }
}

#[derive(Deserialize)]
struct PodList {
    #[serde(default)]
    items: Vec<Pod>,
}
#[derive(Deserialize)]
struct Pod {
    metadata: PodMeta,
    #[serde(default)]
    spec: Option<PodSpec>,
    #[serde(default)]
    status: Option<PodStatus>,
}
#[derive(Deserialize)]
struct PodMeta {
    name: String,
    #[serde(default)]
    namespace: String,
    #[serde(default)]
    labels: HashMap<String, String>,
}
#[derive(Deserialize)]
struct PodSpec {
    #[serde(default)]
    containers: Vec<NameOnly>,
}
#[derive(Deserialize)]
struct NameOnly {
    name: String,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PodStatus {
    #[serde(default)]
    start_time: Option<String>,
    #[serde(default)]
    container_statuses: Vec<ContainerStatus>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContainerStatus {
    name: String,
    #[serde(default)]
    restart_count: i64,
    #[serde(default)]
    state: Option<ContainerState>,
    #[serde(default)]
    last_state: Option<ContainerState>,
}
#[derive(Deserialize)]
struct ContainerState {
    #[serde(default)]
    running: Option<Running>,
    #[serde(default)]
    terminated: Option<Terminated>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Running {
    #[serde(default)]
    started_at: Option<String>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Terminated {
    #[serde(default)]
    started_at: Option<String>,
    #[serde(default)]
    finished_at: Option<String>,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    exit_code: i64,
}

fn t(s: &Option<String>) -> Option<GoTime> {
    s.as_deref().and_then(GoTime::parse_rfc3339)
}

/// Parses a pod list into provider pods (pods without the provider label are ignored).
pub fn parse_pods(body: &str) -> Result<Vec<ProviderPod>, serde_json::Error> {
    let list: PodList = serde_json::from_str(body)?;
    Ok(list
        .items
        .into_iter()
        .filter_map(|p| {
            let provider = p.metadata.labels.get("pkg.crossplane.io/provider")?.clone();
            let containers: Vec<String> =
                p.spec.map(|s| s.containers.into_iter().map(|c| c.name).collect()).unwrap_or_default();
            let container = containers
                .iter()
                .find(|c| *c == "package-runtime")
                .or(containers.first())
                .cloned()
                .unwrap_or_else(|| "package-runtime".into());
            let status = p.status;
            let cs = status.as_ref().and_then(|s| s.container_statuses.iter().find(|c| c.name == container));
            let term = cs.and_then(|c| c.last_state.as_ref()).and_then(|s| s.terminated.as_ref());
            Some(ProviderPod {
                provider,
                namespace: p.metadata.namespace,
                name: p.metadata.name,
                pod_started: status.as_ref().and_then(|s| t(&s.start_time)),
                container_started: cs
                    .and_then(|c| c.state.as_ref())
                    .and_then(|s| s.running.as_ref())
                    .and_then(|r| t(&r.started_at)),
                restart_count: cs.map(|c| c.restart_count).unwrap_or(0),
                last_termination: term.map(|x| Termination {
                    started: t(&x.started_at),
                    finished: t(&x.finished_at),
                    reason: x.reason.clone(),
                    exit_code: x.exit_code,
                }),
                container,
            })
        })
        .collect())
}

/// Lists provider pods, in one namespace or (default) wherever Crossplane runs them.
pub async fn provider_pods(conn: &Connection, namespace: Option<&str>) -> Result<Vec<ProviderPod>, RequestError> {
    let base = match namespace {
        Some(ns) => format!("/api/v1/namespaces/{}/pods", super::kinds::segment(ns)),
        None => "/api/v1/pods".to_string(),
    };
    let body = request::text(
        conn,
        request::get(&format!("{base}?labelSelector=pkg.crossplane.io%2Fprovider"), "application/json"),
    )
    .await?;
    parse_pods(&body).map_err(|e| RequestError::Kube(kube::Error::SerdeError(e)))
}

#[derive(Deserialize)]
struct RevisionList {
    #[serde(default)]
    items: Vec<Revision>,
}
#[derive(Deserialize)]
struct Revision {
    metadata: RevisionMeta,
    #[serde(default)]
    status: Option<RevisionStatus>,
}
#[derive(Deserialize)]
struct RevisionMeta {
    #[serde(default)]
    labels: HashMap<String, String>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RevisionStatus {
    #[serde(default)]
    object_refs: Vec<ObjectRef>,
}
#[derive(Deserialize)]
struct ObjectRef {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    name: String,
}

/// Parses ProviderRevisions into `plural.group` (CRD name) → provider name.
pub fn parse_revisions(body: &str) -> Result<HashMap<String, String>, serde_json::Error> {
    let list: RevisionList = serde_json::from_str(body)?;
    let mut out = HashMap::new();
    for r in list.items {
        let Some(provider) = r.metadata.labels.get("pkg.crossplane.io/package").cloned() else { continue };
        for o in r.status.map(|s| s.object_refs).unwrap_or_default() {
            if o.kind == "CustomResourceDefinition" {
                out.insert(o.name, provider.clone());
            }
        }
    }
    Ok(out)
}

/// CRD → provider from ProviderRevisions; empty when they cannot be read (older Crossplane, RBAC).
pub async fn crd_owners(conn: &Connection) -> HashMap<String, String> {
    let path = "/apis/pkg.crossplane.io/v1/providerrevisions";
    match request::text(conn, request::get(path, "application/json")).await {
        Ok(body) => parse_revisions(&body).unwrap_or_default(),
        Err(_) => HashMap::new(),
    }
}

/// The provider serving a kind: from revisions, else by name among the running providers.
pub fn provider_for_kind(kind: &ApiKind, owners: &HashMap<String, String>, providers: &[String]) -> Option<String> {
    if let Some(p) = owners.get(&kind.resource_name()) {
        return Some(p.clone());
    }
    let mut matches: Vec<&String> = providers.iter().filter(|p| provider_matches(kind, p)).collect();
    // Prefer the most specific name (provider-aws-ec2 over provider-family-aws).
    matches.sort_by_key(|p| std::cmp::Reverse(p.len()));
    matches.first().map(|p| (*p).clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pods_and_restarts() {
        let body = r#"{"items":[{"metadata":{"name":"provider-aws-ec2-abc","namespace":"crossplane-system",
            "labels":{"pkg.crossplane.io/provider":"provider-aws-ec2","pkg.crossplane.io/revision":"provider-aws-ec2-1a2b"}},
            "spec":{"containers":[{"name":"sidecar"},{"name":"package-runtime"}]},
            "status":{"startTime":"2024-11-30T09:00:00Z","containerStatuses":[{"name":"package-runtime","restartCount":2,
              "state":{"running":{"startedAt":"2024-11-30T11:00:03Z"}},
              "lastState":{"terminated":{"startedAt":"2024-11-30T10:00:00Z","finishedAt":"2024-11-30T11:00:01Z","reason":"OOMKilled","exitCode":137}}}]}},
            {"metadata":{"name":"unrelated","namespace":"default","labels":{}}}]}"#;
        let pods = parse_pods(body).unwrap();
        assert_eq!(pods.len(), 1);
        let p = &pods[0];
        assert_eq!((p.container.as_str(), p.restart_count), ("package-runtime", 2));
        assert_eq!(p.last_termination.as_ref().unwrap().reason, "OOMKilled");
        let starts: Vec<String> = p.starts().iter().map(|s| s.to_string()).collect();
        assert_eq!(starts, vec!["2024-11-30T09:00:00Z", "2024-11-30T10:00:00Z", "2024-11-30T11:00:03Z"]);
    }

    #[test]
    fn kind_to_provider() {
        let body = r#"{"items":[{"metadata":{"labels":{"pkg.crossplane.io/package":"provider-gcp-dns"}},
            "status":{"objectRefs":[{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","name":"recordsets.dns.gcp.upbound.io"}]}}]}"#;
        let owners = parse_revisions(body).unwrap();
        let kind = |g: &str, p: &str| ApiKind {
            group: g.into(),
            version: "v1".into(),
            plural: p.into(),
            singular: String::new(),
            kind: String::new(),
            namespaced: false,
            short_names: vec![],
            categories: vec!["managed".into(), "aws".into()],
        };
        assert_eq!(
            provider_for_kind(&kind("dns.gcp.upbound.io", "recordsets"), &owners, &[]).as_deref(),
            Some("provider-gcp-dns")
        );
        let providers =
            vec!["provider-family-aws".to_string(), "provider-aws-ec2".to_string(), "provider-aws-s3".to_string()];
        assert_eq!(
            provider_for_kind(&kind("ec2.aws.upbound.io", "vpcs"), &owners, &providers).as_deref(),
            Some("provider-aws-ec2")
        );
        assert_eq!(provider_for_kind(&kind("rds.aws.upbound.io", "instances"), &owners, &providers), None);
    }
}
