//! The inputs that tell something about an MR only once every MR is known: the cloud inventory
//! (`--inventory`: an object is lost only if no MR tracks it) and the cloud's audit record
//! (`--cloud-audit`: healthy peers teach who the provider is, and a create naming two MRs must be
//! seen naming both). [`FleetInputs`] is what was read before the MRs; [`FleetInputs::tie`] turns
//! it into [`FleetFacts`] once the MRs to judge are known, and the judge takes those facts beside
//! each MR's own evidence (`EvidenceIndex::findings`): the facts are one evidence source whose
//! share of an MR is each fleet-wide source's (`sources/`). A new fleet-wide source is read into
//! [`FleetInputs`], tied in [`FleetInputs::tie`] and filled in `FleetFacts`'s `fill`.

use super::cloud_audit::CloudRecord;
use super::sources::EvidenceSource;
use std::sync::Arc;
use upjet_core::cloud_audit::CloudAuditCheck;
use upjet_core::composition::{Composition, MrComposition};
use upjet_core::inventory::{CrossCheck, InventoryObject, ScanCoverage, cross_check};
use upjet_core::kind_removal::KindRemovals;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::MrEvidence;
use upjet_core::shared_names::{MrKey, SharedNames};

/// What the `--inventory` files held: their objects, and the files cut short.
#[derive(Debug, Default)]
pub struct InventoryInput {
    /// Every object of every file, in order.
    pub objects: Vec<InventoryObject>,
    /// The files that end with a paging token: the report is partial, and no object of theirs
    /// proves another missing.
    pub truncated: Vec<Arc<str>>,
}

/// The fleet-wide inputs of one run, read before any MR.
#[derive(Debug, Default)]
pub struct FleetInputs {
    /// The inventory's objects, when `--inventory` files were given.
    inventory: Option<InventoryInput>,
    /// The cloud's audit record and `--cloud-principal`, when `--cloud-audit` files were given.
    cloud: Option<(CloudRecord, Vec<String>)>,
}

impl FleetInputs {
    /// The inputs as read: `inventory` when `--inventory` was given, `cloud` (with
    /// `--cloud-principal`) when `--cloud-audit` was.
    pub fn new(inventory: Option<InventoryInput>, cloud: Option<(CloudRecord, Vec<String>)>) -> FleetInputs {
        FleetInputs { inventory, cloud }
    }

    /// Whether every MR must be known before any is judged (otherwise each MR is judged as it is
    /// read, and only the ones with findings stay in memory).
    pub fn need_every_mr(&self) -> bool {
        self.inventory.is_some() || self.cloud.is_some()
    }

    /// Ties the inputs to `mrs` (every MR of the run; `scope` says which kinds and whether the
    /// list is complete, for the inventory).
    pub fn tie(&self, mrs: &[&ManagedResource], scope: &ScanCoverage) -> FleetFacts {
        let inventory = self.inventory.as_ref().map(|input| {
            let scope = ScanCoverage { truncated: input.truncated.clone(), ..scope.clone() };
            cross_check(&input.objects, mrs, &scope)
        });
        let mut facts = FleetFacts { inventory, ..FleetFacts::default() };
        if let Some((record, principals)) = &self.cloud {
            let check = record.check(mrs, principals);
            facts.cloud_notes = record.notes();
            facts.cloud_cut_short = record.cut_short();
            facts.cloud_notes.extend(check.notes.iter().cloned());
            facts.cloud_audit = Some(check);
        }
        facts
    }
}

/// What only the whole fleet tells, handed to the judge beside each MR's evidence. The default
/// is a fleet that taught nothing: what an MR judged on its own (a scan without fleet inputs, a
/// watch) gets.
#[derive(Debug, Default)]
pub struct FleetFacts {
    /// One cloud object held by several MRs (fights, parked legacy MRs beside their twins).
    shared: SharedNames,
    inventory: Option<CrossCheck>,
    cloud_audit: Option<CloudAuditCheck>,
    cloud_notes: Vec<String>,
    cloud_cut_short: Vec<String>,
    /// The kinds whose CRD or MRD is being deleted: read once the MRs being deleted are known
    /// (a live scan asks for the CRDs of their kinds alone), or with a snapshot's definitions.
    removals: KindRemovals,
    /// The composition tree (`crate::composition`): the XRs and claims read before the MRs, then
    /// the fleet's composed MRs and the earlier identities once all are known.
    composition: Arc<Composition>,
}

impl FleetFacts {
    /// The cloud record tied to one MR and its peers (`commands::cloud_audit::for_one`).
    pub fn of_cloud_audit(check: CloudAuditCheck) -> FleetFacts {
        FleetFacts { cloud_audit: Some(check), ..FleetFacts::default() }
    }

