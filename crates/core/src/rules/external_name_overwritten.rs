//! `ExternalNameOverwritten`: the audit log shows a write that replaced (or removed) the MR's
//! external-name, and the MR no longer tracks the old value. The old ID is the identity the
//! object no longer shows: after a provider restart upjet may create again and write the new
//! ID over the old one, or a person edited it; either way the old cloud object is an orphan
//! candidate (or the right ID, when the new one does not work).

use super::facts::Facts;
use crate::audit::highlights::by;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::redacted::same_id;
use crate::shell::quoted;

/// One finding per old external-name the audit log saw replaced that the MR does not track now.
/// An ID is suggested when the MR does not work with what it tracks (not Ready, or none).
pub(super) fn check(facts: &Facts) -> Vec<Finding> {
    let Some(audit) = facts.evidence.and_then(|e| e.audit.as_ref()) else { return Vec::new() };
    let mr = facts.mr;
    let current = mr.external_name();
    let may_adopt = current.is_none() || !mr.is_true("Ready");
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    // Only writes to this very object (its UID) count: an object of the same name in another
    // cluster, or an earlier incarnation (see IdentityLostOnRecreate), proves nothing about it.
    for o in audit.history.overwrites.iter().rev().filter(|o| o.current) {
        if current.is_some_and(|c| same_id(&o.old, c)) || seen.contains(&o.old.as_str()) {
            continue;
        }
        seen.push(&o.old);
        let who = if o.by_provider { "the provider" } else { "someone other than the provider" };
        let message = match &o.new {
            Some(new) => format!(
                "the audit log shows {who} replacing external-name {} with {new}: the cloud object {} is no longer tracked",
                quoted(&o.old),
                quoted(&o.old),
                new = quoted(new)
            ),
            None => format!(
                "the audit log shows {who} removing external-name {}: that cloud object is no longer tracked",
                quoted(&o.old)
            ),
        };
        let id = o.old.replace('\'', "'\\''");
        let next = if may_adopt {
            facts.upjet("adopt").opt("--id", id).word("--import").to_string()
        } else {
            facts.upjet("history").word("--audit-log").word("FILE").to_string()
        };
        out.push(
            Finding::new(Code::ExternalNameOverwritten, message, next)
                .with("previousExternalName", o.old.clone())
                .with_opt("newExternalName", o.new.clone())
                .with("changedBy", o.write.who())
                .with_opt("userAgent", o.write.user_agent.clone())
                .with("auditEvent", format!("{} {}", o.write.action(), by(&o.write)))
                .with_opt(keys::EXTERNAL_NAME, current)
                .suggest(may_adopt.then_some(o.old.as_str())),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::audit_cases::{Case, check_audit_cases, ext, w};
    use crate::finding::Code;
    use crate::testing::Mr;

    const CASES: &[Case] = &[
        (
            "provider overwrote after a restart, MR healthy on the new ID: report, keep the identity",
            || Mr::new("VPC", "v").external_name("vpc-2").healthy(),
            || {
                vec![
                    w("create", "u1", "provider", ext(Some("vpc-1"))),
                    w("update", "u1", "provider", ext(Some("vpc-2"))),
                ]
            },
            &[None],
        ),
        (
            "a person wrote a wrong ID, MR broken: suggest the old one",
            || Mr::new("VPC", "v").external_name("vpc-typo"),
            || {
                vec![
                    w("create", "u1", "provider", ext(Some("vpc-1"))),
                    w("update", "u1", "alice", ext(Some("vpc-typo"))),
                ]
            },
            &[Some("vpc-1")],
        ),
        (
            "removed: suggest it",
            || Mr::new("VPC", "v"),
            || vec![w("create", "u1", "provider", ext(Some("vpc-1"))), w("update", "u1", "alice", ext(None))],
            &[Some("vpc-1")],
        ),
        (
            "changed back: nothing lost",
            || Mr::new("VPC", "v").external_name("vpc-1").healthy(),
            || {
                vec![
                    w("create", "u1", "p", ext(Some("vpc-1"))),
                    w("update", "u1", "a", ext(Some("x"))),
                    w("update", "u1", "a", ext(Some("vpc-1"))),
                ]
            },
            &[None],
        ),
        (
            "another object of this name (another cluster's log) was overwritten: nothing about this one",
            || Mr::new("VPC", "v").external_name("vpc-9").healthy(),
            || {
                vec![
                    w("create", "other", "provider", ext(Some("vpc-1"))),
                    w("update", "other", "provider", ext(Some("vpc-2"))),
                ]
            },
            &[],
        ),
        (
            "set once: nothing",
            || Mr::new("VPC", "v").external_name("vpc-1"),
            || vec![w("create", "u1", "p", ext(Some("vpc-1")))],
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_audit_cases(Code::ExternalNameOverwritten, CASES);
    }
}
