//! One cloud object held by several MRs, seen over the whole fleet: the one computation behind
//! `ExternalNameShared` (a fight: two MRs that both act on one object) and `MigrationUnfinished`
//! (a legacy MR parked beside its healthy namespaced twin). The watch keeps this index up to
//! date event by event; doctor fills it from every MR it scanned, then judges the MRs it names.
//!
//! One cloud object is one kind and one external-name, where a legacy kind and its namespaced
//! `.m.` twin count as one kind (`ec2.aws.upbound.io` and `ec2.aws.m.upbound.io` serve the same
//! Terraform resource; crossplane's v2 upgrade guide moves an MR between them by its external-name).

use super::managed::legacy_group;
use super::managed::{ManagedResource, keys};
use super::policies::{ManagementPolicies, Policies};
use super::shell::ShellCommand;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// Which MR: kind, namespace (`None` when cluster-scoped) and name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MrKey {
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Namespace of a namespaced MR.
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
}

impl MrKey {
    /// The key of an MR.
    pub fn of(mr: &ManagedResource) -> MrKey {
        MrKey {
            group: mr.group().to_string(),
            kind: mr.kind.clone(),
            namespace: mr.namespace.clone(),
            name: mr.name.clone(),
        }
    }

    /// `kind.group/name`, as every command of this tool accepts it.
    pub fn reference(&self) -> String {
        format!("{}.{}/{}", self.kind.to_lowercase(), self.group, self.name)
    }

    /// `kubectl upjet SUBCOMMAND kind.group/name [-n ns]`, each word quoted as it needs.
    pub fn upjet_command(&self, subcommand: &'static str) -> ShellCommand {
        ShellCommand::upjet(subcommand).target(self.reference(), self.namespace.as_deref())
    }

    /// `kind.group/name`, with ` -n NS` for a namespaced MR: enough to find it.
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} -n {ns}", self.reference()),
            None => self.reference(),
        }
    }
}

/// One cloud object: the kind (legacy group, kind) and the external-name.
pub(crate) type Slot = (String, String, String);

/// What the index keeps of one MR: enough to tell a fight from a parked legacy MR, and nothing
/// of its spec, so that doctor can hold one per MR of a large fleet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// Which MR (shared: the watch keys its own map of MRs with the same copy).
    pub key: Arc<MrKey>,
    /// The cloud object it tracks.
    pub slot: Slot,
    /// Not paused (annotation or empty policies): its reconciler acts on the object.
    pub acting: bool,
    /// A legacy MR paused and unable to delete its object once unpaused (`ShouldDelete` false):
    /// how a migration, by hand or by `migrate apply`, parks it.
    pub parked: bool,
    /// A namespaced MR acting and Ready=True: the twin a parked legacy MR was moved to.
    pub healthy_twin: bool,
}

impl Holder {
    /// The holder of an MR with an external-name; `None` without one (it tracks nothing yet).
    pub fn of(mr: &ManagedResource) -> Option<Holder> {
        mr.external_name()?;
        Holder::keyed(mr, Arc::new(MrKey::of(mr)))
    }

    /// [`Holder::of`] with the MR's key given: the watch passes the copy its own map holds.
    pub fn keyed(mr: &ManagedResource, key: Arc<MrKey>) -> Option<Holder> {
        let name = mr.external_name()?;
        let group = mr.group();
        let kind_group = legacy_group(group).unwrap_or_else(|| group.to_string());
        let paused = mr.annotation(keys::PAUSED) == Some("true") || Policies::of(mr).is_paused();
        let legacy = mr.namespace.is_none();
        Some(Holder {
            key,
            slot: (kind_group, mr.kind.clone(), name.to_string()),
            acting: !paused,
            parked: legacy && paused && !ManagementPolicies::of(mr).should_delete(),
            healthy_twin: !legacy && !paused && mr.deletion_timestamp.is_none() && mr.is_true("Ready"),
        })
    }
}

/// What the index tells about one MR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedWith {
    /// The other acting MRs of its object, as `kind.group/name` (only when this MR acts too).
    pub fighting: Vec<String>,
    /// When this MR is parked: its healthy namespaced twin.
    pub twin: Option<MrKey>,
}

