//! What `guard` asks the API server: its release (`/version`: the admission APIs it serves), and
//! the lock's objects — every shard listed (or only those the bindings select, for doctor), a new shard created (the name is the precondition:
//! a create fails when it exists), a shard replaced with the resourceVersion it was read at (the
//! precondition: a replace fails when someone wrote in between). Every refused precondition is
//! [`WriteError::Conflict`] (409) or, for a shard deleted since it was read, `NotFound` (404):
//! the caller reads every shard again and merges again (`domain::guard::lock::merge`), never
//! retries blindly. The bodies are the domain's objects; nothing here decides what they hold.

use super::connect::Connection;
use super::kinds::ApiKind;
use super::request::{self, RequestError};
use super::retry::RetryPolicy;
use super::write::{FIELD_MANAGER, Target, WriteError, parse_object};
use serde::Deserialize;
use serde_json::Value;
use upjet_core::guard::lock::crd::{GROUP, KIND, PLURAL, SHARD_LABEL, VERSION};
use upjet_core::guard::version::ServerVersion;

/// The lock's objects as a resource: cluster-scoped, one version.
pub(crate) fn lock_kind() -> ApiKind {
    ApiKind {
        group: GROUP.into(),
        version: VERSION.into(),
        plural: PLURAL.into(),
        singular: KIND.to_lowercase(),
        kind: KIND.into(),
        namespaced: false,
        short_names: Vec::new(),
        categories: Vec::new(),
    }
}

/// Why the lock could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// The lock's CRD is not installed: nothing to read or write until `guard` is applied.
    #[error(
        "the guard's lock is not installed (no CustomResourceDefinition {PLURAL}.{GROUP}): install it with `kubectl upjet guard | kubectl apply -f -` (and wait until the CRD is established: `kubectl wait --for condition=established crd/{PLURAL}.{GROUP}`)"
    )]
    Missing,
    /// Any other failure of the list.
    #[error("listing the guard's lock: {}", .0.reason())]
    Read(#[source] RequestError),
}

#[derive(Deserialize)]
struct Version {
    #[serde(default)]
    major: String,
    #[serde(default)]
    minor: String,
    #[serde(default, rename = "gitVersion")]
    git_version: String,
}

/// The API server's release; `None` when its `/version` names none.
pub async fn server_version(conn: &Connection) -> Result<Option<ServerVersion>, RequestError> {
    let v: Version = request::read(conn, "/version", "application/json", &RetryPolicy::default(), |body| {
        serde_json::from_str::<Version>(body)
    })
    .await?;
    Ok(ServerVersion::parse(&v.major, &v.minor, &v.git_version))
}

#[derive(Deserialize)]
struct List {
    /// `null` or absent in an empty list, as the API server may write it.
    #[serde(default)]
    items: Option<Vec<Value>>,
}

/// Every lock object, as the API server holds them (with their resourceVersions): `guard lock`
/// must know every name in use, labelled or not, before it creates one.
pub async fn shards(conn: &Connection) -> Result<Vec<Value>, LockError> {
    match list(conn, &lock_kind().collection_path(None)).await {
        Ok(items) => Ok(items),
        Err(e) if e.status_code() == Some(404) => Err(LockError::Missing),
        Err(e) => Err(LockError::Read(e)),
    }
}

/// The shards the API server enforces: the lock objects carrying the label the bindings'
/// `paramRef` selects by. doctor and the watch judge the lock by these; a 403 or 404 is returned
/// as it is, for the caller to note.
pub async fn enforced_shards(conn: &Connection) -> Result<Vec<Value>, RequestError> {
    let selector = format!("{SHARD_LABEL}=shard").replace('/', "%2F").replace('=', "%3D");
    list(conn, &format!("{}?labelSelector={selector}", lock_kind().collection_path(None))).await
}

async fn list(conn: &Connection, path: &str) -> Result<Vec<Value>, RequestError> {
    let parse = |body: &str| serde_json::from_str::<List>(body);
    let list = request::read(conn, path, "application/json", &RetryPolicy::default(), parse).await?;
    Ok(list.items.unwrap_or_default())
}

fn target(obj: &Value) -> Target {
    Target::new(lock_kind(), None, obj["metadata"]["name"].as_str().unwrap_or_default())
}

/// Creates a new shard; 409 when one of that name exists (someone else created it first).
pub async fn create(conn: &Connection, shard: &Value) -> Result<Value, WriteError> {
    super::write::create(conn, &target(shard), shard, false).await
}

/// Replaces a shard, which must carry the `metadata.resourceVersion` it was read at: 409 when
/// it changed since, 404 when it was deleted.
pub async fn replace(conn: &Connection, shard: &Value) -> Result<Value, WriteError> {
    let target = target(shard);
    let req = http::Request::put(format!("{}?fieldManager={FIELD_MANAGER}", target.path()))
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "application/json")
        .body(serde_json::to_vec(shard).unwrap_or_default())
        .expect("static request parts are valid");
    let body = request::text(conn, req).await.map_err(|e| WriteError::from_request(e, "update", &target))?;
    parse_object(&body, "replacing", &target)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_empty_list_may_say_null() {
        let items = |body: &str| serde_json::from_str::<super::List>(body).map(|l| l.items.unwrap_or_default());
        assert_eq!(items(r#"{"kind":"List","items":[{"a":1}]}"#).unwrap().len(), 1);
        assert!(items(r#"{"kind":"List","items":null}"#).unwrap().is_empty());
        assert!(items(r#"{"kind":"List"}"#).unwrap().is_empty());
        assert!(items("{").is_err());
    }
}
