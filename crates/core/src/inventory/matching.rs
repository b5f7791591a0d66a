//! Which MR each tagged cloud object belongs to, whether that MR tracks it, and what its
//! external-name would be: the per-MR summaries the inventory rules read, plus the objects no MR
//! can be found for.

use super::id_form::{IdForm, KindRule, Prediction, same, tracks};
use super::{CrossplaneTags, InventoryObject, healthy, kind_of, normalize_kind};
use crate::identity::{self, Peers, UserTemplate, predict};
use crate::managed::{ManagedResource, ProviderConfigKey};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What was scanned, so that an object of a kind that was not listed (or hidden by `-n` or a
/// label selector) is not reported as having lost its MR, and what names each kind.
#[derive(Clone, Debug, Default)]
pub struct ScanCoverage {
    /// Every kind listed, as served, by its normalised `kind.group` ([`normalize_kind`]): what a
    /// `crossplane-kind` tag resolves to ([`ScanCoverage::of_kinds`] builds it).
    pub kinds: HashMap<String, ServedKind>,
    /// Every kind counts as listed (a whole snapshot: no discovery says which kinds exist).
    pub all_kinds: bool,
    /// Whether every MR of those kinds was seen (no namespace or label filter, nothing skipped).
    pub complete: bool,
    /// The export files cut short (a paging token at their end): their missing pages may hold
    /// any object, so no object is said to be gone because of them.
    pub truncated: Vec<Arc<str>>,
}

impl ScanCoverage {
    /// The kinds map of a scope: each kind under its normalised `kind.group`, the first one given
    /// kept when two name the same (MRs of one kind read at two versions).
    pub fn of_kinds(kinds: impl IntoIterator<Item = ServedKind>) -> HashMap<String, ServedKind> {
        let mut out = HashMap::new();
        for k in kinds {
            out.entry(k.key()).or_insert(k);
        }
        out
    }
}

/// A kind as the API serves it (discovery, a CRD, an MR read at its version). A `crossplane-kind`
/// tag is `<kind>.<group>` lower-cased (crossplane-runtime `GetExternalTags`): the kind's case and
/// its version are only known from what the run read about the kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServedKind {
    /// The kind, as the CRD names it (`Queue`).
    pub kind: String,
    /// The API group (`sqs.aws.upbound.io`).
    pub group: String,
    /// A version it is served at (`v1beta1`).
    pub version: String,
}

impl ServedKind {
    /// The kind of an MR, at the version it was read.
    pub fn of(mr: &ManagedResource) -> ServedKind {
        let version = mr.api_version.rsplit_once('/').map_or(mr.api_version.as_str(), |(_, v)| v);
        ServedKind { kind: mr.kind.clone(), group: mr.group().to_string(), version: version.to_string() }
    }

    /// `group/version`.
    pub fn api_version(&self) -> String {
        format!("{}/{}", self.group, self.version)
    }

    /// The key it is found under: the normalised `kind.group` a tag is compared in.
    pub fn key(&self) -> String {
        normalize_kind(&format!("{}.{}", self.kind, self.group))
    }
}

/// Whether an MR tracks a tagged object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tracking {
    /// Its external-name, `status.atProvider.id` or `status.atProvider.arn` is this object.
    Tracked,
    /// It tracks nothing, or provably another object: its own ARN is another, or the kind's
    /// learned rule reads another external-name out of this object's ID.
    Untracked,
    /// It tracks an ID no form and no learned rule ties to this ID: whether they are one object
    /// cannot be told from the ID's shape, so nothing is claimed.
    Unknown,
}

/// One cloud object tagged for an MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaggedObject {
    /// The cloud ID as exported.
    pub id: String,
    /// The inventory file it came from.
    pub source: Arc<str>,
    /// Whether the MR tracks this object.
    pub tracking: Tracking,
    /// What the kind's peers say its external-name is.
    pub prediction: Prediction,
    /// Its `crossplane-providerconfig` (and `-kind`, `crossplane-namespace`) tags as a key.
    pub provider_config: Option<ProviderConfigKey>,
    /// Matched to a namespaced MR by kind and name alone: the object carries no
    /// `crossplane-namespace` (tagged before the provider wrote it, or by hand).
    pub without_namespace_tag: bool,
}

impl TaggedObject {
    /// Every external-name the object's ID may read as: each form of it, and the kind's
    /// prediction. What the ID is named, as far as the ID tells.
    pub fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = IdForm::ALL.iter().filter_map(|f| f.apply(&self.id)).collect();
        if let Prediction::Id(id) = &self.prediction {
            out.push(id.clone());
        }
        out
    }
}

/// Everything the inventory says about one MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MrInventory {
    /// The objects tagged for it, in inventory order.
    pub objects: Vec<TaggedObject>,
    /// The kind's learned rule in words, or why there is none.
    pub rule: String,
    /// No object is tagged for the MR, its ID is nowhere in the export, and a complete export
    /// covers its kind, provider config and region: the object seems gone.
    pub gone: Option<super::gone::Coverage>,
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
    /// The kind its `crossplane-kind` names, as served; `None` when nothing the run read (no
    /// discovery, CRD or MR) names that kind, so its case and version are unknown.
    pub served: Option<ServedKind>,
    /// The external-name an MR adopting it would need, when the kind's ID rule gives one.
    pub external_name: Option<String>,
    /// The rule that gave it, in words, or why none did.
    pub rule: String,
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
    /// The export files cut short ([`ScanCoverage::truncated`]), for the report to name.
    pub truncated: Vec<Arc<str>>,
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

