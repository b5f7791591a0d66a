//! Which provider serves an MR kind, and the raw pod and revision lists behind log evidence.
//!
//! Crossplane labels provider pods `pkg.crossplane.io/provider=<provider>` in whatever namespace
//! Crossplane runs; a ProviderRevision lists the CRDs it installed in `status.objectRefs`. When
//! revisions cannot be read, a kind is matched to a provider by name (`provider-aws-ec2` serves
//! `ec2.aws.upbound.io`). The bodies are parsed by `evidence::pods`.

use super::connect::Connection;
use super::kinds::{ApiKind, provider_matches};
use super::request::{self, RequestError};
use super::retry::RetryPolicy;
use std::collections::HashMap;

/// Lists provider pods (a core/v1 PodList body), in one namespace or (default) wherever
/// Crossplane runs them.
pub async fn provider_pods(conn: &Connection, namespace: Option<&str>) -> Result<String, RequestError> {
    let base = match namespace {
        Some(ns) => format!("/api/v1/namespaces/{}/pods", super::kinds::segment(ns)),
        None => "/api/v1/pods".to_string(),
    };
    request::json_text(conn, &format!("{base}?labelSelector=pkg.crossplane.io%2Fprovider"), &RetryPolicy::default())
        .await
}

/// The Deployments of one namespace or every one, page by page (500 a page), each page reduced
/// by `keep` as it arrives. Crossplane puts the provider label on a provider Deployment's
/// selector and pod template, not on the Deployment itself, so no label selector finds them:
/// every Deployment is listed and `keep` (`evidence::pods::parse_deployments`) keeps the
/// providers'. A provider scaled to zero (safe-start) has its Deployment and no pod.
pub async fn deployments<T, E: std::fmt::Display>(
    conn: &Connection,
    namespace: Option<&str>,
    keep: impl Fn(&str) -> Result<Vec<T>, E>,
) -> Result<Vec<T>, RequestError> {
    #[derive(serde::Deserialize)]
    struct Page {
        #[serde(default)]
        metadata: Meta,
    }
    #[derive(serde::Deserialize, Default)]
    struct Meta {
        #[serde(rename = "continue", default)]
        continue_: Option<String>,
    }
    let base = match namespace {
        Some(ns) => format!("/apis/apps/v1/namespaces/{}/deployments?limit=500", super::kinds::segment(ns)),
        None => "/apis/apps/v1/deployments?limit=500".to_string(),
    };
    let (mut out, mut token) = (Vec::new(), None::<String>);
    let keep = &keep;
    loop {
        let path = match &token {
            Some(t) => format!("{base}&continue={}", super::kinds::segment(t)),
            None => base.clone(),
        };
        let (items, next) = request::read(conn, &path, "application/json", &RetryPolicy::default(), |body| {
            let page: Page = serde_json::from_str(body).map_err(|e| e.to_string())?;
            keep(body).map(|items| (items, page.metadata.continue_)).map_err(|e| e.to_string())
        })
        .await?;
        out.extend(items);
        match next.filter(|t| !t.is_empty()) {
            Some(t) => token = Some(t),
            None => return Ok(out),
        }
    }
}

/// Lists ProviderRevisions (the body), whose `status.objectRefs` say which provider owns a CRD.
pub async fn provider_revisions(conn: &Connection) -> Result<String, RequestError> {
    request::json_text(conn, "/apis/pkg.crossplane.io/v1/providerrevisions", &RetryPolicy::default()).await
}

/// Lists ManagedResourceDefinitions (the body): Crossplane v2's kinds, active or not.
pub async fn managed_resource_definitions(conn: &Connection) -> Result<String, RequestError> {
    let path = "/apis/apiextensions.crossplane.io/v1alpha1/managedresourcedefinitions";
    request::json_text(conn, path, &RetryPolicy::default()).await
}

/// Reads one CustomResourceDefinition (the body) by name (`<plural>.<group>`).
pub async fn crd(conn: &Connection, name: &str) -> Result<String, RequestError> {
    let path = format!("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{}", super::kinds::segment(name));
    request::json_text(conn, &path, &RetryPolicy::default()).await
}

/// What a GET asks for to get an object's metadata alone, as `kubectl get --raw` with this
/// Accept would: `PartialObjectMetadata` (a CRD without its schemas, hundreds of kilobytes less),
/// plain JSON from a server that does not know it.
const METADATA_ONLY: &str = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

/// Reads one CustomResourceDefinition's metadata alone (the body), by name (`<plural>.<group>`):
/// whether it is being deleted.
pub async fn crd_metadata(conn: &Connection, name: &str) -> Result<String, RequestError> {
    let path = format!("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{}", super::kinds::segment(name));
    metadata_only(conn, &path).await
}

/// Reads one ManagedResourceDefinition's metadata alone (the body), by name (its CRD's).
pub async fn mrd_metadata(conn: &Connection, name: &str) -> Result<String, RequestError> {
    let path = format!(
        "/apis/apiextensions.crossplane.io/v1alpha1/managedresourcedefinitions/{}",
        super::kinds::segment(name)
    );
    metadata_only(conn, &path).await
}

async fn metadata_only(conn: &Connection, path: &str) -> Result<String, RequestError> {
    request::read(conn, path, METADATA_ONLY, &RetryPolicy::default(), |body| {
        serde_json::from_str::<serde::de::IgnoredAny>(body).map(|_| body.to_string())
    })
    .await
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
    fn kind_to_provider() {
        let owners: HashMap<String, String> =
            [("recordsets.dns.gcp.upbound.io".to_string(), "provider-gcp-dns".to_string())].into();
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
