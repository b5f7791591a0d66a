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
//!   and field selectors; get, create (`generateName`), update, merge / JSON
//!   patches, server-side apply (below), delete (finalizers keep the object with a `deletionTimestamp` until removed; a CRD is
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
//! - server-side apply and `metadata.managedFields` as kube-apiserver keeps them: `PATCH` with
//!   `application/apply-patch+yaml` needs `?fieldManager=` (422 otherwise) and takes `?force=`
//!   (422 on any other patch); every write records `manager`, `operation` (`Apply` or `Update`),
//!   `apiVersion`, `time`, `fieldsType: FieldsV1`, `fieldsV1` and `subresource`. An apply owns
//!   exactly the fields of its body; an Update (create, `PUT`, merge or JSON patch, under
//!   `?fieldManager=` or else the `User-Agent` up to its first `/`) owns what it added or changed
//!   and takes it from everyone else; an apply changing a field someone else owns gets the 409
//!   `Apply failed with N conflict(s): …` unless forced, and force takes the field over; a field
//!   an applier stops sending is removed unless another applier owns it; kubectl's own
//!   server-side apply takes over what its client-side apply set (the last-applied rule).
//!   Approximated: ownership is counted per map key only — a list is one atomic value (upstream
//!   tracks `k:`/`v:` items by the schema's list type; such entries read from fixtures make the
//!   whole list owned), labels and annotations are maps; no schema defaulting, no managers merged
//!   into `…-update` buckets past ten, no version conversion of entries;
//! - fault injection ([`Fault`]) and traffic counters ([`Stats`]);
//! - with [`TestApi::enable_rbac`], bearer-token authentication and RBAC
//!   authorization of every request (otherwise any bearer token is accepted).
//!
//! Not implemented: other authentication methods, admission (besides a test's own hooks,
//! [`TestApi::on_admit`]), schema validation and defaulting (CRD schemas are skipped when loading),
//! conversion between CRD versions (every version serves the same stored object
//! with its own apiVersion), managed fields at list-item granularity, strategic merge patch semantics
//! (built-ins take it as a merge patch; custom resources get 415 as in
//! Kubernetes), namespace cascade deletion, protobuf, HTTP/2, TLS, SPDY exec,
//! attach, port-forward, the legacy `/watch/` paths, and built-in types other
//! than the ones listed above.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! let api = testapi::TestApi::new();
//! api.add_crds_from_dir(std::path::Path::new("../shared/fixtures/crds/provider-upjet-gcp"))?;
//! api.insert(serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"}}));
//! let server = api.start().await?;
//! server.write_kubeconfig(std::path::Path::new("/tmp/kubeconfig"), Some("default"))?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod admission;
mod builtins;
mod cleanup;
mod crd;
mod create;
mod delete;
mod discovery;
mod discovery_docs;
mod exec;
mod faults;
mod fieldset;
mod list;
mod managed;
mod openapi;
mod ops;
mod podlog;
mod rbac;
mod reqinfo;
mod resp;
mod route;
mod running;
mod selector;
mod server;
mod stats;
mod store;
mod table;
mod update;
mod util;
mod watch;

use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

pub use admission::{AdmissionRequest, Denial};
pub use exec::{ExecOutput, ExecRequest};
pub use faults::Fault;
pub(crate) use faults::FaultSlot;
pub use rbac::User;
pub use running::RunningServer;
pub use stats::Stats;
pub(crate) use stats::StatsInner;

/// HTTP method type used by [`Fault::Status`] (re-exported so callers need no `http` dependency).
pub use hyper::Method;

type Hook = Arc<dyn Fn(&mut Value) + Send + Sync>;
type ExecHook = Arc<dyn Fn(&ExecRequest) -> Option<ExecOutput> + Send + Sync>;

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
        delete::delete(&self.inner, &def, api_version, namespace, name, b"", false).ok()
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

    /// The current (latest) resourceVersion, as lists report it.
    pub fn resource_version(&self) -> u64 {
        self.inner.current_rv()
    }
}
