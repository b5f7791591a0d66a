//! The Kubernetes Events of one MR. Crossplane records events of cluster-scoped MRs in the
//! `default` namespace and of namespaced MRs in their own namespace; they expire after an hour.
//! The body is parsed by `evidence::events`.

use super::connect::Connection;
use super::kinds::segment;
use super::request::{self, RequestError};
use super::retry::RetryPolicy;
use crate::domain::managed::ManagedResource;

/// Lists the events whose involvedObject is this MR (by UID), as a core/v1 EventList body.
pub async fn events_of(conn: &Connection, mr: &ManagedResource) -> Result<String, RequestError> {
    let ns = mr.namespace.as_deref().unwrap_or("default");
    let path =
        format!("/api/v1/namespaces/{}/events?fieldSelector=involvedObject.uid%3D{}", segment(ns), segment(&mr.uid));
    request::json_text(conn, &path, &RetryPolicy::default()).await
}
