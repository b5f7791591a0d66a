//! What the composition tree says about one MR ([`MrComposition`]), computed from the run's
//! XRs and claims, the fleet's composed MRs and the earlier identities ([`Composition`]).
//!
//! The links follow the composite reconciler (crossplane
//! `internal/controller/apiextensions/composite/composition_functions.go`): an XR observes its
//! composed resources through its resource references only, and treats one whose controller
//! reference names another UID as absent (`ObserveComposedResources`); it garbage-collects what
//! its functions no longer desire before it records its references anew, and applies the rest
//! as its own field manager with `ForceOwnership`.

use super::XrKey;
use super::composite::{Composite, Role};
use super::earlier::{Earlier, Source};
use super::index::Composites;
use super::members::{Member, Members, slot_of};
use crate::composed::keys::RESOURCE_NAME;
use crate::composed::{IdentityField, composed_field_owner};
use crate::journal::Record;
use crate::managed::ManagedResource;
use crate::shared_names::MrKey;
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

/// What became of an MR's controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XrLink {
    /// The XR it names lives, with that UID.
    Live,
    /// An XR of its kind and name lives, with another UID: deleted and created again since.
    Recreated,
    /// No XR of its kind and name exists, and its kind was read in full.
    Gone,
    /// Its kind was not read (unknown, or its list failed): nothing is said.
    Unknown,
    /// It has no controller reference (a restore or an orphaning delete stripped it).
    Uncontrolled,
}

/// The live XR an MR's controller reference (or an XR listing it) leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XrView {
    /// Its key.
    pub key: XrKey,
    /// Its UID.
    pub uid: String,
    /// Its deletion timestamp.
    pub deleting: Option<String>,
    /// Whether `crossplane.io/paused` stops its compose.
    pub paused: bool,
}

impl XrView {
    fn of(x: &Composite) -> XrView {
        XrView { key: XrKey::of(x), uid: x.uid.clone(), deleting: x.deleting.clone(), paused: x.paused }
    }
}

/// A v1 claim, as the MR's labels name it and its XR's `spec.claimRef` completes it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimRef {
    /// `group/version`, when its XR was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// Kind, when its XR was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
}

/// An identity an earlier MR held in this MR's slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predecessor {
    /// Where it was found.
    pub source: Source,
    /// The earlier MR.
    pub mr: MrKey,
    /// The ID it held.
    pub id: String,
    /// When the record was made (journal).
    pub time: Option<String>,
    /// Whether its resource name is known to be this MR's (otherwise matched by name).
    pub exact: bool,
}

/// What the composition tree says about one MR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MrComposition {
    /// Its `crossplane.io/composition-resource-name`.
    pub resource: Option<String>,
    /// Its `crossplane.io/composite` label (gone once the XR garbage-collects it).
    pub label: Option<String>,
    /// Its XR's key: its controller's, or the XR's that lists it.
    pub xr_key: Option<XrKey>,
    /// What became of its controller.
    pub link: Option<XrLink>,
    /// The live XR of that key.
    pub xr: Option<XrView>,
    /// Whether that XR, when it is the MR's own controller, lists it in its resource references.
    pub listed: Option<bool>,
    /// Its v1 claim.
    pub claim: Option<ClaimRef>,
    /// The identity fields the composite reconciler's field manager owns.
    pub composite_fields: Vec<IdentityField>,
    /// The XR whose field manager that is, when its digest names a known XR.
    pub manager_xr: Option<XrKey>,
    /// The other live MRs in its slot under the same controller.
    pub duplicates: Vec<MrKey>,
    /// What earlier MRs in its slot held (asked only for an MR without an ID).
    pub predecessors: Vec<Predecessor>,
}

/// The composition evidence of one run.
#[derive(Debug, Default)]
pub struct Composition {
    /// The XRs and claims.
    pub index: Composites,
    /// The composed MRs of the fleet (empty while the scan runs: an MR judged at once).
    pub members: Members,
    /// The identities earlier MRs held.
    pub earlier: Earlier,
    /// Every XR by the name of its field manager, built the first time a manager does not name
    /// the MR's own controller.
    managers: OnceLock<HashMap<String, XrKey>>,
}

impl Composition {
    /// The evidence of `index` alone: what an MR judged as it is scanned gets.
    pub fn of(index: Composites) -> Composition {
        Composition { index, ..Composition::default() }
    }

    /// The evidence of a whole run: `index`, the fleet's composed MRs (`members`), and the
    /// identities the ID journal (`journal`) and the guard's lock (`lock`: each MR key with the
    /// IDs its shards hold) keep of MRs no longer live.
    pub fn of_run(
        index: Composites,
        members: Vec<Member>,
        journal: &[Record],
        lock: impl IntoIterator<Item = (MrKey, Vec<String>)>,
    ) -> Composition {
        let live: BTreeSet<MrKey> = members.iter().map(Member::key).collect();
        let members = Members::of(members);
        let earlier = Earlier::from_journal(journal, &members).with_lock(lock, |k| live.contains(k));
        Composition::of(index).with_fleet(members, earlier)
    }

    /// This evidence with the fleet's members and the earlier identities.
    pub(crate) fn with_fleet(self, members: Members, earlier: Earlier) -> Composition {
        Composition { members, earlier, ..self }
    }

