//! Listing the composition tree's objects: the CompositeResourceDefinitions (which kinds are XRs
//! and claims) and every object of those kinds, page by page, each page reduced by the caller's
//! reader as it arrives so that only what the tree keeps of an XR outlives its page.

use super::connect::Connection;
use super::kinds::segment;
use super::request::{self, RequestError};
use super::retry::RetryPolicy;
use super::scan::decode_page;

/// Where the XRDs are listed: v1, which Crossplane v1 and v2 both serve and store (v2 writes
/// `spec.scope` there too; an object without one is a `LegacyCluster` XRD, v1's default). One
/// request, answered 404 where Crossplane is absent.
const XRD_PATH: &str = "/apis/apiextensions.crossplane.io/v1/compositeresourcedefinitions";

/// How many objects a page asks for.
const PAGE: u32 = 500;

/// The items of every XRD, each reduced by `keep`; `Ok(None)` when no XRD API is served (no
/// Crossplane, or one without compositions).
pub async fn xrds<T>(conn: &Connection, keep: impl Fn(&[&str]) -> Vec<T>) -> Result<Option<Vec<T>>, RequestError> {
    match list(conn, XRD_PATH, &keep).await {
        Ok(items) => Ok(Some(items)),
        Err(e) if e.status_code() == Some(404) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Every object of one XR or claim kind, across namespaces, each page's items reduced by `keep`.
pub async fn objects<T>(
    conn: &Connection,
    (group, version, plural): (&str, &str, &str),
    keep: impl Fn(&[&str]) -> Vec<T>,
) -> Result<Vec<T>, RequestError> {
    let path = format!("/apis/{}/{}/{}", segment(group), segment(version), segment(plural));
    list(conn, &path, &keep).await
}

/// A collection path listed page by page, each page's items handed to `keep`.
async fn list<T>(conn: &Connection, base: &str, keep: &impl Fn(&[&str]) -> Vec<T>) -> Result<Vec<T>, RequestError> {
    let (mut out, mut token) = (Vec::new(), None::<String>);
    loop {
        let path = match &token {
            Some(t) => format!("{base}?limit={PAGE}&continue={}", segment(t)),
            None => format!("{base}?limit={PAGE}"),
        };
        let (items, next) = request::read(conn, &path, "application/json", &RetryPolicy::default(), |body| {
            decode_page(body).map(|(items, next)| (keep(&items), next))
        })
        .await?;
        out.extend(items);
        match next.filter(|t| !t.is_empty()) {
            Some(t) => token = Some(t),
            None => return Ok(out),
        }
    }
}
