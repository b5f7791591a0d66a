//! `testapi`: an in-process fake Kubernetes API server for kubectl-upjet's tests
//! and benchmarks.
//!
//! It speaks plain HTTP/1.1 on `127.0.0.1` (random port) and serves, from memory,
//! the parts of the Kubernetes API that kube-rs 5 and kubectl 1.32 use, shaped
//! like a real apiserver's answers:
//!
//! - discovery: legacy (`/api`, `/apis`, `/apis/{g}`, `/apis/{g}/{v}`) and
//!   aggregated (`apidiscovery.k8s.io/v2` and `v2beta1`), built from real CRD
//!   files (every served version; scope, kind, names, categories, status
//!   subresource), plus core v1 pods (log, exec, status), events, namespaces, secrets and
//!   configmaps, apps/v1 deployments, apiextensions.k8s.io/v1 customresourcedefinitions and the
//!   rbac.authorization.k8s.io/v1 kinds, and on request (`serve_admission_policies`)
//!   admissionregistration.k8s.io/v1's admission policies and bindings; `/version` (what
//!   [`TestApi::set_version`] sets); a minimal
//!   `/openapi/v3` (so `kubectl apply`/`create` validate via the server);
//! - list with `limit`/`continue` (opaque tokens, `remainingItemCount`), label
//!   and field selectors; get, create (`generateName`), update, merge / JSON /
//!   apply patches (apply approximated as a merge patch, without managedFields),
//!   delete (finalizers keep the object with a `deletionTimestamp` until removed; a CRD is
//!   deleted as kube-apiserver does it: Terminating, its objects deleted, gone with the last),
//!   deletecollection, the status subresource, `dryRun=All`, resourceVersion
//!   conflicts and generation bumps;
//! - watch (`?watch=true`): initial events, resume from a resourceVersion
//!   (10,000 events of history per resource, older gives a 410 ERROR event),
//!   selectors, `sendInitialEvents` bookmarks, periodic bookmarks
//!   ([`TestApi::bookmark_every`]), `timeoutSeconds`, and dropped watches
//!   with compaction ([`TestApi::drop_watches`]);
//! - server-side printing (`as=Table`) for custom resources from
//!   `additionalPrinterColumns` (built-ins answer plain JSON; kubectl falls back);
//! - pod logs (`container`, `previous`, `sinceSeconds`, `sinceTime`,
//!   `tailLines`, `limitBytes`, `timestamps`) and pod exec over websocket
//!   (`v5.channel.k8s.io`, `v4.channel.k8s.io`) from a per-pod file map;
//! - fault injection ([`Fault`]) and traffic counters ([`Stats`]);
//! - with [`TestApi::enable_rbac`], bearer-token authentication and RBAC
//!   authorization of every request (otherwise any bearer token is accepted).
//!
//! Not implemented: other authentication methods, admission (besides a test's own hooks,
//! [`TestApi::on_admit`]), schema validation and defaulting (CRD schemas are skipped when loading),
//! conversion between CRD versions (every version serves the same stored object
//! with its own apiVersion), managedFields, strategic merge patch semantics
//! (built-ins take it as a merge patch; custom resources get 415 as in
//! Kubernetes), namespace cascade deletion, protobuf, HTTP/2, TLS, SPDY exec,
//! attach, port-forward, the legacy `/watch/` paths, and built-in types other
//! than the ones listed above.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! let api = testapi::TestApi::new();
//! api.add_crds_from_dir(std::path::Path::new("/work/shared/fixtures/crds/provider-upjet-gcp"))?;
//! api.insert(serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"}}));
//! let server = api.start().await?;
//! server.write_kubeconfig(std::path::Path::new("/tmp/kubeconfig"), Some("default"))?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod admission;
mod cleanup;
mod crd;
mod exec;
mod openapi;
mod ops;
mod rbac;
mod reqinfo;
mod resp;
mod selector;
mod server;
mod store;
mod table;
mod util;
mod watch;

use serde_json::Value;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

pub use admission::{AdmissionRequest, Denial};
pub use exec::{ExecOutput, ExecRequest};
pub use rbac::User;

