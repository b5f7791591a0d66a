//! The XRs and claims of one run, looked up by UID and by key, and the kinds the run read in full:
//! an MR's controller missing from a kind that was not listed is unknown, not gone.

use super::XrKey;
use super::composite::{Composite, Role};
use super::xrd::Xrd;
use std::collections::HashMap;

/// What the run knows of one XR or claim kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// XR or claim.
    pub role: Role,
    /// Whether its objects live in a namespace, when known (its XRD's scope, or one object seen).
    pub namespaced: Option<bool>,
    /// Whether every object of it was read: only then is one missing gone.
    pub listed: bool,
}

/// The XRs and claims of a run.
#[derive(Clone, Debug, Default)]
pub struct Composites {
    items: Vec<Composite>,
    roles: Vec<Role>,
    by_uid: HashMap<String, usize>,
    by_key: HashMap<XrKey, usize>,
    kinds: HashMap<(String, String), KindInfo>,
}

impl Composites {
    /// An index of the kinds the XRDs define, none listed yet.
    pub fn of_xrds(xrds: &[Xrd]) -> Composites {
        let mut index = Composites::default();
        for x in xrds {
            let namespaced = Some(x.scope.namespaced());
            let info = |role| KindInfo { role, namespaced, listed: false };
            index.kinds.insert((x.group.clone(), x.kind.clone()), info(Role::Xr));
            if let Some((kind, _)) = &x.claim {
                let claim = KindInfo { namespaced: Some(true), ..info(Role::Claim) };
                index.kinds.insert((x.group.clone(), kind.clone()), claim);
            }
        }
        index
    }

    /// Records that every object of `(group, kind)` was read (a list answered in full, or a
    /// snapshot holding its XRD or one of its objects).
    pub fn listed(&mut self, group: &str, kind: &str) {
        if let Some(info) = self.kinds.get_mut(&(group.to_string(), kind.to_string())) {
            info.listed = true;
        }
    }

    /// Adds an object when it is an XR or claim (its kind's XRD says so, or its shape does);
    /// returns whether it was one. A kind first met through its objects counts as listed: a
    /// snapshot holds what it holds.
    pub fn add(&mut self, c: Composite) -> bool {
        let kind = (c.group().to_string(), c.kind.clone());
        let role = match self.kinds.get(&kind) {
            Some(info) => info.role,
            None => match c.shape {
                Some(role) => {
                    let namespaced = Some(c.namespace.is_some());
                    self.kinds.insert(kind.clone(), KindInfo { role, namespaced, listed: true });
                    role
                }
                None => return false,
            },
        };
        if let Some(info) = self.kinds.get_mut(&kind) {
            info.namespaced = info.namespaced.or(Some(c.namespace.is_some()));
        }
        let at = self.items.len();
        if !c.uid.is_empty() {
            self.by_uid.insert(c.uid.clone(), at);
        }
        self.by_key.insert(XrKey::of(&c), at);
        self.items.push(c);
        self.roles.push(role);
        true
    }

    /// Whether the run read no XR, claim or XRD.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.kinds.is_empty()
    }

    /// What the run knows of a kind.
    pub fn kind(&self, group: &str, kind: &str) -> Option<KindInfo> {
        self.kinds.get(&(group.to_string(), kind.to_string())).copied()
    }

    /// Whether every XR and claim kind the run knows was read in full.
    pub(crate) fn all_listed(&self) -> bool {
        !self.kinds.is_empty() && self.kinds.values().all(|k| k.listed)
    }

    /// The kinds known, with what is known of each, in name order.
    pub fn kinds(&self) -> Vec<((String, String), KindInfo)> {
        let mut all: Vec<_> = self.kinds.iter().map(|(k, v)| (k.clone(), *v)).collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }

    /// The object of a UID.
    pub fn by_uid(&self, uid: &str) -> Option<&Composite> {
        self.by_uid.get(uid).map(|&i| &self.items[i])
    }

    /// The object of a key.
    pub(crate) fn by_key(&self, key: &XrKey) -> Option<&Composite> {
        self.by_key.get(key).map(|&i| &self.items[i])
    }

    /// What an object is (XR or claim).
    pub fn role(&self, c: &Composite) -> Option<Role> {
        self.by_key.get(&XrKey::of(c)).map(|&i| self.roles[i])
    }

    /// Every XR, in the order read.
    pub fn xrs(&self) -> impl Iterator<Item = &Composite> {
        self.items.iter().zip(&self.roles).filter(|(_, r)| **r == Role::Xr).map(|(c, _)| c)
    }

    /// Every claim, in the order read.
    pub fn claims(&self) -> impl Iterator<Item = &Composite> {
        self.items.iter().zip(&self.roles).filter(|(_, r)| **r == Role::Claim).map(|(c, _)| c)
    }

    /// The XR a claim binds (`spec.resourceRef`).
    pub(crate) fn xr_of_claim(&self, claim: &Composite) -> Option<&Composite> {
        let r = claim.refs.first()?;
        let key = XrKey { group: r.group().to_string(), kind: r.kind.clone(), namespace: None, name: r.name.clone() };
        self.by_key(&key)
    }

    /// The claim an XR is bound to (`spec.claimRef`).
    pub(crate) fn claim_of_xr(&self, xr: &Composite) -> Option<&Composite> {
        let r = xr.claim_ref.as_ref()?;
        let key = XrKey {
            group: r.group().to_string(),
            kind: r.kind.clone(),
            namespace: r.namespace.clone(),
            name: r.name.clone(),
        };
        self.by_key(&key)
    }

    /// The key of an MR's controller, as the index places it: a namespaced XR kind in the MR's
    /// namespace, a cluster-scoped one in none; a kind the run does not know is taken to live
    /// where the MR does (a namespaced owner shares its dependent's namespace).
    pub fn key_of(&self, group: &str, kind: &str, name: &str, mr_namespace: Option<&str>) -> XrKey {
        let namespace = match self.kind(group, kind).and_then(|k| k.namespaced) {
            Some(false) => None,
            _ => mr_namespace.map(str::to_owned),
        };
        XrKey { group: group.to_string(), kind: kind.to_string(), namespace, name: name.to_string() }
    }

    /// The XR that lists the MR, one named `name` first: how an MR whose controller reference
    /// was stripped is found again (the composite reconciler takes a listed resource without a
    /// controller as its own). Only MRs without a controller ask, so the walk is rare.
    pub fn listing(&self, name: Option<&str>, mr: (&str, &str, Option<&str>, &str)) -> Option<&Composite> {
        let (group, kind, namespace, mr_name) = mr;
        let lists = |x: &&Composite| x.lists(group, kind, namespace, mr_name);
        self.xrs().filter(|x| Some(x.name.as_str()) == name).find(lists).or_else(|| self.xrs().find(lists))
    }
}
