//! `CloudAuditAlreadyExists`: the cloud's audit record shows the provider's create for this MR
//! failing because the object exists (AWS `EntityAlreadyExists`, `ResourceExistsException`,
//! `InvalidGroup.Duplicate`, `BucketAlreadyOwnedByYou`…; GCP `ALREADY_EXISTS` (code 6); Azure
//! `Conflict` saying so), and names the object it ran into when the record holds it: an earlier
//! create for the MR (the provider's, before a restart lost its ID, or someone else's), or the
//! name the failed call asked for. The record confirms what the MR's Synced message only claims
//! (`AlreadyExists`, upjet#305, #632); a separate code because it needs the record, while
//! `AlreadyExists` judges the object alone (`adopt` runs it without evidence).

use super::cloud_audit_orphan::with_call;
use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::shell::quoted;

/// One finding for the newest failed create; the object it ran into is suggested when exactly one
/// is named, in the form the kind's peers prove, and the MR tracks none or is not Ready.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let audit = facts.evidence?.cloud_audit.as_ref()?;
    let conflict = audit.conflicts.last()?;
    let call = &conflict.call;
    let mut objects: Vec<&str> = conflict.existing.iter().filter_map(|o| o.object()).collect();
    objects.dedup();
    let named = match objects.as_slice() {
        [] => "the record does not say which object it is".to_string(),
        [one] => {
            let o = conflict.existing.iter().find(|o| o.object() == Some(one)).expect("named");
            let who = o.call.principal.as_deref().unwrap_or("<unknown principal>");
            match o.call.at.filter(|_| !std::sync::Arc::ptr_eq(&o.call, call)) {
                Some(t) => format!("it is {one}, created by {who} at {t} <{}>", o.call.source(), one = quoted(one)),
                None => format!("it is {one}, {}", o.by, one = quoted(one)),
            }
        }
        many => format!("it is one of {}", many.iter().map(|m| format!("{m:?}")).collect::<Vec<_>>().join(", ")),
    };
    let when = call.at.map(|t| format!(" at {t}")).unwrap_or_default();
    let message = format!(
        "the cloud's audit record shows the provider's create failing because the object exists ({}{when}, {} time(s)): {named}",
        call.outcome.describe(),
        audit.conflicts.len()
    );
    let mr = facts.mr;
    let may_adopt = audit.tracked.is_none() || !mr.is_true("Ready");
    let single = match conflict.existing.as_slice() {
        [o] => o.id.as_deref(),
        many => many.first().filter(|f| many.iter().all(|o| o.id == f.id)).and_then(|o| o.id.as_deref()),
    };
    let suggest = single.filter(|_| may_adopt);
    let next = match suggest {
        Some(id) => facts.upjet("adopt").opt("--id", id).word("--import").to_string(),
        None => facts.upjet("history").opt("--cloud-audit", &call.file).to_string(),
    };
    let mut f = Finding::new(Code::CloudAuditAlreadyExists, message, next).with("failedCall", call.describe());
    if let Some(o) = conflict.existing.first() {
        f = with_call(f, o, audit);
    }
    Some(f.suggest(suggest))
}

#[cfg(test)]
mod tests {
    use super::super::cloud_audit_cases::{Case, audit, call, check_cloud_cases, obs};
    use crate::cloud_audit::{Conflict, MrCloudAudit, Outcome};
    use crate::finding::Code;
    use crate::testing::Mr;
    use std::sync::Arc;

    fn failed() -> Arc<crate::cloud_audit::CloudCall> {
        let mut c = (*call("CreateBucket", "2024-11-30T10:40:00Z")).clone();
        c.outcome = Outcome::Failed { code: "BucketAlreadyOwnedByYou".into(), message: String::new(), exists: true };
        Arc::new(c)
    }

    fn with_conflict(existing: Vec<crate::cloud_audit::Observed>, tracked: Option<&str>) -> MrCloudAudit {
        MrCloudAudit { conflicts: vec![Conflict { call: failed(), existing }], ..audit(vec![], tracked) }
    }

    /// The upstream basis: the managed reconciler's `create failed: …` path for a create loop
    /// (upjet#305: GCP 409 on RecordSets after a node died; upjet#632: Secrets Manager
    /// `ResourceExistsException`), and CloudTrail's `errorCode` on the failed call.
    const CASES: &[Case] = &[
        (
            "the object it ran into is named: suggest it",
            || Mr::new("Bucket", "assets"),
            || with_conflict(vec![obs("assets", false, Some("assets"))], None),
            &[(Code::CloudAuditAlreadyExists, Some("assets"))],
        ),
        (
            "nothing named: report only",
            || Mr::new("Bucket", "assets"),
            || with_conflict(vec![], None),
            &[(Code::CloudAuditAlreadyExists, None)],
        ),
        (
            "two different objects named: nothing guessed",
            || Mr::new("Bucket", "assets"),
            || with_conflict(vec![obs("a", false, Some("a")), obs("b", false, Some("b"))], None),
            &[(Code::CloudAuditAlreadyExists, None)],
        ),
        (
            "a healthy MR keeps its identity",
            || Mr::new("Bucket", "assets").external_name("assets-old").healthy(),
            || with_conflict(vec![obs("assets", false, Some("assets"))], Some("assets-old")),
            &[(Code::CloudAuditAlreadyExists, None)],
        ),
    ];

    #[test]
    fn table() {
        check_cloud_cases(CASES);
    }
}
