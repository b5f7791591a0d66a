//! Which MR each tagged cloud object belongs to, whether that MR tracks it, and what its
//! external-name would be: the per-MR summaries the inventory rules read, plus the objects no MR
//! can be found for.

use super::id_form::{KindRule, Prediction, same, tracks};
use super::{CrossplaneTags, InventoryObject, normalize_kind};
use crate::domain::managed::ManagedResource;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What was scanned, so that an object of a kind that was not listed (or hidden by `-n` or a
/// label selector) is not reported as having lost its MR.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// Normalised `kind.group` of every kind listed ([`normalize_kind`]).
    pub kinds: HashSet<String>,
    /// Every kind counts as listed (a whole snapshot: no discovery says which kinds exist).
    pub all_kinds: bool,
    /// Whether every MR of those kinds was seen (no namespace or label filter, nothing skipped).
    pub complete: bool,
}

/// One cloud object tagged for an MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaggedObject {
    /// The cloud ID as exported.
    pub id: String,
    /// The inventory file it came from.
    pub source: Arc<str>,
    /// Whether the MR's external-name (or, without one, `status.atProvider.id`) is this object.
    pub tracked: bool,
    /// What the kind's peers say its external-name is.
    pub prediction: Prediction,
    /// Its `crossplane-providerconfig` tag.
    pub provider_config: Option<String>,
    /// Matched to a namespaced MR by kind and name alone: the object carries no
    /// `crossplane-namespace` (tagged before the provider wrote it, or by hand).
    pub without_namespace_tag: bool,
}

/// Everything the inventory says about one MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MrInventory {
    /// The objects tagged for it, in inventory order.
    pub objects: Vec<TaggedObject>,
    /// The kind's learned rule in words, or why there is none.
    pub rule: String,
}

/// Why an object names no MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unmatched {
    /// No MR of that kind, name (and namespace) exists: deleted while its cloud object survived.
    NoMr,
    /// No `crossplane-namespace` tag and that name exists in several namespaces.
    Undecided {
        /// The namespaces holding an MR of that kind and name.
        namespaces: Vec<String>,
    },
}

/// A tagged object no MR can be found for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnmatchedObject {
    /// The cloud ID.
    pub id: String,
    /// The inventory file.
    pub source: Arc<str>,
    /// Its crossplane tags.
    pub tags: CrossplaneTags,
    /// Why.
    pub why: Unmatched,
}

/// The result of a cross-check.
#[derive(Clone, Debug, Default)]
pub struct CrossCheck {
    /// Per MR, by [`mr_key`], only for MRs with tagged objects.
    pub per_mr: HashMap<String, MrInventory>,
    /// Objects of scanned kinds that no MR can be found for.
    pub unmatched: Vec<UnmatchedObject>,
    /// Objects carrying `crossplane-kind` and `crossplane-name`.
    pub tagged: usize,
    /// Tagged objects of kinds not scanned, or not checked because the scan was filtered.
    pub out_of_scope: usize,
}

/// The key an MR's inventory summary is stored under.
pub fn mr_key(mr: &ManagedResource) -> String {
    format!("{}/{}.{}/{}", mr.namespace.as_deref().unwrap_or(""), mr.kind, mr.group(), mr.name).to_lowercase()
}

/// Where an object points: one MR (its index, and whether the namespace was guessed) or why none.
enum Target {
    Mr(usize, bool),
    None(Unmatched),
}

/// Finds the MR an object's tags name. A `crossplane-namespace` tag must match exactly; without
/// one, a cluster-scoped MR wins, then a namespaced MR only when the name is unique across
/// namespaces.
fn target(tags: &CrossplaneTags, mrs: &[&ManagedResource], by_name: &HashMap<(String, &str), Vec<usize>>) -> Target {
    let (Some(kind), Some(name)) = (&tags.kind, &tags.name) else { return Target::None(Unmatched::NoMr) };
    let found = by_name.get(&(normalize_kind(kind), name.as_str())).map(Vec::as_slice).unwrap_or(&[]);
    if let Some(ns) = &tags.namespace {
        return match found.iter().find(|i| mrs[**i].namespace.as_deref() == Some(ns.as_str())) {
            Some(i) => Target::Mr(*i, false),
            None => Target::None(Unmatched::NoMr),
        };
    }
    if let Some(i) = found.iter().find(|i| mrs[**i].namespace.is_none()) {
        return Target::Mr(*i, false);
    }
    match found {
        [] => Target::None(Unmatched::NoMr),
        [one] => Target::Mr(*one, true),
        many => Target::None(Unmatched::Undecided {
            namespaces: many.iter().filter_map(|i| mrs[*i].namespace.clone()).collect(),
        }),
    }
}

/// A healthy peer: Ready and Synced, not being deleted, with an external-name.
fn healthy(mr: &ManagedResource) -> Option<&str> {
    let ok = mr.is_true("Ready") && mr.is_true("Synced") && mr.deletion_timestamp.is_none();
    mr.external_name().filter(|_| ok)
}

