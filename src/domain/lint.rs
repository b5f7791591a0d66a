//! The lint of GitOps manifests (`doctor --from` over desired state): each manifest judged by the
//! rules that need no status (`rules::desired_findings`), with what only the whole set of
//! manifests shows handed to it first — the external-names two manifests of a kind share, the
//! format a kind's manifests agree on (`identity::infer`, as a cluster's healthy peers teach
//! it), and the references that name no manifest of the set.

use super::finding::{Code, Finding};
use super::gotime::GoTime;
use super::identity::{Identity, Peers, Sample};
use super::managed::ManagedResource;
use super::reconcile_timeout::JudgedAt;
use super::rules::{self, DesiredFacts, Facts, MrEvidence};
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

/// Judges every manifest, judged at `now` (the rules about time find nothing without status, so
/// no reconcile timeout matters: upjet's is assumed).
pub fn lint(manifests: &[Manifest], now: GoTime) -> Lint {
    let at = JudgedAt::upjet(now);
    let shared = shared_external_names(manifests);
    let formats = off_formats(manifests);
    let defined: BTreeSet<(Option<&str>, &str)> =
        manifests.iter().map(|m| (m.mr.namespace.as_deref(), m.mr.name.as_str())).collect();
    let findings = manifests
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let dangling_refs = m
                .refs
                .iter()
                .filter(|r| !defined.contains(&(r.namespace.as_deref().or(m.mr.namespace.as_deref()), r.name.as_str())))
                .map(|r| format!("{} → {}", r.field, r.name))
                .collect();
            let evidence = MrEvidence {
                shared_external_name: shared.get(&i).cloned().unwrap_or_default(),
                desired: Some(DesiredFacts { off_format: formats.get(&i).cloned(), dangling_refs }),
                ..MrEvidence::default()
            };
            rules::desired_findings(&Facts::with_evidence(&m.mr, Some(&evidence), at))
        })
        .collect();
    let (ran, need_cluster) = rules::lint_codes();
    Lint { findings, ran, need_cluster }
}

/// For each manifest whose external-name another manifest of its kind (and namespace scope)
/// holds too, the others as `kind.group/name`.
fn shared_external_names(manifests: &[Manifest]) -> BTreeMap<usize, Vec<String>> {
    let mut holders: BTreeMap<(&str, &str, &str), Vec<usize>> = BTreeMap::new();
    for (i, m) in manifests.iter().enumerate() {
        if let Some(name) = m.mr.external_name() {
            holders.entry((m.mr.group(), m.mr.kind.as_str(), name)).or_default().push(i);
        }
    }
    let mut out = BTreeMap::new();
    for held in holders.values().filter(|h| h.len() > 1) {
        for &i in held {
            let others = held.iter().filter(|&&j| j != i).map(|&j| manifests[j].mr.reference()).collect();
            out.insert(i, others);
        }
    }
    out
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
    use crate::domain::testing::Mr;

    fn manifest(mr: Mr, refs: &[(&str, &str)]) -> Manifest {
        let refs = refs
            .iter()
            .map(|(f, n)| Reference { field: f.to_string(), name: n.to_string(), namespace: None })
            .collect();
        Manifest { mr: mr.no_status().build(), refs }
    }

    fn codes(lint: &Lint) -> Vec<Vec<&str>> {
        lint.findings.iter().map(|fs| fs.iter().map(|f| f.code.as_str()).collect()).collect()
    }

    #[test]
    fn judges_each_manifest_with_what_the_set_shows() {
        let zone = |name: &str, id: &str| {
            Mr::new("Zone", name).param("region", "eu").external_name(id).policies(&["*"]).no_status()
        };
        // Nine manifests agree on `{forProvider.region}/{name}`: a supermajority (90%) of ten.
        let mut set: Vec<Manifest> =
            "abcdefghi".chars().map(|c| manifest(zone(&c.to_string(), &format!("eu/{c}")), &[])).collect();
        set.extend([
            manifest(zone("j", "us/typo"), &[("spec.forProvider.parentRef", "a"), ("spec.forProvider.peerRef", "zz")]),
            manifest(Mr::new("Vpc", "v").policies(&["Observe"]), &[]),
            manifest(
                Mr::new("Vpc", "w").policies(&["Observe", "Create", "Update", "Delete"]).external_name("vpc-1"),
                &[],
            ),
            manifest(Mr::new("Vpc", "x").external_name("vpc-1"), &[]),
        ]);
        let lint = lint(&set, GoTime::parse_rfc3339("2024-11-30T12:00:00Z").unwrap());
        assert!(codes(&lint)[..9].iter().all(Vec::is_empty), "{:?}", codes(&lint));
        assert_eq!(
            codes(&lint)[9..],
            [
                vec!["ExternalNameOffFormat", "ReferenceOutsideManifests"],
                vec!["ObserveOnlyWithoutExternalName"],
                vec!["LateInitializeMissing", "ExternalNameShared"],
                vec!["ExternalNameShared"],
            ]
        );
        assert_eq!(lint.findings[9][0].suggested_id.as_deref(), Some("eu/j"));
        assert!(lint.findings[9][1].message.contains("spec.forProvider.peerRef → zz"), "{:?}", lint.findings[9][1]);
        assert!(lint.ran.contains(&Code::LateInitializeMissing) && !lint.ran.contains(&Code::CreateIncomplete));
        assert!(lint.need_cluster.contains(&Code::CreateIncomplete));
        assert_eq!(lint.ran.len() + lint.need_cluster.len(), Code::ALL.len());
    }
}
