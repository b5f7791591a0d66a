//! Provider pods and revisions as the API server reports them, reduced to what restart detection,
//! log reading and the timeline need. Crossplane labels provider pods
//! `pkg.crossplane.io/provider=<provider>`; a ProviderRevision lists the CRDs it installed in
//! `status.objectRefs`.

use serde::Deserialize;
use std::collections::HashMap;
use upjet_core::gotime::GoTime;
use upjet_core::rules::ProviderStarts;

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
    /// The container running crossplane's changelogs sidecar, when the pod has one.
    pub changelog: Option<Sidecar>,
    /// The ProviderRevision it runs (label `pkg.crossplane.io/revision`, which Crossplane puts on
    /// every pod of a revision's Deployment): a new one means a rollout.
    pub revision: Option<String>,
    /// The image of the container that runs the provider: its package (Crossplane runs a
    /// provider package's image as is), whose version says which upjet it is built on.
    pub image: Option<String>,
    /// The service account it runs as (`spec.serviceAccountName`; Crossplane names it after
    /// the revision): whose writes are the provider's own, which `guard` never refuses.
    pub service_account: String,
}

/// A changelogs sidecar container: its log holds the provider's change-log entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sidecar {
    /// The container's name (`changelogs-sidecar` in crossplane's docs; chosen by the user).
    pub container: String,
    /// Whether it restarted, so that its previous container's log holds entries too.
    pub restarted: bool,
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
#[serde(rename_all = "camelCase")]
struct PodSpec {
    #[serde(default)]
    containers: Vec<NameOnly>,
    #[serde(default)]
    service_account_name: Option<String>,
    /// The deprecated alias, still filled by the API server.
    #[serde(default)]
    service_account: Option<String>,
}

impl PodSpec {
    /// The pod's service account: the API server's admission sets `default` when none is named.
    fn account(&self) -> String {
        let named = self.service_account_name.as_deref().or(self.service_account.as_deref());
        named.filter(|n| !n.is_empty()).unwrap_or("default").to_string()
    }
}
#[derive(Deserialize)]
struct NameOnly {
    name: String,
    #[serde(default)]
    image: String,
}

/// Whether a container runs the changelogs sidecar: its image is crossplane's
/// `changelogs-sidecar`, or its name says change logs (the DeploymentRuntimeConfig names it).
fn is_changelog_sidecar(c: &NameOnly) -> bool {
    c.image.contains("changelogs-sidecar") || c.name.contains("changelog")
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
            let provider = p.metadata.labels.get(PROVIDER_LABEL)?.clone();
            let revision = p.metadata.labels.get(REVISION_LABEL).cloned();
            let service_account = p.spec.as_ref().map_or_else(|| "default".to_string(), PodSpec::account);
            let all: Vec<NameOnly> = p.spec.map(|s| s.containers).unwrap_or_default();
            let sidecar = all.iter().find(|c| is_changelog_sidecar(c)).map(|c| c.name.clone());
            let mut images: HashMap<String, String> = all.iter().map(|c| (c.name.clone(), c.image.clone())).collect();
            let containers: Vec<String> =
                all.into_iter().filter(|c| Some(&c.name) != sidecar.as_ref()).map(|c| c.name).collect();
            let container = containers
                .iter()
                .find(|c| *c == "package-runtime")
                .or(containers.first())
                .cloned()
                .unwrap_or_else(|| "package-runtime".into());
            let image = images.remove(&container).filter(|i| !i.is_empty());
            let status = p.status;
            let changelog = sidecar.map(|container| {
                let restarted = status
                    .as_ref()
                    .is_some_and(|s| s.container_statuses.iter().any(|c| c.name == container && c.restart_count > 0));
                Sidecar { container, restarted }
            });
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
                changelog,
                revision,
                image,
                service_account,
            })
        })
        .collect())
}

/// Groups the pods' start times by provider: the restarts the rules compare with create marks.
pub fn provider_starts(pods: &[ProviderPod]) -> HashMap<String, ProviderStarts> {
    let mut by_provider: HashMap<String, ProviderStarts> = HashMap::new();
    for pod in pods {
        let e = by_provider.entry(pod.provider.clone()).or_insert_with(|| ProviderStarts {
            provider: pod.provider.clone(),
            starts: Vec::new(),
            package: pod.image.clone(),
        });
        e.starts.extend(pod.starts());
        if e.package != pod.image {
            e.package = None;
        }
    }
    by_provider
}

