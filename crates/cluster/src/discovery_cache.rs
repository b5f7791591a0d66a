//! An on-disk cache of the managed-resource kinds that discovery found, like kubectl's
//! `~/.kube/cache/discovery`, so that repeated runs against the same API server skip discovery.
//!
//! Aggregated discovery already costs only one request, but that request returns a document of
//! several megabytes on a server with thousands of CRDs; a cache hit costs one small file read.
//! Entries are keyed by the kubeconfig context and the API server URL (two contexts on one server
//! with different users may see different kinds; without a context, by the URL alone), expire after a TTL (`--discovery-cache-ttl`), are
//! bypassed and rewritten with `--refresh-discovery`, and are ignored (then overwritten) when they
//! cannot be read, belong to another server, or hold a kind that could not have come from an API
//! server. An empty result (no managed kinds: Crossplane not installed yet) is never cached, so
//! installing a provider is seen on the next run. This file owns the entry's format and when it
//! is trusted; the bytes are read and written by `local::store`.

use super::kinds::ApiKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use upjet_local::store;

/// Bump when the file format changes; files of other versions are ignored.
const FORMAT: u32 = 1;

/// How (and whether) a command uses the discovery cache.
#[derive(Debug, Clone)]
pub struct CacheOptions {
    /// Directory holding one folder per API server; `None` disables the cache.
    pub dir: Option<PathBuf>,
    /// How long an entry is trusted; zero disables the cache.
    pub ttl: Duration,
    /// Skip reading the cache (but write the fresh result), like `--refresh-discovery`.
    pub refresh: bool,
    /// The wall clock the entry's age is measured against (the settings layer reads it).
    pub now: SystemTime,
}

impl CacheOptions {
    /// The cache file for `server` reached through `context`, or `None` when the cache is off.
    pub(crate) fn file_for(&self, context: Option<&str>, server: &str) -> Option<PathBuf> {
        let dir = self.dir.as_ref().filter(|_| !self.ttl.is_zero())?;
        Some(dir.join(entry_dir_name(context, server)).join("managed-kinds.json"))
    }
}

/// `~/.kube/cache/upjet/discovery` under `home`, beside kubectl's own cache.
pub fn default_dir(home: &Path) -> PathBuf {
    home.join(".kube").join("cache").join("upjet").join("discovery")
}

/// A file-system-safe folder name for a server URL, as kubectl derives one: the URL without its
/// scheme, every character other than letters, digits, `.`, `-` and `_` replaced by `_`.
pub(crate) fn server_dir_name(server: &str) -> String {
    let rest = server.split_once("://").map_or(server, |(_, r)| r);
    let name: String = rest
        .trim_end_matches('/')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' })
        .take(200)
        .collect();
    if name.is_empty() || name.chars().all(|c| c == '.') { "_".into() } else { name }
}

/// The folder of one context's entry for one server: `CONTEXT@SERVER` with both made safe as
/// [`server_dir_name`] does, or the server's folder alone without a context. Two pairs that map
/// to one folder are told apart by what the entry records.
pub(crate) fn entry_dir_name(context: Option<&str>, server: &str) -> String {
    match context {
        None => server_dir_name(server),
        Some(ctx) => format!("{}@{}", server_dir_name(ctx), server_dir_name(server)),
    }
}

/// The file's content.
#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    format: u32,
    server: String,
    /// The kubeconfig context the kinds were discovered through (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    context: Option<String>,
    /// Seconds since the Unix epoch when discovery ran.
    fetched_at: u64,
    aggregated: bool,
    kinds: Vec<ApiKind>,
}

/// A cache hit: the kinds and how the server had served them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    /// The managed kinds, as discovery returned them.
    pub kinds: Vec<ApiKind>,
    /// Whether they came from aggregated discovery.
    pub aggregated: bool,
    /// How old the entry is.
    pub age: Duration,
}

/// Why the cache was not used, for `-v` logs and tests.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Miss {
    /// No file yet.
    #[error("no cache entry")]
    Absent,
    /// The file is older than the TTL (or dated in the future).
    #[error("cache entry expired")]
    Expired,
    /// The file is for another server or context (two that map to one folder name).
    #[error("cache entry is for another server or context")]
    OtherServer,
    /// The file could not be read or is not a valid entry.
    #[error("unreadable cache entry: {0}")]
    Corrupt(String),
}

