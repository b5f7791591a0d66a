//! Discovery of managed-resource kinds: one aggregated request on current servers, the per-group
//! walk on servers without aggregated discovery.

use super::connect::Connection;
use super::discovery_cache::{self, CacheOptions};
use super::kinds::{ApiKind, DiscoveryDoc, dedup_by_preference, parse_apis, parse_resource_list};
use super::request::{self, RequestError};
use super::retry::RetryPolicy;
use crate::error::Error;
use futures::{StreamExt, TryStreamExt};

const ACCEPT_AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

/// How discovery went, for the summary and the benchmark.
#[derive(Debug, Default, Clone)]
pub struct DiscoveryStats {
    /// Requests made.
    pub requests: usize,
    /// Whether the server offered aggregated discovery.
    pub aggregated: bool,
    /// Whether the kinds came from the on-disk cache (then `requests` is 0).
    pub from_cache: bool,
}

/// Every served resource type in an API group (not core: MRs are never in the core group), with
/// the default retry policy.
pub async fn discover_all(conn: &Connection, concurrency: usize) -> Result<(Vec<ApiKind>, DiscoveryStats), Error> {
    discover_all_with(conn, concurrency, &RetryPolicy::default().first_contact()).await
}

/// [`discover_all`] under `policy`: each discovery document is re-requested while the request
/// fails transiently or the document arrives cut short, because a kind missing from discovery is
/// a kind the scan would silently never list. Callers pass a [`RetryPolicy::first_contact`]
/// policy so that a server that is not there is reported at once.
pub async fn discover_all_with(
    conn: &Connection,
    concurrency: usize,
    policy: &RetryPolicy,
) -> Result<(Vec<ApiKind>, DiscoveryStats), Error> {
    let mut stats = DiscoveryStats { requests: 1, aggregated: false, from_cache: false };
    let doc = request::read(conn, "/apis", ACCEPT_AGGREGATED, policy, parse_apis)
        .await
        .map_err(|e| e.explain(conn, "discovering API groups"))?;
    match doc {
        DiscoveryDoc::Aggregated(kinds) => {
            stats.aggregated = true;
            Ok((kinds, stats))
        }
        DiscoveryDoc::Legacy(groups) => {
            let gvs: Vec<(String, String)> =
                groups.into_iter().flat_map(|(g, vs)| vs.into_iter().map(move |v| (g.clone(), v))).collect();
            stats.requests += gvs.len();
            let lists: Vec<Vec<ApiKind>> = futures::stream::iter(gvs)
                .map(|(g, v)| async move {
                    let path = format!("/apis/{g}/{v}");
                    let parse = |body: &str| parse_resource_list(&g, &v, body);
                    match request::read(conn, &path, "application/json", policy, parse).await {
                        Ok(kinds) => Ok(kinds),
                        // A group version that disappeared or is not ours to see is not fatal.
                        Err(e) if matches!(e.status_code(), Some(403 | 404 | 503)) => Ok(Vec::new()),
                        Err(e) => Err(e),
                    }
                })
                .buffered(concurrency.max(1))
                .try_collect()
                .await
                .map_err(|e: RequestError| e.explain(conn, "discovering API resources"))?;
            Ok((dedup_by_preference(lists.into_iter().flatten().collect()), stats))
        }
    }
}

/// The managed-resource kinds: every resource in kubectl's `managed` category.
pub async fn discover_managed(conn: &Connection, concurrency: usize) -> Result<(Vec<ApiKind>, DiscoveryStats), Error> {
    discover_managed_with(conn, concurrency, &RetryPolicy::default().first_contact()).await
}

/// [`discover_managed`] under `policy`.
pub async fn discover_managed_with(
    conn: &Connection,
    concurrency: usize,
    policy: &RetryPolicy,
) -> Result<(Vec<ApiKind>, DiscoveryStats), Error> {
    let (kinds, stats) = discover_all_with(conn, concurrency, policy).await?;
    Ok((kinds.into_iter().filter(ApiKind::is_managed).collect(), stats))
}

/// The managed-resource kinds, from the on-disk cache when it holds a fresh entry for this server
/// (no request at all), otherwise from the server, storing the answer for the next run. A cache
/// that cannot be read or written only costs the requests it would have saved.
pub async fn discover_managed_cached(
    conn: &Connection,
    concurrency: usize,
    cache: &CacheOptions,
    policy: &RetryPolicy,
) -> Result<(Vec<ApiKind>, DiscoveryStats), Error> {
    let key = discovery_cache::Key { context: conn.context.as_deref(), server: &conn.server };
    let path = cache.file_for(key.context, &conn.server);
    if let Some(path) = path.as_deref().filter(|_| !cache.refresh) {
        match discovery_cache::load(path, key, cache.ttl, cache.now) {
            Ok(hit) => {
                tracing::debug!(
                    "using {} cached managed kinds from {} ({:?} old)",
                    hit.kinds.len(),
                    path.display(),
                    hit.age
                );
                let stats = DiscoveryStats { requests: 0, aggregated: hit.aggregated, from_cache: true };
                return Ok((hit.kinds, stats));
            }
            Err(miss) => tracing::debug!("discovery cache {}: {miss}", path.display()),
        }
    }
    let (kinds, stats) = discover_managed_with(conn, concurrency, policy).await?;
    if let Some(path) = &path
        && let Err(e) = discovery_cache::store(path, key, &kinds, stats.aggregated, cache.now)
    {
        tracing::debug!("cannot write discovery cache {}: {e}", path.display());
    }
    Ok((kinds, stats))
}
