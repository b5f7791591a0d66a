//! An in-process API server loaded with real CRDs, a generated kubeconfig, and managed
//! resources with upjet's shape to seed it with (core's one MR builder).
// The benchmarks include this file alone (`#[path]`) and use only part of it.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use testapi::{RunningServer, TestApi};

/// `../shared/fixtures` beside the repository (read in place, never copied).
pub fn shared_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures")
}

/// The CRDs of one provider folder, e.g. `provider-upjet-gcp`.
pub fn crd_dir(provider: &str) -> PathBuf {
    shared_fixtures().join("crds").join(provider)
}

/// A running test cluster.
pub struct Cluster {
    /// The API server's state, for seeding and inspection.
    pub api: TestApi,
    /// The server (stops when dropped).
    pub server: RunningServer,
    dir: tempfile::TempDir,
}

/// Builds a [`Cluster`].
pub struct ClusterBuilder {
    api: TestApi,
    namespace: Option<String>,
}

impl ClusterBuilder {
    /// Loads every CRD file of a provider folder from the shared fixtures.
    pub fn crds(self, provider: &str) -> Self {
        self.api.add_crds_from_dir(&crd_dir(provider)).expect("CRDs load");
        self
    }
    /// Loads only the named CRD files (faster than a whole provider).
    pub fn crd_files(self, provider: &str, files: &[&str]) -> Self {
        for f in files {
            let text = std::fs::read_to_string(crd_dir(provider).join(f)).expect("CRD file");
            self.api.add_crd_yaml(&text).expect("CRD parses");
        }
        self
    }
    /// Installs the guard's lock CRD (`identitylocks.guard.kubectl-upjet.io`), as
    /// `kubectl upjet guard | kubectl apply -f -` does.
    pub fn guard_lock(self) -> Self {
        let crd = upjet_core::guard::lock::crd::crd();
        self.api.add_crd_yaml(&crd.to_string()).expect("the lock's CRD loads");
        self
    }
    /// What the API server's `/version` answers (`1`, `36`, `v1.36.0`).
    pub fn version(self, major: &str, minor: &str, git_version: &str) -> Self {
        self.api.set_version(major, minor, git_version);
        self
    }
    /// Serves discovery like a server without aggregated discovery.
    pub fn legacy_discovery(self) -> Self {
        self.api.set_aggregated_discovery(false);
        self
    }
    /// Default namespace of the kubeconfig context.
    pub fn namespace(mut self, ns: &str) -> Self {
        self.namespace = Some(ns.to_string());
        self
    }
    /// Starts the server and writes the kubeconfig.
    pub fn start(self) -> Cluster {
        let server = self.api.start_blocking().expect("server starts");
        let dir = tempfile::tempdir().unwrap();
        server.write_kubeconfig(&dir.path().join("kubeconfig"), self.namespace.as_deref()).unwrap();
        Cluster { api: self.api, server, dir }
    }
}

impl Cluster {
    /// A new cluster builder.
    pub fn builder() -> ClusterBuilder {
        ClusterBuilder { api: TestApi::new(), namespace: None }
    }
    /// The kubeconfig path.
    pub fn kubeconfig(&self) -> PathBuf {
        self.dir.path().join("kubeconfig")
    }
    /// A scratch directory that lives as long as the cluster.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
    /// Stores an object.
    pub fn add(&self, obj: Value) -> Value {
        self.api.insert(obj)
    }
    /// A kube connection through the real client, for library-level checks (await it on the
    /// runtime that will use it: the client's worker lives there).
    pub async fn connect(&self) -> upjet_cluster::connect::Connection {
        let flags = upjet_cluster::connect::ConnectOptions::kubeconfig(self.kubeconfig());
        upjet_cluster::connect::connect(&flags).await.unwrap()
    }
}

/// The MR builder of every test (`upjet_core::testing`, its two starting points and their
/// defaults documented there): cluster tests start from [`Mr::provisioned`].
#[allow(unused_imports)]
pub use upjet_core::testing::Mr;
