//! Table-test support for the audit rules: an MR, the audit writes to its name, and the
//! suggestions of the findings the rule reports (`None`: a finding without one).

use super::{MrEvidence, findings_with};
use crate::audit::{AuditLevel, AuditTarget, AuditWrite, MrAudit, Snapshot};
use crate::finding::Code;
use crate::managed::keys;
use crate::testing::Mr;

/// (case, MR, writes, the suggestion of each finding expected)
pub type Case = (&'static str, fn() -> Mr, fn() -> Vec<AuditWrite>, &'static [Option<&'static str>]);

/// An object whose external-name is `name` (or none).
pub fn ext(name: Option<&str>) -> Snapshot {
    let mut s = Snapshot::default();
    if let Some(n) = name {
        s.annotations.push((keys::EXTERNAL_NAME.into(), n.into()));
    }
    s
}

/// A write at RequestResponse level by `user` ("provider" stands for the provider's service
/// account) to object `uid` (`uid-v` is the MR of the cases), responding with `after`.
pub fn w(verb: &str, uid: &str, user: &str, after: Snapshot) -> AuditWrite {
    let user = if user == "provider" || user == "p" {
        "system:serviceaccount:crossplane-system:provider-aws-ec2-abc".to_string()
    } else {
        user.to_string()
    };
    // `u1` is the MR of the cases (`Mr::new(_, "v")` has UID `uid-v`); any other is another object.
    let uid = if uid == "u1" { "uid-v".to_string() } else { uid.to_string() };
    AuditWrite {
        at: None,
        time: None,
        source: "audit.log:1".into(),
        audit_id: "a".into(),
        verb: verb.into(),
        subresource: None,
        user,
        impersonated: None,
        user_agent: None,
        source_ips: Vec::new(),
        code: Some(200),
        level: AuditLevel::RequestResponse,
        target: AuditTarget {
            group: "ec2.aws.upbound.io".into(),
            resource: "vpcs".into(),
            namespace: None,
            name: "v".into(),
        },
        uid: Some(uid.clone()),
        request: None,
        response: (verb != "delete").then_some(Snapshot { uid: Some(uid), ..after }),
        repeats: None,
    }
}

/// Checks the suggestions of `code`'s findings, case by case.
pub(crate) fn check_audit_cases(code: Code, cases: &[Case]) {
    for (name, mr, writes, want) in cases {
        let mr = mr().build();
        let ev = MrEvidence { audit: Some(MrAudit::new(writes(), &mr)), ..MrEvidence::default() };
        let got: Vec<Option<String>> = findings_with(&mr, Some(&ev), super::cases::at())
            .into_iter()
            .filter(|f| f.code == code)
            .map(|f| f.suggested_id)
            .collect();
        let want: Vec<Option<String>> = want.iter().map(|s| s.map(str::to_owned)).collect();
        assert_eq!(got, want, "case: {name}");
    }
}
