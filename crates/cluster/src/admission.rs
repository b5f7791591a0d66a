//! The guard as the API server holds it, read for doctor's and the watch's guard findings: the
//! ValidatingAdmissionPolicies and their bindings (`admissionregistration.k8s.io/v1`, every one:
//! the guard's are told apart by name in `domain::guard::installed`); the lock's shards the
//! bindings select are read by `cluster::guard::enforced_shards`, beside its writes. Each list is
//! one request (a cluster holds a handful of policies), repeated only while it fails transiently;
//! a 403 or 404 is returned as it is, for the caller to note.

use super::connect::Connection;
use super::request::{self, RequestError};
use super::retry::RetryPolicy;
use serde_json::Value;
use upjet_core::guard::admission::API_VERSION;

/// Every ValidatingAdmissionPolicy.
pub async fn validating_policies(conn: &Connection) -> Result<Vec<Value>, RequestError> {
    list(conn, &format!("/apis/{API_VERSION}/validatingadmissionpolicies")).await
}

/// Every ValidatingAdmissionPolicyBinding.
pub async fn policy_bindings(conn: &Connection) -> Result<Vec<Value>, RequestError> {
    list(conn, &format!("/apis/{API_VERSION}/validatingadmissionpolicybindings")).await
}

async fn list(conn: &Connection, path: &str) -> Result<Vec<Value>, RequestError> {
    request::read(conn, path, "application/json", &RetryPolicy::default(), items).await
}

/// A List's `items` (none when absent, as the API server leaves an empty list's out).
fn items(body: &str) -> Result<Vec<Value>, serde_json::Error> {
    let mut list: Value = serde_json::from_str(body)?;
    Ok(match list.get_mut("items").map(Value::take) {
        Some(Value::Array(items)) => items,
        _ => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_list_is_its_items() {
        assert_eq!(super::items(r#"{"kind":"List","items":[{"a":1}]}"#).unwrap().len(), 1);
        assert!(super::items(r#"{"kind":"List","items":null}"#).unwrap().is_empty());
        assert!(super::items("{").is_err());
    }
}
