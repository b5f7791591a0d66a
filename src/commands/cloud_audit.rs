//! Gathering the cloud's own audit record (`--cloud-audit`) for doctor, history and adopt: the
//! files are read once, off the async runtime, and the calls are tied to MRs once the MRs that
//! teach (the healthy peers) are known: the whole fleet for doctor, the MR's kind (or the whole
//! snapshot) for commands about one MR. [`for_one`] is the one call a command about one MR needs.

use super::evidence::open_input;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::retry::RetryPolicy;
use upjet_cluster::scan::{self, ScanOptions};
use upjet_core::cloud_audit::CloudAuditCheck;
use upjet_core::managed::ManagedResource;
use upjet_evidence::cloud_audit::{self, CloudRecord};
use upjet_evidence::format::Reader;

/// The cloud's record a command reads (`--cloud-audit`, `--cloud-principal`), resolved once
/// from its flags (`commands::resolve`).
#[derive(Clone, Debug, Default)]
pub struct CloudAuditFiles {
    /// The export files (`-` is stdin).
    pub files: Vec<PathBuf>,
    /// The provider's cloud identities given by hand, for the provider configs whose healthy
    /// MRs' creates are not in the record.
    pub principals: Vec<String>,
}

/// Reads every `--cloud-audit` file; `None` without any. A file that cannot be opened is a usage
/// error (exit 2); what its content lacks becomes notes ([`CloudRecord::notes`]).
pub async fn read(asked: &CloudAuditFiles) -> anyhow::Result<Option<CloudRecord>> {
    if asked.files.is_empty() {
        return Ok(None);
    }
    let files = asked.files.clone();
    tokio::task::spawn_blocking(move || {
        let mut read = Vec::new();
        for path in &files {
            let (reader, name) = open_input(path, "cloud audit record")?;
            let (found, calls) = cloud_audit::read(reader, &name);
            // Not one record of any cloud was decoded: if the file is another input, say so.
            if found.decoded_total() == 0
                && let Some(e) = super::inputs::misplaced(path, Reader::CloudAudit)
            {
                return Err(e.into());
            }
            read.push((found, calls));
        }
        Ok(Some(CloudRecord::new(read)))
    })
    .await
    .map_err(|e| upjet_core::error::Error::failed(format!("cloud audit reader stopped: {e}")))?
}

/// Ties the record's calls to `mrs` (every MR known: healthy peers teach, and a create naming two
/// MRs must be seen naming both).
pub fn check(record: &CloudRecord, mrs: &[&ManagedResource], asked: &CloudAuditFiles) -> CloudAuditCheck {
    record.check(mrs, &asked.principals)
}

/// The record tied to one MR (look it up with [`CloudAuditCheck::for_mr`]) and the notes on the
/// files and on what was learned: its peers are the snapshot's MRs with `--from`, else every MR
/// of its kind listed from the cluster over the command's own connection (`live`). `None`
/// without files.
pub async fn for_one(
    asked: &CloudAuditFiles,
    mr: &ManagedResource,
    from: Option<&Path>,
    live: Option<(&Connection, &ApiKind)>,
) -> anyhow::Result<Option<(CloudAuditCheck, Vec<String>)>> {
    let Some(record) = read(asked).await? else { return Ok(None) };
    Ok(Some(tie_one(&record, asked, mr, from, live).await?))
}

/// The record, already read, tied to one MR as [`for_one`] ties it: for a command that reads
/// its inputs before the cluster (adopt).
pub(crate) async fn tie_one(
    record: &CloudRecord,
    asked: &CloudAuditFiles,
    mr: &ManagedResource,
    from: Option<&Path>,
    live: Option<(&Connection, &ApiKind)>,
) -> anyhow::Result<(CloudAuditCheck, Vec<String>)> {
    let (peers, mut notes) = match (from, live) {
        (Some(path), _) => (snapshot_mrs(path)?, Vec::new()),
        (None, Some((conn, kind))) => live_kind(conn, kind).await,
        (None, None) => (Vec::new(), Vec::new()),
    };
    let same = |p: &ManagedResource| {
        p.name == mr.name && p.namespace == mr.namespace && p.kind == mr.kind && p.group() == mr.group()
    };
    let mut mrs: Vec<&ManagedResource> = peers.iter().filter(|p| !same(p)).collect();
    mrs.push(mr);
    let result = check(record, &mrs, asked);
    notes.extend(record.notes());
    notes.extend(result.notes.iter().cloned());
    Ok((result, notes))
}

/// Every MR of a snapshot or a Velero backup.
pub(super) fn snapshot_mrs(path: &Path) -> anyhow::Result<Vec<ManagedResource>> {
    Ok(super::backup::managed_resources(path)?.0)
}

/// Every MR of one kind, from the cluster: the peers that teach the provider's identity and the
/// kind's ID form. What cannot be listed becomes a note; the MR is then judged alone.
pub(super) async fn live_kind(conn: &Connection, kind: &ApiKind) -> (Vec<ManagedResource>, Vec<String>) {
    let conn = Arc::new(conn.clone());
    let opts = ScanOptions { namespace: None, label_selector: None, page_size: 500, concurrency: 1 };
    let results = scan::scan_with(conn, vec![kind.clone()], opts, RetryPolicy::default(), Some, |_| {}).await;
    let mut notes = Vec::new();
    let mut mrs = Vec::new();
    for r in results {
        if let Some(e) = r.error {
            notes.push(format!("cloud audit: listing {} for the MR's peers: {e}", r.kind.resource_name()));
        }
        mrs.extend(r.kept);
    }
    (mrs, notes)
}
