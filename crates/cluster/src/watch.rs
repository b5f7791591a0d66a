//! Watches through kube-runtime's `watcher`: a list, then a watch from its resourceVersion with
//! bookmarks, back to a fresh list when the API server answers 410 (the watcher's state
//! machine), and a growing pause after each failure (`default_backoff`). What each kind's
//! watcher sees becomes a [`Seen`]; the caller judges it. API I/O only.
//!
//! Each object is decoded once, from the API server's bytes straight into the compact MR view
//! ([`Decoded`]): no `DynamicObject`, no `serde_json::Value`, so a page of 500 MRs costs what
//! doctor's scan pays for it. The CRDs are followed by their metadata alone (a provider's CRD
//! carries megabytes of schema the watch never reads); a new one is fetched once, by name.

use super::connect::Connection;
use super::kinds::ApiKind;
use futures::{Stream, StreamExt};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::api::{Api, DynamicObject, ListParams, PartialObjectMeta};
use kube::core::{ApiResource, DynamicResourceScope, GroupVersionKind};
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use upjet_core::managed::ManagedResource;

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

/// The API server's status code in an error, when it answered one.
fn status_of(e: &kube::Error) -> Option<u16> {
    match e {
        kube::Error::Api(s) => Some(s.code),
        _ => None,
    }
}

fn failure(err: &watcher::Error) -> Failure {
    let (status, reason) = match err {
        watcher::Error::InitialListFailed(e) | watcher::Error::WatchStartFailed(e) | watcher::Error::WatchFailed(e) => {
            (status_of(e), super::connect::error_text(e))
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
pub struct WatchScope {
    /// Only this namespace for namespaced kinds.
    pub namespace: Option<String>,
    /// Label selector.
    pub selector: Option<String>,
    /// Items per list page.
    pub page_size: u32,
}

fn api_for<K>(conn: &Connection, kind: &ApiKind, namespace: Option<&str>) -> Api<K>
where
    K: kube::Resource<DynamicType = ApiResource, Scope = DynamicResourceScope>,
{
    let ar = resource(kind);
    match namespace {
        Some(ns) if kind.namespaced => Api::namespaced_with(conn.client.clone(), ns, &ar),
        _ => Api::all_with(conn.client.clone(), &ar),
    }
}

fn config(scope: &WatchScope) -> watcher::Config {
    let mut config = watcher::Config::default().page_size(scope.page_size.max(1));
    if let Some(selector) = &scope.selector {
        config = config.labels(selector);
    }
    config
}

/// One object as a watcher carries it: decoded once from its JSON into what the caller keeps
/// (`T`), or why it could not be, beside the little metadata kube-runtime's watcher tracks (its
/// resourceVersion). One unreadable object is named and the others go on, as in doctor's scan.
#[derive(Clone, Debug)]
pub struct Decoded<T> {
    meta: ObjectMeta,
    value: Result<T, String>,
}

/// How a watched type is read from one object's JSON.
pub trait FromJson: Sized {
    /// Decodes one object.
    fn from_json(json: &str) -> Result<Self, String>;

    /// The name, namespace and resourceVersion the decoded value already holds, so the object
    /// is not read a second time for them.
    fn object_meta(&self) -> Option<ObjectMeta> {
        None
    }
}

impl FromJson for ManagedResource {
    fn from_json(json: &str) -> Result<Self, String> {
        ManagedResource::from_json(json).map_err(|e| e.to_string())
    }

    fn object_meta(&self) -> Option<ObjectMeta> {
        Some(ObjectMeta {
            name: Some(self.name.clone()),
            namespace: self.namespace.clone(),
            resource_version: Some(self.resource_version.clone()),
            ..ObjectMeta::default()
        })
    }
}

/// The metadata every object has, read on its own when the object is otherwise unreadable.
#[derive(Deserialize, Default)]
struct MetaOnly {
    #[serde(default)]
    metadata: MetaFields,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct MetaFields {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    resource_version: Option<String>,
}

impl<T: FromJson> Decoded<T> {
    fn of(json: &str) -> Decoded<T> {
        let value = T::from_json(json);
        let meta = value.as_ref().ok().and_then(T::object_meta).unwrap_or_else(|| {
            let m = serde_json::from_str::<MetaOnly>(json).unwrap_or_default().metadata;
            ObjectMeta {
                name: m.name,
                namespace: m.namespace,
                resource_version: m.resource_version,
                ..ObjectMeta::default()
            }
        });
        Decoded { meta, value }
    }
}

impl<'de, T: FromJson> Deserialize<'de> for Decoded<T> {
    /// The object's bytes are taken as they are (`RawValue`: no tree is built), then decoded.
    /// The API server writes a watch event's `type` before its `object`, so events are not
    /// buffered on the way and the raw bytes are at hand.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        Ok(Decoded::of(raw.get()))
    }
}

impl<T> kube::Resource for Decoded<T> {
    type DynamicType = ApiResource;
    type Scope = DynamicResourceScope;

    fn group(dt: &ApiResource) -> Cow<'_, str> {
        dt.group.as_str().into()
    }

    fn version(dt: &ApiResource) -> Cow<'_, str> {
        dt.version.as_str().into()
    }

    fn kind(dt: &ApiResource) -> Cow<'_, str> {
        dt.kind.as_str().into()
    }

    fn api_version(dt: &ApiResource) -> Cow<'_, str> {
        dt.api_version.as_str().into()
    }

    fn plural(dt: &ApiResource) -> Cow<'_, str> {
        dt.plural.as_str().into()
    }

    fn meta(&self) -> &ObjectMeta {
        &self.meta
    }

    fn meta_mut(&mut self) -> &mut ObjectMeta {
        &mut self.meta
    }
}

