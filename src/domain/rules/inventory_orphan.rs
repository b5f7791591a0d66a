//! `InventoryOrphan`: the one cloud object an inventory export lists as tagged for this MR is not
//! the object the MR tracks. crossplane-runtime stamps `GetExternalTags` on every object an upjet
//! provider creates, so this object was created for this MR; when the MR tracks nothing (lost
//! external-name, `AlreadyExists` create loop) it is the object to adopt. A Ready MR is reported
//! only when the object is provably another (its own `status.atProvider.arn`, or the kind's proven
//! ID rule, says so): never because its ID has a shape no form relates to the export's, as a
//! healthy SQS queue's URL does to the queue's ARN.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding, Severity};
use crate::domain::inventory::id_form::Prediction;
use crate::domain::inventory::{MrInventory, TaggedObject, Tracking};
use crate::domain::managed::keys;
use crate::domain::shell::quoted;

/// One finding when exactly one object is tagged for the MR and it is not tracked (several
/// objects are `InventoryDuplicate`'s). An ID is suggested when the MR tracks none, or tracks one
/// that does not work (not Ready): never to replace a working identity. When the MR's ID cannot
/// be tied to the object either way, a Ready MR is left alone and a broken one gets a warning.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let inv = facts.evidence?.inventory.as_ref()?;
    let [object] = inv.objects.as_slice() else { return None };
    let mr = facts.mr;
    match object.tracking {
        Tracking::Tracked => return None,
        Tracking::Unknown if mr.is_true("Ready") => return None,
        Tracking::Unknown => return Some(unknown(facts, object, inv)),
        Tracking::Untracked => {}
    }
    let tracked = mr.external_name().or(mr.at_provider_id.as_deref());
    let candidate = match &object.prediction {
        Prediction::Id(id) => Some(id.as_str()),
        _ => None,
    };
    let may_adopt = tracked.is_none() || !mr.is_true("Ready");
    // A re-applied MR (deleted with `deletionPolicy: Orphan`) the provider is about to create.
    let second = super::restore_verdict::lost_second(facts);
    let message = match tracked {
        None => format!(
            "the inventory lists {} tagged for this MR, which tracks no ID: it is the object this MR lost{}",
            quoted(&object.id),
            second.as_ref().map(|s| format!("; {s}: adopt this one first")).unwrap_or_default()
        ),
        Some(t) => format!(
            "the inventory lists {} tagged for this MR, which tracks {t}: {} is an orphan nothing tracks",
            quoted(&object.id),
            quoted(&object.id),
            t = quoted(t)
        ),
    };
    let next = match (may_adopt, candidate) {
        (true, Some(id)) => facts.upjet("adopt").opt("--id", id).word("--import").to_string(),
        _ => facts.upjet("history").to_string(),
    };
    let finding = Finding::new(Code::InventoryOrphan, message, next)
        .with_opt(keys::EXTERNAL_NAME, mr.external_name())
        .with_opt(super::restore_verdict::NEXT_RECONCILE, second);
    Some(with_object(finding, object, inv).suggest(candidate.filter(|_| may_adopt)))
}

/// A broken MR whose ID no form ties to its one tagged object: the object may be the one it
/// tracks or one it lost, which only the history can tell.
fn unknown(facts: &Facts, object: &TaggedObject, inv: &MrInventory) -> Finding {
    let tracked = facts.mr.external_name().or(facts.mr.at_provider_id.as_deref()).unwrap_or_default();
    let message = format!(
        "the inventory lists {} tagged for this MR, which is not Ready and tracks {tracked}: no ID form ties the two, so it may be this MR's object or one it lost",
        quoted(&object.id),
        tracked = quoted(tracked)
    );
    let mut f = Finding::new(Code::InventoryOrphan, message, facts.upjet("history").to_string());
    f.severity = Severity::Warning;
    with_object(f.with_opt(keys::EXTERNAL_NAME, facts.mr.external_name()), object, inv)
}

/// The evidence every inventory finding carries about one object.
pub(super) fn with_object(f: Finding, o: &TaggedObject, inv: &MrInventory) -> Finding {
    let f = f
        .with("inventoryId", o.id.clone())
        .with("inventoryFile", o.source.to_string())
        .with("idRule", inv.rule.clone())
        .with_opt(
            "crossplane-providerconfig",
            o.provider_config.as_ref().map(|k| crate::domain::inventory::shown(&k.to_string())),
        );
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
    use super::super::inventory_cases::{Case, check_inventory_cases, obj, unknown};
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
            "healthy, tracking an ID no form ties to the object (an SQS URL against its ARN): nothing",
            || Mr::new("Queue", "q").external_name("https://sqs.r.amazonaws.com/1/q").healthy(),
            || vec![unknown("arn:aws:sqs:r:1:q")],
            None,
        ),
        (
            "broken, tracking an ID no form ties to the object: a warning, nothing suggested",
            || Mr::new("Queue", "q").external_name("https://sqs.r.amazonaws.com/1/q"),
            || vec![unknown("arn:aws:sqs:r:1:q")],
            Some(None),
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
