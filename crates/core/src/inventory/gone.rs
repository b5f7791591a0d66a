//! MRs whose tracked object an export should list but does not: deleted outside Crossplane (by
//! hand, a cleanup script, another tool). The managed reconciler's next Observe finds nothing and
//! Create makes the object again (crossplane-runtime `pkg/reconciler/managed/reconciler.go`,
//! `Reconcile`: `!observation.ResourceExists` → `external.Create`), so the user is told before a
//! new, empty object replaces one that held data.
//!
//! Said only with proof that the export would list the object: a healthy MR of the same kind,
//! provider config (the cloud account) and region has its object in the same export, that export
//! was not cut short, the kind's ID rule is proven (so an ID of an unfamiliar shape is never taken
//! for a missing one), and the MR's ID is nowhere in any export, tagged or not.

use super::id_form::{IdForm, KindRule, Prediction};
use super::{Cloud, InventoryObject};
use super::{healthy, kind_of};
use crate::managed::{ManagedResource, ProviderConfigKey};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Why an export is trusted to list an MR's object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// The complete export file that lists a healthy peer's object.
    pub file: Arc<str>,
    /// That peer, as a command argument.
    pub peer: String,
    /// The region (or location) the MR and the peer share, when their kind has one.
    pub region: Option<String>,
    /// The provider config (the account) they share.
    pub provider_config: ProviderConfigKey,
}

/// Where an MR's object lives, as far as an export can tell: kind, provider config, region.
type Area = (String, ProviderConfigKey, Option<String>);

/// The MR's `forProvider.region` (AWS, GCP) or `forProvider.location` (Azure).
fn region(mr: &ManagedResource) -> Option<String> {
    mr.for_provider.get("region").or_else(|| mr.for_provider.get("location")).cloned()
}

fn area(mr: &ManagedResource) -> Area {
    (kind_of(mr), mr.provider_config_or_default(), region(mr))
}

/// The IDs an MR tracks: external-name, `status.atProvider.id`, `status.atProvider.arn`.
fn tracked_ids(mr: &ManagedResource) -> Vec<&str> {
    mr.external_name().into_iter().chain(mr.at_provider_id.as_deref()).chain(mr.at_provider_arn.as_deref()).collect()
}

/// The MRs whose object seems gone, each with the coverage that says so. `per_mr` holds the
/// tagged objects of every MR that has some (index into `mrs`); `truncated` the files cut short.
pub(super) fn gone<'m>(
    objects: &[InventoryObject],
    mrs: &[&'m ManagedResource],
    per_mr: &HashMap<usize, Vec<(&InventoryObject, bool)>>,
    rules: &HashMap<String, KindRule>,
    truncated: &[Arc<str>],
) -> Vec<(&'m ManagedResource, Coverage)> {
    let mut covered: HashMap<Area, Coverage> = HashMap::new();
    // In the MRs' order, so the peer a finding names is the same on every run.
    let mut by_index: Vec<(&usize, &Vec<(&InventoryObject, bool)>)> = per_mr.iter().collect();
    by_index.sort_unstable_by_key(|(i, _)| **i);
    for (i, found) in by_index {
        let mr = mrs[*i];
        let complete = found.iter().map(|(o, _)| *o).find(|o| !truncated.contains(&o.source));
        if let (Some(_), Some(o)) = (healthy(mr), complete) {
            let (_, provider_config, region) = area(mr);
            covered.entry(area(mr)).or_insert_with(|| Coverage {
                file: o.source.clone(),
                peer: mr.command_arg(),
                region,
                provider_config,
            });
        }
    }
    let candidates: Vec<(&ManagedResource, &Coverage)> = mrs
        .iter()
        .enumerate()
        .filter(|(i, mr)| !per_mr.contains_key(i) && mr.deletion_timestamp.is_none() && !tracked_ids(mr).is_empty())
        .filter(|(_, mr)| rules.get(&kind_of(mr)).is_some_and(KindRule::proven))
        .filter_map(|(_, mr)| Some((*mr, covered.get(&area(mr))?)))
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    let listed = listed(objects, rules);
    // The MR's ID as written, and as Azure compares it in case its object is Azure's.
    let is_listed = |id: &str| listed.contains(id) || listed.contains(&*Cloud::Azure.id_key(id));
    candidates
        .into_iter()
        .filter(|(mr, _)| !tracked_ids(mr).into_iter().any(is_listed))
        .map(|(mr, c)| (mr, c.clone()))
        .collect()
}

/// Every external-name any object of the exports could stand for: each ID in every form, as its
/// cloud compares it ([`Cloud::id_key`]), and what each learned ARN template writes for it, so an
/// object that lost its tags still counts as listed.
fn listed(objects: &[InventoryObject], rules: &HashMap<String, KindRule>) -> HashSet<String> {
    let templates: Vec<&KindRule> = rules.values().filter(|r| r.template.is_some()).collect();
    let mut out = HashSet::new();
    for o in objects {
        for v in IdForm::ALL.iter().filter_map(|f| f.apply(&o.id)) {
            out.insert(o.cloud.id_key(&v).into_owned());
        }
        for r in &templates {
            if let Prediction::Id(v) = r.predict(&o.id) {
                out.insert(v);
            }
        }
    }
    out
}
