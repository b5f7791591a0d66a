//! `ExternalNameOffFormat` (lint): an external-name that breaks the format its kind's other
//! manifests agree on.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::shell::quoted;

/// A kind's external-name format is compiled into its provider (upjet's `TemplatedStringAsIdentifier`,
/// `ParameterAsIdentifier`, …); the other manifests of the kind show it (`identity::infer`, at
/// least three agreeing, a supermajority). A manifest whose external-name the agreed template
/// does not give points Observe at another object or at none: a typo, or an ID copied from
/// another account or region. `domain::lint` finds it; this rule words it.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let (template, expected) = facts.evidence?.desired.as_ref()?.off_format.as_ref()?;
    let name = facts.mr.external_name()?;
    Some(
        Finding::new(
            Code::ExternalNameOffFormat,
            format!(
                "crossplane.io/external-name {name} does not follow {template}, the format the other manifests of this kind agree on, which gives {expected} here: Observe would look for another object, or none"
            , name = quoted(name), expected = quoted(expected)),
            format!("check the ID; the format suggests {expected}", expected = quoted(expected)),
        )
        .with(keys::EXTERNAL_NAME, name)
        .with("format", template.clone())
        .suggest(Some(expected)),
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
        let mr = Mr::new("Zone", "a").external_name("zone-a-typo").build();
        let off = MrEvidence {
            desired: Some(DesiredFacts { off_format: Some(("{name}".into(), "a".into())), ..Default::default() }),
            ..Default::default()
        };
        let f = super::check(&Facts::with_evidence(&mr, Some(&off), at())).unwrap();
        assert_eq!(f.suggested_id.as_deref(), Some("a"));
        assert!(f.message.contains("does not follow {name}"), "{}", f.message);
        assert!(super::check(&Facts::of(&mr, at())).is_none(), "outside a lint");
    }
}
