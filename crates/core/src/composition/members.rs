//! What the fleet must know of each composed MR to judge the others: the slot it fills (its XR's
//! namespace and name, and its composition-resource-name), which XR incarnation controls it,
//! and the ID it holds. Two live MRs in one slot under one controller are a duplicate; an MR
//! without an ID beside one from an earlier incarnation that held one is a re-creation.
//!
//! One is kept per composed MR of a fleet, so it keeps hashes where it only compares (UIDs) and
//! plain strings for the rest, no map per MR.

use crate::composed::keys::RESOURCE_NAME;
use crate::managed::ManagedResource;
use crate::shared_names::MrKey;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};

/// A stable 64-bit hash (the standard library's SipHash with its fixed keys): what members
/// compare instead of keeping UIDs.
pub(super) fn hash_of(parts: &[&str]) -> u64 {
    let mut h = DefaultHasher::new();
    for p in parts {
        p.hash(&mut h);
    }
    h.finish()
}

/// The slot of a composed resource: its namespace (an XR's resources share it, or none), its
/// XR's name and its resource name. The XR's kind is left out: a resource whose controller
/// reference was stripped names its XR by the `crossplane.io/composite` label alone.
pub fn slot(namespace: Option<&str>, xr_name: &str, resource: &str) -> u64 {
    hash_of(&[namespace.unwrap_or(""), xr_name, resource])
}

/// The slot of an MR, when it has a resource name and names its XR (controller or label).
pub(crate) fn slot_of(mr: &ManagedResource) -> Option<u64> {
    let resource = mr.annotation(RESOURCE_NAME).filter(|r| !r.is_empty())?;
    let composed = mr.composed.as_deref();
    let xr = composed.and_then(|c| c.controller.as_ref()).map(|c| c.name.as_str()).or(mr.composite.as_deref())?;
    Some(slot(mr.namespace.as_deref(), xr, resource))
}

/// One composed MR as the fleet keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    group: Box<str>,
    kind: Box<str>,
    namespace: Option<Box<str>>,
    name: Box<str>,
    uid: u64,
    slot: u64,
    /// The hash of its controller's UID; 0 without one.
    controller: u64,
    /// Its external-name, when it holds one.
    id: Option<Box<str>>,
    deleting: bool,
}

impl Member {
    /// The member of a composed MR; `None` for an MR with no slot.
    pub fn of(mr: &ManagedResource) -> Option<Member> {
        let slot = slot_of(mr)?;
        let controller = mr.composed.as_deref().and_then(|c| c.controller.as_ref()).map_or(0, |c| hash_of(&[&c.uid]));
        Some(Member {
            group: mr.group().into(),
            kind: mr.kind.as_str().into(),
            namespace: mr.namespace.as_deref().map(Into::into),
            name: mr.name.as_str().into(),
            uid: hash_of(&[&mr.uid]),
            slot,
            controller,
            id: mr.external_name().map(Into::into),
            deleting: mr.deletion_timestamp.is_some(),
        })
    }

    /// Which MR.
    pub fn key(&self) -> MrKey {
        MrKey {
            group: self.group.to_string(),
            kind: self.kind.to_string(),
            namespace: self.namespace.as_deref().map(str::to_owned),
            name: self.name.to_string(),
        }
    }

    /// The ID it holds.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// Whether it is `mr`.
    fn is(&self, uid: u64) -> bool {
        self.uid == uid
    }

    /// Whether it is a live, acting member: not being deleted.
    fn live(&self) -> bool {
        !self.deleting
    }
}

/// Every composed MR of a run, by slot.
#[derive(Debug, Default)]
pub struct Members {
    by_slot: HashMap<u64, Vec<Member>>,
    uids: std::collections::HashSet<u64>,
}

impl Members {
    /// The members of a run.
    pub fn of(members: impl IntoIterator<Item = Member>) -> Members {
        let mut all = Members::default();
        for m in members {
            all.uids.insert(m.uid);
            all.by_slot.entry(m.slot).or_default().push(m);
        }
        for list in all.by_slot.values_mut() {
            list.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
            list.shrink_to_fit();
        }
        all
    }

    /// Whether no member was collected (an MR judged before or without the fleet).
    pub fn is_empty(&self) -> bool {
        self.by_slot.is_empty()
    }

    /// Whether an MR of this UID is live in the run.
    pub(crate) fn is_live(&self, uid: &str) -> bool {
        self.uids.contains(&hash_of(&[uid]))
    }

