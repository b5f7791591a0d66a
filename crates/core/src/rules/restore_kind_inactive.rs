//! `RestoreKindInactive`: the MR's kind is an inactive ManagedResourceDefinition on the cluster
//! the backup is restored into. Crossplane v2 serves no CRD for an inactive MRD (crossplane
//! `apis/apiextensions/v1alpha1` `ManagedResourceDefinitionSpec.State`, default `Inactive`; the
//! MRD controller creates the CRD only once it is `Active`), so the restore cannot create the MR:
//! it is skipped entirely and its cloud object stays unmanaged until the kind is activated and
//! the MR restored again.

use super::facts::Facts;
use super::restore_verdict::{Verdict, verdict};
use crate::finding::{Code, Finding};

/// One finding per MR whose kind is inactive on the target, naming the command that activates it.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let ctx = facts.evidence?.restore.as_ref()?;
    let Verdict::Inactive(activate) = verdict(facts, ctx) else { return None };
    let message = format!(
        "its kind {}.{} is an inactive ManagedResourceDefinition on the target cluster: no CRD is served there, so the restore skips this MR entirely; activate the kind before restoring",
        facts.mr.kind,
        facts.mr.group()
    );
    Some(Finding::new(Code::RestoreKindInactive, message, activate.clone()).with("activate", activate))
}

#[cfg(test)]
mod tests {
    use super::super::restore_cases::*;
    use crate::finding::Code::*;
    use crate::restore::MrRestore;
    use crate::testing::Mr;

    fn inactive() -> MrRestore {
        MrRestore { inactive_kind: Some("kubectl patch managedresourcedefinition …".into()), ..provider_assigned() }
    }

    /// crossplane `ManagedResourceDefinitionSpec.State` (inactive: no CRD); the verdict comes
    /// first, so no other restore finding is made for an MR that is not restored.
    const CASES: &[Case] = &[
        (
            "inactive kind, external-name restored",
            || Mr::new("VPC", "v").external_name("vpc-1").healthy(),
            inactive,
            &[RestoreKindInactive],
        ),
        (
            "inactive kind, would duplicate otherwise",
            || Mr::new("VPC", "v").at_provider_id("vpc-1").healthy(),
            inactive,
            &[RestoreKindInactive],
        ),
        ("active kind", || Mr::new("VPC", "v").external_name("vpc-1").healthy(), provider_assigned, &[RestoreSafe]),
    ];

    #[test]
    fn table() {
        check_restore_cases(CASES);
    }
}
