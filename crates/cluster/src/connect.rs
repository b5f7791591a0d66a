//! Building a kube client from kubectl's flags and kubeconfig rules.
//!
//! Two kubectl behaviours kube-rs does not share are reproduced here: `KUBECONFIG` entries that
//! do not exist are skipped (kube fails on them), and every failure is explained in one line that
//! names the file, context or server involved.

use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};
use std::ffi::OsString;
use std::path::PathBuf;
use upjet_core::error::Error;

/// Everything needed to build a client, resolved from kubectl's flags and the environment by
/// the settings layer, so this module never reads flags or the process environment itself.
#[derive(Clone, Debug, Default)]
pub struct ConnectOptions {
    /// `--kubeconfig`.
    pub kubeconfig: Option<PathBuf>,
    /// The `KUBECONFIG` variable (a path list), when set and non-empty.
    pub kubeconfig_env: Option<OsString>,
    /// The user's home directory, for `~/.kube/config`.
    pub home: Option<PathBuf>,
    /// Whether the process runs in a pod (`KUBERNETES_SERVICE_HOST` is set): with no kubeconfig
    /// the in-cluster service account is used, as kubectl does.
    pub in_cluster: bool,
    /// `--context`.
    pub context: Option<String>,
    /// `--cluster`.
    pub cluster: Option<String>,
    /// `--user`.
    pub user: Option<String>,
    /// `--server`.
    pub server: Option<String>,
    /// `--token`.
    pub token: Option<String>,
    /// `--insecure-skip-tls-verify`.
    pub insecure_skip_tls_verify: bool,
    /// `--as`.
    pub as_user: Option<String>,
    /// `--as-group`.
    pub as_group: Vec<String>,
    /// `--request-timeout` (`None` or zero: no limit).
    pub request_timeout: Option<std::time::Duration>,
}

impl ConnectOptions {
    /// Options for one kubeconfig file and nothing else (tests, benchmarks).
    pub fn kubeconfig(path: impl Into<PathBuf>) -> ConnectOptions {
        ConnectOptions { kubeconfig: Some(path.into()), ..Default::default() }
    }
}

/// The client, plus what the shell reports about where it points. A clone shares the client
/// (its connection pool and credentials): a command that needs it in a second place (a scan
/// that wants it in an `Arc`) clones it rather than connecting again.
#[derive(Clone)]
pub struct Connection {
    /// The client.
    pub client: Client,
    /// The API server URL.
    pub server: String,
    /// Default namespace from the kubeconfig context (or `default`).
    pub default_namespace: String,
    /// Per-request time limit from `--request-timeout`.
    pub request_timeout: Option<std::time::Duration>,
    /// The kubeconfig context it was built from (`--context`, else `current-context`); `None`
    /// in a pod's service account. Keys the discovery cache and names the cluster in plans.
    pub context: Option<String>,
    /// Permits shared by every connection of one run, so `--concurrency` bounds the requests in
    /// flight across all the clusters scanned; `None`: unbounded here (callers bound themselves).
    pub limiter: Option<Limiter>,
}

/// A pool of request permits that several connections share (one per run).
pub type Limiter = std::sync::Arc<tokio::sync::Semaphore>;

impl Connection {
    /// The same connection, its requests drawing permits from `limiter`.
    pub fn limited(mut self, limiter: Limiter) -> Connection {
        self.limiter = Some(limiter);
        self
    }
}

/// The context names of the merged kubeconfig, in file order, and the `current-context`:
/// what `--all-contexts` scans and `--context` completes.
pub fn kubeconfig_contexts(flags: &ConnectOptions) -> Result<(Vec<String>, Option<String>), Error> {
    let kc = load_kubeconfig(&kubeconfig_paths(flags)?)?;
    let current = kc.current_context.clone().filter(|c| !c.is_empty());
    Ok((kc.contexts.into_iter().map(|c| c.name).collect(), current))
}

/// The context a connection with these flags would use: `--context`, else the kubeconfig's
/// `current-context`; `None` when no kubeconfig names one (a pod's service account).
pub fn current_context(flags: &ConnectOptions) -> Result<Option<String>, Error> {
    if let Some(ctx) = &flags.context {
        return Ok(Some(ctx.clone()));
    }
    let paths = kubeconfig_paths(flags)?;
    if paths.is_empty() && flags.in_cluster {
        return Ok(None);
    }
    Ok(kubeconfig_contexts(flags)?.1)
}

/// The kubeconfig files kubectl would read, in merge order.
pub(crate) fn kubeconfig_paths(flags: &ConnectOptions) -> Result<Vec<PathBuf>, Error> {
    if let Some(path) = &flags.kubeconfig {
        if !path.exists() {
            return Err(Error::cluster(format!("kubeconfig {} does not exist", path.display())));
        }
        return Ok(vec![path.clone()]);
    }
    if let Some(list) = flags.kubeconfig_env.as_ref().filter(|v| !v.is_empty()) {
        let existing: Vec<PathBuf> = std::env::split_paths(list).filter(|p| p.is_file()).collect();
        if !existing.is_empty() {
            return Ok(existing);
        }
    }
    Ok(flags.home.as_ref().map(|h| h.join(".kube").join("config")).filter(|p| p.is_file()).into_iter().collect())
}