/// By cloud object: the MRs that hold it.
#[derive(Debug, Default)]
pub struct SharedNames {
    /// The holders of each object, in key order. Nearly every object has one holder, so a short
    /// sorted list, not a map per object (a B-tree's first node costs kilobytes, times every MR
    /// of a fleet). The slot is shared with `at`: one copy of its strings per object, not two
    /// per MR.
    slots: HashMap<Arc<Slot>, Vec<Held>>,
    /// Where each MR is in `slots` (its key shared with the holder's entry).
    at: HashMap<Arc<MrKey>, Arc<Slot>>,
}

/// What the index keeps of a [`Holder`]: all but its slot, which the map's key already says.
#[derive(Debug)]
struct Held {
    key: Arc<MrKey>,
    acting: bool,
    parked: bool,
    healthy_twin: bool,
}

impl SharedNames {
    /// The index of these holders.
    pub fn of(holders: impl IntoIterator<Item = Holder>) -> SharedNames {
        let mut index = SharedNames::default();
        for h in holders {
            index.insert(h);
        }
        index
    }

    /// Puts an MR in the index (replacing what it held before); returns the other MRs whose
    /// view changed (they are judged again).
    pub fn insert(&mut self, holder: Holder) -> BTreeSet<MrKey> {
        let mut touched = self.remove(&holder.key);
        let Holder { key, slot, acting, parked, healthy_twin } = holder;
        let slot = match self.slots.get_key_value(&slot) {
            Some((shared, _)) => shared.clone(),
            None => Arc::new(slot),
        };
        let holders = self.slots.entry(slot.clone()).or_default();
        touched.extend(holders.iter().map(|h| MrKey::clone(&h.key)));
        self.at.insert(key.clone(), slot);
        let held = Held { key, acting, parked, healthy_twin };
        match holders.binary_search_by(|h| h.key.cmp(&held.key)) {
            Ok(at) => holders[at] = held,
            Err(at) => holders.insert(at, held),
        }
        holders.shrink_to_fit();
        touched
    }

    /// Takes an MR out of the index (deleted, or lost its external-name); returns the MRs that
    /// held its object with it.
    pub fn remove(&mut self, key: &MrKey) -> BTreeSet<MrKey> {
        let Some(slot) = self.at.remove(key) else { return BTreeSet::new() };
        let Some(holders) = self.slots.get_mut(&*slot) else { return BTreeSet::new() };
        holders.retain(|h| *h.key != *key);
        let touched = holders.iter().map(|h| MrKey::clone(&h.key)).collect();
        if holders.is_empty() {
            self.slots.remove(&*slot);
        }
        touched
    }

    /// Whether no MR is indexed (an MR judged on its own: nothing to look up).
    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// What the index tells about one MR.
    pub fn about(&self, key: &MrKey) -> SharedWith {
        let Some(holders) = self.at.get(key).and_then(|s| self.slots.get(&**s)) else {
            return SharedWith::default();
        };
        let Some(me) = holders.iter().find(|h| *h.key == *key) else { return SharedWith::default() };
        let others = || holders.iter().filter(|h| *h.key != *key);
        SharedWith {
            fighting: match me.acting {
                true => others().filter(|h| h.acting).map(|h| h.key.reference()).collect(),
                false => Vec::new(),
            },
            twin: me.parked.then(|| others().find(|h| h.healthy_twin).map(|h| MrKey::clone(&h.key))).flatten(),
        }
    }

    /// The MRs the index has something to say about (a fight, or a parked legacy MR with a
    /// healthy twin), in order.
    pub fn involved(&self) -> BTreeSet<MrKey> {
        self.slots
            .values()
            .filter(|holders| holders.len() > 1)
            .flat_map(|holders| holders.iter().map(|h| &*h.key))
            .filter(|k| self.about(k) != SharedWith::default())
            .cloned()
            .collect()
    }