/// Whether a name could be a URL segment that an API server produced: no separators, no
/// traversal, nothing that would change the request path.
fn segment_ok(s: &str) -> bool {
    !s.is_empty()
        && s != "."
        && s != ".."
        && s.len() <= 253
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

fn kind_ok(k: &ApiKind) -> bool {
    (k.group.is_empty() || segment_ok(&k.group)) && segment_ok(&k.version) && segment_ok(&k.plural)
}

/// Who an entry is for: the kubeconfig context (if any) and the API server URL.
#[derive(Debug, Clone, Copy)]
pub struct Key<'a> {
    /// The context.
    pub context: Option<&'a str>,
    /// The server URL.
    pub server: &'a str,
}

/// Reads the entry at `path` for `key`, if it is younger than `ttl` at `now`.
pub fn load(path: &Path, key: Key, ttl: Duration, now: SystemTime) -> Result<Cached, Miss> {
    let bytes = match store::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Miss::Absent),
        Err(e) => return Err(Miss::Corrupt(e.to_string())),
    };
    let entry: Entry = serde_json::from_slice(&bytes).map_err(|e| Miss::Corrupt(e.to_string()))?;
    if entry.format != FORMAT {
        return Err(Miss::Corrupt(format!("format {} is not {FORMAT}", entry.format)));
    }
    if entry.server != key.server || entry.context.as_deref() != key.context {
        return Err(Miss::OtherServer);
    }
    if entry.kinds.is_empty() || !entry.kinds.iter().all(kind_ok) {
        return Err(Miss::Corrupt("implausible kinds".into()));
    }
    let now_secs = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    // An entry from the future (clock moved back) is not trusted.
    let age = now_secs.checked_sub(entry.fetched_at).map(Duration::from_secs).ok_or(Miss::Expired)?;
    if age >= ttl {
        return Err(Miss::Expired);
    }
    Ok(Cached { kinds: entry.kinds, aggregated: entry.aggregated, age })
}

