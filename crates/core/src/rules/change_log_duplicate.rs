//! `ChangeLogDuplicate`: the provider's change log shows two successful creates for one MR that
//! led to different external names. crossplane-runtime logs every create with the MR as it was
//! before `ExternalClient.Create` (`managedPreOp` in pkg/reconciler/managed/reconciler.go,
//! `Reconcile`), so a create whose pre-operation copy lacks the ID an earlier create led to ran
//! without knowing that object: the ID was lost in between (a restart before it was persisted,
//! a restore without it, upjet#561, upjet#632) and a second object was made.

use super::facts::Facts;
use crate::changelog::CreateOutcome;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::redacted::same_id;
use crate::shell::quoted;

/// One finding per MR whose change log shows a duplicate: every object the creates led to, which
/// one the MR tracks, and (when it tracks none) the oldest suggested, as dependants made before
/// the loss refer to it.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let log = facts.evidence?.changelog.as_ref()?;
    let pairs = log.duplicates();
    if pairs.is_empty() {
        return None;
    }
    let mut made: Vec<CreateOutcome> = Vec::new();
    for c in pairs.into_iter().flat_map(|(a, b)| [a, b]) {
        if !made.iter().any(|m| m.id == c.id) {
            made.push(c);
        }
    }
    let current = facts.mr.external_name();
    let tracks = |c: &CreateOutcome| current.zip(c.id.as_deref()).is_some_and(|(cur, id)| same_id(id, cur));
    let tracked = made.iter().position(tracks);
    let list: Vec<String> = made.iter().filter(|c| !tracks(c)).map(describe).collect();
    let message = match tracked {
        Some(t) => format!(
            "the provider's change log shows {} successful creates for this MR that led to different objects; a later create ran without the earlier one's ID: it tracks {}; nothing tracks {}",
            made.len(),
            describe(&made[t]),
            list.join("; ")
        ),
        None => format!(
            "the provider's change log shows {} successful creates for this MR that led to different objects, and it tracks none of them: {}; adopt one (the oldest is suggested), delete the others",
            made.len(),
            list.join("; ")
        ),
    };
    let oldest = made[0].id.as_deref().filter(|_| tracked.is_none());
    let next = match oldest {
        Some(id) => facts.upjet("adopt").opt("--id", id).word("--import").to_string(),
        None => facts.upjet("history").to_string(),
    };
    let f = Finding::new(Code::ChangeLogDuplicate, message, next)
        .with("duplicates", list.join("; "))
        .with_opt(keys::EXTERNAL_NAME, current);
    Some(f.suggest(oldest))
}

/// `"i-1" (created at T by provider-aws-ec2:v1.21.0, sidecar:3; the ID seen in sidecar:4)`.
pub(super) fn describe(c: &CreateOutcome) -> String {
    let at = c.create.at.map(|t| format!(" at {t}")).unwrap_or_default();
    format!(
        "{} (created{at} by {}, {}; the ID seen in {})",
        quoted(c.id.as_deref().unwrap_or_default()),
        c.create.provider,
        c.create.source,
        c.seen_in.as_deref().unwrap_or("?")
    )
}

#[cfg(test)]
mod tests {
    use super::super::changelog_cases::{Case, check_changelog_cases, failed, log};
    use crate::changelog::Operation::*;
    use crate::finding::Code;
    use crate::testing::Mr;

    /// The upstream basis: reconciler.go `Reconcile` builds each entry from `managedPreOp`, so a
    /// create's result is read in the entry after it, and a create run without the earlier
    /// result is a second object.
    const CASES: &[Case] = &[
        (
            "the ID lost between two creates, the MR tracks the second: no suggestion",
            || Mr::new("Instance", "web").external_name("i-2").healthy(),
            || log(&[(1, Create, ""), (2, Update, "i-1"), (3, Create, ""), (4, Update, "i-2")]),
            &[(Code::ChangeLogDuplicate, None)],
        ),
        (
            "tracks none: the oldest suggested",
            || Mr::new("Instance", "web"),
            || log(&[(1, Create, ""), (2, Update, "i-1"), (3, Create, ""), (4, Update, "i-2")]),
            &[(Code::ChangeLogDuplicate, Some("i-1"))],
        ),
        (
            "a create that failed after the ID was lost made nothing: no duplicate, the lost ID suggested",
            || Mr::new("Instance", "web"),
            || failed(log(&[(1, Create, ""), (2, Update, "i-1"), (3, Create, "")]), 3),
            &[(Code::ChangeLogOrphan, Some("i-1"))],
        ),
        (
            "a re-create while still holding the ID (Observe found it gone) is no duplicate",
            || Mr::new("Instance", "web").external_name("i-2").healthy(),
            || log(&[(1, Create, ""), (2, Create, "i-1"), (4, Update, "i-2")]),
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_changelog_cases(CASES);
    }
}
