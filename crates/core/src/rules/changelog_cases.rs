//! Table-test support for the change-log rules: an MR, its change-log entries, and the change-log
//! findings (code and suggested ID) that must follow, so each table also shows that the other
//! change-log rule does not fire by accident.

use super::{MrEvidence, findings_with};
use crate::changelog::{ChangeEntry, MrChangeLog, Operation};
use crate::finding::Code;
use crate::gotime::GoTime;
use crate::testing::Mr;

/// (case, MR, its change log, the expected change-log findings as (code, suggestedId))
pub type Case = (&'static str, fn() -> Mr, fn() -> MrChangeLog, &'static [(Code, Option<&'static str>)]);

/// Successful entries about the test MR: (minute, operation, external-name before it).
pub fn log(entries: &[(u32, Operation, &str)]) -> MrChangeLog {
    let entry = |(m, op, name): &(u32, Operation, &str)| ChangeEntry {
        at: GoTime::parse_rfc3339(&format!("2025-04-25T08:{m:02}:00Z")),
        provider: "provider-aws-ec2:v1.21.0".into(),
        api_version: "test.upbound.io/v1beta1".into(),
        kind: "Instance".into(),
        name: "web".into(),
        namespace: None,
        uid: None,
        external_name: name.to_string(),
        operation: *op,
        error: None,
        source: format!("sidecar:{m}"),
    };
    MrChangeLog { entries: entries.iter().map(entry).collect(), earlier: Vec::new() }
}

/// The entry at minute `m` failed, as a create refused by the cloud is logged: with its error.
pub fn failed(mut log: MrChangeLog, m: u32) -> MrChangeLog {
    for e in log.entries.iter_mut().filter(|e| e.source == format!("sidecar:{m}")) {
        e.error = Some("api error: refused".into());
    }
    log
}

/// The test MR's own entries beside an earlier MR's under its name (`uid-old`: deleted, then
/// applied again as this one).
pub fn reapplied(mut earlier: MrChangeLog, own: &[(u32, Operation, &str)]) -> MrChangeLog {
    for e in &mut earlier.entries {
        e.uid = Some("uid-old".into());
    }
    MrChangeLog { earlier: vec![earlier], ..log(own) }
}

/// The change-log findings of every case.
pub(crate) fn check_changelog_cases(cases: &[Case]) {
    for (name, mr, changelog, want) in cases {
        let ev = MrEvidence { changelog: Some(changelog()), ..MrEvidence::default() };
        let got: Vec<(Code, Option<String>)> = findings_with(&mr().build(), Some(&ev), super::cases::at())
            .into_iter()
            .filter(|f| f.code.as_str().starts_with("ChangeLog"))
            .map(|f| (f.code, f.suggested_id))
            .collect();
        let want: Vec<(Code, Option<String>)> = want.iter().map(|(c, s)| (*c, s.map(str::to_owned))).collect();
        assert_eq!(got, want, "case: {name}");
    }
}
