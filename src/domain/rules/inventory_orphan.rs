//! `InventoryOrphan`: the one cloud object an inventory export lists as tagged for this MR is not
//! the object the MR tracks. crossplane-runtime stamps `GetExternalTags` on every object an upjet
//! provider creates, so this object was created for this MR; when the MR tracks nothing (lost
//! external-name, `AlreadyExists` create loop) it is the object to adopt.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::inventory::id_form::Prediction;
use crate::domain::inventory::{MrInventory, TaggedObject};
use crate::domain::managed::keys;

/// One finding when exactly one object is tagged for the MR and it is not tracked (several
/// objects are `InventoryDuplicate`'s). An ID is suggested when the MR tracks none, or tracks one
/// that does not work (not Ready): never to replace a working identity.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let inv = facts.evidence?.inventory.as_ref()?;
    let [object] = inv.objects.as_slice() else { return None };
    if object.tracked {
        return None;
    }
    let mr = facts.mr;
    let arg = facts.arg();
    let tracked = mr.external_name().or(mr.at_provider_id.as_deref());
    let candidate = match &object.prediction {
        Prediction::Id(id) => Some(id.as_str()),
        _ => None,
    };
    let may_adopt = tracked.is_none() || !mr.is_true("Ready");
    let message = match tracked {
        None => format!(
            "the inventory lists {:?} tagged for this MR, which tracks no ID: it is the object this MR lost",
            object.id
        ),
        Some(t) => format!(
            "the inventory lists {:?} tagged for this MR, which tracks {t:?}: {:?} is an orphan nothing tracks",
            object.id, object.id
        ),
    };
    let next = match (may_adopt, candidate) {
        (true, Some(id)) => format!("kubectl upjet adopt {arg} --id {id} --import"),
        _ => format!("kubectl upjet history {arg}"),
    };
    let finding = Finding::new(Code::InventoryOrphan, message, next).with_opt(keys::EXTERNAL_NAME, mr.external_name());
    Some(with_object(finding, object, inv).suggest(candidate.filter(|_| may_adopt)))
}

/// The evidence every inventory finding carries about one object.
pub(super) fn with_object(f: Finding, o: &TaggedObject, inv: &MrInventory) -> Finding {
    let f = f
        .with("inventoryId", o.id.clone())
        .with("inventoryFile", o.source.to_string())
        .with("idRule", inv.rule.clone())
        .with_opt("crossplane-providerconfig", o.provider_config.as_deref().map(crate::domain::inventory::shown));
    let f = match &o.prediction {
        Prediction::Ambiguous(all) => f.with("candidates", all.join(", ")),
        _ => f,
    };
    if o.without_namespace_tag {
        f.with(
            "namespaceMatch",
            "the object has no crossplane-namespace tag; matched by kind and name, unique across namespaces",
        )
    } else {
        f
    }
}

#[cfg(test)]
mod tests {
    use super::super::inventory_cases::{Case, check_inventory_cases, obj};
    use crate::domain::finding::Code;
    use crate::domain::testing::Mr;

    const CASES: &[Case] = &[
        (
            "tracks none: suggest the object",
            || Mr::new("Secret", "s"),
            || vec![obj("arn:x", false, Some("arn:x"))],
            Some(Some("arn:x")),
        ),
        (
            "tracks none, no proven rule: report, suggest nothing",
            || Mr::new("Secret", "s"),
            || vec![obj("arn:x", false, None)],
            Some(None),
        ),
        (
            "healthy and tracking another ID: orphan, keep the identity",
            || Mr::new("Secret", "s").external_name("a").healthy(),
            || vec![obj("arn:x", false, Some("x"))],
            Some(None),
        ),
        (
            "broken and tracking another ID: suggest",
            || Mr::new("Secret", "s").external_name("a"),
            || vec![obj("arn:x", false, Some("x"))],
            Some(Some("x")),
        ),
        (
            "tracked: nothing",
            || Mr::new("Secret", "s").external_name("x"),
            || vec![obj("arn:x", true, Some("x"))],
            None,
        ),
        (
            "two objects: a duplicate, not this",
            || Mr::new("Secret", "s"),
            || vec![obj("a", false, None), obj("b", false, None)],
            None,
        ),
    ];

    #[test]
    fn table() {
        check_inventory_cases(Code::InventoryOrphan, CASES);
    }
}