    /// Per kind (the group of the first acting holder): how many objects more than one acting MR
    /// holds.
    pub(crate) fn fights_per_kind(&self) -> BTreeMap<(String, String), usize> {
        let mut out = BTreeMap::new();
        for holders in self.slots.values() {
            let mut acting = holders.iter().filter(|h| h.acting);
            if let (Some(first), Some(_)) = (acting.next(), acting.next()) {
                *out.entry((first.key.group.clone(), first.key.kind.clone())).or_default() += 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Mr;

    fn legacy(name: &str, ext: &str) -> Mr {
        Mr::new("Subnet", name).api_version("ec2.aws.upbound.io/v1beta1").external_name(ext).healthy()
    }

    fn twin(name: &str, ext: &str) -> Mr {
        Mr::new("Subnet", name)
            .api_version("ec2.aws.m.upbound.io/v1beta1")
            .namespace("infra")
            .external_name(ext)
            .healthy()
    }

    fn index(mrs: &[&Mr]) -> SharedNames {
        SharedNames::of(mrs.iter().filter_map(|m| Holder::of(&m.build())))
    }

    fn about(index: &SharedNames, mr: &Mr) -> SharedWith {
        index.about(&MrKey::of(&mr.build()))
    }

    /// Table: which pairs are a fight, which a parked legacy MR beside its twin, which neither.
    #[test]
    fn fights_and_parked_twins() {
        let parked = || legacy("a", "subnet-1").annotation(keys::PAUSED, "true").deletion_policy("Orphan");
        let cases: Vec<(&str, Mr, Mr, usize, bool)> = vec![
            (
                "legacy and twin both acting: a fight across the .m. group",
                legacy("a", "subnet-1"),
                twin("a", "subnet-1"),
                1,
                false,
            ),
            ("two legacy MRs of one kind", legacy("a", "subnet-1"), legacy("b", "subnet-1"), 1, false),
            (
                "another kind with the same name",
                legacy("a", "subnet-1"),
                Mr::new("VPC", "b").api_version("ec2.aws.upbound.io/v1beta1").external_name("subnet-1"),
                0,
                false,
            ),
            ("different external-names", legacy("a", "subnet-1"), twin("a", "subnet-2"), 0, false),
            ("legacy paused, Orphan, twin healthy: unfinished", parked(), twin("a", "subnet-1"), 0, true),
            (
                "legacy paused but would delete: not parked",
                legacy("a", "subnet-1").annotation(keys::PAUSED, "true"),
                twin("a", "subnet-1"),
                0,
                false,
            ),
            (
                "Orphan beaten by an explicit Delete",
                parked().policies(&["Observe", "Delete"]),
                twin("a", "subnet-1"),
                0,
                false,
            ),
            (
                "twin not ready yet",
                parked(),
                Mr::new("Subnet", "a")
                    .api_version("ec2.aws.m.upbound.io/v1beta1")
                    .namespace("infra")
                    .external_name("subnet-1")
                    .cond("Ready", "False", "Creating", ""),
                0,
                false,
            ),
            ("twin paused too", parked(), twin("a", "subnet-1").annotation(keys::PAUSED, "true"), 0, false),
            (
                "paused by empty policies",
                legacy("a", "subnet-1").policies(&[]).deletion_policy("Orphan"),
                twin("a", "subnet-1"),
                0,
                true,
            ),
        ];
        for (case, first, second, fights, unfinished) in cases {
            let idx = index(&[&first, &second]);
            assert_eq!(about(&idx, &first).fighting.len(), fights, "{case}");
            assert_eq!(about(&idx, &second).fighting.len(), fights, "{case}");
            assert_eq!(about(&idx, &first).twin.is_some(), unfinished, "{case}");
            assert_eq!(idx.involved().len(), if fights > 0 { 2 } else { usize::from(unfinished) }, "{case}");
            assert_eq!(idx.fights_per_kind().values().sum::<usize>(), fights, "{case}");
        }
    }

    #[test]
    fn moving_or_removing_a_holder_touches_the_others() {
        let (a, b) = (legacy("a", "subnet-1"), twin("a", "subnet-1"));
        let mut idx = index(&[&a]);
        let touched = idx.insert(Holder::of(&b.build()).unwrap());
        assert_eq!(touched, BTreeSet::from([MrKey::of(&a.build())]));
        assert_eq!(about(&idx, &a).fighting, vec!["subnet.ec2.aws.m.upbound.io/a".to_string()]);
        let moved = twin("a", "subnet-2");
        assert_eq!(idx.insert(Holder::of(&moved.build()).unwrap()), BTreeSet::from([MrKey::of(&a.build())]));
        assert!(about(&idx, &a).fighting.is_empty());
        assert_eq!(idx.remove(&MrKey::of(&moved.build())), BTreeSet::new());
        assert!(idx.involved().is_empty());
        assert!(Holder::of(&Mr::new("Subnet", "x").build()).is_none(), "no external-name, no object");
    }
}