/// Maps one watcher item to what the caller judges.
fn seen<K, T>(item: Result<Event<K>, watcher::Error>, open: impl Fn(K) -> Result<T, String>) -> Seen<T> {
    let opened = |obj: K, wrap: fn(T) -> Seen<T>| match open(obj) {
        Ok(t) => wrap(t),
        Err(why) => Seen::Unreadable(why),
    };
    match item {
        Ok(Event::Init) => Seen::Listing,
        Ok(Event::InitApply(obj) | Event::Apply(obj)) => opened(obj, Seen::Applied),
        Ok(Event::Delete(obj)) => opened(obj, Seen::Deleted),
        Ok(Event::InitDone) => Seen::ListDone,
        Err(e) => Seen::Failed(failure(&e)),
    }
}

fn resource(kind: &ApiKind) -> ApiResource {
    let gvk = GroupVersionKind::gvk(&kind.group, &kind.version, &kind.kind);
    ApiResource::from_gvk_with_plural(&gvk, &kind.plural)
}

/// The MRs of one kind, listed then watched, as long as the stream is polled.
pub fn managed(
    conn: &Connection,
    kind: &ApiKind,
    scope: &WatchScope,
) -> impl Stream<Item = Seen<ManagedResource>> + Send + use<> {
    let api: Api<Decoded<ManagedResource>> = api_for(conn, kind, scope.namespace.as_deref());
    watcher::watcher(api, config(scope)).default_backoff().map(|item| seen(item, |obj: Decoded<_>| obj.value))
}

/// What one look at a kind found (`limit=1`, metadata only): whether it holds MRs at all.
#[derive(Debug)]
pub enum Probe {
    /// At least one MR in scope: the kind is worth a watch.
    Populated,
    /// None in scope.
    Empty,
    /// The look failed (a 403 among them): why.
    Failed(Failure),
}

/// Looks whether the kind holds any MR in scope: one `limit=1` metadata list, the cheapest
/// question the API server answers. The watch follows only kinds that hold MRs and asks the
/// others again each resync.
pub async fn probe(conn: &Connection, kind: &ApiKind, scope: &WatchScope) -> Probe {
    let api: Api<DynamicObject> = api_for(conn, kind, scope.namespace.as_deref());
    let mut params = ListParams::default().limit(1);
    if let Some(selector) = &scope.selector {
        params = params.labels(selector);
    }
    match api.list_metadata(&params).await {
        Ok(list) => {
            let more = list.metadata.continue_.as_deref().is_some_and(|c| !c.is_empty());
            if list.items.is_empty() && !more { Probe::Empty } else { Probe::Populated }
        }
        Err(e) => {
            Probe::Failed(Failure { status: status_of(&e), reason: super::connect::error_text(&e), relists: false })
        }
    }
}

fn crd_resource() -> ApiResource {
    let gvk = GroupVersionKind::gvk("apiextensions.k8s.io", "v1", "CustomResourceDefinition");
    ApiResource::from_gvk_with_plural(&gvk, "customresourcedefinitions")
}

/// The CustomResourceDefinitions' names, listed then watched by their metadata alone (the
/// caller fetches a CRD it does not know yet with [`crd`]).
pub fn crds(conn: &Connection) -> impl Stream<Item = Seen<String>> + Send + use<> {
    let api: Api<PartialObjectMeta<DynamicObject>> = Api::all_with(conn.client.clone(), &crd_resource());
    let named =
        |obj: PartialObjectMeta<DynamicObject>| obj.metadata.name.ok_or_else(|| "a CRD without a name".to_string());
    watcher::watcher(api, watcher::Config::default().page_size(500))
        .default_backoff()
        .map(move |item| seen(item, named))
}

/// One CRD, by name, read as far as `T` reads it (the caller's reader skips the schemas);
/// `None` when it is gone already (deleted between its event and this read).
pub async fn crd<T: FromJson + Clone + std::fmt::Debug>(conn: &Connection, name: &str) -> Result<Option<T>, String> {
    let api: Api<Decoded<T>> = Api::all_with(conn.client.clone(), &crd_resource());
    match api.get_opt(name).await.map_err(|e| super::connect::error_text(&e))? {
        Some(found) => found.value.map(Some),
        None => Ok(None),
    }
}
