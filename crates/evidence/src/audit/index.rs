//! The writes of every audit file read, looked up by MR (group, namespace, name; the resource
//! must be the kind's plural), and the notes about the files as a whole.

use super::AuditRead;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use upjet_core::audit::{AuditWrite, MrAudit, resource_matches_kind};
use upjet_core::managed::ManagedResource;

/// One file read, and whether any of its UIDs belonged to an MR looked up.
#[derive(Debug)]
pub struct FileSummary {
    /// What reading it found.
    pub read: AuditRead,
    matched: AtomicBool,
}

/// The audit writes of a run, by MR name: the writes stay where the reader put them and the
/// index holds only their positions, so building it costs no second copy of a large log's writes.
#[derive(Debug, Default)]
pub struct AuditIndex {
    writes: Vec<AuditWrite>,
    by_name: HashMap<(String, Option<String>, String), Vec<u32>>,
    /// The files read, in order.
    pub files: Vec<FileSummary>,
}

impl AuditIndex {
    /// Indexes what each file yielded.
    pub fn new(files: Vec<(AuditRead, Vec<AuditWrite>)>) -> AuditIndex {
        let mut idx = AuditIndex::default();
        for (read, mut writes) in files {
            if idx.writes.is_empty() {
                idx.writes = writes;
            } else {
                idx.writes.append(&mut writes);
            }
            idx.files.push(FileSummary { read, matched: AtomicBool::new(false) });
        }
        for (i, w) in idx.writes.iter().enumerate() {
            let t = &w.target;
            let at = u32::try_from(i).unwrap_or(u32::MAX);
            idx.by_name.entry((t.group.clone(), t.namespace.clone(), t.name.clone())).or_default().push(at);
        }
        idx
    }

    /// The writes to `mr`'s name (every incarnation) and their history; `None` when the log has
    /// none. Marks the files that name its UID as belonging to this cluster.
    pub fn for_mr(&self, mr: &ManagedResource) -> Option<MrAudit> {
        for f in self.files.iter().filter(|f| f.read.uids.contains(&mr.uid)) {
            f.matched.store(true, Ordering::Relaxed);
        }
        let key = (mr.group().to_string(), mr.namespace.clone(), mr.name.clone());
        let writes: Vec<AuditWrite> = self
            .by_name
            .get(&key)?
            .iter()
            .filter_map(|&i| self.writes.get(i as usize))
            .filter(|w| resource_matches_kind(&w.target.resource, &mr.kind))
            .cloned()
            .collect();
        (!writes.is_empty()).then(|| MrAudit::new(writes, mr))
    }

    /// One note per file (what was read), and for each file whose writes name UIDs none of which
    /// belongs to an MR looked up: it appears to come from another cluster.
    pub fn notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        for f in &self.files {
            out.push(f.read.note());
            if !f.read.uids.is_empty() && !f.matched.load(Ordering::Relaxed) {
                out.push(format!(
                    "audit log {}: none of the {} UIDs its writes name belongs to an MR read here: it appears to come from another cluster (or from before the MRs were recreated)",
                    f.read.name,
                    f.read.uids.len()
                ));
            }
        }
        out
    }
}
