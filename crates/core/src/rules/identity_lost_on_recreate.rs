//! `IdentityLostOnRecreate`: the audit log shows an earlier object under this MR's name (another
//! UID: deleted and applied again, or restored from a backup) that had an external-name the MR
//! read now lacks or does not match. A restore or a re-apply from Git carries the spec, not the
//! annotation the provider wrote, so the new MR creates a duplicate or tracks the wrong object.

use super::facts::Facts;
use crate::audit::highlights::by;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::redacted::same_id;
use crate::shell::quoted;

/// One finding for the latest earlier incarnation with an external-name the MR does not track.
/// Its ID is suggested when the MR tracks none or does not work (not Ready).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let audit = facts.evidence?.audit.as_ref()?;
    let mr = facts.mr;
    // Only an earlier object the log ties to this one (see `recreated_from`) proves a recreate.
    let previous = audit.history.recreated_from().filter(|i| i.uid != mr.uid).last()?;
    let old = previous.external_name.as_deref()?;
    let current = mr.external_name();
    if current.is_some_and(|c| same_id(old, c)) {
        return None;
    }
    let may_adopt = current.is_none() || !mr.is_true("Ready");
    let now = match current {
        Some(c) => format!("tracks {c}", c = quoted(c)),
        None => "has no external-name".into(),
    };
    let message = format!(
        "an earlier object under this name (uid {}) had external-name {old}; this one (uid {}) {now}: the identity was lost when it was recreated",
        previous.uid,
        mr.uid,
        old = quoted(old)
    );
    let id = old.replace('\'', "'\\''");
    let next = if may_adopt {
        facts.upjet("adopt").opt("--id", id).word("--import").to_string()
    } else {
        facts.upjet("history").word("--audit-log").word("FILE").to_string()
    };
    let f = Finding::new(Code::IdentityLostOnRecreate, message, next)
        .with("previousUid", previous.uid.clone())
        .with("previousExternalName", old.to_string())
        .with_opt("previousExternalNameSeen", previous.external_name_source.clone())
        .with_opt("deleted", previous.deleted.as_ref().map(by))
        .with_opt(keys::EXTERNAL_NAME, current);
    let recreated = audit.history.incarnations.iter().find(|i| i.uid == mr.uid).and_then(|i| i.created.as_ref());
    Some(f.with_opt("recreated", recreated.map(by)).suggest(may_adopt.then_some(old)))
}

#[cfg(test)]
mod tests {
    use super::super::audit_cases::{Case, check_audit_cases, ext, w};
    use crate::finding::Code;
    use crate::testing::Mr;

    const CASES: &[Case] = &[
        (
            "restored without the annotation: suggest the old ID",
            || Mr::new("VPC", "v"),
            || {
                vec![
                    w("create", "old", "p", ext(Some("vpc-1"))),
                    w("delete", "old", "bob", ext(None)),
                    w("create", "u1", "velero", ext(None)),
                ]
            },
            &[Some("vpc-1")],
        ),
        (
            "recreated and created again: healthy on another ID, report only",
            || Mr::new("VPC", "v").external_name("vpc-2").healthy(),
            || vec![w("create", "old", "p", ext(Some("vpc-1"))), w("create", "u1", "argocd", ext(Some("vpc-2")))],
            &[None],
        ),
        (
            "restored with the annotation: nothing lost",
            || Mr::new("VPC", "v").external_name("vpc-1"),
            || vec![w("create", "old", "p", ext(Some("vpc-1"))), w("create", "u1", "velero", ext(Some("vpc-1")))],
            &[],
        ),
        (
            "a log from another cluster with an object of this name: not this MR's history",
            || Mr::new("VPC", "v"),
            || vec![w("create", "other", "p", ext(Some("vpc-1"))), w("update", "other", "p", ext(Some("vpc-1")))],
            &[],
        ),
        (
            "another cluster's log: its own delete and recreate, none of them this MR",
            || Mr::new("VPC", "v"),
            || {
                vec![
                    w("create", "old", "p", ext(Some("vpc-1"))),
                    w("delete", "old", "velero", ext(None)),
                    w("create", "other-new", "velero", ext(None)),
                ]
            },
            &[],
        ),
        (
            "the log saw the old one deleted, not the new one created: still a recreate",
            || Mr::new("VPC", "v"),
            || vec![w("create", "old", "p", ext(Some("vpc-1"))), w("delete", "old", "bob", ext(None))],
            &[Some("vpc-1")],
        ),
        (
            "only this incarnation: nothing",
            || Mr::new("VPC", "v"),
            || vec![w("create", "u1", "p", ext(Some("vpc-1")))],
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_audit_cases(Code::IdentityLostOnRecreate, CASES);
    }
}
