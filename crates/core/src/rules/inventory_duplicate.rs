//! `InventoryDuplicate`: an inventory export lists several cloud objects tagged for one MR. Each
//! create after a lost external-name makes another (upjet#305, provider-upjet-aws#1018); the MR
//! tracks at most one, the others are orphans that cost money and block names.

use super::facts::Facts;
use super::inventory_orphan::with_object;
use crate::finding::{Code, Finding, Severity};
use crate::inventory::id_form::Prediction;
use crate::inventory::{Tracking, shown};
use crate::managed::ProviderConfigKey;
use crate::shell::quoted;
use std::collections::BTreeSet;

/// One finding per MR with two or more tagged objects: which one it tracks, which are orphans.
/// An error when it provably tracks none of them (which to adopt cannot be decided from tags
/// alone); objects whose ID no form ties to the MR's are listed as such, never as orphans.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let inv = facts.evidence?.inventory.as_ref()?;
    if inv.objects.len() < 2 {
        return None;
    }
    let (tracked, rest): (Vec<_>, Vec<_>) = inv.objects.iter().partition(|o| o.tracking == Tracking::Tracked);
    let (untied, orphans): (Vec<_>, Vec<_>) = rest.into_iter().partition(|o| o.tracking == Tracking::Unknown);
    let ids = |v: &[&crate::inventory::TaggedObject]| v.iter().map(|o| o.id.as_str()).collect::<Vec<_>>().join(", ");
    let mut message = match tracked.first() {
        Some(t) => format!(
            "{} cloud objects are tagged for this MR: it tracks {}; {} untracked duplicate(s): {}",
            inv.objects.len(),
            quoted(&t.id),
            orphans.len(),
            ids(&orphans)
        ),
        None if untied.is_empty() => format!(
            "{} cloud objects are tagged for this MR and it tracks none of them: {}; adopt one, delete the others",
            inv.objects.len(),
            ids(&orphans)
        ),
        None => format!(
            "{} cloud objects are tagged for this MR; no ID form ties its ID to {}, so which one it tracks cannot be told",
            inv.objects.len(),
            ids(&untied)
        ),
    };
    let configs: BTreeSet<&ProviderConfigKey> = inv.objects.iter().filter_map(|o| o.provider_config.as_ref()).collect();
    if configs.len() > 1 {
        let configs: Vec<String> = configs.iter().map(|c| shown(&c.to_string())).collect();
        message.push_str(&format!(
            " (tagged by provider configs {}: another cluster may use the same names)",
            configs.join(", ")
        ));
    }
    let candidates: Vec<&str> = orphans
        .iter()
        .filter_map(|o| match &o.prediction {
            Prediction::Id(id) => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let mut f = Finding::new(Code::InventoryDuplicate, message, facts.upjet("history").to_string())
        .with("orphans", ids(&orphans))
        .with_opt("tracked", tracked.first().map(|t| t.id.clone()))
        .with_opt("orphanExternalNames", (!candidates.is_empty()).then(|| candidates.join(", ")))
        .with_opt("untied", (!untied.is_empty()).then(|| ids(&untied)));
    f = with_object(f, orphans.first().or(untied.first()).copied()?, inv);
    if tracked.is_empty() && untied.is_empty() {
        f.severity = Severity::Error;
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::super::inventory_cases::{Case, check_inventory_cases, obj, unknown};
    use crate::finding::Code;
    use crate::testing::Mr;

    const CASES: &[Case] = &[
        (
            "one tracked, one orphan",
            || Mr::new("VPC", "v").external_name("a").healthy(),
            || vec![obj("a", true, Some("a")), obj("b", false, Some("b"))],
            Some(None),
        ),
        (
            "none tracked: never guess which",
            || Mr::new("VPC", "v"),
            || vec![obj("a", false, Some("a")), obj("b", false, Some("b"))],
            Some(None),
        ),
        ("one object: not a duplicate", || Mr::new("VPC", "v"), || vec![obj("a", false, None)], None),
        (
            "two objects whose IDs no form ties to the MR's: still a duplicate",
            || Mr::new("Queue", "q").external_name("https://sqs/1/q").healthy(),
            || vec![unknown("arn:aws:sqs:r:1:q"), unknown("arn:aws:sqs:r:2:q")],
            Some(None),
        ),
    ];

    #[test]
    fn table() {
        check_inventory_cases(Code::InventoryDuplicate, CASES);
    }

    #[test]
    fn severity_says_whether_anything_is_tracked() {
        use super::super::inventory_cases::findings_for;
        use crate::finding::Severity;
        let tracked =
            findings_for(&Mr::new("VPC", "v").external_name("a"), vec![obj("a", true, None), obj("b", false, None)]);
        let lost = findings_for(&Mr::new("VPC", "v"), vec![obj("a", false, None), obj("b", false, None)]);
        let untied = findings_for(&Mr::new("Queue", "q").external_name("u"), vec![unknown("a"), unknown("b")]);
        let sev =
            |f: &[crate::finding::Finding]| f.iter().find(|f| f.code == Code::InventoryDuplicate).unwrap().severity;
        assert_eq!((sev(&tracked), sev(&lost), sev(&untied)), (Severity::Warning, Severity::Error, Severity::Warning));
    }
}