/// HTTP method type used by [`Fault::Status`] (re-exported so callers need no `http` dependency).
pub use hyper::Method;

/// A fault to inject into matching requests, so tests can exercise a client's
/// error handling (retries, backoff, pagination restarts, connection loss).
///
/// `path_contains` is matched against the request's path and query string
/// (e.g. `"/pods"`, `"limit=500"`, `"envgroups"`); an empty string matches every
/// request. `times: None` means "forever"; `Some(n)` fires on the next `n`
/// matching requests only. Faults are checked in the order they were added.
#[derive(Debug, Clone)]
pub enum Fault {
    /// Answer with a Kubernetes `Status` body of this `code` and `reason`
    /// (e.g. 429 `TooManyRequests`, 403 `Forbidden`, 500 `InternalError`,
    /// 503 `ServiceUnavailable`). 429/503 carry a `Retry-After` header
    /// (`retry_after_secs`, default 1) and `details.retryAfterSeconds`.
    Status {
        /// Only requests with this method match (`None`: any method).
        method: Option<Method>,
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// HTTP status code to answer.
        code: u16,
        /// Kubernetes `reason` in the Status body.
        reason: String,
        /// How many matching requests fail (`None`: all of them).
        times: Option<u32>,
        /// `Retry-After` seconds (used for 429 and 503, or any code when set).
        retry_after_secs: Option<u32>,
    },
    /// Answer as kube-apiserver answers a validating admission webhook's denial
    /// (`ToStatusErr`): a `Status` of the webhook's `code` whose `reason` is the webhook's
    /// reason and whose message is `admission webhook "WEBHOOK" denied the request: REASON`
    /// (Crossplane's Usage webhook refuses a DELETE so, with 409).
    Deny {
        /// Only requests with this method match (`None`: any method).
        method: Option<Method>,
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// The webhook's name (`nousages.protection.crossplane.io`).
        webhook: String,
        /// HTTP status code the webhook answered.
        code: u16,
        /// The webhook's reason.
        reason: String,
        /// How many matching requests are denied (`None`: all of them).
        times: Option<u32>,
    },
    /// Sleep `millis` before handling every matching request (never used up).
    Delay {
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// Delay in milliseconds.
        millis: u64,
    },
    /// Answer 410 Gone, reason `Expired`, to matching list requests that present
    /// a `continue` token (as when the token's snapshot was compacted away).
    ExpireContinue {
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// How many matching requests fail (`None`: all of them).
        times: Option<u32>,
    },
    /// Close the connection without answering.
    ResetConnection {
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// How many matching requests fail (`None`: all of them).
        times: Option<u32>,
    },
    /// Answer normally, but cut the body at a pseudo-random point (drawn from the fault's seed,
    /// see [`Fault::Chance`]; `0` without one), as a proxy or a dying connection does.
    /// `framed: false` keeps the full `Content-Length` and closes the connection after the
    /// prefix (the client sees "end of file before message length reached"); `framed: true`
    /// sends the prefix as a complete response (the client sees truncated JSON).
    CutBody {
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// How many matching requests are cut (`None`: all of them).
        times: Option<u32>,
        /// Whether the cut body is framed as a complete response.
        framed: bool,
    },
    /// Fires `fault` on about `percent` % of the requests it matches, chosen by a pseudo-random
    /// sequence from `seed`, so a test can replay a random fault schedule exactly (with one
    /// client request at a time) or at least statistically. `fault`'s own `times` counts the
    /// requests it fired on. `Delay` inside `Chance` delays the chosen requests only.
    Chance {
        /// Percentage (0–100) of matching requests that get the fault.
        percent: u8,
        /// Seed of the pseudo-random choices (and of `CutBody`'s cut points).
        seed: u64,
        /// The fault to inject.
        fault: Box<Fault>,
    },
}

