//! The kinds `guard` covers: the managed kinds a cluster serves (discovery, `--kind`,
//! `--provider`), each with the ID formats its healthy MRs agree on (doctor's scan and
//! `identity::Peers`) or `--id-template`; or the CRDs of the `managed` category in files
//! (`--from`), with `--id-template` alone. The MRs are listed by doctor's scan.

use crate::commands::evidence::served_kind;
use std::path::Path;
use std::sync::Arc;
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::{ApiKind, KindSelection};
use upjet_cluster::scan::{self, KindScan, ScanOptions};
use upjet_cluster::snapshot;
use upjet_core::error::Error;
use upjet_core::guard::kind::{self, GuardKind};
use upjet_core::identity::{Peers, UserTemplate};
use upjet_core::managed::ManagedResource;
use upjet_evidence::crd;

/// Each kind as the guard takes it, with the formats its peers taught (`peers`, learned) or the
/// last `--id-template` that names it, as doctor picks them.
pub(super) fn guard_kinds(selected: &[ApiKind], peers: &Peers, users: &[UserTemplate]) -> Vec<GuardKind> {
    selected
        .iter()
        .map(|k| {
            let mut g = GuardKind::new(&k.group, &k.kind, &k.plural, k.namespaced);
            let user = users.iter().rev().find(|u| u.matches(&k.kind, &k.group));
            g.id_templates = kind::templates(peers.identity(&k.group, &k.kind), user);
            g
        })
        .collect()
}

/// The managed kinds of the CRD files at `path` (a file, or every `.yaml`/`.yml`/`.json` below a
/// folder), narrowed by `wanted`. A CRD that does not read is an error naming its file and
/// line; no managed kind at all is one naming the path.
pub(super) fn from_files(path: &Path, wanted: &KindSelection) -> Result<Vec<ApiKind>, Error> {
    let (files, _) = snapshot::files(path)?;
    let mut served: Vec<ApiKind> = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).map_err(|e| Error::usage(format!("cannot read {}: {e}", file.display())))?;
        let yaml = !matches!(file.extension().and_then(|e| e.to_str()), Some("json"));
        let read = crd::read_file(&text, yaml);
        if let Some((line, why)) = read.errors.first() {
            return Err(Error::usage(format!("{}:{line}: {why}", file.display())));
        }
        served.extend(read.crds.iter().filter(|c| c.is_managed()).filter_map(served_kind));
    }
    served.sort_by(|a, b| (&a.group, &a.kind).cmp(&(&b.group, &b.kind)));
    served.dedup_by(|a, b| a.group == b.group && a.kind == b.kind);
    if served.is_empty() {
        return Err(Error::usage(format!(
            "{} holds no CustomResourceDefinition of the `managed` category (a provider's CRDs, as `kubectl get crd -o yaml` writes them)",
            path.display()
        )));
    }
    let selected = wanted.select(served).map_err(|e| Error::usage(e.to_string()))?;
    if selected.is_empty() {
        return Err(Error::usage(format!(
            "no managed kind of {} is of --provider {:?}",
            path.display(),
            wanted.providers
        )));
    }
    Ok(selected)
}

/// Lists every MR of `kinds` as doctor's scan does (pages, at most `lists.concurrency` at once,
/// retried), keeping what `keep` makes of each; with a note per kind that could not be listed
/// whole.
pub(super) async fn scan<T, F>(
    conn: &Arc<Connection>,
    kinds: Vec<ApiKind>,
    lists: &ScanOptions,
    keep: F,
) -> (Vec<KindScan<T>>, Vec<String>)
where
    T: Send + 'static,
    F: Fn(ManagedResource) -> Option<T> + Send + Sync + 'static,
{
    let results = scan::scan(conn.clone(), kinds, lists.clone(), keep, |_| {}).await;
    let skipped = results
        .iter()
        .filter_map(|r| {
            let unreadable = (!r.unreadable.is_empty()).then(|| format!("{} objects unreadable", r.unreadable.len()));
            let why = r.error.clone().or(unreadable)?;
            Some(format!("{}: {why}", r.kind.resource_name()))
        })
        .collect();
    (results, skipped)
}
