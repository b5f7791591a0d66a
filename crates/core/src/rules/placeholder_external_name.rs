//! `PlaceholderExternalName` (lint): a manifest commits a provider's placeholder as its ID.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;

/// A placeholder (`domain::placeholder`) is what a provider writes where a cloud ID belongs
/// before the cloud assigned one; copied into a manifest (usually from `kubectl get -o yaml` of
/// an MR whose create failed), it names no object. The reconciler reads it as an ID: Observe
/// finds nothing and, with Create allowed, a new object is made, while the manifest keeps the
/// stub, so every later restore starts over.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let stub = facts.mr.external_name_placeholder()?;
    Some(
        Finding::new(
            Code::PlaceholderExternalName,
            format!(
                "crossplane.io/external-name holds a provider's placeholder ({}), which names no cloud object: applied, the MR tracks nothing",
                stub.describe()
            ),
            "replace the annotation with the cloud object's real ID, or remove it so the provider creates and records one",
        )
        .with(keys::EXTERNAL_NAME, stub.value),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::facts::Facts;
    use crate::managed::keys;
    use crate::testing::Mr;

    #[test]
    fn table() {
        for (case, mr, fires) in [
            ("a stub", Mr::new("Agent", "a").annotation(keys::EXTERNAL_NAME, "STUB123456"), true),
            ("a real ID", Mr::new("Agent", "a").external_name("AGENT7"), false),
            ("none", Mr::new("Agent", "a"), false),
        ] {
            let mr = mr.build();
            assert_eq!(super::check(&Facts::of(&mr, at())).is_some(), fires, "{case}");
        }
    }
}
