//! The Kubernetes Events of one MR. Crossplane records events of cluster-scoped MRs in the
//! `default` namespace and of namespaced MRs in their own namespace; they expire after an hour.

use super::connect::Connection;
use super::kinds::segment;
use super::request::{self, RequestError};
use crate::domain::managed::ManagedResource;
use crate::evidence::timeline::{EventRecord, parse_events};

/// Lists the events whose involvedObject is this MR (by UID).
pub async fn events_of(conn: &Connection, mr: &ManagedResource) -> Result<Vec<EventRecord>, RequestError> {
    let ns = mr.namespace.as_deref().unwrap_or("default");
    let path =
        format!("/api/v1/namespaces/{}/events?fieldSelector=involvedObject.uid%3D{}", segment(ns), segment(&mr.uid));
    let body = request::text(conn, request::get(&path, "application/json")).await?;
    parse_events(&body).map_err(|e| RequestError::Kube(kube::Error::SerdeError(e)))
}