    /// These facts with the index of the objects several MRs hold, built from every MR of the
    /// run (`shared_names::Holder::of` each).
    pub fn with_shared(self, shared: SharedNames) -> FleetFacts {
        FleetFacts { shared, ..self }
    }

    /// These facts with the kinds being removed (`domain::kind_removal`).
    pub fn with_removals(self, removals: KindRemovals) -> FleetFacts {
        FleetFacts { removals, ..self }
    }

    /// These facts with the composition tree.
    pub fn with_composition(self, composition: Arc<Composition>) -> FleetFacts {
        FleetFacts { composition, ..self }
    }

    /// The composition tree of the run (empty when none was read).
    pub fn composition_tree(&self) -> &Composition {
        &self.composition
    }

    /// The XRs and claims of the run, taken out of these facts (copied when still shared).
    pub fn into_tree_index(self) -> upjet_core::composition::Composites {
        match Arc::try_unwrap(self.composition) {
            Ok(c) => c.index,
            Err(shared) => shared.index.clone(),
        }
    }

    /// What the composition tree says about one MR (`None` outside a composition).
    pub fn composition(&self, mr: &ManagedResource) -> Option<MrComposition> {
        self.composition.about(mr)
    }

    /// The MRs the index of shared objects names: judged (again) once it is known.
    pub fn involved(&self) -> std::collections::BTreeSet<MrKey> {
        let mut all = self.shared.involved();
        all.extend(self.composition.involved());
        all
    }

    /// The inventory cross-check, when an inventory was read.
    pub fn inventory(&self) -> Option<&CrossCheck> {
        self.inventory.as_ref()
    }

    /// The cloud record tied to the MRs, when one was read.
    pub fn cloud_audit(&self) -> Option<&CloudAuditCheck> {
        self.cloud_audit.as_ref()
    }

    /// What the cloud audit files held, and what tying them to the MRs learned and left open.
    pub fn cloud_notes(&self) -> &[String] {
        &self.cloud_notes
    }

    /// The cloud audit files that are not the whole answer (a page with more to come): each
    /// makes the report partial.
    pub fn cloud_cut_short(&self) -> &[String] {
        &self.cloud_cut_short
    }
}

/// The fleet's share of one MR's evidence: each fleet-wide source's, as tied.
impl EvidenceSource for FleetFacts {
    fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        self.shared.fill(mr, evidence);
        self.inventory.fill(mr, evidence);
        self.cloud_audit.fill(mr, evidence);
        self.removals.fill(mr, evidence);
        evidence.composition = self.composition.about(mr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::EvidenceIndex;
    use upjet_core::inventory::{Cloud, CrossplaneTags};
    use upjet_core::testing::Mr;

    fn tagged_for(kind: &str, name: &str, id: &str) -> InventoryObject {
        InventoryObject {
            id: id.into(),
            cloud: Cloud::Gcp,
            tags: CrossplaneTags {
                kind: Some(kind.into()),
                name: Some(name.into()),
                namespace: None,
                provider_config: None,
                provider_config_kind: None,
            },
            source: "inventory.json".into(),
        }
    }

    /// An MR gets the inventory's objects only from facts tied over the fleet; judged on its own
    /// (a scan without fleet-wide inputs, a watch) it gets none, and nothing waits for the fleet.
    #[test]
    fn an_mr_gets_its_share_of_the_fleet_only_once_the_inputs_are_tied() {
        let www = Mr::new("RecordSet", "www").external_name("www-1").build();
        let object = tagged_for("recordset.dns.gcp.upbound.io", "www", "//dns.googleapis.com/projects/p/www-1");
        let inputs = FleetInputs::new(Some(InventoryInput { objects: vec![object], truncated: Vec::new() }), None);
        assert!(inputs.need_every_mr());
        let scope = ScanCoverage { kinds: Default::default(), all_kinds: true, complete: true, truncated: Vec::new() };
        let tied = inputs.tie(&[&www], &scope);
        let evidence = EvidenceIndex::default();
        let share = evidence.evidence_for(&www, &tied).inventory.expect("the object tagged for www");
        assert_eq!(share.objects.len(), 1);
        assert_eq!(tied.inventory().map(|c| c.tagged), Some(1));
        assert!(evidence.evidence_for(&www, &FleetFacts::default()).inventory.is_none());
        assert!(tied.cloud_audit().is_none() && tied.cloud_notes().is_empty());
        assert!(!FleetInputs::default().need_every_mr());
    }
}
