//! Watches through kube-runtime's `watcher`: a list, then a watch from its resourceVersion with
//! bookmarks, back to a fresh list when the API server answers 410 (the watcher's state
//! machine), and a growing pause after each failure (`default_backoff`). What each kind's
//! watcher sees becomes a [`Seen`]; the caller judges it. API I/O only: decoding stops at the
//! compact MR view (`ManagedResource`) or the CRD's raw object.

use super::connect::Connection;
use super::kinds::ApiKind;
use crate::domain::managed::ManagedResource;
use futures::{Stream, StreamExt};
use kube::api::{Api, DynamicObject};
use kube::core::{ApiResource, GroupVersionKind};
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event};

/// What a watcher saw.
#[derive(Debug)]
pub enum Seen<T> {
    /// A (re)list begins: until [`Seen::ListDone`] the items come from the list.
    Listing,
    /// An object listed, added or modified.
    Applied(T),
    /// An object deleted.
    Deleted(T),
    /// The (re)list ended.
    ListDone,
    /// A request or the watch failed; the watcher tries again after a pause.
    Failed(Failure),
    /// An object that could not be decoded, by name where known.
    Unreadable(String),
}

/// Why a watcher failed, in the terms the watch reports.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The API server's status code, when it answered one (403: forbidden; 410: expired).
    pub status: Option<u16>,
    /// One line for the user.
    pub reason: String,
    /// The failure makes the watcher relist (410 on the watch).
    pub relists: bool,
}

fn failure(err: &watcher::Error) -> Failure {
    let (status, reason) = match err {
        watcher::Error::InitialListFailed(e) | watcher::Error::WatchStartFailed(e) | watcher::Error::WatchFailed(e) => {
            let status = match e {
                kube::Error::Api(s) => Some(s.code),
                _ => None,
            };
            (status, super::connect::error_text(e))
        }
        watcher::Error::WatchError(s) => (Some(s.code), s.message.clone()),
        watcher::Error::NoResourceVersion => (None, err.to_string()),
    };
    let relists = matches!(err, watcher::Error::WatchError(s) if s.code == 410)
        || matches!(err, watcher::Error::NoResourceVersion);
    Failure { status, reason, relists }
}

/// What the watch is limited to: `-n` and `-l`, and the page size of its lists.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// Only this namespace for namespaced kinds.
    pub namespace: Option<String>,
    /// Label selector.
    pub selector: Option<String>,
    /// Items per list page.
    pub page_size: u32,
}

fn api_for(conn: &Connection, kind: &ApiKind, namespace: Option<&str>) -> Api<DynamicObject> {
    let gvk = GroupVersionKind::gvk(&kind.group, &kind.version, &kind.kind);
    let ar = ApiResource::from_gvk_with_plural(&gvk, &kind.plural);
    match namespace {
        Some(ns) if kind.namespaced => Api::namespaced_with(conn.client.clone(), ns, &ar),
        _ => Api::all_with(conn.client.clone(), &ar),
    }
}

fn config(scope: &Scope) -> watcher::Config {
    let mut config = watcher::Config::default().page_size(scope.page_size.max(1));
    if let Some(selector) = &scope.selector {
        config = config.labels(selector);
    }
    config
}

/// Maps one watcher item, decoding objects with `decode`.
fn seen<T>(
    item: Result<Event<DynamicObject>, watcher::Error>,
    decode: impl Fn(&DynamicObject) -> Result<T, String>,
) -> Seen<T> {
    let decoded = |obj: &DynamicObject, wrap: fn(T) -> Seen<T>| match decode(obj) {
        Ok(t) => wrap(t),
        Err(why) => Seen::Unreadable(why),
    };
    match item {
        Ok(Event::Init) => Seen::Listing,
        Ok(Event::InitApply(obj) | Event::Apply(obj)) => decoded(&obj, Seen::Applied),
        Ok(Event::Delete(obj)) => decoded(&obj, Seen::Deleted),
        Ok(Event::InitDone) => Seen::ListDone,
        Err(e) => Seen::Failed(failure(&e)),
    }
}

/// The MRs of one kind, listed then watched, as long as the stream is polled.
pub fn managed(
    conn: &Connection,
    kind: &ApiKind,
    scope: &Scope,
) -> impl Stream<Item = Seen<ManagedResource>> + Send + use<> {
    let api = api_for(conn, kind, scope.namespace.as_deref());
    watcher::watcher(api, config(scope)).default_backoff().map(|item| {
        seen(item, |obj| {
            let value = serde_json::to_value(obj).map_err(|e| e.to_string())?;
            ManagedResource::from_value(&value).map_err(|e| e.to_string())
        })
    })
}

/// The CustomResourceDefinitions, listed then watched, as raw objects (the caller keeps what it
/// needs: kind, scope, categories, versions).
pub fn crds(conn: &Connection) -> impl Stream<Item = Seen<serde_json::Value>> + Send + use<> {
    let gvk = GroupVersionKind::gvk("apiextensions.k8s.io", "v1", "CustomResourceDefinition");
    let ar = ApiResource::from_gvk_with_plural(&gvk, "customresourcedefinitions");
    let api: Api<DynamicObject> = Api::all_with(conn.client.clone(), &ar);
    watcher::watcher(api, watcher::Config::default().page_size(100))
        .default_backoff()
        .map(|item| seen(item, |obj| serde_json::to_value(obj).map_err(|e| e.to_string())))
}
