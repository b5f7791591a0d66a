//! Table-test support for the cloud-audit rules: an MR, what the record says about it, and the
//! cloud-audit findings (code and suggested ID) that must follow, so each table also shows that
//! no other cloud-audit rule fires by accident.

use super::{MrEvidence, ProviderStarts, findings_with};
use crate::cloud_audit::{CloudCall, MrCloudAudit, Observed};
use crate::finding::Code;
use crate::testing::Mr;
use std::sync::Arc;

/// (case, MR, the record's word on it, the expected cloud-audit findings as (code, suggestedId))
pub type Case = (&'static str, fn() -> Mr, fn() -> MrCloudAudit, &'static [(Code, Option<&'static str>)]);

/// A call of `action` by the provider's role at `at` (RFC3339).
pub fn call(action: &str, at: &str) -> Arc<CloudCall> {
    Arc::new(CloudCall::aws_test("route53.amazonaws.com", action, at))
}

/// A create at 10:00 that made `raw` (`proven`: its external-name, when peers prove the form).
pub(crate) fn obs(raw: &str, tracked: bool, proven: Option<&str>) -> Observed {
    obs_at(raw, tracked, proven, "2024-11-30T10:00:00Z")
}

/// [`obs`] at another time.
pub(crate) fn obs_at(raw: &str, tracked: bool, proven: Option<&str>, at: &str) -> Observed {
    Observed {
        call: call("CreateHostedZone", at),
        id: proven.map(str::to_owned),
        raw_id: Some(raw.to_string()),
        by: "its crossplane-name tag".into(),
        tracked,
    }
}

/// The record's word on an MR that tracks `tracked`, made of these creates.
pub fn audit(creates: Vec<Observed>, tracked: Option<&str>) -> MrCloudAudit {
    MrCloudAudit {
        creates,
        identity: Some("arn:aws:iam::111122223333:role/provider-aws (learned from 3 healthy peers)".into()),
        id_rule: "external-name = the ID's last /-segment of the value at hostedZone.id".into(),
        tracked: tracked.map(str::to_owned),
        ..MrCloudAudit::default()
    }
}

/// The cloud-audit findings of every case, with the provider's starts when given.
pub(crate) fn check_cloud_cases_with(cases: &[Case], starts: Option<ProviderStarts>) {
    for (name, mr, record, want) in cases {
        let ev = MrEvidence { cloud_audit: Some(record()), provider_starts: starts.clone(), ..MrEvidence::default() };
        let got: Vec<(Code, Option<String>)> = findings_with(&mr().build(), Some(&ev), super::cases::at())
            .into_iter()
            .filter(|f| f.code.as_str().starts_with("CloudAudit"))
            .map(|f| (f.code, f.suggested_id))
            .collect();
        let want: Vec<(Code, Option<String>)> = want.iter().map(|(c, s)| (*c, s.map(str::to_owned))).collect();
        assert_eq!(got, want, "case: {name}");
    }
}

/// [`check_cloud_cases_with`] without provider starts.
pub(crate) fn check_cloud_cases(cases: &[Case]) {
    check_cloud_cases_with(cases, None);
}