/// Counters about the traffic a server handled, so tests and benchmarks can
/// assert how many requests a command made and how it paginated.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Requests received (including those answered by faults).
    pub requests: u64,
    /// Requests per class: `discovery`, `list`, `get`, `create`, `update`,
    /// `patch`, `delete`, `deletecollection`, `log`, `exec`, `version`, `watch`,
    /// `openapi`, `notfound`.
    pub by_class: BTreeMap<String, u64>,
    /// Sum of response body bytes.
    pub response_bytes: u64,
    /// Highest number of requests being handled at the same time.
    pub max_in_flight: usize,
    /// `(method, path?query)` of the most recent requests, oldest first
    /// (at most [`Stats::RECENT`]).
    pub recent: Vec<(String, String)>,
}

impl Stats {
    /// How many recent requests [`Stats::recent`] keeps.
    pub const RECENT: usize = 1000;

    /// Count of requests of one class (0 if none), for terse assertions.
    pub fn class(&self, class: &str) -> u64 {
        self.by_class.get(class).copied().unwrap_or(0)
    }
}

#[derive(Debug)]
pub(crate) struct FaultSlot {
    pub fault: Fault,
    pub remaining: Option<u32>,
    /// State of the slot's pseudo-random sequence (`Chance` draws, `CutBody` cut points).
    pub rng: u64,
}

impl FaultSlot {
    /// The next pseudo-random number of this slot (splitmix64).
    pub(crate) fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

type Hook = Arc<dyn Fn(&mut Value) + Send + Sync>;
type ExecHook = Arc<dyn Fn(&ExecRequest) -> Option<ExecOutput> + Send + Sync>;

#[derive(Default)]
pub(crate) struct StatsInner {
    pub requests: AtomicU64,
    pub response_bytes: AtomicU64,
    pub in_flight: AtomicUsize,
    pub max_in_flight: AtomicUsize,
    pub by_class: Mutex<BTreeMap<String, u64>>,
    pub recent: Mutex<VecDeque<(String, String)>>,
}

/// A stored pod log: lines with the time they were logged.
#[derive(Debug, Clone, Default)]
pub(crate) struct PodLog {
    pub lines: Vec<((i64, u32), String)>,
}

pub(crate) struct Inner {
    pub registry: RwLock<crd::Registry>,
    pub rv: Arc<AtomicU64>,
    pub aggregated: AtomicBool,
    /// Cached discovery bodies, cleared whenever CRDs change.
    pub disco: Mutex<HashMap<String, bytes::Bytes>>,
    pub logs: Mutex<HashMap<(String, String, String, bool), PodLog>>,
    pub faults: Mutex<Vec<FaultSlot>>,
    pub hooks: RwLock<Vec<Hook>>,
    pub stats: StatsInner,
    pub exec_files: Mutex<HashMap<(String, String), BTreeMap<String, String>>>,
    pub exec_hooks: RwLock<Vec<ExecHook>>,
    /// Bearer tokens and their users once RBAC is on (`None`: every request is an administrator).
    pub auth: RwLock<Option<rbac::Auth>>,
    /// Bumped by [`TestApi::drop_watches`]: every open watch stream ends when it changes.
    pub watch_epoch: tokio::sync::watch::Sender<u64>,
    /// How often open watches that asked for bookmarks (`allowWatchBookmarks=true`) get one.
    pub bookmark_every: Mutex<Option<std::time::Duration>>,
    /// What `/version` answers: `major`, `minor`, `gitVersion` ([`TestApi::set_version`]).
    pub version: Mutex<(String, String, String)>,
    /// Admission hooks ([`TestApi::on_admit`]).
    pub admit_hooks: RwLock<Vec<admission::AdmitHook>>,
}

impl Inner {
    pub(crate) fn next_rv(&self) -> u64 {
        self.rv.fetch_add(1, Ordering::SeqCst) + 1
    }

    pub(crate) fn current_rv(&self) -> u64 {
        self.rv.load(Ordering::SeqCst)
    }

