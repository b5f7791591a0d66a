//! `ObserveOnlyWithoutExternalName` (lint): a manifest that observes or imports names no object.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::shell::quoted;

/// A supported policy set without Create (`["Observe"]`, the import set `["Observe",
/// "LateInitialize"]`) never makes the cloud object, so it must name an existing one. Without an
/// external-name, crossplane-runtime's `NameAsExternalName` initializer (which upjet installs
/// unless a kind disables it) writes metadata.name into it before the first Observe: right only
/// for kinds named by their MR, and for every other kind an Observe of an object that does not
/// exist (`ObserveNotFound` once applied). A placeholder counts as no external-name.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let m = &facts.management;
    if m.validate().is_err() || m.is_paused() || m.should_create() || facts.mr.external_name().is_some() {
        return None;
    }
    Some(
        Finding::new(
            Code::ObserveOnlyWithoutExternalName,
            format!(
                "managementPolicies {} never create the cloud object, and no crossplane.io/external-name says which existing one to observe: the initializer writes metadata.name {} into it, which names the object only for kinds named by their MR",
                facts.policies.describe(),
                quoted(&facts.mr.name)
            ),
            "add metadata.annotations[\"crossplane.io/external-name\"] with the cloud object's ID (kubectl upjet doctor lists IDs from --inventory)",
        )
        .with("managementPolicies", facts.policies.describe()),
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
        let manifest = |policies: &'static [&'static str]| Mr::new("Vpc", "main").policies(policies);
        for (case, mr, fires) in [
            ("observe only, no external-name", manifest(&["Observe"]), true),
            ("import set, no external-name", manifest(&["Observe", "LateInitialize"]), true),
            ("observe only with an ID", manifest(&["Observe"]).external_name("vpc-0abc"), false),
            (
                "observe only with a placeholder",
                manifest(&["Observe"]).annotation(keys::EXTERNAL_NAME, "STUB123456"),
                true,
            ),
            ("creates", manifest(&["*"]), false),
            ("default policies", Mr::new("Vpc", "main"), false),
            ("unsupported set: another code", manifest(&["Update"]), false),
            ("paused by empty policies", manifest(&[]), false),
        ] {
            let mr = mr.build();
            assert_eq!(super::check(&Facts::of(&mr, at())).is_some(), fires, "{case}");
        }
    }
}
