//! `ReferenceOutsideManifests` (lint): a reference to an MR the linted manifests do not define.

use super::facts::Facts;
use crate::finding::{Code, Finding};

/// A `*Ref`/`*Refs` names an MR (by name, in the MR's namespace unless it says another) whose
/// ID the reconciler copies into the field it fills. `migrate plan` refuses a reference to an MR
/// it does not migrate (`domain::migrate::refs`), and restoring these manifests into a new
/// cluster leaves it unresolved (Synced=False, `cannot resolve references`) until that MR
/// exists: the manifests are not a whole unit. `domain::lint` finds the names; this rule words
/// them.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let dangling = &facts.evidence?.desired.as_ref()?.dangling_refs;
    let first = dangling.first()?;
    Some(
        Finding::new(
            Code::ReferenceOutsideManifests,
            format!(
                "{} reference{} name{} an MR none of these manifests define ({first}{}): a migration refuses it and a restore of these manifests leaves it unresolved",
                dangling.len(),
                if dangling.len() == 1 { "" } else { "s" },
                if dangling.len() == 1 { "s" } else { "" },
                if dangling.len() > 1 { ", …" } else { "" }
            ),
            "add the referenced MR's manifest to this set, or set the resolved field (e.g. vpcId) instead of the reference",
        )
        .with("references", dangling.join(", ")),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::facts::Facts;
    use super::super::mr_evidence::{DesiredFacts, MrEvidence};
    use crate::testing::Mr;

    #[test]
    fn words_what_the_lint_found() {
        let mr = Mr::new("Subnet", "a").build();
        let refs = |names: &[&str]| MrEvidence {
            desired: Some(DesiredFacts {
                dangling_refs: names.iter().map(|n| n.to_string()).collect(),
                ..Default::default()
            }),
            ..Default::default()
        };
        let one = super::check(&Facts::with_evidence(&mr, Some(&refs(&["spec.forProvider.vpcIdRef → main"])), at()));
        assert!(one.unwrap().message.starts_with("1 reference names an MR"));
        let two = super::check(&Facts::with_evidence(&mr, Some(&refs(&["a → x", "b → y"])), at())).unwrap();
        assert!(two.message.starts_with("2 references name an MR"), "{}", two.message);
        assert!(super::check(&Facts::with_evidence(&mr, Some(&refs(&[])), at())).is_none());
    }
}
