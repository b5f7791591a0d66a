//! `InventoryObjectGone`: the MR tracks an ID, and a complete inventory export that lists a
//! healthy MR of the same kind, provider config (account) and region does not list it, tagged or
//! not. The object was most likely deleted outside Crossplane. The managed reconciler's next
//! Observe finds no object and calls Create (crossplane-runtime `pkg/reconciler/managed/reconciler.go`,
//! `Reconciler.Reconcile`: `if !observation.ResourceExists && policy.ShouldCreate()`), so a new,
//! empty object will replace it: worth knowing before that happens. A warning, because an export
//! taken at another moment than the MRs (or filtered by tags) can miss an object that exists.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::shell::quoted;

/// One finding when the cross-check found the MR's object missing from an export that covers it.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let inv = facts.evidence?.inventory.as_ref()?;
    let coverage = inv.gone.as_ref()?;
    let mr = facts.mr;
    let tracked = mr.external_name().or(mr.at_provider_id.as_deref()).or(mr.at_provider_arn.as_deref())?;
    let region = coverage.region.as_deref().map(|r| format!(", region {r}")).unwrap_or_default();
    let message = format!(
        "the inventory does not list {tracked}, although it lists {} (same kind, provider config {}{region}): the object seems gone, deleted outside Crossplane; the provider will create it again",
        coverage.peer,
        coverage.provider_config,
        tracked = quoted(tracked)
    );
    let next = facts.upjet("history").to_string();
    Some(
        Finding::new(Code::InventoryObjectGone, message, next)
            .with_opt(keys::EXTERNAL_NAME, mr.external_name())
            .with("inventoryFile", coverage.file.to_string())
            .with("coveredBy", coverage.peer.clone())
            .with("providerConfig", coverage.provider_config.to_string())
            .with_opt("region", coverage.region.clone())
            .with("idRule", inv.rule.clone()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::{MrEvidence, findings_with};
    use crate::finding::Code;
    use crate::inventory::MrInventory;
    use crate::inventory::gone::Coverage;
    use crate::managed::ProviderConfigKey;
    use crate::testing::Mr;

    fn coverage() -> Coverage {
        Coverage {
            file: "inv.json".into(),
            peer: "queue.sqs.aws.upbound.io/peer".into(),
            region: Some("us-east-1".into()),
            provider_config: ProviderConfigKey::cluster_scoped("default"),
        }
    }

    /// Upstream: crossplane-runtime pkg/reconciler/managed/reconciler.go `Reconcile` creates when
    /// Observe says the object does not exist. (case, MR, what the cross-check found, fires)
    type Case = (&'static str, fn() -> Mr, Option<fn() -> Coverage>, bool);

    const CASES: &[Case] = &[
        ("covered and missing", || Mr::new("Queue", "q").external_name("https://q").healthy(), Some(coverage), true),
        (
            "covered, tracked only by atProvider.arn",
            || Mr::new("Queue", "q").at_provider_arn("arn:aws:sqs:r:1:q"),
            Some(coverage),
            true,
        ),
        ("not covered: nothing", || Mr::new("Queue", "q").external_name("https://q"), None, false),
        ("tracks nothing: nothing to miss", || Mr::new("Queue", "q"), Some(coverage), false),
    ];

    #[test]
    fn table() {
        for (name, mr, gone, fires) in CASES {
            let inventory = MrInventory { objects: Vec::new(), rule: "r".into(), gone: gone.map(|g| g()) };
            let ev = MrEvidence { inventory: Some(inventory), ..MrEvidence::default() };
            let got = findings_with(&mr().build(), Some(&ev), super::super::cases::at());
            let found: Vec<_> = got.iter().filter(|f| f.code == Code::InventoryObjectGone).collect();
            assert_eq!(found.len(), usize::from(*fires), "{name}");
            if let Some(f) = found.first() {
                assert!(f.message.contains("seems gone") && f.evidence["region"] == "us-east-1", "{name}");
            }
        }
    }
}