    /// What the tree says about `mr`; `None` for an MR outside any composition.
    pub fn about(&self, mr: &ManagedResource) -> Option<MrComposition> {
        let composed = mr.composed.as_deref()?;
        let resource = mr.annotation(RESOURCE_NAME).filter(|r| !r.is_empty()).map(str::to_owned);
        let signed = resource.is_some() || mr.composite.is_some();
        let mut facts = MrComposition { resource, label: mr.composite.clone(), ..MrComposition::default() };
        let tuple = (mr.group(), mr.kind.as_str(), mr.namespace.as_deref(), mr.name.as_str());
        let xr = match &composed.controller {
            Some(c) => {
                let known = self.index.kind(c.group(), &c.kind);
                if !signed && known.is_none_or(|k| k.role != Role::Xr) {
                    return None;
                }
                let key = self.index.key_of(c.group(), &c.kind, &c.name, mr.namespace.as_deref());
                let (link, xr) = match (self.index.by_uid(&c.uid), self.index.by_key(&key)) {
                    (Some(x), _) => (XrLink::Live, Some(x)),
                    (None, Some(x)) => (XrLink::Recreated, Some(x)),
                    (None, None) if known.is_some_and(|k| k.listed) => (XrLink::Gone, None),
                    (None, None) => (XrLink::Unknown, None),
                };
                facts.listed =
                    (link == XrLink::Live).then(|| xr.is_some_and(|x| x.lists(tuple.0, tuple.1, tuple.2, tuple.3)));
                (facts.xr_key, facts.link) = (Some(key), Some(link));
                xr
            }
            None => {
                let lister = self.index.listing(mr.composite.as_deref(), tuple);
                facts.link = Some(XrLink::Uncontrolled);
                facts.listed = lister.map(|_| true).or((self.index.all_listed() && signed).then_some(false));
                facts.xr_key = lister.map(XrKey::of);
                lister
            }
        };
        facts.xr = xr.map(XrView::of);
        facts.claim = composed.claim.as_ref().map(|l| {
            let bound = xr.and_then(|x| self.index.claim_of_xr(x)).filter(|c| c.name == l.name);
            ClaimRef {
                api_version: bound.map(|c| c.api_version.clone()),
                kind: bound.map(|c| c.kind.clone()),
                namespace: l.namespace.clone(),
                name: l.name.clone(),
            }
        });
        facts.composite_fields = composed.owners.composite_fields();
        if let Some(owner) = composed.owners.composite() {
            facts.manager_xr = self.manager(&owner.manager, facts.xr_key.as_ref());
        }
        facts.duplicates = self.members.duplicates(mr).iter().map(|m| m.key()).collect();
        if mr.external_name().is_none() && mr.deletion_timestamp.is_none() {
            facts.predecessors = self.predecessors(mr);
        }
        Some(facts)
    }

    /// The XR a composed field manager belongs to: `mine` when the digest is its, else any known
    /// XR's.
    fn manager(&self, manager: &str, mine: Option<&XrKey>) -> Option<XrKey> {
        let of = |k: &XrKey| composed_field_owner(&k.name, &k.kind, &k.group);
        if let Some(k) = mine.filter(|k| of(k) == manager) {
            return Some(k.clone());
        }
        let all = self.managers.get_or_init(|| self.index.xrs().map(|x| (of(&XrKey::of(x)), XrKey::of(x))).collect());
        all.get(manager).cloned()
    }

    /// The identities earlier MRs held in `mr`'s slot: live ones under another controller, the
    /// journal's, and, matched by name when nothing else is, one the journal or the lock keeps.
    fn predecessors(&self, mr: &ManagedResource) -> Vec<Predecessor> {
        let mut out: Vec<Predecessor> = self
            .members
            .earlier(mr)
            .into_iter()
            .filter_map(|m| {
                let id = m.id()?.to_string();
                Some(Predecessor { source: Source::Live, mr: m.key(), id, time: None, exact: true })
            })
            .collect();
        if let Some(slot) = slot_of(mr) {
            for e in self.earlier.in_slot(slot).iter().filter(|e| e.uid.as_deref() != Some(mr.uid.as_str())) {
                let (source, mr, id, time) = (e.source, e.mr.clone(), e.id.clone(), e.time.clone());
                out.push(Predecessor { source, mr, id, time, exact: true });
            }
        }
        if out.is_empty()
            && let Some(prefix) = mr.composite.as_deref()
            && let Some(e) = self.earlier.by_name(mr.group(), &mr.kind, mr.namespace.as_deref(), prefix)
            && e.mr.name != mr.name
            && self.members.bare_like(mr.group(), &mr.kind, mr.namespace.as_deref(), &format!("{prefix}-")) == 1
        {
            out.push(Predecessor {
                source: e.source,
                mr: e.mr.clone(),
                id: e.id.clone(),
                time: e.time.clone(),
                exact: false,
            });
        }
        out
    }

    /// The MRs what the whole fleet tells changes the judgement of: duplicates, and MRs without
    /// an ID whose slot an earlier MR held with one (live, or in the journal or the lock).
    pub fn involved(&self) -> BTreeSet<MrKey> {
        let mut out = self.members.involved();
        if !self.earlier.is_empty() {
            out.extend(self.members.bare_with(|slot, key| {
                let prefix = key.name.rsplit_once('-').map_or(key.name.as_str(), |(p, _)| p);
                !self.earlier.in_slot(slot).is_empty()
                    || self.earlier.by_name(&key.group, &key.kind, key.namespace.as_deref(), prefix).is_some()
            }));
        }
        out
    }
}
