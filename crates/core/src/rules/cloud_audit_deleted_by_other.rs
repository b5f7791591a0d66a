//! `CloudAuditDeletedByOther`: the cloud's audit record shows a principal other than the
//! provider's identity deleting the object this MR tracks (`DeleteVpc`, `…delete`, `…/delete`
//! naming its ID). The MR still names that ID: upjet's next Observe finds nothing and, unless the
//! MR is Observe-only, Create makes a new object under the same MR (crossplane-runtime's managed
//! reconciler: `!observation.ResourceExists && policy.ShouldCreate()`); the person or tool that
//! deleted it may not know a controller owns it.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::shell::quoted;

/// One finding for the newest such delete; only when the provider's identity is known (from
/// healthy peers or `--cloud-principal`), so "someone else" is a fact, not a guess.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let audit = facts.evidence?.cloud_audit.as_ref()?;
    let d = audit.deletes.iter().rev().find(|d| d.by_provider == Some(false))?;
    let who = d.call.principal.as_deref().unwrap_or("an unknown principal");
    let when = d.call.at.map(|t| format!(" at {t}")).unwrap_or_default();
    let message = format!(
        "the cloud's audit record shows {who} (not the provider) deleting {}, the object this MR tracks, with {}{when}: the provider will find it gone and create a new one unless the MR only observes",
        quoted(&d.id),
        d.call.action
    );
    let next = facts.upjet("history").opt("--cloud-audit", &d.call.file).to_string();
    Some(
        Finding::new(Code::CloudAuditDeletedByOther, message, next)
            .with("cloudCall", d.call.describe())
            .with("deletedId", d.id.clone())
            .with_opt("providerIdentity", audit.identity.as_deref()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cloud_audit_cases::{Case, audit, call, check_cloud_cases, obs};
    use crate::cloud_audit::{Deleted, MrCloudAudit};
    use crate::finding::Code;
    use crate::testing::Mr;

    fn deleted(by_provider: Option<bool>) -> MrCloudAudit {
        let d = Deleted { call: call("DeleteHostedZone", "2024-11-30T10:45:00Z"), id: "Z1".into(), by_provider };
        MrCloudAudit { deletes: vec![d], ..audit(vec![obs("Z1", true, Some("Z1"))], Some("Z1")) }
    }

    /// The upstream basis: crossplane-runtime's managed reconciler creates again when Observe
    /// finds no object; CloudTrail records the delete with its caller (`userIdentity`).
    const CASES: &[Case] = &[
        (
            "deleted by someone else",
            || Mr::new("Zone", "z").external_name("Z1").healthy(),
            || deleted(Some(false)),
            &[(Code::CloudAuditDeletedByOther, None)],
        ),
        (
            "deleted by the provider itself",
            || Mr::new("Zone", "z").external_name("Z1").healthy(),
            || deleted(Some(true)),
            &[],
        ),
        (
            "the provider's identity unknown: not a fact",
            || Mr::new("Zone", "z").external_name("Z1").healthy(),
            || deleted(None),
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_cloud_cases(CASES);
    }
}
