//! Table-test support for the restore rules: an MR as backed up, what restoring it depends on,
//! and the restore codes reported.

use super::{MrEvidence, findings_with};
use crate::finding::{Code, Finding};
use crate::restore::MrRestore;
use crate::testing::Mr;

/// (case, the MR as backed up, what the restore depends on, the restore codes expected)
pub type Case = (&'static str, fn() -> Mr, fn() -> MrRestore, &'static [Code]);

/// Restoring it depends on nothing known: no peers, no source cluster.
pub fn unknown() -> MrRestore {
    MrRestore::default()
}

/// Its kind's IDs are provider-assigned (`IdentifierFromProvider`).
pub(crate) fn provider_assigned() -> MrRestore {
    MrRestore { name_initialized: Some(false), source_tracker: None, inactive_kind: None }
}

/// Its kind is `NameAsIdentifier` (external-name = metadata.name).
pub(crate) fn name_initialized() -> MrRestore {
    MrRestore { name_initialized: Some(true), source_tracker: None, inactive_kind: None }
}

/// The restore findings of one MR.
pub(crate) fn restore_findings(mr: &Mr, ctx: MrRestore) -> Vec<Finding> {
    let ev = MrEvidence { restore: Some(ctx), ..MrEvidence::default() };
    findings_with(&mr.build(), Some(&ev), super::cases::at())
        .into_iter()
        .filter(|f| f.code.as_str().starts_with("Restore"))
        .collect()
}

/// Checks every case: exactly the restore codes expected (other rules are not the point here),
/// and none at all without the restore evidence.
pub(crate) fn check_restore_cases(cases: &[Case]) {
    for (name, mr, ctx, want) in cases {
        let got: Vec<Code> = restore_findings(&mr(), ctx()).into_iter().map(|f| f.code).collect();
        assert_eq!(got, want.to_vec(), "case: {name}");
        let plain = findings_with(&mr().build(), None, super::cases::at());
        assert!(plain.iter().all(|f| !f.code.as_str().starts_with("Restore")), "{name}: not a backup");
    }
}