/// A provider's Deployment, as Crossplane's package runtime writes it for each active
/// ProviderRevision: named after the revision (or its DeploymentRuntimeConfig's
/// `deploymentTemplate.metadata.name`), in Crossplane's namespace, its selector and pod template
/// labelled `pkg.crossplane.io/provider` and `pkg.crossplane.io/revision` (its own metadata
/// carries only the runtime config's labels), its pods run as the service account the runtime
/// config names (`deploymentTemplate…serviceAccountName`, else `serviceAccountTemplate`'s name)
/// or else one named after the revision. It exists while the provider runs no pod: with
/// safe-start, Crossplane keeps it at zero replicas until one of the provider's
/// ManagedResourceDefinitions is active.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderDeployment {
    /// The provider (label `pkg.crossplane.io/provider` of its pod template).
    pub provider: String,
    /// Namespace.
    pub namespace: String,
    /// Deployment name.
    pub name: String,
    /// The ProviderRevision it runs (label `pkg.crossplane.io/revision`).
    pub revision: Option<String>,
    /// The service account its pods run as.
    pub service_account: String,
    /// `spec.replicas` (Kubernetes defaults an absent one to 1): zero while safe-start waits.
    pub replicas: i64,
}

#[derive(Deserialize)]
struct DeploymentList {
    #[serde(default)]
    items: Option<Vec<Deployment>>,
}
#[derive(Deserialize)]
struct Deployment {
    metadata: PodMeta,
    #[serde(default)]
    spec: Option<DeploymentSpec>,
}
#[derive(Deserialize)]
struct DeploymentSpec {
    #[serde(default)]
    replicas: Option<i64>,
    #[serde(default)]
    selector: Option<Selector>,
    #[serde(default)]
    template: Option<PodTemplate>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Selector {
    #[serde(default)]
    match_labels: HashMap<String, String>,
}
#[derive(Deserialize)]
struct PodTemplate {
    #[serde(default)]
    metadata: Option<TemplateMeta>,
    #[serde(default)]
    spec: Option<PodSpec>,
}
#[derive(Deserialize)]
struct TemplateMeta {
    #[serde(default)]
    labels: HashMap<String, String>,
}

/// The providers' Deployments of one list page (every other Deployment left out): a Deployment
/// is a provider's when its pod template (or its selector, or its own metadata) carries
/// `pkg.crossplane.io/provider`.
pub fn parse_deployments(body: &str) -> Result<Vec<ProviderDeployment>, serde_json::Error> {
    let list: DeploymentList = serde_json::from_str(body)?;
    Ok(list
        .items
        .unwrap_or_default()
        .into_iter()
        .filter_map(|d| {
            let spec = d.spec?;
            let template = spec.template.as_ref();
            let labels = [
                template.and_then(|t| t.metadata.as_ref()).map(|m| &m.labels),
                spec.selector.as_ref().map(|s| &s.match_labels),
                Some(&d.metadata.labels),
            ];
            let label = |key: &str| labels.iter().flatten().find_map(|l| l.get(key)).cloned();
            let provider = label(PROVIDER_LABEL)?;
            let service_account =
                template.and_then(|t| t.spec.as_ref()).map_or_else(|| "default".into(), PodSpec::account);
            Some(ProviderDeployment {
                provider,
                revision: label(REVISION_LABEL),
                namespace: d.metadata.namespace,
                name: d.metadata.name,
                service_account,
                replicas: spec.replicas.unwrap_or(1),
            })
        })
        .collect())
}

/// The label Crossplane puts on a provider's pods (and its Deployment's selector).
const PROVIDER_LABEL: &str = "pkg.crossplane.io/provider";

/// The label naming the ProviderRevision a pod runs.
const REVISION_LABEL: &str = "pkg.crossplane.io/revision";

/// The service accounts the providers run as, `(namespace, name)`, from their pods and from their
/// Deployments (a provider scaled to zero has no pod), each once, sorted.
pub fn service_accounts(pods: &[ProviderPod], deployments: &[ProviderDeployment]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = pods
        .iter()
        .map(|p| (p.namespace.clone(), p.service_account.clone()))
        .chain(deployments.iter().map(|d| (d.namespace.clone(), d.service_account.clone())))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The Deployments at zero replicas whose provider runs no pod: what safe-start holds back.
pub fn scaled_to_zero<'a>(pods: &[ProviderPod], deployments: &'a [ProviderDeployment]) -> Vec<&'a ProviderDeployment> {
    deployments.iter().filter(|d| d.replicas == 0 && !pods.iter().any(|p| p.provider == d.provider)).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pods_and_restarts() {
        let body = r#"{"items":[{"metadata":{"name":"provider-aws-ec2-abc","namespace":"crossplane-system",
            "labels":{"pkg.crossplane.io/provider":"provider-aws-ec2","pkg.crossplane.io/revision":"provider-aws-ec2-1a2b"}},
            "spec":{"serviceAccountName":"provider-aws-ec2-1a2b","containers":[{"name":"sidecar"},{"name":"package-runtime"}]},
            "status":{"startTime":"2024-11-30T09:00:00Z","containerStatuses":[{"name":"package-runtime","restartCount":2,
              "state":{"running":{"startedAt":"2024-11-30T11:00:03Z"}},
              "lastState":{"terminated":{"startedAt":"2024-11-30T10:00:00Z","finishedAt":"2024-11-30T11:00:01Z","reason":"OOMKilled","exitCode":137}}}]}},
            {"metadata":{"name":"unrelated","namespace":"default","labels":{}}},
            {"metadata":{"name":"no-spec","namespace":"x","labels":{"pkg.crossplane.io/provider":"p"}}}]}"#;
        let pods = parse_pods(body).unwrap();
        assert_eq!(pods.len(), 2);
        assert_eq!(pods[1].service_account, "default", "the API server's default when none is named");
        let p = &pods[0];
        assert_eq!(p.service_account, "provider-aws-ec2-1a2b");
        assert_eq!((p.container.as_str(), p.restart_count), ("package-runtime", 2));
        assert_eq!(p.last_termination.as_ref().unwrap().reason, "OOMKilled");
        assert_eq!(p.revision.as_deref(), Some("provider-aws-ec2-1a2b"));
        let starts: Vec<String> = p.starts().iter().map(|s| s.to_string()).collect();
        assert_eq!(starts, vec!["2024-11-30T09:00:00Z", "2024-11-30T10:00:00Z", "2024-11-30T11:00:03Z"]);
    }

    /// A Deployment as Crossplane's package runtime writes it: the provider label on its
    /// selector and pod template only, the service account in the pod template; with safe-start
    /// at zero replicas. Other Deployments are left out.
    #[test]
    fn provider_deployments_name_their_service_accounts_scaled_to_zero_or_not() {
        let body = r#"{"metadata":{"continue":"x"},"items":[
            {"metadata":{"name":"provider-aws-ec2-1a2b","namespace":"crossplane-system","labels":{}},
             "spec":{"replicas":0,"selector":{"matchLabels":{"pkg.crossplane.io/provider":"provider-aws-ec2","pkg.crossplane.io/revision":"provider-aws-ec2-1a2b"}},
               "template":{"metadata":{"labels":{"pkg.crossplane.io/provider":"provider-aws-ec2","pkg.crossplane.io/revision":"provider-aws-ec2-1a2b"}},
                 "spec":{"serviceAccountName":"provider-aws-ec2-1a2b","containers":[{"name":"package-runtime"}]}}}},
            {"metadata":{"name":"provider-aws-s3","namespace":"crossplane-system"},
             "spec":{"selector":{"matchLabels":{"pkg.crossplane.io/provider":"provider-aws-s3"}},
               "template":{"spec":{"serviceAccountName":"aws-irsa","containers":[{"name":"package-runtime"}]}}}},
            {"metadata":{"name":"coredns","namespace":"kube-system"},"spec":{"replicas":2,"template":{"spec":{"containers":[]}}}}]}"#;
        let deployments = parse_deployments(body).unwrap();
        assert_eq!(deployments.len(), 2);
        let (ec2, s3) = (&deployments[0], &deployments[1]);
        assert_eq!(
            (ec2.provider.as_str(), ec2.service_account.as_str(), ec2.replicas),
            ("provider-aws-ec2", "provider-aws-ec2-1a2b", 0)
        );
        assert_eq!(ec2.revision.as_deref(), Some("provider-aws-ec2-1a2b"));
        assert_eq!(
            (s3.service_account.as_str(), s3.replicas),
            ("aws-irsa", 1),
            "named by the runtime config; replicas defaulted"
        );
        assert!(parse_deployments(r#"{"items":null}"#).unwrap().is_empty());
        let running = parse_pods(r#"{"items":[{"metadata":{"name":"provider-aws-s3-x","namespace":"crossplane-system",
            "labels":{"pkg.crossplane.io/provider":"provider-aws-s3"}},"spec":{"serviceAccountName":"aws-irsa","containers":[]}}]}"#)
            .unwrap();
        let accounts = service_accounts(&running, &deployments);
        assert_eq!(
            accounts,
            [
                ("crossplane-system".to_string(), "aws-irsa".to_string()),
                ("crossplane-system".into(), "provider-aws-ec2-1a2b".into())
            ]
        );
        let idle: Vec<&str> = scaled_to_zero(&running, &deployments).iter().map(|d| d.name.as_str()).collect();
        assert_eq!(idle, ["provider-aws-ec2-1a2b"]);
    }

    #[test]
    fn revisions_map_crds_to_providers() {
        let body = r#"{"items":[{"metadata":{"labels":{"pkg.crossplane.io/package":"provider-gcp-dns"}},
            "status":{"objectRefs":[{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","name":"recordsets.dns.gcp.upbound.io"},
            {"kind":"ServiceAccount","name":"x"}]}}]}"#;
        let owners = parse_revisions(body).unwrap();
        assert_eq!(owners.len(), 1);
        assert_eq!(owners["recordsets.dns.gcp.upbound.io"], "provider-gcp-dns");
    }
}