    /// The other live MRs in `mr`'s slot under its own controller: duplicates.
    pub fn duplicates(&self, mr: &ManagedResource) -> Vec<&Member> {
        let Some(me) = Member::of(mr) else { return Vec::new() };
        if me.controller == 0 || me.deleting {
            return Vec::new();
        }
        let others = self.by_slot.get(&me.slot).map(Vec::as_slice).unwrap_or_default();
        others.iter().filter(|o| !o.is(me.uid) && o.live() && o.controller == me.controller).collect()
    }

    /// The other MRs in `mr`'s slot that hold an ID under another controller (an earlier
    /// incarnation of its XR) or none: what a re-created MR takes over.
    pub fn earlier(&self, mr: &ManagedResource) -> Vec<&Member> {
        let Some(me) = Member::of(mr) else { return Vec::new() };
        let others = self.by_slot.get(&me.slot).map(Vec::as_slice).unwrap_or_default();
        others.iter().filter(|o| !o.is(me.uid) && o.id.is_some() && o.controller != me.controller).collect()
    }

    /// How many live MRs without an ID a slot-less lookup would have to choose between: the
    /// bare MRs of `(group, kind)` in `namespace` whose names start with `prefix`.
    pub(crate) fn bare_like(&self, group: &str, kind: &str, namespace: Option<&str>, prefix: &str) -> usize {
        let ns = |m: &Member| m.namespace.as_deref() == namespace;
        self.by_slot
            .values()
            .flatten()
            .filter(|m| m.id.is_none() && m.live() && &*m.group == group && &*m.kind == kind && ns(m))
            .filter(|m| m.name.starts_with(prefix))
            .count()
    }

    /// The live members without an ID for which `earlier(slot, key)` says an earlier MR held one.
    pub(crate) fn bare_with(&self, earlier: impl Fn(u64, &MrKey) -> bool) -> Vec<MrKey> {
        let bare = self.by_slot.values().flatten().filter(|m| m.id.is_none() && m.live());
        bare.map(|m| (m.slot, m.key())).filter(|(slot, key)| earlier(*slot, key)).map(|(_, k)| k).collect()
    }

    /// The MRs the fleet has something to say about: every live duplicate, and every live MR
    /// without an ID beside one that held an ID under another controller.
    pub fn involved(&self) -> BTreeSet<MrKey> {
        let mut out = BTreeSet::new();
        for list in self.by_slot.values().filter(|l| l.len() > 1) {
            for m in list.iter().filter(|m| m.live()) {
                let duplicate =
                    m.controller != 0 && list.iter().any(|o| !o.is(m.uid) && o.live() && o.controller == m.controller);
                let recreated = m.id.is_none() && list.iter().any(|o| o.id.is_some() && o.controller != m.controller);
                if duplicate || recreated {
                    out.insert(m.key());
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Mr;

    fn composed(name: &str, xr_uid: &str, id: Option<&str>) -> Mr {
        let mr = Mr::new("Instance", name)
            .label("crossplane.io/composite", "orders")
            .annotation(RESOURCE_NAME, "db")
            .owner("platform.example.org/v1alpha1", "XDatabase", "orders", xr_uid);
        match id {
            Some(id) => mr.external_name(id),
            None => mr,
        }
    }

    #[test]
    fn a_slot_holds_duplicates_and_earlier_incarnations() {
        let old = composed("orders-a1", "xr-1", Some("db-1")).build();
        let new = composed("orders-b2", "xr-2", None).build();
        let twin = composed("orders-c3", "xr-2", None).build();
        let members = Members::of([&old, &new, &twin].into_iter().filter_map(Member::of));
        assert_eq!(members.earlier(&new).iter().map(|m| m.id()).collect::<Vec<_>>(), [Some("db-1")]);
        assert_eq!(members.duplicates(&new).len(), 1, "twin, under the same controller");
        assert!(members.duplicates(&old).is_empty(), "another controller");
        let involved: Vec<String> = members.involved().iter().map(|k| k.name.clone()).collect();
        assert_eq!(involved, ["orders-b2", "orders-c3"]);
        assert!(members.is_live("uid-orders-a1") && !members.is_live("uid-gone"));
        assert_eq!(members.bare_like("dns.gcp.upbound.io", "Instance", None, "orders-"), 2);
    }

    #[test]
    fn an_mr_without_a_resource_name_has_no_slot() {
        assert!(Member::of(&Mr::new("Instance", "x").label("crossplane.io/composite", "orders").build()).is_none());
    }
}
