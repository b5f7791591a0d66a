//! `ExternalNameDrift`: external-name and `status.atProvider.id` disagree.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::identity::names_object;
use crate::managed::keys;
use crate::shell::quoted;

/// external-name does not name `status.atProvider.id`. For the common presets
/// (`NameAsIdentifier`, `IdentifierFromProvider`) the two are equal; a templated identifier
/// embeds the external-name as whole separator-bounded segments of the ID, which is how upjet's
/// `GetExternalNameFromTemplated` cuts it back out (see [`names_object`]).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let (name, id) = (facts.mr.external_name()?, facts.mr.at_provider_id.as_deref()?);
    if names_object(name, id) {
        return None;
    }
    Some(
        Finding::new(
            Code::ExternalNameDrift,
            format!("external-name {name} differs from status.atProvider.id {id}: the MR may track a different cloud object than the one it last observed", name = quoted(name), id = quoted(id)),
            facts.upjet("history").to_string(),
        )
        .with(keys::EXTERNAL_NAME, name)
        .with("status.atProvider.id", id)
        .suggest(Some(id)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;

    /// Follows upjet `pkg/config/externalname.go` `GetExternalNameFromTemplated`: the
    /// external-name is a whole segment of the ID, cut at the template's separators.
    const CASES: &[Case] = &[
        ("drift", || base().external_name("vpc-1").at_provider_id("vpc-2").healthy(), &[ExternalNameDrift]),
        (
            "templated identifier is not drift",
            || base().external_name("www").at_provider_id("Z123_www_A").healthy(),
            &[],
        ),
        (
            "a longer name in the same path is drift",
            || {
                base()
                    .external_name("vnet-hub")
                    .at_provider_id(
                        "/subscriptions/0/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet-hub-old",
                    )
                    .healthy()
            },
            &[ExternalNameDrift],
        ),
        (
            "a longer ID is drift",
            || base().external_name("vpc-0abc").at_provider_id("vpc-0abcdef0123456789").healthy(),
            &[ExternalNameDrift],
        ),
        (
            "an external-name embedding the ID is drift",
            || base().external_name("Z123_www_A").at_provider_id("www").healthy(),
            &[ExternalNameDrift],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