/// Reads and merges kubeconfig files with kubectl's first-wins rule.
pub(crate) fn load_kubeconfig(paths: &[PathBuf]) -> Result<Kubeconfig, Error> {
    let mut merged: Option<Kubeconfig> = None;
    for path in paths {
        let kc = Kubeconfig::read_from(path)
            .map_err(|e| Error::cluster(format!("cannot read kubeconfig {}: {}", path.display(), error_text(&e))))?;
        merged = Some(match merged {
            None => kc,
            Some(m) => {
                m.merge(kc).map_err(|e| Error::cluster(format!("cannot merge kubeconfig {}: {e}", path.display())))?
            }
        });
    }
    merged.ok_or_else(|| {
        Error::cluster("no kubeconfig found: set KUBECONFIG, pass --kubeconfig, or create ~/.kube/config")
    })
}

/// Builds a client from the flags.
pub async fn connect(flags: &ConnectOptions) -> Result<Connection, Error> {
    let paths = kubeconfig_paths(flags)?;
    let mut context = None;
    let mut config = if paths.is_empty() && flags.in_cluster {
        Config::incluster().map_err(|e| Error::cluster(format!("cannot use the in-cluster service account: {e}")))?
    } else {
        let kc = load_kubeconfig(&paths)?;
        let options = KubeConfigOptions {
            context: flags.context.clone(),
            cluster: flags.cluster.clone(),
            user: flags.user.clone(),
        };
        if let Some(ctx) = &flags.context
            && !kc.contexts.iter().any(|c| &c.name == ctx)
        {
            let known: Vec<&str> = kc.contexts.iter().map(|c| c.name.as_str()).collect();
            return Err(Error::cluster(format!(
                "context {ctx:?} not found in kubeconfig (known: {})",
                known.join(", ")
            )));
        }
        context = flags.context.clone().or_else(|| kc.current_context.clone()).filter(|c| !c.is_empty());
        Config::from_custom_kubeconfig(kc, &options)
            .await
            .map_err(|e| Error::cluster(format!("cannot use kubeconfig: {}", error_text(&e))))?
    };
    if let Some(server) = &flags.server {
        config.cluster_url =
            server.parse().map_err(|e| Error::usage(format!("--server {server:?} is not a URL: {e}")))?;
    }
    if let Some(token) = &flags.token {
        config.auth_info.token = Some(token.clone().into());
    }
    if flags.insecure_skip_tls_verify {
        config.accept_invalid_certs = true;
    }
    if let Some(user) = &flags.as_user {
        config.auth_info.impersonate = Some(user.clone());
    }
    if !flags.as_group.is_empty() {
        config.auth_info.impersonate_groups = Some(flags.as_group.clone());
    }
    let request_timeout = flags.request_timeout.filter(|d| !d.is_zero());
    if let Some(t) = request_timeout {
        config.connect_timeout = Some(t);
    }
    let server = config.cluster_url.to_string();
    let default_namespace = config.default_namespace.clone();
    let client = Client::try_from(config)
        .map_err(|e| Error::cluster(format!("cannot create a client for {server}: {}", error_text(&e))))?;
    Ok(Connection { client, server, default_namespace, request_timeout, context, limiter: None })
}

/// One line made of an error and its sources, without repeating identical parts.
pub(crate) fn error_text(err: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = Some(err);
    while let Some(e) = cur {
        let s = e.to_string();
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
        cur = e.source();
    }
    parts.join(": ")
}

/// A 403 message followed by the missing permission and the shipped role that grants it, when
/// the message names one ([`super::permission`]).
pub(crate) fn with_advice(message: &str) -> String {
    match super::permission::advise(message) {
        Some(advice) => format!("{message} — {advice}"),
        None => message.to_string(),
    }
}

/// Turns a kube error from a request that the command cannot do without into a one-line
/// [`Error`] with the right exit code.
pub fn explain(err: &kube::Error, server: &str, what: &str) -> Error {
    match err {
        kube::Error::Api(status) => match status.code {
            401 => Error::cluster(format!(
                "the API server at {server} rejected the credentials (401 Unauthorized) while {what}; log in again or check the kubeconfig user"
            )),
            403 => Error::cluster(format!("forbidden while {what}: {}", with_advice(&status.message))),
            404 => Error::usage(format!("not found while {what}: {}", status.message)),
            code => Error::failed(format!(
                "the API server answered {code} {} while {what}: {}",
                status.reason, status.message
            )),
        },
        other => {
            let text = error_text(other);
            let lower = text.to_lowercase();
            if lower.contains("certificate") || lower.contains("tls") || lower.contains("handshake") {
                Error::cluster(format!("TLS failure talking to {server} while {what}: {text}"))
            } else {
                Error::cluster(format!("cannot reach the API server at {server} while {what}: {text}"))
            }
        }
    }
}