    /// The resourceVersion counter, for a task that outlives the request (watch bookmarks).
    pub(crate) fn rv_handle(&self) -> Arc<AtomicU64> {
        self.rv.clone()
    }
}

/// Handle to the fake API server's state. Cheap to clone (an `Arc` inside), so a
/// test can keep one to seed objects and inspect results while servers run.
#[derive(Clone)]
pub struct TestApi {
    inner: Arc<Inner>,
}

impl Default for TestApi {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for TestApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestApi").field("resourceVersion", &self.inner.current_rv()).finish()
    }
}

impl TestApi {
    /// An empty server state: core v1 (pods, pods/log, pods/exec, events,
    /// namespaces, secrets, configmaps), apps/v1 deployments, rbac.authorization.k8s.io/v1 (cluster)roles and
    /// (cluster)rolebindings, apiextensions.k8s.io/v1 customresourcedefinitions, and the
    /// namespaces `default`, `kube-system`, `kube-public`, `kube-node-lease`.
    pub fn new() -> Self {
        let inner = Arc::new(Inner {
            registry: RwLock::new({
                let mut registry = crd::Registry::with_builtins();
                rbac::register(&mut registry);
                registry
            }),
            rv: Arc::new(AtomicU64::new(1000)),
            aggregated: AtomicBool::new(true),
            disco: Mutex::new(HashMap::new()),
            logs: Mutex::new(HashMap::new()),
            faults: Mutex::new(vec![]),
            hooks: RwLock::new(vec![]),
            stats: StatsInner::default(),
            exec_files: Mutex::new(HashMap::new()),
            exec_hooks: RwLock::new(vec![]),
            auth: RwLock::new(None),
            watch_epoch: tokio::sync::watch::channel(0).0,
            bookmark_every: Mutex::new(None),
            version: Mutex::new(("1".into(), "32".into(), "v1.32.0".into())),
            admit_hooks: RwLock::new(vec![]),
        });
        let api = Self { inner };
        for ns in ["default", "kube-system", "kube-public", "kube-node-lease"] {
            api.insert(serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}));
        }
        api
    }

    /// Registers every CustomResourceDefinition in `yaml` (one or several
    /// documents; other kinds are ignored) for discovery and serving: each
    /// *served* version with its scope, kind, plural, singular, shortNames,
    /// categories and status subresource. The CRD itself becomes listable under
    /// apiextensions.k8s.io/v1 (without its openAPIV3Schema, which is skipped for speed).
    pub fn add_crd_yaml(&self, yaml: &str) -> anyhow::Result<()> {
        let crds = crd::parse_crds(yaml)?;
        self.register_crds(crds)
    }

    fn register_crds(&self, crds: Vec<crd::CrdDoc>) -> anyhow::Result<()> {
        let mut objs = Vec::with_capacity(crds.len());
        {
            let mut reg = self.inner.registry.write().expect("registry lock");
            for c in &crds {
                objs.push(reg.add_crd(c)?);
            }
        }
        self.inner.disco.lock().expect("disco lock").clear();
        for o in objs {
            self.insert(o);
        }
        Ok(())
    }

    /// Like [`TestApi::add_crd_yaml`] for one CRD document, keeping its versions' schemas in
    /// the stored CRD object (slower: the whole schema is decoded), for clients that read a
    /// kind's schema from its CRD.
    pub fn add_crd_yaml_with_schemas(&self, yaml: &str) -> anyhow::Result<()> {
        self.add_crd_yaml(yaml)?;
        let full: Value = serde_saphyr::from_str(yaml).map_err(|e| anyhow::anyhow!("CRD YAML: {e}"))?;
        let name = full.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default().to_string();
        let schemas: Vec<(String, Value)> = full
            .pointer("/spec/versions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| Some((v.get("name")?.as_str()?.to_string(), v.get("schema")?.clone())))
            .collect();
        let api = "apiextensions.k8s.io/v1";
        self.modify(api, "CustomResourceDefinition", None, &name, |crd| {
            for v in crd.pointer_mut("/spec/versions").and_then(Value::as_array_mut).into_iter().flatten() {
                let version = v.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
                if let Some((_, schema)) = schemas.iter().find(|(n, _)| *n == version) {
                    v["schema"] = schema.clone();
                }
            }
        });
        Ok(())
    }

    /// Registers the CRDs of every `*.yaml` / `*.yml` file in `dir` (files are
    /// read in place, parsed on two threads). Returns how many CRDs were added.
    pub fn add_crds_from_dir(&self, dir: &Path) -> anyhow::Result<usize> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| anyhow::anyhow!("reading {}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        files.sort();
        let parse = |chunk: &[std::path::PathBuf]| -> anyhow::Result<Vec<crd::CrdDoc>> {
            let mut out = vec![];
            for p in chunk {
                let text = std::fs::read_to_string(p).map_err(|e| anyhow::anyhow!("reading {}: {e}", p.display()))?;
                out.extend(crd::parse_crds(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?);
            }
            Ok(out)
        };
        let half = files.len().div_ceil(2);
        let (a, b) = files.split_at(half);
        let (ra, rb) = std::thread::scope(|s| {
            let h = s.spawn(|| parse(b));
            (parse(a), h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("CRD parser thread panicked"))))
        });
        let mut crds = ra?;
        crds.extend(rb?);
        let n = crds.len();
        self.register_crds(crds)?;
        Ok(n)
    }

    /// What `/version` answers from now on (default `1`, `32`, `v1.32.0`): a managed cluster's
    /// `minor` may carry a `+` (`30+`), and its `gitVersion` a vendor suffix.
    pub fn set_version(&self, major: &str, minor: &str, git_version: &str) {
        *self.inner.version.lock().expect("version lock") = (major.into(), minor.into(), git_version.into());
    }

    /// Turns aggregated discovery on (default) or off. Off simulates an old
    /// server: the aggregated Accept header is ignored and `/api`, `/apis`
    /// answer the legacy APIVersions / APIGroupList with plain `application/json`.
    pub fn set_aggregated_discovery(&self, on: bool) {
        self.inner.aggregated.store(on, Ordering::SeqCst);
    }

    /// Stores (creates or replaces) an object by its apiVersion/kind, as a test
    /// fixture: fills `metadata.uid` and `creationTimestamp` when absent,
    /// `generation` (1) when absent, and always a new `resourceVersion`.
    /// Returns the stored object. Panics if no resource serves that apiVersion/kind.
    pub fn insert(&self, obj: Value) -> Value {
        ops::insert(&self.inner, obj).unwrap_or_else(|e| panic!("testapi insert: {e}"))
    }

    /// Serves `admissionregistration.k8s.io/v1`'s ValidatingAdmissionPolicies, their bindings and
    /// MutatingAdmissionPolicies (stored and listed, never enforced), as a kube-apiserver v1.30+
    /// (v1.36 for the mutating ones) does; without it they answer 404, as before v1.30.
    pub fn serve_admission_policies(&self) {
        admission::register(&mut self.inner.registry.write().expect("registry lock"));
        self.inner.disco.lock().expect("disco lock").clear();
    }

    /// Admits every later create and update of a custom resource through `hook` (as an admission
    /// plugin would, before the object is stored, dry runs included): `Some(denial)` refuses the
    /// write with that status. The hook must not write to this server.
    pub fn on_admit(&self, hook: impl Fn(&AdmissionRequest) -> Option<Denial> + Send + Sync + 'static) {
        self.inner.admit_hooks.write().expect("admit hooks lock").push(Arc::new(hook));
    }

    /// Whether the stored RBAC objects allow `user` `verb` on `resource` of `group`, in
    /// `namespace` (`None`: at the cluster scope), as the authorizer answers a
    /// SubjectAccessReview (CEL's `authorizer` in an admission policy asks the same).
    pub fn allows(&self, user: &User, verb: &str, group: &str, resource: &str, namespace: Option<&str>) -> bool {
        let attrs = rbac::Attributes::Resource { verb, group, resource, subresource: None, namespace, name: None };
        rbac::authorize(&self.inner, user, &attrs).is_ok()
    }

    /// Turns on authentication and RBAC authorization (see the `rbac` module): the kubeconfig's
    /// `test-token` stays an administrator (`system:masters`); other tokens must be added with
    /// [`TestApi::add_user`]; requests are then allowed only as the stored ClusterRoles, Roles and
    /// bindings say, and denied with the apiserver's 403.
    pub fn enable_rbac(&self) {
        let mut auth = self.inner.auth.write().expect("auth lock");
        let state = auth.get_or_insert_with(rbac::Auth::default);
        let admin = User { name: "admin".into(), groups: vec!["system:masters".into(), "system:authenticated".into()] };
        state.users.insert("test-token".into(), admin);
    }

    /// Adds a user that `token` authenticates as (RBAC must be on; see [`TestApi::enable_rbac`]).
    /// `system:authenticated` is added to its groups, as the apiserver does.
    pub fn add_user(&self, token: &str, name: &str, groups: &[&str]) {
        let mut auth = self.inner.auth.write().expect("auth lock");
        let state = auth.get_or_insert_with(rbac::Auth::default);
        let mut groups: Vec<String> = groups.iter().map(|g| g.to_string()).collect();
        groups.push("system:authenticated".into());
        state.users.insert(token.into(), User { name: name.into(), groups });
    }

    /// Reads a stored object (served as `api_version`), or `None`.
    pub fn get(&self, api_version: &str, kind: &str, namespace: Option<&str>, name: &str) -> Option<Value> {
        let def = ops::def_for(&self.inner, api_version, kind).ok()?;
        let map = def.store.map.read().expect("store lock");
        let e = map.get(&(namespace.unwrap_or_default().to_string(), name.to_string()))?;
        Some(e.to_value(api_version, kind))
    }

    /// All stored objects of a kind (optionally one namespace), ordered by
    /// namespace/name, so tests can inspect what a command changed.
    pub fn list(&self, api_version: &str, kind: &str, namespace: Option<&str>) -> Vec<Value> {
        let Ok(def) = ops::def_for(&self.inner, api_version, kind) else { return vec![] };
        let map = def.store.map.read().expect("store lock");
        map.items
            .iter()
            .filter(|((ns, _), _)| namespace.is_none_or(|n| n == ns))
            .map(|(_, e)| e.to_value(api_version, kind))
            .collect()
    }

    /// Changes a stored object in place as a controller's update would, atomically with respect
    /// to API writes (a simulated provider answering later than the write that triggered it must
    /// not lose a client's write in between); stored with a new resourceVersion, no hooks run.
    /// Returns the stored object, or `None` if it does not exist.
    pub fn modify(
        &self,
        api_version: &str,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
        f: impl FnOnce(&mut Value),
    ) -> Option<Value> {
        ops::modify(&self.inner, api_version, kind, namespace, name, f)
    }

    /// Deletes an object as a `DELETE` request does: one holding finalizers is only marked
    /// deleting, and a CustomResourceDefinition goes Terminating and deletes its objects
    /// (gone with the last of them). Returns the object as answered, `None` when absent.
    pub fn delete(&self, api_version: &str, kind: &str, namespace: Option<&str>, name: &str) -> Option<Value> {
        let def = ops::def_for(&self.inner, api_version, kind).ok()?;
        ops::delete(&self.inner, &def, api_version, namespace, name, b"", false).ok()
    }

    /// Removes an object outright (ignoring finalizers); returns it if it existed.
    pub fn remove(&self, api_version: &str, kind: &str, namespace: Option<&str>, name: &str) -> Option<Value> {
        let def = ops::def_for(&self.inner, api_version, kind).ok()?;
        let mut objs = def.store.map.write().expect("store lock");
        let key = (namespace.unwrap_or_default().to_string(), name.to_string());
        objs.get(&key)?;
        let rv = self.inner.next_rv();
        let e = objs.remove(&key, rv, None)?;
        Some(e.to_value(api_version, kind))
    }

    /// Sets the log text of a pod's container (current or `previous`), served by
    /// `GET .../pods/{pod}/log`. A line may start with an RFC 3339 timestamp and a
    /// space (kubelet's `timestamps=true` format), which is then its log time;
    /// other lines are logged "now". Timestamps are only shown with `timestamps=true`.
    pub fn set_pod_log(&self, namespace: &str, pod: &str, container: &str, previous: bool, text: &str) {
        let now = util::now();
        let lines = text
            .lines()
            .map(|l| match l.split_once(' ').and_then(|(ts, rest)| util::parse_rfc3339(ts).map(|t| (t, rest))) {
                Some((t, rest)) => (t, rest.to_string()),
                None => (now, l.to_string()),
            })
            .collect();
        self.inner
            .logs
            .lock()
            .expect("logs lock")
            .insert((namespace.into(), pod.into(), container.into(), previous), PodLog { lines });
    }

    /// Sets a file that the pod exec subresource (websocket) serves to
    /// `cat <path>`, `ls <dir>` and `test -f <path>` commands (also inside
    /// `sh -c "..."`), e.g. `/tmp/<uid>/terraform.tfstate` in a provider pod.
    /// The pod must exist (see [`TestApi::insert`]).
    pub fn set_exec_file(&self, namespace: &str, pod: &str, path: &str, content: &str) {
        self.inner
            .exec_files
            .lock()
            .expect("exec lock")
            .entry((namespace.into(), pod.into()))
            .or_default()
            .insert(path.into(), content.into());
    }

    /// Registers a handler for exec commands, consulted before the built-in file
    /// commands; return `None` to fall through. Lets a test script any command
    /// (e.g. `gzip -c`, `terraform show -json`).
    pub fn on_exec(&self, hook: impl Fn(&ExecRequest) -> Option<ExecOutput> + Send + Sync + 'static) {
        self.inner.exec_hooks.write().expect("exec hooks lock").push(Arc::new(hook));
    }

    /// Adds a fault to inject (see [`Fault`]).
    pub fn fault(&self, f: Fault) {
        fn times(f: &Fault) -> Option<u32> {
            match f {
                Fault::Status { times, .. }
                | Fault::Deny { times, .. }
                | Fault::ExpireContinue { times, .. }
                | Fault::ResetConnection { times, .. }
                | Fault::CutBody { times, .. } => *times,
                Fault::Delay { .. } => None,
                Fault::Chance { fault, .. } => times(fault),
            }
        }
        let remaining = times(&f);
        let rng = match &f {
            Fault::Chance { seed, .. } => *seed,
            _ => 0,
        };
        self.inner.faults.lock().expect("faults lock").push(FaultSlot { fault: f, remaining, rng });
    }

    /// Removes every injected fault.
    pub fn clear_faults(&self) {
        self.inner.faults.lock().expect("faults lock").clear();
    }

    /// Registers a hook called after every successful non-dry-run PUT/PATCH of a
    /// custom resource (main resource or status) with the stored object, to
    /// simulate a provider controller (e.g. flip conditions). Changes the hook
    /// makes are stored as a separate write (new resourceVersion) before the
    /// response is sent; the response itself carries the pre-hook object, as a
    /// real apiserver's would. No server lock is held while the hook runs, so it
    /// may call back into this `TestApi`.
    pub fn on_write(&self, hook: impl Fn(&mut Value) + Send + Sync + 'static) {
        self.inner.hooks.write().expect("hooks lock").push(Arc::new(hook));
    }

    /// Starts serving on `127.0.0.1:<random port>`. The server runs on its own
    /// thread and tokio runtime, so it keeps answering even while the test blocks
    /// (e.g. waiting for a `kubectl` or `assert_cmd` child process).
    pub async fn start(&self) -> anyhow::Result<RunningServer> {
        self.start_blocking()
    }

    /// Like [`TestApi::start`], for synchronous tests.
    pub fn start_blocking(&self) -> anyhow::Result<RunningServer> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::watch::channel(false);
        let inner = self.inner.clone();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new().name(format!("testapi-{}", addr.port())).spawn(move || {
            let rt = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("testapi-worker")
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = ready_tx.send(Err(anyhow::anyhow!("building runtime: {e}")));
                    return;
                }
            };
            rt.block_on(async move {
                match tokio::net::TcpListener::from_std(listener) {
                    Ok(l) => {
                        let _ = ready_tx.send(Ok(()));
                        server::serve(inner, l, rx).await;
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(anyhow::anyhow!("listener: {e}")));
                    }
                }
            });
        })?;
        ready_rx.recv().map_err(|_| anyhow::anyhow!("server thread died"))??;
        Ok(RunningServer { url: format!("http://{addr}"), addr, shutdown: tx, thread: Some(thread) })
    }

    /// Ends every open watch stream, as an API server restart or a dropped connection does;
    /// with `compact`, also forgets every store's event history, as etcd compaction does, so a
    /// watch resumed from an earlier resourceVersion gets a 410 `Expired` ERROR event and the
    /// client must list again.
    pub fn drop_watches(&self, compact: bool) {
        if compact {
            let registry = self.inner.registry.read().expect("registry lock");
            let current = self.inner.current_rv();
            for store in registry.stores.values() {
                store.compact(current);
            }
        }
        self.inner.watch_epoch.send_modify(|e| *e += 1);
    }

    /// Sends a `BOOKMARK` event carrying the current resourceVersion every `every` on each open
    /// watch that asked for bookmarks (`allowWatchBookmarks=true`), as API servers do about
    /// once a minute; `None` (the default) sends none.
    pub fn bookmark_every(&self, every: Option<std::time::Duration>) {
        *self.inner.bookmark_every.lock().expect("bookmark lock") = every;
    }

    /// Snapshot of the traffic counters.
    pub fn stats(&self) -> Stats {
        let s = &self.inner.stats;
        Stats {
            requests: s.requests.load(Ordering::SeqCst),
            by_class: s.by_class.lock().expect("stats lock").clone(),
            response_bytes: s.response_bytes.load(Ordering::SeqCst),
            max_in_flight: s.max_in_flight.load(Ordering::SeqCst),
            recent: s.recent.lock().expect("stats lock").iter().cloned().collect(),
        }
    }

    /// Zeroes the traffic counters (e.g. after seeding, before the measured part).
    pub fn reset_stats(&self) {
        let s = &self.inner.stats;
        s.requests.store(0, Ordering::SeqCst);
        s.response_bytes.store(0, Ordering::SeqCst);
        s.max_in_flight.store(s.in_flight.load(Ordering::SeqCst), Ordering::SeqCst);
        s.by_class.lock().expect("stats lock").clear();
        s.recent.lock().expect("stats lock").clear();
    }

    /// The current (latest) resourceVersion, as lists report it.
    pub fn resource_version(&self) -> u64 {
        self.inner.current_rv()
    }
}