/// Matches every tagged object to its MR, learns each kind's ID rule from the healthy MRs
/// among them, and summarises per MR.
pub fn cross_check(objects: &[InventoryObject], mrs: &[&ManagedResource], scope: &ScanCoverage) -> CrossCheck {
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
                if !scope.complete || !(scope.all_kinds || scope.kinds.contains_key(&kind)) {
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
                    served: scope.kinds.get(&kind).cloned(),
                    external_name: None,
                    rule: String::new(),
                });
            }
        }
    }
    let rules = learn(mrs, &per_mr);
    for o in &mut out.unmatched {
        name_unmatched(o, rules.get(&normalize_kind(o.tags.kind.as_deref().unwrap_or_default())));
    }
    for (mr, coverage) in super::gone::gone(objects, mrs, &per_mr, &rules, &scope.truncated) {
        let rule = rules.get(&kind_of(mr)).map_or_else(String::new, KindRule::describe);
        out.per_mr.insert(mr_key(mr), MrInventory { objects: Vec::new(), rule, gone: Some(coverage) });
    }
    for (i, found) in per_mr {
        let mr = mrs[i];
        let rule = rules.get(&kind_of(mr));
        let objects = found
            .into_iter()
            .map(|(o, guessed)| {
                let prediction = rule.map_or(Prediction::Unproven, |r| r.predict(&o.id));
                TaggedObject {
                    id: o.id.clone(),
                    source: o.source.clone(),
                    tracking: tracking(mr, o, &prediction),
                    prediction,
                    provider_config: o.tags.provider_config_key(),
                    without_namespace_tag: guessed,
                }
            })
            .collect();
        let rule = rule
            .map_or_else(|| "no healthy MR of this kind is tagged in the inventory".to_string(), KindRule::describe);
        out.per_mr.insert(mr_key(mr), MrInventory { objects, rule, gone: None });
    }
    out.truncated = scope.truncated.clone();
    out
}

/// What the kind's rule (learned from its healthy tagged peers) says an object without an MR
/// would be adopted as.
fn name_unmatched(o: &mut UnmatchedObject, rule: Option<&KindRule>) {
    let Some(rule) = rule else {
        o.rule = "no healthy MR of this kind is tagged in the inventory".into();
        return;
    };
    o.rule = rule.describe();
    match rule.predict(&o.id) {
        Prediction::Id(id) => o.external_name = Some(id),
        Prediction::Ambiguous(all) => o.rule.push_str(&format!("; ambiguous here: {}", all.join(", "))),
        Prediction::Unproven => {}
    }
}

/// Names the objects without an MR that the inventory's own rule left unnamed by the kind's
/// identity format instead (a `--id-template`, or the template its healthy peers agree on,
/// `domain::identity`): applied to what the tags tell of the MR — its name, namespace and
/// provider config — so a format of `forProvider` fields cannot be applied, and says so. Only a
/// served kind is named: an unresolved tag does not say the kind's case.
pub fn name_by_identity(objects: &mut [UnmatchedObject], peers: &Peers, users: &[UserTemplate]) {
    for o in objects.iter_mut().filter(|o| o.external_name.is_none() && o.why == Unmatched::NoMr) {
        let Some(served) = &o.served else { continue };
        let stub = ManagedResource {
            api_version: served.api_version(),
            kind: served.kind.clone(),
            name: o.tags.name.clone().unwrap_or_default(),
            namespace: o.tags.namespace.clone(),
            provider_config: o.tags.provider_config_key(),
            ..ManagedResource::default()
        };
        match predict(&stub, peers, users) {
            identity::Prediction::Predicted(c) => {
                o.external_name = Some(c.id);
                o.rule = format!("{} ({}, {} confidence)", c.evidence, c.source, c.confidence);
            }
            identity::Prediction::None(why) => o.rule = format!("{}; {why}", o.rule),
        }
    }
}

/// Whether `mr` tracks `o`, given what the kind's rule reads out of `o`'s ID. Only a proof makes
/// an object untracked: the MR tracks nothing, its own ARN is another object, or the learned
/// rule gives another external-name; an ID whose shape no form relates is [`Tracking::Unknown`].
fn tracking(mr: &ManagedResource, o: &InventoryObject, prediction: &Prediction) -> Tracking {
    let arn = mr.at_provider_arn.as_deref().filter(|_| o.cloud == super::Cloud::Aws);
    if arn == Some(o.id.as_str()) {
        return Tracking::Tracked;
    }
    let ids: Vec<&str> = mr.external_name().into_iter().chain(mr.at_provider_id.as_deref()).collect();
    let predicted = match prediction {
        Prediction::Id(p) => Some(p.as_str()),
        _ => None,
    };
    if ids.iter().any(|t| tracks(t, &o.id, o.cloud) || predicted.is_some_and(|p| same(p, t, o.cloud))) {
        return Tracking::Tracked;
    }
    if ids.is_empty() || arn.is_some() || predicted.is_some() { Tracking::Untracked } else { Tracking::Unknown }
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
#[path = "matching_tests.rs"]
mod tests;
