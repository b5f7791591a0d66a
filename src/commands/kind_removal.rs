//! Whether a live cluster's managed kinds are going away: the deletion state of their
//! CustomResourceDefinitions (and, for one MR, its ManagedResourceDefinition), read as metadata
//! alone and only where it can matter. A CRD being deleted has already had the API server delete
//! every object of it, so a scan asks only for the CRDs of kinds whose MRs it saw being deleted:
//! on a cluster where nothing is deleted that is no request at all. The MRDs come from the one
//! list doctor already reads (`commands::mrd::scan`).

use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::providers;
use upjet_core::kind_removal::KindRemovals;
use upjet_core::managed::ManagedResource;

/// The CRDs of `kinds` being deleted, one metadata-only GET each, and a note per CRD that could
/// not be read (then its MRs are judged without it).
pub async fn crds(conn: &Connection, kinds: &[ApiKind]) -> (KindRemovals, Vec<String>) {
    let mut removals = KindRemovals::default();
    let mut notes = Vec::new();
    for kind in kinds {
        let name = kind.resource_name();
        match read(providers::crd_metadata(conn, &name).await) {
            Ok(at) => removals.crd((kind.group.as_str(), kind.kind.as_str()), &name, at.as_deref()),
            Err(why) => notes
                .push(format!("cannot read CustomResourceDefinition {name} to see whether it is being deleted: {why}")),
        }
    }
    (removals, notes)
}

/// For one MR: its MRD's deletion state (Crossplane v2; nothing where none is served), and its
/// CRD's when the MR is being deleted (a CRD being deleted deletes every MR of it first).
pub async fn for_one(conn: &Connection, kind: &ApiKind, mr: &ManagedResource) -> KindRemovals {
    let name = kind.resource_name();
    let mut removals = KindRemovals::default();
    if let Ok(at) = read(providers::mrd_metadata(conn, &name).await) {
        removals.mrd((kind.group.as_str(), kind.kind.as_str()), &name, at.as_deref());
    }
    if mr.deletion_timestamp.is_some()
        && let Ok(at) = read(providers::crd_metadata(conn, &name).await)
    {
        removals.crd((kind.group.as_str(), kind.kind.as_str()), &name, at.as_deref());
    }
    removals
}

/// The deletion timestamp of a metadata-only answer, or why it could not be had.
fn read(body: Result<String, upjet_cluster::request::RequestError>) -> Result<Option<String>, String> {
    let body = body.map_err(|e| e.reason())?;
    upjet_evidence::crd::deleted_at(&body).map_err(|e| format!("unreadable answer: {e}"))
}
