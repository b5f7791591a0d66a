//! The lint of GitOps manifests (`doctor --from` over desired state): what only the whole set of
//! manifests shows each one — the cloud objects two manifests both act on (the shared-names
//! index a cluster's scan and the watch keep, `shared_names`), the format a kind's manifests
//! agree on (`identity::infer`, as a cluster's healthy peers teach it), and the references that
//! name no manifest of the set. These facts are the lint's evidence: `evidence::manifests::lint`
//! builds each manifest's `MrEvidence` from them and runs the rules that need no status
//! (`rules::desired_findings`).

use super::finding::{Code, Finding};
use super::identity::{Identity, Peers, Sample};
use super::managed::{ManagedResource, keys};
use super::rules::DesiredFacts;
use super::shared_names::{Holder, MrKey, SharedNames, SharedWith};
use std::collections::{BTreeMap, BTreeSet};

/// One reference a manifest makes to another MR (`spec.forProvider.vpcIdRef: {name: main}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Where it sits: `spec.forProvider.vpcIdRef`, `spec.forProvider.subnetIdRefs[1]`.
    pub field: String,
    /// The MR it names.
    pub name: String,
    /// The namespace it names (namespaced MRs only; absent: the manifest's own).
    pub namespace: Option<String>,
}

/// One managed resource's manifest, decoded, with its references.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The MR as the manifest declares it.
    pub mr: ManagedResource,
    /// Its references to other MRs.
    pub refs: Vec<Reference>,
    /// The annotations it carries that a provider writes ([`keys::WRITTEN_BY_PROVIDER`]).
    pub provider_annotations: Vec<String>,
}

/// The provider-written annotations among `keys` (a manifest's annotation keys), in
/// [`keys::WRITTEN_BY_PROVIDER`]'s order.
pub fn provider_annotations<'a>(keys: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let keys: BTreeSet<&str> = keys.into_iter().collect();
    keys::WRITTEN_BY_PROVIDER.iter().filter(|(k, _)| keys.contains(k)).map(|(k, _)| k.to_string()).collect()
}

/// What the lint says about one set of manifests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    /// The findings of each manifest, in the order given.
    pub findings: Vec<Vec<Finding>>,
    /// The codes it ran, in rule order.
    pub ran: Vec<Code>,
    /// The codes that need a cluster (status, events, logs, the cloud), in rule order.
    pub need_cluster: Vec<Code>,
}

/// What the whole set shows each manifest, in the order given: what the shared-names index says
/// of it (another manifest acting on its cloud object), and its desired-state facts (an
/// external-name off its kind's format, references to no manifest of the set).
pub fn facts(manifests: &[Manifest]) -> Vec<(SharedWith, DesiredFacts)> {
    let shared = SharedNames::of(manifests.iter().filter_map(|m| Holder::of(&m.mr)));
    let formats = off_formats(manifests);
    let defined: BTreeSet<(Option<&str>, &str)> =
        manifests.iter().map(|m| (m.mr.namespace.as_deref(), m.mr.name.as_str())).collect();
    manifests
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let dangling_refs = m
                .refs
                .iter()
                .filter(|r| !defined.contains(&(r.namespace.as_deref().or(m.mr.namespace.as_deref()), r.name.as_str())))
                .map(|r| format!("{} → {}", r.field, r.name))
                .collect();
            let desired = DesiredFacts {
                off_format: formats.get(&i).cloned(),
                dangling_refs,
                provider_annotations: m.provider_annotations.clone(),
            };
            (shared.about(&MrKey::of(&m.mr)), desired)
        })
        .collect()
}

/// For each manifest whose external-name the format its kind's manifests agree on does not give:
/// the template, and what it gives for that manifest.
fn off_formats(manifests: &[Manifest]) -> BTreeMap<usize, (String, String)> {
    let mut peers = Peers::default();
    for m in manifests {
        if let Some(sample) = Sample::of_desired(&m.mr) {
            peers.add(m.mr.group(), &m.mr.kind, sample);
        }
    }
    peers.learn();
    let mut out = BTreeMap::new();
    for (i, m) in manifests.iter().enumerate() {
        let Some(name) = m.mr.external_name() else { continue };
        let Some(Identity::Templates { agreed, .. }) = peers.identity_for(&m.mr) else { continue };
        let fields = super::identity::infer::fields_of(&m.mr);
        let value = |f: &super::identity::Field| fields.iter().find(|(k, _)| k == f).map(|(_, v)| v.as_str());
        let rendered: Vec<String> = agreed.iter().filter_map(|a| a.template.render(value).ok()).collect();
        if rendered.iter().any(|r| r == name) {
            continue;
        }
        if let (Some(best), Some(expected)) = (agreed.first(), rendered.first()) {
            out.insert(i, (best.template.to_string(), expected.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Mr;

    /// What the set shows each manifest: a shared external-name only between manifests that
    /// both act (a paused one acts on nothing), a legacy kind and its `.m.` twin as one kind; an
    /// external-name off the format nine others agree on; a reference to no manifest.
    #[test]
    fn the_set_shows_each_manifest_its_shared_names_formats_and_references() {
        let mut set = crate::testing::zones_one_off_format();
        set.extend([
            Mr::new("Vpc", "w").external_name("vpc-1").manifest(&[]),
            Mr::new("Vpc", "x").external_name("vpc-1").manifest(&[]),
            Mr::new("Vpc", "y").external_name("vpc-1").annotation("crossplane.io/paused", "true").manifest(&[]),
            Mr::new("Vpc", "w")
                .api_version("ec2.aws.m.upbound.io/v1beta1")
                .namespace("n")
                .external_name("vpc-2")
                .manifest(&[]),
            Mr::new("Vpc", "v").api_version("ec2.aws.upbound.io/v1beta1").external_name("vpc-2").manifest(&[]),
        ]);
        let facts = facts(&set);
        assert!(facts[..9].iter().all(|(s, d)| *s == SharedWith::default() && *d == DesiredFacts::default()));
        let (_, j) = &facts[9];
        assert_eq!(j.off_format.as_ref().map(|(_, want)| want.as_str()), Some("eu/j"));
        assert_eq!(j.dangling_refs, ["spec.forProvider.peerRef → zz"]);
        let fighting = |i: usize| facts[i].0.fighting.clone();
        assert_eq!(fighting(10), [Mr::new("Vpc", "x").build().reference()]);
        assert_eq!(fighting(11), [Mr::new("Vpc", "w").build().reference()]);
        assert!(fighting(12).is_empty(), "a paused manifest acts on nothing");
        assert_eq!(fighting(14), ["vpc.ec2.aws.m.upbound.io/w"], "a legacy kind and its twin hold one object");
    }
}