/// A server that is serving; dropping it stops the server and closes its connections.
#[derive(Debug)]
pub struct RunningServer {
    /// Base URL, `http://127.0.0.1:PORT`.
    pub url: String,
    /// The bound address.
    pub addr: SocketAddr,
    shutdown: tokio::sync::watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RunningServer {
    /// Writes a kubeconfig pointing at this server: context, cluster and user all
    /// named `test`, bearer token `test-token`, optional default namespace.
    pub fn write_kubeconfig(&self, path: &Path, namespace: Option<&str>) -> std::io::Result<()> {
        std::fs::write(path, self.kubeconfig(namespace))
    }

    /// The kubeconfig text that [`RunningServer::write_kubeconfig`] writes.
    pub fn kubeconfig(&self, namespace: Option<&str>) -> String {
        self.kubeconfig_with_token(namespace, "test-token")
    }

    /// A kubeconfig like [`RunningServer::kubeconfig`] whose user presents `token` (a user added
    /// with [`TestApi::add_user`]).
    pub fn kubeconfig_with_token(&self, namespace: Option<&str>, token: &str) -> String {
        let ns = namespace
            .map(|n| format!("    namespace: {}\n", serde_json::to_string(n).unwrap_or_default()))
            .unwrap_or_default();
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n    server: {}\ncontexts:\n- name: test\n  context:\n    cluster: test\n    user: test\n{ns}current-context: test\nusers:\n- name: test\n  user:\n    token: {token}\npreferences: {{}}\n",
            self.url
        )
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
