//! `CloudAuditAmbiguous`: the cloud's audit record holds creates whose request names this MR but
//! that cannot be tied to it: the same request names other MRs too (two VPCs with one CIDR and no
//! tags), the call was made in an account the provider config's healthy peers do not use, or no
//! healthy peer shows the provider's identity. The rule of this tool is to report such a create,
//! never to guess: tying it to the wrong MR would adopt another MR's object.

use super::facts::Facts;
use crate::finding::{Code, Finding};

/// How many of the calls are quoted in the finding.
const SHOWN: usize = 3;

/// One finding per MR with such creates, quoting the first few and why each was not tied.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let audit = facts.evidence?.cloud_audit.as_ref()?;
    let first = audit.unattributed.first()?;
    let message = format!(
        "the cloud's audit record holds {} create(s) naming this MR that cannot be tied to it: {}",
        audit.unattributed.len(),
        first.why
    );
    let calls: Vec<String> =
        audit.unattributed.iter().take(SHOWN).map(|u| format!("{} ({})", u.call.describe(), u.why)).collect();
    let next = facts.upjet("history").opt("--cloud-audit", &first.call.file).to_string();
    Some(
        Finding::new(Code::CloudAuditAmbiguous, message, next)
            .with("calls", calls.join("; "))
            .with_opt("providerIdentity", audit.identity.as_deref()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cloud_audit_cases::{Case, audit, call, check_cloud_cases};
    use crate::cloud_audit::{MrCloudAudit, Unattributed};
    use crate::finding::Code;
    use crate::testing::Mr;

    fn unattributed() -> MrCloudAudit {
        let u = Unattributed {
            call: call("CreateVpc", "2024-11-30T10:01:00Z"),
            why: "it also names vpc.ec2.aws.upbound.io/b".into(),
        };
        MrCloudAudit { unattributed: vec![u], ..audit(vec![], None) }
    }

    /// The upstream basis: CloudTrail's `recipientAccountId` and `userIdentity` say where and by
    /// whom; crossplane-runtime's `GetExternalTags` is the only tag that names one MR.
    const CASES: &[Case] = &[
        (
            "a create naming two MRs is reported, nothing suggested",
            || Mr::new("VPC", "a"),
            unattributed,
            &[(Code::CloudAuditAmbiguous, None)],
        ),
        ("nothing unattributed: nothing", || Mr::new("VPC", "a"), || audit(vec![], None), &[]),
    ];

    #[test]
    fn table() {
        check_cloud_cases(CASES);
    }
}
