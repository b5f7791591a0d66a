//! `ChangeLogOrphan`: the provider's change log shows the MR holding an external name it no
//! longer has, and no successful delete of it (nor a create run while still holding it, which
//! means Observe found it gone). Each entry is built from the MR as it was before the operation
//! (`managedPreOp`, pkg/reconciler/managed/reconciler.go `Reconcile`; `GRPCChangeLogger.Log`), so
//! an ID in any entry was the MR's at that time. When it is gone from the MR without a delete,
//! the object was lost (a restore, an overwrite) or stays beside the one the MR tracks.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::redacted::same_id;
use crate::shell::quoted;

/// One finding naming every recorded ID the MR no longer has, unless `ChangeLogDuplicate`
/// already reports them. The newest is suggested when the MR tracks no ID or is not Ready: never
/// to replace a working identity.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let log = facts.evidence?.changelog.as_ref()?;
    if !log.duplicates().is_empty() {
        return None;
    }
    let current = facts.mr.external_name();
    let lost: Vec<(String, String)> = log
        .recorded_ids()
        .into_iter()
        .filter(|(id, _)| current.is_none_or(|cur| !same_id(id, cur) && !same_id(cur, id)))
        .collect();
    let (newest, _) = lost.last()?;
    let listed: Vec<String> = lost.iter().map(|(id, at)| format!("{id} ({at})", id = quoted(id))).collect();
    let second = super::restore_verdict::second_object(facts, [newest.as_str()]);
    let message = match current {
        None => format!(
            "the provider's change log shows this MR holding {} and the MR now tracks no ID: the object it lost, never deleted by the provider{}",
            listed.join(", "),
            second.as_ref().map(|s| format!("; {s}: adopt it first")).unwrap_or_default()
        ),
        Some(cur) => format!(
            "the provider's change log shows this MR holding {}, which it no longer has (it tracks {cur}) and the provider never deleted: an orphan nothing tracks",
            listed.join(", "),
            cur = quoted(cur)
        ),
    };
    let may_adopt = current.is_none() || !facts.mr.is_true("Ready");
    let next = match may_adopt {
        true => facts.upjet("adopt").opt("--id", newest).word("--import").to_string(),
        false => facts.upjet("history").to_string(),
    };
    let f = Finding::new(Code::ChangeLogOrphan, message, next)
        .with("recorded", listed.join(", "))
        .with_opt(super::restore_verdict::NEXT_RECONCILE, second)
        .with_opt(keys::EXTERNAL_NAME, current);
    Some(f.suggest(Some(newest.as_str()).filter(|_| may_adopt)))
}

#[cfg(test)]
mod tests {
    use super::super::changelog_cases::{Case, check_changelog_cases, failed, log};
    use crate::changelog::Operation::*;
    use crate::finding::Code;
    use crate::testing::Mr;

    /// The upstream basis: every entry holds the external-name of `managedPreOp`, the MR before
    /// the operation (reconciler.go `Reconcile`, changelogger.go `GRPCChangeLogger.Log`).
    const CASES: &[Case] = &[
        (
            "the MR lost the ID the provider recorded: suggested",
            || Mr::new("Instance", "web"),
            || log(&[(1, Create, ""), (2, Update, "i-1")]),
            &[(Code::ChangeLogOrphan, Some("i-1"))],
        ),
        (
            "a working MR with another ID: reported, not suggested",
            || Mr::new("Instance", "web").external_name("i-9").healthy(),
            || log(&[(1, Create, ""), (2, Update, "i-1")]),
            &[(Code::ChangeLogOrphan, None)],
        ),
        (
            "the MR still tracks it",
            || Mr::new("Instance", "web").external_name("i-1").healthy(),
            || log(&[(1, Create, ""), (2, Update, "i-1")]),
            &[],
        ),
        (
            "the provider deleted it",
            || Mr::new("Instance", "web"),
            || log(&[(1, Create, ""), (2, Update, "i-1"), (3, Delete, "i-1")]),
            &[],
        ),
        (
            "a failed create made nothing, even under a name chosen before it",
            || Mr::new("Instance", "web"),
            || failed(log(&[(1, Create, "web-bucket")]), 1),
            &[],
        ),
        (
            "a create that failed, then one that worked under the same name: that object",
            || Mr::new("Instance", "web"),
            || failed(log(&[(1, Create, "web-bucket"), (2, Create, "web-bucket")]), 1),
            &[(Code::ChangeLogOrphan, Some("web-bucket"))],
        ),
        (
            "a create without any later entry tells no ID",
            || Mr::new("Instance", "web"),
            || log(&[(1, Create, "")]),
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_changelog_cases(CASES);
    }
}
