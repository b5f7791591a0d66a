//! Discovery of managed-resource kinds: one aggregated request on current servers, the per-group
//! walk on servers without aggregated discovery.

use super::connect::Connection;
use super::discovery_cache::{self, CacheOptions};
use super::kinds::{ApiKind, DiscoveryDoc, KindSelection, dedup_by_preference, parse_apis, parse_resource_list};
use super::request::{self, RequestError};
use super::retry::RetryPolicy;
use super::scan::KindScan;
use futures::{StreamExt, TryStreamExt};
use upjet_core::error::Error;

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
pub(crate) async fn discover_all(
    conn: &Connection,
    concurrency: usize,
) -> Result<(Vec<ApiKind>, DiscoveryStats), Error> {
    discover_all_with(conn, concurrency, &RetryPolicy::default().first_contact()).await
}

/// [`discover_all`] under `policy`: each discovery document is re-requested while the request
/// fails transiently or the document arrives cut short, because a kind missing from discovery is
/// a kind the scan would silently never list. Callers pass a [`RetryPolicy::first_contact`]
/// policy so that a server that is not there is reported at once.
pub(crate) async fn discover_all_with(
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
pub(crate) async fn discover_managed_with(
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
pub(crate) async fn discover_managed_cached(
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

/// The managed kinds `selection` selects (`--kind`, `--provider`), discovered or recalled from
/// the cache. A `--kind` the cached kinds do not know may be a kind installed since
/// the cache was written: the server is asked before the selection fails (a usage error).
pub async fn select_managed(
    conn: &Connection,
    concurrency: usize,
    cache: &CacheOptions,
    policy: &RetryPolicy,
    selection: &KindSelection,
) -> Result<(Vec<ApiKind>, DiscoveryStats), Error> {
    let (all, stats) = discover_managed_cached(conn, concurrency, cache, policy).await?;
    match selection.select(all) {
        Ok(selected) => Ok((selected, stats)),
        Err(_) if stats.from_cache => {
            let fresh = CacheOptions { refresh: true, ..cache.clone() };
            let (all, stats) = discover_managed_cached(conn, concurrency, &fresh, policy).await?;
            let selected = selection.select(all).map_err(|e| Error::usage(e.to_string()))?;
            Ok((selected, stats))
        }
        Err(e) => Err(Error::usage(e.to_string())),
    }
}

/// Whether a kind's listing shows the cached discovery was stale: its very first page answered
/// 404 (a kind deleted, or no longer served at that version). A 404 after pages were read is a
/// kind deleted mid-scan, reported as skipped like on any run.
pub(crate) fn answered_stale<T>(listed: &KindScan<T>) -> bool {
    listed.status == Some(404) && listed.bytes == 0
}

/// Whether a scan over recalled kinds must discover afresh: some kind answered as stale.
pub fn cache_was_stale<T>(stats: &DiscoveryStats, listed: &[KindScan<T>]) -> bool {
    stats.from_cache && listed.iter().any(answered_stale)
}

/// Recovers a scan from a stale cache once `fresh` kinds were discovered: the stale kinds'
/// results are forgotten, and the kinds still to list are returned (new kinds, or stale ones at
/// a new version), in discovery order.
pub fn forget_stale<T>(listed: &mut Vec<KindScan<T>>, fresh: Vec<ApiKind>) -> Vec<ApiKind> {
    listed.retain(|r| !answered_stale(r));
    let done: std::collections::HashSet<String> = listed.iter().map(|r| r.kind.resource_name()).collect();
    fresh.into_iter().filter(|k| !done.contains(&k.resource_name())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn kind(plural: &str, version: &str) -> ApiKind {
        ApiKind {
            group: "ec2.aws.upbound.io".into(),
            version: version.into(),
            plural: plural.into(),
            singular: plural.trim_end_matches('s').into(),
            kind: plural.into(),
            namespaced: false,
            short_names: Vec::new(),
            categories: vec!["managed".into()],
        }
    }

    /// A listed kind: the status it failed with, if any, after `bytes` read.
    fn listed(plural: &str, status: Option<u16>, bytes: usize) -> KindScan<()> {
        KindScan {
            kind: kind(plural, "v1beta1"),
            kept: Vec::new(),
            decoded: 0,
            unreadable: Vec::new(),
            error: status.map(|s| format!("HTTP {s}")),
            status,
            requests: 1,
            bytes,
            decode_time: Duration::ZERO,
            process_time: Duration::ZERO,
        }
    }

    const CACHED: DiscoveryStats = DiscoveryStats { requests: 0, aggregated: true, from_cache: true };
    const ASKED: DiscoveryStats = DiscoveryStats { requests: 1, aggregated: true, from_cache: false };

    /// Only a 404 on the very first page of a recalled kind says the cache is stale; a 404 after
    /// pages were read is a kind deleted mid-scan, and a fresh discovery is never second-guessed.
    #[test]
    fn only_a_first_page_404_of_a_recalled_kind_means_a_stale_cache() {
        for (stats, scans, want) in [
            (CACHED, vec![listed("vpcs", None, 900), listed("subnets", Some(404), 0)], true),
            (CACHED, vec![listed("vpcs", None, 900), listed("subnets", Some(404), 512)], false),
            (CACHED, vec![listed("vpcs", Some(403), 0)], false),
            (ASKED, vec![listed("subnets", Some(404), 0)], false),
        ] {
            let said: Vec<_> = scans.iter().map(|s| (s.kind.plural.clone(), s.status, s.bytes)).collect();
            assert_eq!(cache_was_stale(&stats, &scans), want, "{said:?} from cache: {}", stats.from_cache);
        }
    }

    /// The stale kinds' results are dropped, and only what was not listed yet is listed again:
    /// a kind now served at another version, and a kind installed since.
    #[test]
    fn recovery_lists_only_what_the_stale_cache_missed() {
        let mut scans = vec![listed("vpcs", None, 900), listed("subnets", Some(404), 0)];
        let fresh = vec![kind("vpcs", "v1beta1"), kind("subnets", "v1beta2"), kind("routes", "v1beta1")];
        let rest = forget_stale(&mut scans, fresh);
        assert_eq!(scans.iter().map(|s| s.kind.plural.as_str()).collect::<Vec<_>>(), ["vpcs"]);
        assert_eq!(
            rest.iter().map(|k| (k.plural.as_str(), k.version.as_str())).collect::<Vec<_>>(),
            [("subnets", "v1beta2"), ("routes", "v1beta1")]
        );
    }
}
