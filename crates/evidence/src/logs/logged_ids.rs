//! IDs the provider logged for an MR: the newest one, and every one logged as created.
//!
//! Exists because these two lists are what the doctor compares with the live
//! `crossplane.io/external-name` to find an MR that lost track of its cloud object.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::{Evidence, EvidenceKind, Origin};
use upjet_core::candidate::usable;

/// An ID the provider logged for an MR, with where and when. Exists so the doctor
/// can show "the provider last logged ID X at T (line ...)" next to the live
/// external-name.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedId {
    /// The ID (Terraform ID / external-name / hook `id_value`). CLI-mode IDs may
    /// contain `REDACTED` in place of ProviderConfig values; compare with [`same_id`](super::same_id).
    pub id: String,
    /// Newest time the ID was logged (for [`created_ids`]: first time).
    pub time: Option<DateTime<Utc>>,
    /// Excerpt of the line that logged it.
    pub source: String,
    /// Kind of the line that logged it.
    pub kind: EvidenceKind,
    /// Where the line was read.
    pub origin: Origin,
}

/// The "last provider-logged external ID" per MR UID: the newest (by time, then
/// by order of appearance) non-empty ID that is no placeholder among (a) `tfID` of `Async create ended.`,
/// (b) `external-name` of managed-reconciler lines, (c) `hook.id_value` of CLI
/// workspace lines (plus the plugin-framework recovered external-name). This is the
/// value an adopt/repair step would propose writing back.
pub fn last_logged_ids(evidence: &[Evidence]) -> HashMap<String, LoggedId> {
    let mut best: HashMap<&str, &Evidence> = HashMap::new();
    for ev in evidence {
        if ev.uid.is_empty() || !ev.kind.carries_logged_id() {
            continue;
        }
        // A provider's placeholder (a stub read back from a failed create's partial state) is
        // logged like an ID but names no cloud object.
        if !ev.id.as_deref().is_some_and(usable) {
            continue;
        }
        match best.get(ev.uid.as_str()) {
            Some(prev) if prev.newest_key() >= ev.newest_key() => {}
            _ => {
                best.insert(ev.uid.as_str(), ev);
            }
        }
    }
    best.into_iter()
        .map(|(uid, ev)| {
            (
                uid.to_string(),
                LoggedId {
                    id: ev.id.clone().unwrap_or_default(),
                    time: ev.last_time.or(ev.time),
                    source: ev.source.clone(),
                    kind: ev.kind,
                    origin: ev.origin.clone(),
                },
            )
        })
        .collect()
}

/// Every distinct ID logged as *created* for one MR UID, oldest first: non-empty
/// `tfID` of `Async create ended.`, CLI `apply_complete` IDs of create actions, and
/// the plugin-framework recovered external-name. More than one entry, or an entry
/// that differs from the live external-name (see [`same_id`](super::same_id)), marks an orphan
/// candidate: the provider created a cloud object the MR no longer points at.
pub fn created_ids(evidence: &[Evidence], uid: &str) -> Vec<LoggedId> {
    let mut out: Vec<(u64, LoggedId)> = Vec::new();
    for ev in evidence.iter().filter(|e| e.uid == uid) {
        let mut ids: Vec<&str> = ev.created.iter().map(String::as_str).collect();
        if ev.kind == EvidenceKind::RecoveredExternalName
            && let Some(id) = ev.id.as_deref()
        {
            ids.push(id);
        }
        for id in ids.into_iter().filter(|s| usable(s)) {
            if let Some((seq, existing)) = out.iter_mut().find(|(_, l)| l.id == id) {
                // Keep the earliest sighting.
                if ev.time.is_some() && (existing.time.is_none() || ev.time < existing.time) {
                    existing.time = ev.time;
                    existing.source = ev.source.clone();
                    existing.kind = ev.kind;
                    existing.origin = ev.origin.clone();
                    *seq = ev.seq;
                }
                continue;
            }
            out.push((
                ev.seq,
                LoggedId {
                    id: id.to_string(),
                    time: ev.time,
                    source: ev.source.clone(),
                    kind: ev.kind,
                    origin: ev.origin.clone(),
                },
            ));
        }
    }
    out.sort_by(|(sa, a), (sb, b)| (a.time, sa).cmp(&(b.time, sb)));
    out.into_iter().map(|(_, l)| l).collect()
}
