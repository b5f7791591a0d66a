//! The audit history's "what matters": overwritten external-names, create marks removed by
//! someone other than the provider, deletions during an incomplete create, recreations under the
//! same name, and what a higher audit level would add.

use super::history::AuditHistory;
use super::{AuditLevel, AuditWrite};
use crate::managed::{ManagedResource, keys};

/// `by USER at TIME (file:line)`.
pub fn by(w: &AuditWrite) -> String {
    format!("by {} at {} ({})", w.who(), w.time.as_deref().unwrap_or("an unknown time"), w.source)
}

/// `by USER (the provider | not the provider) at TIME (file:line)`.
fn by_whom(w: &AuditWrite, by_provider: bool) -> String {
    let kind = if by_provider { "the provider" } else { "not the provider" };
    format!("by {} ({kind}) at {} ({})", w.who(), w.time.as_deref().unwrap_or("an unknown time"), w.source)
}

/// The highlights of one MR's audit history.
pub fn highlights(h: &AuditHistory, mr: &ManagedResource) -> Vec<String> {
    let mut out = Vec::new();
    for o in &h.overwrites {
        if !o.current {
            let whose = format!("uid {}", o.write.uid.as_deref().unwrap_or("unknown"));
            out.push(format!(
                "external-name of another object of this name ({whose}: another cluster, or an earlier one) changed from {:?} {}",
                o.old,
                by(&o.write)
            ));
            continue;
        }
        out.push(match &o.new {
            Some(new) => format!(
                "external-name changed from {:?} to {new:?} {}: {:?} is no longer tracked",
                o.old,
                by_whom(&o.write, o.by_provider),
                o.old
            ),
            None => format!("external-name {:?} removed {}", o.old, by_whom(&o.write, o.by_provider)),
        });
    }
    for v in h.writes.iter().filter(|v| !v.by_provider) {
        for c in v.changes.iter().filter(|c| c.field == keys::CREATE_PENDING && c.after.set().is_none()) {
            if c.before.set().is_some() {
                out.push(format!("external-create-pending removed {}", by_whom(&v.write, false)));
            }
        }
    }
    for w in &h.deleted_while_incomplete {
        out.push(format!(
            "MR deleted {} while its create was incomplete (external-create-pending newer than any result)",
            by(w)
        ));
    }
    out.extend(recreations(h, mr));
    out.extend(level_notes(h));
    out
}

/// Each incarnation after the first: who recreated the name, and the identity it lost.
fn recreations(h: &AuditHistory, mr: &ManagedResource) -> Vec<String> {
    let mut out = Vec::new();
    let sees_current = h.incarnations.iter().any(|i| i.current);
    for pair in h.incarnations.windows(2) {
        let (old, new) = (&pair[0], &pair[1]);
        if old.uid == "?" || new.uid == "?" {
            continue;
        }
        if !sees_current && !new.current && h.recreated_from().next().is_none() {
            out.push(format!(
                "objects of this name were recreated in this log (uid {} → {}), none of them this MR (uid {}): another cluster's, or from before it",
                old.uid, new.uid, mr.uid
            ));
            continue;
        }
        let how = new.created.as_ref().map(by).unwrap_or_else(|| "(its create is not in the log)".into());
        let mut text = format!("MR recreated under the same name {how} with a new UID {} (was {})", new.uid, old.uid);
        if let Some(d) = &old.deleted {
            text.push_str(&format!("; the previous one was deleted {}", by(d)));
        }
        if let Some(n) = &old.external_name {
            let now = if new.current { mr.external_name() } else { new.external_name.as_deref() };
            match now {
                Some(cur) if cur == n => text.push_str(&format!("; both have external-name {n:?}")),
                Some(cur) => {
                    text.push_str(&format!("; the previous one had external-name {n:?}, this one has {cur:?}"))
                }
                None => text.push_str(&format!("; the previous one had external-name {n:?}, this one has none")),
            }
        }
        out.push(text);
    }
    out
}

/// What the audit level hid.
fn level_notes(h: &AuditHistory) -> Vec<String> {
    let metadata = h.writes.iter().filter(|v| v.write.level == AuditLevel::Metadata).count();
    let request_patches = h
        .writes
        .iter()
        .filter(|v| v.write.level == AuditLevel::Request && v.write.verb == "patch" && v.note.is_some())
        .count();
    let mut out = Vec::new();
    if metadata > 0 {
        out.push(format!(
            "{metadata} write{} recorded at Metadata level: who and when only; an audit policy rule at Request (the patch) or RequestResponse (the object after each write) for this group would show what changed",
            if metadata == 1 { "" } else { "s" }
        ));
    }
    if request_patches > 0 {
        out.push(format!(
            "{request_patches} patch{} recorded at Request level after an unknown state: the patch is exact, the value before it is not known (RequestResponse would record it)",
            if request_patches == 1 { "" } else { "es" }
        ));
    }
    out
}

/// The IDs the audit log shows this MR's name had and no longer tracks, as ranked candidates
/// (source `audit log FILE:LINE`): external-names replaced or removed, and those of earlier
/// incarnations.
pub fn candidates(h: &AuditHistory, mr: &ManagedResource) -> Vec<crate::candidate::Candidate> {
    use crate::candidate::{Candidate, Confidence};
    let current = mr.external_name();
    let mut out = Vec::new();
    for o in h.overwrites.iter().rev().filter(|o| o.current && Some(o.old.as_str()) != current) {
        let what = match &o.new {
            Some(n) => format!("external-name before it was changed to {n:?} {}", by(&o.write)),
            None => format!("external-name before it was removed {}", by(&o.write)),
        };
        out.push(Candidate::new(o.old.clone(), format!("audit log {}", o.write.source), Confidence::High, what));
    }
    for i in h.recreated_from() {
        let (Some(id), Some(src)) = (&i.external_name, &i.external_name_source) else { continue };
        if Some(id.as_str()) != current {
            let what = format!("external-name of the earlier object under this name (uid {})", i.uid);
            out.push(Candidate::new(id.clone(), format!("audit log {src}"), Confidence::High, what));
        }
    }
    out
}
