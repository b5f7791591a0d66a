//! `ExternalNameShared`: another MR of the same kind holds the same external-name.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::shell::quoted;

/// Two MRs of one kind with one external-name both Observe, Update and, on deletion, Delete the
/// same cloud object (crossplane-runtime's managed reconciler acts on the external-name alone);
/// nothing in crossplane or upjet notices. Only a view of the whole fleet can tell: the watch
/// keeps that index and hands each MR the others that share its name.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let others = &facts.evidence?.shared_external_name;
    let first = others.first()?;
    let name = facts.mr.external_name()?;
    let f = Finding::new(
        Code::ExternalNameShared,
        format!(
            "external-name {name} is also held by {} other MR{} of this kind ({first}{}): both manage one cloud object, and deleting either deletes it",
            others.len(),
            if others.len() == 1 { "" } else { "s" },
            if others.len() > 1 { ", …" } else { "" }
        , name = quoted(name)),
        facts.upjet("history").to_string(),
    )
    .with("sharedWith", others.join(", "));
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::{Facts, MrEvidence};
    use crate::managed::keys;
    use crate::testing::Mr;

    #[test]
    fn table() {
        let shared = |others: &[&str]| MrEvidence {
            shared_external_name: others.iter().map(|s| s.to_string()).collect(),
            ..MrEvidence::default()
        };
        let named = || Mr::new("Bucket", "a").annotation(keys::EXTERNAL_NAME, "assets");
        for (case, mr, evidence, want) in [
            ("one other holder", named(), Some(shared(&["bucket.s3.aws.upbound.io/b"])), Some("1 other MR")),
            ("two other holders", named(), Some(shared(&["x/b", "x/c"])), Some("2 other MRs")),
            ("no other holder", named(), Some(shared(&[])), None),
            ("no evidence", named(), None, None),
            ("no external-name", Mr::new("Bucket", "a"), Some(shared(&["x/b"])), None),
        ] {
            let mr = mr.build();
            let found = super::check(&Facts::with_evidence(&mr, evidence.as_ref(), at()));
            match want {
                Some(text) => assert!(found.expect(case).message.contains(text), "{case}"),
                None => assert!(found.is_none(), "{case}"),
            }
        }
    }
}
