//! What doctor (over a live cluster) and the watch know of the guard when they judge it: the
//! served managed kinds, the guard's policies and bindings as read back, and the lock checked
//! against the MRs. The rules `GuardMissing`, `GuardPartial` and `GuardLockStale` read these;
//! snapshots and backups hold no admission objects, so no offline flow has them.

use super::installed::Installed;
use super::kind::GuardKind;
use super::lock::key::LockKey;
use super::lock::stale::{LockView, Stale};
use crate::finding::{Finding, ResourceRef};
use crate::managed::ManagedResource;
use crate::report::{ReportFinding, ResourceState};

/// The full name of the lock's CRD.
pub const LOCK_CRD: &str = "identitylocks.guard.kubectl-upjet.io";

/// How one input was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched<T> {
    /// Read.
    Got(T),
    /// The API server does not serve it (404: an API before its version, a CRD not installed).
    NotServed,
    /// It could not be read (403, or a failure): why, with the permission to grant when the
    /// API server named one.
    Failed(String),
}

/// The lock and the MRs checked against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockFacts {
    /// The lock's shards, as the bindings select them.
    pub view: Fetched<LockView>,
    /// The MRs checked against it (against nothing when its CRD is not served).
    pub stale: Stale,
}

impl LockFacts {
    /// Counts `mr` into [`LockFacts::stale`] when the lock (nothing, when its CRD is not served)
    /// misses its identity; an unread lock checks nothing.
    pub fn check(&mut self, mr: &ManagedResource) {
        match &self.view {
            Fetched::Got(view) => view.check(mr, &mut self.stale),
            Fetched::NotServed => LockView::default().check(mr, &mut self.stale),
            Fetched::Failed(_) => {}
        }
    }
}

/// Everything the guard's findings read.
#[derive(Clone, Copy, Debug)]
pub struct GuardFacts<'a> {
    /// The served managed kinds the run covers (`--kind`, `--provider`).
    pub kinds: &'a [GuardKind],
    /// The guard's policies and bindings.
    pub admission: &'a Fetched<Installed>,
    /// The lock, read only when identity-locked is bound (`None` otherwise).
    pub lock: Option<&'a LockFacts>,
}

impl GuardFacts<'_> {
    /// The guard as installed, when its objects were read.
    pub fn installed(&self) -> Option<&Installed> {
        match self.admission {
            Fetched::Got(i) => Some(i),
            _ => None,
        }
    }

    /// What could not be read, one clause each, for a finding's evidence (`notRead`).
    pub(crate) fn not_read(&self) -> Option<String> {
        let lock = match self.lock.map(|l| &l.view) {
            Some(Fetched::Failed(why)) => Some(format!("{LOCK_CRD}: {why}")),
            _ => None,
        };
        let admission = match self.admission {
            Fetched::Failed(why) => Some(format!("validatingadmissionpolicies: {why}")),
            _ => None,
        };
        let all: Vec<String> = admission.into_iter().chain(lock).collect();
        (!all.is_empty()).then(|| all.join("; "))
    }
}

/// The guard as a whole, as the resource its findings are about: no object has this name, every
/// policy and binding of the guard starts with it.
pub(crate) fn guard_resource() -> ResourceRef {
    cluster_resource(super::admission::API_VERSION, "ValidatingAdmissionPolicy", "kubectl-upjet-guard")
}

/// The lock as a whole, as the resource its finding is about (its shards are `NAME-0000`, …).
pub(crate) fn lock_resource() -> ResourceRef {
    let name = super::lock::shard::NAME_PREFIX.trim_end_matches('-');
    cluster_resource(super::lock::crd::API_VERSION, super::lock::crd::KIND, name)
}

fn cluster_resource(api_version: &str, kind: &str, name: &str) -> ResourceRef {
    ResourceRef {
        api_version: api_version.into(),
        kind: kind.into(),
        namespace: None,
        name: name.into(),
        uid: String::new(),
        cluster: None,
        source: None,
    }
}

/// A finding about `resource`, with what could not be read (`notRead`).
pub fn about(resource: ResourceRef, finding: Finding, facts: &GuardFacts) -> ReportFinding {
    ReportFinding { resource, finding: finding.with_opt("notRead", facts.not_read()), state: ResourceState::default() }
}

/// `kind.group/name`, with ` -n NS` when namespaced: how every command of this tool takes an MR.
pub(crate) fn mr_reference(key: &LockKey) -> String {
    let ns = key.namespace.as_deref().map(|n| format!(" -n {n}")).unwrap_or_default();
    format!("{}.{}/{}{ns}", key.kind.to_lowercase(), key.group, key.name)
}

/// Up to `max` items joined, and how many more there are.
pub fn listed(items: impl ExactSizeIterator<Item = String>, max: usize) -> String {
    let total = items.len();
    let mut shown: Vec<String> = items.take(max).collect();
    if total > max {
        shown.push(format!("… and {} more", total - max));
    }
    shown.join(", ")
}