/// Matches every tagged object to its MR, learns each kind's ID rule from the healthy MRs
/// among them, and summarises per MR.
pub fn cross_check(objects: &[InventoryObject], mrs: &[&ManagedResource], scope: &Scope) -> CrossCheck {
    let mut by_name: HashMap<(String, &str), Vec<usize>> = HashMap::new();
    for (i, mr) in mrs.iter().enumerate() {
        by_name.entry((normalize_kind(&format!("{}.{}", mr.kind, mr.group())), mr.name.as_str())).or_default().push(i);
    }
    let mut out = CrossCheck::default();
    let mut per_mr: HashMap<usize, Vec<(&InventoryObject, bool)>> = HashMap::new();
    let mut unmatched_ids: HashSet<&str> = HashSet::new();
    for o in objects.iter().filter(|o| o.tags.names_an_mr()) {
        out.tagged += 1;
        match target(&o.tags, mrs, &by_name) {
            Target::Mr(i, guessed) => {
                // The same object listed twice (overlapping exports) is one object, not a duplicate.
                let list = per_mr.entry(i).or_default();
                if !list.iter().any(|(x, _)| same_object(x, o)) {
                    list.push((o, guessed));
                }
            }
            Target::None(why) => {
                let kind = normalize_kind(o.tags.kind.as_deref().unwrap_or_default());
                if !scope.complete || !(scope.all_kinds || scope.kinds.contains(&kind)) {
                    out.out_of_scope += 1;
                    continue;
                }
                if !unmatched_ids.insert(o.id.as_str()) {
                    continue;
                }
                out.unmatched.push(UnmatchedObject {
                    id: o.id.clone(),
                    source: o.source.clone(),
                    tags: o.tags.clone(),
                    why,
                });
            }
        }
    }
    let rules = learn(mrs, &per_mr);
    for (i, found) in per_mr {
        let mr = mrs[i];
        let rule = rules.get(&kind_of(mr));
        let tracked_id = mr.external_name().or(mr.at_provider_id.as_deref());
        let objects = found
            .into_iter()
            .map(|(o, guessed)| TaggedObject {
                id: o.id.clone(),
                source: o.source.clone(),
                tracked: tracked_id.is_some_and(|t| tracks(t, &o.id, o.cloud)),
                prediction: rule.map_or(Prediction::Unproven, |r| r.predict(&o.id)),
                provider_config: o.tags.provider_config.clone(),
                without_namespace_tag: guessed,
            })
            .collect();
        let rule = rule
            .map_or_else(|| "no healthy MR of this kind is tagged in the inventory".to_string(), KindRule::describe);
        out.per_mr.insert(mr_key(mr), MrInventory { objects, rule });
    }
    out
}

fn kind_of(mr: &ManagedResource) -> String {
    normalize_kind(&format!("{}.{}", mr.kind, mr.group()))
}

/// Each kind's rule, from its healthy MRs that have tagged objects.
fn learn(
    mrs: &[&ManagedResource],
    per_mr: &HashMap<usize, Vec<(&InventoryObject, bool)>>,
) -> HashMap<String, KindRule> {
    let mut peers: HashMap<String, Vec<(&str, Vec<(&str, super::Cloud)>)>> = HashMap::new();
    for (i, found) in per_mr {
        if let Some(external_name) = healthy(mrs[*i]) {
            let ids = found.iter().map(|(o, _)| (o.id.as_str(), o.cloud)).collect();
            peers.entry(kind_of(mrs[*i])).or_default().push((external_name, ids));
        }
    }
    peers.into_iter().map(|(kind, p)| (kind, KindRule::learn(p))).collect()
}

