//! The Kubernetes Events of one MR. Crossplane records events of cluster-scoped MRs in the
//! `default` namespace and of namespaced MRs in their own namespace; they expire after an hour.
//! The body is parsed by `evidence::events`.

use super::connect::Connection;
use super::kinds::segment;
use super::request::{self, RequestError};
use super::retry::RetryPolicy;
use upjet_core::managed::ManagedResource;

/// Lists the events whose involvedObject is this MR (by UID), as a core/v1 EventList body.
pub async fn events_of(conn: &Connection, mr: &ManagedResource) -> Result<String, RequestError> {
    let ns = mr.namespace.as_deref().unwrap_or("default");
    let path =
        format!("/api/v1/namespaces/{}/events?fieldSelector=involvedObject.uid%3D{}", segment(ns), segment(&mr.uid));
    request::json_text(conn, &path, &RetryPolicy::default()).await
}

/// Creates an Event (`watch --events`) in `namespace`.
pub async fn create_event(conn: &Connection, namespace: &str, event: &serde_json::Value) -> Result<(), RequestError> {
    let req = http::Request::post(format!("/api/v1/namespaces/{}/events", segment(namespace)))
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "application/json")
        .body(serde_json::to_vec(event).unwrap_or_default())
        .expect("static request parts are valid");
    request::text(conn, req).await.map(drop)
}

/// Patches an Event's `count`, `lastTimestamp` and `message` (a merge patch: the fields are
/// scalars, where a strategic merge patch, client-go's, means the same); a 404 says it expired.
pub async fn patch_event(
    conn: &Connection,
    namespace: &str,
    name: &str,
    patch: &serde_json::Value,
) -> Result<(), RequestError> {
    let req = http::Request::patch(format!("/api/v1/namespaces/{}/events/{}", segment(namespace), segment(name)))
        .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
        .header(http::header::ACCEPT, "application/json")
        .body(serde_json::to_vec(patch).unwrap_or_default())
        .expect("static request parts are valid");
    request::text(conn, req).await.map(drop)
}
