//! `CloudAuditDuplicate`: the cloud's audit record shows the provider creating several objects
//! for one MR. upjet keeps a create's state in memory (`OperationTrackerStore`); a restart before
//! the external-name was persisted, a Velero restore of an MR without it (upjet#561, PR #562), or
//! the async create racing its own write-back (upjet#632) makes the next reconcile create again.
//! The MR tracks at most one object; the others are orphans that cost money and block names.

use super::cloud_audit_orphan::{when, with_call};
use super::facts::Facts;
use crate::cloud_audit::Observed;
use crate::finding::{Code, Finding, Severity};
use crate::gotime::GoTime;
use crate::shell::quoted;

/// One finding per MR whose provider's creates made two or more objects: which one it tracks,
/// which are duplicates, when each was created and after which provider restart (when the
/// provider's starts are known) or in which new credentials session. An error when it tracks
/// none of them; then the oldest is suggested (dependants made before a restart refer to it).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let audit = facts.evidence?.cloud_audit.as_ref()?;
    let objects = audit.objects();
    if objects.len() < 2 {
        return None;
    }
    let starts: &[GoTime] = facts.evidence?.provider_starts.as_ref().map_or(&[], |s| s.starts.as_slice());
    let described: Vec<String> =
        objects.iter().enumerate().map(|(i, o)| describe(o, i.checked_sub(1).map(|p| objects[p]), starts)).collect();
    let tracked = objects.iter().position(|o| o.tracked);
    let untracked: Vec<&String> =
        described.iter().enumerate().filter(|(i, _)| Some(*i) != tracked).map(|(_, d)| d).collect();
    let list = |v: &[&String]| v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("; ");
    let message = match tracked {
        Some(t) => format!(
            "the cloud's audit record shows the provider creating {} objects for this MR: it tracks {}; {} duplicate(s) nothing tracks: {}",
            objects.len(),
            described[t],
            untracked.len(),
            list(&untracked)
        ),
        None => format!(
            "the cloud's audit record shows the provider creating {} objects for this MR and it tracks none of them: {}; adopt one (the oldest is suggested), delete the others",
            objects.len(),
            list(&untracked)
        ),
    };
    let oldest = objects[0];
    let suggest = oldest.id.as_deref().filter(|_| tracked.is_none());
    let next = match suggest {
        Some(id) => facts.upjet("adopt").opt("--id", id).word("--import").to_string(),
        None => facts.upjet("history").opt("--cloud-audit", &oldest.call.file).to_string(),
    };
    let mut f = Finding::new(Code::CloudAuditDuplicate, message, next)
        .with("duplicates", list(&untracked))
        .with_opt("tracked", tracked.map(|t| described[t].clone()));
    f = with_call(f, tracked.map_or(oldest, |t| objects[t]), audit);
    if tracked.is_none() {
        f.severity = Severity::Error;
    }
    Some(f.suggest(suggest))
}

/// `"Z2" (CreateHostedZone at T, file:line, after the provider restarted at R)`.
fn describe(o: &Observed, previous: Option<&Observed>, starts: &[GoTime]) -> String {
    let mut s = format!("{} ({}, {}", quoted(o.object().unwrap_or_default()), when(o), o.call.source());
    if let (Some(p), Some(at)) = (previous, o.call.at) {
        let restart = starts.iter().filter(|s| p.call.at.is_none_or(|pa| s.after(&pa)) && !s.after(&at)).max();
        match restart {
            Some(r) => s.push_str(&format!(", after the provider restarted at {r}")),
            None if !starts.is_empty() => s.push_str(", with no provider restart since the previous create"),
            None => {}
        }
        if let (Some(a), Some(b)) = (&p.call.session, &o.call.session)
            && a != b
        {
            s.push_str(&format!(", in a new credentials session ({b}), as after a restart"));
        }
    }
    s.push(')');
    s
}

#[cfg(test)]
mod tests {
    use super::super::cloud_audit_cases::{Case, audit, check_cloud_cases, check_cloud_cases_with, obs, obs_at};
    use super::super::{MrEvidence, ProviderStarts, findings_with};
    use crate::finding::Code;
    use crate::gotime::GoTime;
    use crate::testing::Mr;

    /// The upstream basis: upjet#561 (a restart or restore creates a second object and the
    /// external-name is overwritten with it) and upjet#632 (the async create races the
    /// write-back): the record shows each create, by the provider's identity, in the MR's window.
    const CASES: &[Case] = &[
        (
            "tracks the second: the first is a duplicate, nothing suggested",
            || Mr::new("AlertPolicy", "p").external_name("policies/2").healthy(),
            || {
                audit(
                    vec![
                        obs("policies/1", false, Some("policies/1")),
                        obs_at("policies/2", true, Some("policies/2"), "2024-11-30T10:30:00Z"),
                    ],
                    Some("policies/2"),
                )
            },
            &[(Code::CloudAuditDuplicate, None)],
        ),
        (
            "tracks none: the oldest suggested",
            || Mr::new("AlertPolicy", "p"),
            || {
                audit(
                    vec![
                        obs("policies/1", false, Some("policies/1")),
                        obs_at("policies/2", false, Some("policies/2"), "2024-11-30T10:30:00Z"),
                    ],
                    None,
                )
            },
            &[(Code::CloudAuditDuplicate, Some("policies/1"))],
        ),
        (
            "the same object created twice (an idempotent PUT) is one object",
            || Mr::new("AlertPolicy", "p"),
            || {
                audit(
                    vec![
                        obs("policies/1", false, Some("policies/1")),
                        obs_at("policies/1", false, Some("policies/1"), "2024-11-30T10:30:00Z"),
                    ],
                    None,
                )
            },
            &[(Code::CloudAuditOrphan, Some("policies/1"))],
        ),
    ];

    #[test]
    fn table() {
        check_cloud_cases(CASES);
        check_cloud_cases_with(CASES, Some(ProviderStarts { provider: "p".into(), starts: vec![], package: None }));
    }

    #[test]
    fn names_the_restart_between_the_creates() {
        let (_, mr, record, _) = &CASES[1];
        let start = GoTime::parse_rfc3339("2024-11-30T10:29:40Z").unwrap();
        let starts = ProviderStarts { provider: "provider-gcp-monitoring".into(), starts: vec![start], package: None };
        let ev = MrEvidence { cloud_audit: Some(record()), provider_starts: Some(starts), ..MrEvidence::default() };
        let f = findings_with(&mr().build(), Some(&ev), super::super::cases::at())
            .into_iter()
            .find(|f| f.code == Code::CloudAuditDuplicate)
            .unwrap();
        assert!(f.message.contains("after the provider restarted at 2024-11-30T10:29:40Z"), "{}", f.message);
        assert_eq!(f.severity, crate::finding::Severity::Error, "it tracks none of them");
    }
}
