//! Table-test support for the rule files: a case is an MR and the codes `diagnose` must report for
//! it, so each rule's table also shows that no other rule fires by accident.

use super::diagnose;
use crate::finding::Code;
use crate::gotime::GoTime;
use crate::managed::keys;
use crate::reconcile_timeout::JudgedAt;
use crate::testing::Mr;

/// A case: its name, the MR, and the codes expected (any order).
pub type Case = (&'static str, fn() -> Mr, &'static [Code]);

/// `crossplane.io/external-create-pending`.
pub const P: &str = keys::CREATE_PENDING;
/// `crossplane.io/external-create-succeeded`.
pub const S: &str = keys::CREATE_SUCCEEDED;
/// `crossplane.io/external-create-failed`.
pub const F: &str = keys::CREATE_FAILED;
/// A time.
pub const T0: &str = "2024-11-30T10:53:06Z";
/// A second later.
pub(crate) const T1: &str = "2024-11-30T10:53:07Z";

/// When the cases are judged: five minutes after T0, so that no condition the builder dates
/// (10:00:00) and no mark at T0 is past upjet's one-hour async deadline.
pub const NOW: &str = "2024-11-30T10:58:00Z";

/// [`NOW`] as a time.
pub fn now() -> GoTime {
    GoTime::parse_rfc3339(NOW).expect("NOW parses")
}

/// [`NOW`] with upjet's reconcile timeout: how the rules judge the cases.
pub fn at() -> JudgedAt {
    JudgedAt::upjet(now())
}

/// A RecordSet whose external-name and observed ID agree.
pub fn base() -> Mr {
    Mr::new("RecordSet", "rs").external_name("rs").at_provider_id("rs")
}

/// The codes `diagnose` reports, sorted.
pub fn codes(mr: &Mr) -> Vec<Code> {
    let mut c: Vec<Code> = diagnose(&mr.build(), at()).into_iter().map(|f| f.code).collect();
    c.sort();
    c
}

/// Checks every case.
pub(crate) fn check_cases(cases: &[Case]) {
    for (name, mr, want) in cases {
        let mut want = want.to_vec();
        want.sort();
        assert_eq!(codes(&mr()), want, "case: {name}");
    }
}