/// Whether two listed objects are the same cloud object.
fn same_object(a: &InventoryObject, b: &InventoryObject) -> bool {
    a.cloud == b.cloud && same(&a.id, &b.id, a.cloud)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::inventory::Cloud;
    use crate::domain::testing::Mr;

    const G: &str = "ec2.aws.upbound.io/v1beta1";
    const GM: &str = "ec2.aws.m.upbound.io/v1beta1";

    fn vpc(name: &str) -> Mr {
        Mr::new("VPC", name).api_version(G)
    }

    fn o(id: &str, kind: &str, name: &str, ns: Option<&str>) -> InventoryObject {
        let mut tags = CrossplaneTags::default();
        tags.set("crossplane-kind", kind);
        tags.set("crossplane-name", name);
        tags.set("crossplane-namespace", ns.unwrap_or_default());
        InventoryObject { id: id.into(), cloud: Cloud::Aws, tags, source: "inv.json".into() }
    }

    fn arn(id: &str) -> String {
        format!("arn:aws:ec2:eu-west-1:1:vpc/{id}")
    }

    fn run(mrs: &[Mr], objects: &[InventoryObject]) -> CrossCheck {
        let built: Vec<ManagedResource> = mrs.iter().map(Mr::build).collect();
        let refs: Vec<&ManagedResource> = built.iter().collect();
        cross_check(objects, &refs, &Scope { kinds: HashSet::new(), all_kinds: true, complete: true })
    }

    /// (case, MRs, objects, per MR key: (tracked flags, predicted external-name of the first), unmatched)
    type Case = (
        &'static str,
        fn() -> Vec<Mr>,
        fn() -> Vec<InventoryObject>,
        &'static [(&'static str, &'static [bool], Option<&'static str>)],
        usize,
    );

    const CASES: &[Case] = &[
        (
            "a healthy peer teaches the last segment; the lost MR gets its ID",
            || vec![vpc("a").external_name("vpc-a").healthy(), vpc("b")],
            || {
                vec![
                    o(&arn("vpc-a"), "vpc.ec2.aws.upbound.io", "a", None),
                    o(&arn("vpc-b"), "vpc.ec2.aws.upbound.io", "b", None),
                ]
            },
            &[
                ("/vpc.ec2.aws.upbound.io/a", &[true], Some("vpc-a")),
                ("/vpc.ec2.aws.upbound.io/b", &[false], Some("vpc-b")),
            ],
            0,
        ),
        (
            "no peer: nothing predicted",
            || vec![vpc("b")],
            || vec![o(&arn("vpc-b"), "vpc.ec2.aws.upbound.io", "b", None)],
            &[("/vpc.ec2.aws.upbound.io/b", &[false], None)],
            0,
        ),
        (
            "a duplicate, the same object listed twice counts once",
            || vec![vpc("a").external_name("vpc-a").healthy()],
            || {
                vec![
                    o(&arn("vpc-a"), "vpc.ec2.aws.upbound.io", "a", None),
                    o(&arn("vpc-z"), "vpc.ec2.aws.upbound.io", "a", None),
                    o(&arn("vpc-z"), "vpc.ec2.aws.upbound.io", "a", None),
                ]
            },
            &[("/vpc.ec2.aws.upbound.io/a", &[true, false], Some("vpc-a"))],
            0,
        ),
        ("deleted MR", || vec![vpc("a")], || vec![o(&arn("vpc-x"), "vpc.ec2.aws.upbound.io", "gone", None)], &[], 1),
        (
            "namespace tag decides between namespaces",
            || vec![vpc("v").api_version(GM).namespace("a"), vpc("v").api_version(GM).namespace("b")],
            || vec![o(&arn("vpc-1"), "vpc.ec2.aws.m.upbound.io", "v", Some("b"))],
            &[("b/vpc.ec2.aws.m.upbound.io/v", &[false], None)],
            0,
        ),
        (
            "no namespace tag, name in two namespaces: undecided",
            || vec![vpc("v").api_version(GM).namespace("a"), vpc("v").api_version(GM).namespace("b")],
            || vec![o(&arn("vpc-1"), "vpc.ec2.aws.m.upbound.io", "v", None)],
            &[],
            1,
        ),
        (
            "no namespace tag, name unique: matched (tagged before the provider wrote it)",
            || vec![vpc("v").api_version(GM).namespace("a")],
            || vec![o(&arn("vpc-1"), "vpc.ec2.aws.m.upbound.io", "v", None)],
            &[("a/vpc.ec2.aws.m.upbound.io/v", &[false], None)],
            0,
        ),
        (
            "GCP-style kind with underscores matches",
            || vec![vpc("a")],
            || vec![o(&arn("vpc-1"), "vpc_ec2_aws_upbound_io", "a", None)],
            &[("/vpc.ec2.aws.upbound.io/a", &[false], None)],
            0,
        ),
        (
            "atProvider.id counts as tracked without an external-name",
            || vec![vpc("a").at_provider_id("vpc-1")],
            || vec![o(&arn("vpc-1"), "vpc.ec2.aws.upbound.io", "a", None)],
            &[("/vpc.ec2.aws.upbound.io/a", &[true], None)],
            0,
        ),
    ];

    #[test]
    fn table() {
        for (name, mrs, objects, want, unmatched) in CASES {
            let got = run(&mrs(), &objects());
            assert_eq!(got.unmatched.len(), *unmatched, "{name}");
            assert_eq!(got.per_mr.len(), want.len(), "{name}: {:?}", got.per_mr.keys());
            for (key, tracked, predicted) in *want {
                let inv = got.per_mr.get(*key).unwrap_or_else(|| panic!("{name}: no {key} in {:?}", got.per_mr.keys()));
                let flags: Vec<bool> = inv.objects.iter().map(|o| o.tracked).collect();
                assert_eq!(&flags, tracked, "{name}");
                let first = match &inv.objects[0].prediction {
                    Prediction::Id(id) => Some(id.as_str()),
                    _ => None,
                };
                assert_eq!(first, *predicted, "{name}: {}", inv.rule);
            }
        }
    }

    #[test]
    fn objects_of_kinds_not_scanned_are_not_reported() {
        let built = vpc("a").build();
        let objects = [o(&arn("vpc-x"), "bucket.s3.aws.upbound.io", "gone", None)];
        for scope in [
            Scope { kinds: HashSet::from(["vpc.ec2.aws.upbound.io".to_string()]), all_kinds: false, complete: true },
            Scope { kinds: HashSet::new(), all_kinds: true, complete: false },
        ] {
            let got = cross_check(&objects, &[&built], &scope);
            assert_eq!((got.unmatched.len(), got.out_of_scope), (0, 1), "{scope:?}");
        }
    }
}
