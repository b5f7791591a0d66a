//! `ExternalNameDrift`: external-name and `status.atProvider.id` disagree.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::managed::keys;

/// external-name ≠ `status.atProvider.id`. For the common presets (`NameAsIdentifier`,
/// `IdentifierFromProvider`) the two are equal; templated identifiers embed the external-name in
/// the ID, so an ID that contains the external-name (or the reverse) is not reported.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let (name, id) = (facts.mr.external_name()?, facts.mr.at_provider_id.as_deref()?);
    if name == id || id.contains(name) || name.contains(id) {
        return None;
    }
    Some(
        Finding::new(
            Code::ExternalNameDrift,
            format!("external-name {name:?} differs from status.atProvider.id {id:?}: the MR may track a different cloud object than the one it last observed"),
            format!("kubectl upjet history {}", facts.arg()),
        )
        .with(keys::EXTERNAL_NAME, name)
        .with("status.atProvider.id", id)
        .suggest(Some(id)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::domain::finding::Code::*;

    const CASES: &[Case] = &[
        ("drift", || base().external_name("vpc-1").at_provider_id("vpc-2").healthy(), &[ExternalNameDrift]),
        (
            "templated identifier is not drift",
            || base().external_name("www").at_provider_id("Z123_www_A").healthy(),
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
