//! `ChangeLogLostOnRecreate`: the provider's change log shows an earlier MR under this one's name
//! — another UID in its entries' snapshots, sent before this one was created — holding an external
//! name that the provider never deleted, and this MR does not track it. An MR deleted with
//! `deletionPolicy: Orphan` logs no delete (`Reconcile` skips `ExternalClient.Delete`, and only an
//! external call is logged: pkg/reconciler/managed/reconciler.go), and applied again from Git it
//! carries the spec, not the external-name the provider wrote: the object is still there, and
//! nothing tracks it. Each entry is built from the MR before its operation (`managedPreOp`;
//! `GRPCChangeLogger.Log` in changelogger.go), so the ID shows in the create's own entry for a
//! kind named before the create, and in the entry after it for a provider-assigned one
//! (`MrChangeLog::recorded_ids`).

use super::facts::Facts;
use super::restore_verdict::{NEXT_RECONCILE, second_object};
use crate::changelog::EarlierId;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::redacted::same_id;
use crate::shell::quoted;

/// One finding naming the IDs earlier MRs under this name left behind, the newest first in the
/// message. Suggested when the MR tracks none (or does not work) and has made no object of its
/// own since: then it is the object to adopt; otherwise an orphan beside the one it has.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let log = facts.evidence?.changelog.as_ref()?;
    let mr = facts.mr;
    let current = mr.external_name();
    let lost: Vec<EarlierId> = log
        .earlier_ids()
        .into_iter()
        .filter(|l| current.is_none_or(|cur| !same_id(&l.id, cur) && !same_id(cur, &l.id)))
        .collect();
    let newest = lost.last()?;
    let made: Vec<String> = log.creates().into_iter().filter_map(|c| c.id).collect();
    let may_adopt = made.is_empty() && (current.is_none() || !mr.is_true("Ready"));
    let now = match (current, made.last()) {
        (Some(cur), _) => {
            format!("tracks {cur}: {} is an orphan nothing tracks", quoted(&newest.id), cur = quoted(cur))
        }
        (None, Some(own)) => format!(
            "tracks no ID and has made an object of its own since ({own}): {} is an orphan beside it",
            quoted(&newest.id),
            own = quoted(own)
        ),
        (None, None) => "tracks no ID: it is the object to adopt".to_string(),
    };
    let second = second_object(facts, [newest.id.as_str()]);
    let message = format!(
        "the provider's change log shows an earlier MR under this name (uid {}) holding {} ({}) and no delete of it (an MR deleted with deletionPolicy Orphan, or without the Delete policy, logs none); this one (uid {}) {now}{}",
        newest.uid,
        quoted(&newest.id),
        newest.source,
        mr.uid,
        second.as_ref().map(|s| format!("; {s}: adopt it first")).unwrap_or_default()
    );
    let next = match may_adopt {
        true => facts.upjet("adopt").opt("--id", &newest.id).word("--import").to_string(),
        false => facts.upjet("history").to_string(),
    };
    let recorded: Vec<String> =
        lost.iter().rev().map(|l| format!("{} (uid {}, {})", quoted(&l.id), l.uid, l.source)).collect();
    let f = Finding::new(Code::ChangeLogLostOnRecreate, message, next)
        .with("previousUid", newest.uid.clone())
        .with("previousExternalName", newest.id.clone())
        .with("recorded", recorded.join(", "))
        .with_opt(NEXT_RECONCILE, second)
        .with_opt(keys::EXTERNAL_NAME, current);
    Some(f.suggest(Some(newest.id.as_str()).filter(|_| may_adopt)))
}

#[cfg(test)]
mod tests {
    use super::super::changelog_cases::{Case, check_changelog_cases, failed, log, reapplied};
    use crate::changelog::Operation::*;
    use crate::finding::Code::{self, *};
    use crate::testing::Mr;

    const LOST: Code = ChangeLogLostOnRecreate;

    /// The upstream basis: `Reconcile` logs an entry only for an external call, built from
    /// `managedPreOp` (the MR before the call); with `deletionPolicy: Orphan` it calls no Delete.
    const CASES: &[Case] = &[
        (
            "provider-assigned ID, re-applied without it: read in the entry after the create, suggested",
            || Mr::new("Instance", "web"),
            || reapplied(log(&[(1, Create, ""), (2, Update, "i-1")]), &[]),
            &[(LOST, Some("i-1"))],
        ),
        (
            "a kind named before the create: its create entry holds it",
            || Mr::new("Instance", "web"),
            || reapplied(log(&[(1, Create, "web-bucket")]), &[]),
            &[(LOST, Some("web-bucket"))],
        ),
        (
            "deleted by the provider (deletionPolicy Delete logs the delete): nothing left",
            || Mr::new("Instance", "web"),
            || reapplied(log(&[(1, Create, ""), (2, Update, "i-1"), (3, Delete, "i-1")]), &[]),
            &[],
        ),
        (
            "the earlier MR's create failed: it made nothing",
            || Mr::new("Instance", "web"),
            || reapplied(failed(log(&[(1, Create, "web-bucket")]), 1), &[]),
            &[],
        ),
        (
            "re-applied with its external-name: nothing lost",
            || Mr::new("Instance", "web").external_name("i-1").healthy(),
            || reapplied(log(&[(1, Create, ""), (2, Update, "i-1")]), &[]),
            &[],
        ),
        (
            "re-applied and created another, which it tracks: an orphan, not suggested",
            || Mr::new("Instance", "web").external_name("i-2").healthy(),
            || reapplied(log(&[(1, Create, ""), (2, Update, "i-1")]), &[(5, Create, ""), (6, Update, "i-2")]),
            &[(LOST, None)],
        ),
        (
            "its own entries hold the earlier ID (adopted, then lost): ChangeLogOrphan's to say",
            || Mr::new("Instance", "web"),
            || reapplied(log(&[(1, Create, ""), (2, Update, "i-1")]), &[(5, Update, "i-1")]),
            &[(ChangeLogOrphan, Some("i-1"))],
        ),
    ];

    #[test]
    fn table() {
        check_changelog_cases(CASES);
    }
}