/// Writes an entry atomically (`local::store` renames a temporary file over the old one), so a
/// concurrent run reads either the old or the new entry, never half of one. Empty results are
/// not stored.
pub fn store(path: &Path, key: Key, kinds: &[ApiKind], aggregated: bool, now: SystemTime) -> std::io::Result<()> {
    if kinds.is_empty() {
        return Ok(());
    }
    let entry = Entry {
        format: FORMAT,
        server: key.server.to_string(),
        context: key.context.map(str::to_owned),
        fetched_at: now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        aggregated,
        kinds: kinds.to_vec(),
    };
    let body = serde_json::to_vec(&entry).map_err(std::io::Error::other)?;
    store::replace_atomically(path, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(plural: &str) -> ApiKind {
        ApiKind {
            group: "ec2.aws.upbound.io".into(),
            version: "v1beta1".into(),
            plural: plural.into(),
            singular: plural.trim_end_matches('s').into(),
            kind: "Thing".into(),
            namespaced: false,
            short_names: vec![],
            categories: vec!["crossplane".into(), "managed".into(), "aws".into()],
        }
    }

    const SERVER: Key = Key { context: None, server: "https://10.0.0.1:6443/" };
    const TTL: Duration = Duration::from_secs(600);

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn round_trip_within_ttl() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a").join("managed-kinds.json");
        let kinds = vec![kind("vpcs"), kind("subnets")];
        store(&path, SERVER, &kinds, true, at(1_000)).unwrap();
        let hit = load(&path, SERVER, TTL, at(1_599)).unwrap();
        assert_eq!(hit, Cached { kinds, aggregated: true, age: Duration::from_secs(599) });
        assert!(std::fs::read_dir(path.parent().unwrap()).unwrap().count() == 1, "no temporary file left behind");
    }

    #[test]
    fn expiry_future_dates_and_other_servers_miss() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("managed-kinds.json");
        assert_eq!(load(&path, SERVER, TTL, at(0)), Err(Miss::Absent));
        store(&path, SERVER, &[kind("vpcs")], true, at(1_000)).unwrap();
        assert_eq!(load(&path, SERVER, TTL, at(1_600)), Err(Miss::Expired));
        assert_eq!(load(&path, SERVER, TTL, at(999)), Err(Miss::Expired), "dated in the future");
        assert_eq!(
            load(&path, Key { server: "https://10.0.0.2:6443/", ..SERVER }, TTL, at(1_001)),
            Err(Miss::OtherServer)
        );
    }

    #[test]
    fn corrupt_or_implausible_entries_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("managed-kinds.json");
        for bad in [
            "".to_string(),
            "{not json".to_string(),
            "\u{0}\u{1}binary".to_string(),
            r#"{"format":99,"server":"x","fetched_at":1,"aggregated":true,"kinds":[]}"#.to_string(),
        ] {
            std::fs::write(&path, bad).unwrap();
            assert!(matches!(load(&path, SERVER, TTL, at(2)), Err(Miss::Corrupt(_))));
        }
        // A kind whose names would change the request path is rejected, whoever wrote it.
        let mut evil = kind("vpcs");
        evil.plural = "../../api/v1/secrets".into();
        let entry = Entry {
            format: FORMAT,
            server: SERVER.server.into(),
            context: None,
            fetched_at: 1,
            aggregated: true,
            kinds: vec![evil],
        };
        std::fs::write(&path, serde_json::to_vec(&entry).unwrap()).unwrap();
        assert!(matches!(load(&path, SERVER, TTL, at(2)), Err(Miss::Corrupt(_))));
        // A directory where the file should be is unreadable, not fatal.
        let as_dir = dir.path().join("d");
        std::fs::create_dir(&as_dir).unwrap();
        assert!(matches!(load(&as_dir, SERVER, TTL, at(2)), Err(Miss::Corrupt(_))));
    }

    #[test]
    fn two_contexts_on_one_server_have_their_own_entries() {
        let dir = tempfile::tempdir().unwrap();
        let opts = CacheOptions { dir: Some(dir.path().into()), ttl: TTL, refresh: false, now: at(1) };
        let (admin, viewer) = (Key { context: Some("admin"), ..SERVER }, Key { context: Some("viewer"), ..SERVER });
        let (pa, pv) = (
            opts.file_for(admin.context, admin.server).unwrap(),
            opts.file_for(viewer.context, SERVER.server).unwrap(),
        );
        assert_ne!(pa, pv);
        store(&pa, admin, &[kind("vpcs"), kind("subnets")], true, at(1)).unwrap();
        store(&pv, viewer, &[kind("vpcs")], true, at(1)).unwrap();
        assert_eq!(load(&pa, admin, TTL, at(2)).unwrap().kinds.len(), 2);
        assert_eq!(load(&pv, viewer, TTL, at(2)).unwrap().kinds.len(), 1);
        assert_eq!(load(&pa, viewer, TTL, at(2)), Err(Miss::OtherServer), "another context's entry is not used");
    }

    #[test]
    fn empty_results_are_not_cached() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("managed-kinds.json");
        store(&path, SERVER, &[], true, at(1)).unwrap();
        assert_eq!(load(&path, SERVER, TTL, at(2)), Err(Miss::Absent));
    }

    #[test]
    fn folder_names_are_safe_and_distinct() {
        assert_eq!(server_dir_name("https://10.0.0.1:6443/"), "10.0.0.1_6443");
        assert_eq!(server_dir_name("https://api.example.com/k8s/clusters/c-1"), "api.example.com_k8s_clusters_c-1");
        assert_ne!(server_dir_name("http://127.0.0.1:1"), server_dir_name("http://127.0.0.1:2"));
        for weird in ["", "https://", "..", "https://../..", "💥"] {
            let n = server_dir_name(weird);
            assert!(!n.is_empty() && n != "." && n != ".." && !n.contains('/'), "{weird:?} → {n:?}");
        }
        let opts = CacheOptions { dir: Some("/c".into()), ttl: TTL, refresh: false, now: SystemTime::UNIX_EPOCH };
        assert_eq!(opts.file_for(None, "http://h:1").unwrap(), PathBuf::from("/c/h_1/managed-kinds.json"));
        assert_eq!(
            opts.file_for(Some("prod/a"), "http://h:1").unwrap(),
            PathBuf::from("/c/prod_a@h_1/managed-kinds.json")
        );
        assert_eq!(CacheOptions { ttl: Duration::ZERO, ..opts.clone() }.file_for(None, "http://h:1"), None);
        assert_eq!(CacheOptions { dir: None, ..opts }.file_for(None, "http://h:1"), None);
    }
}
