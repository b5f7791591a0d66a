//! What doctor (over a live cluster) and the watch read of `kubectl upjet guard`: its policies
//! and bindings, and, when its identity-locked rule is bound, its lock. Never a failure: a list
//! the role may not make (403) or an API or CRD the cluster does not serve (404) becomes a note,
//! and the findings say what they could not read (`domain::guard::facts`).

use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::request::RequestError;
use upjet_cluster::{admission, guard};
use upjet_core::guard::facts::{Fetched, LOCK_CRD, LockFacts};
use upjet_core::guard::installed::Installed;
use upjet_core::guard::kind::GuardKind;
use upjet_core::guard::lock::stale::{LockView, Stale};
use upjet_core::guard::rule::GuardRule;

/// The guard as read, and the notes about what could not be.
#[derive(Debug)]
pub struct GuardRead {
    /// Its policies and bindings.
    pub admission: Fetched<Installed>,
    /// Its lock, when identity-locked is bound; no MR is checked against it yet.
    pub lock: Option<LockFacts>,
    /// One note per input not read.
    pub notes: Vec<String>,
}

/// Reads the guard's objects from the cluster.
pub async fn read(conn: &Connection) -> GuardRead {
    let mut notes = Vec::new();
    let listed = match admission::validating_policies(conn).await {
        Ok(policies) => admission::policy_bindings(conn).await.map(|bindings| Installed::of(&policies, &bindings)),
        Err(e) => Err(e),
    };
    let admission = match fetched(listed) {
        Fetched::NotServed => {
            notes.push("the API server serves no ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1, Kubernetes v1.30 or later): kubectl upjet guard cannot run on this cluster, and is not checked".into());
            Fetched::NotServed
        }
        Fetched::Failed(why) => {
            notes.push(format!(
                "cannot tell whether kubectl upjet guard is installed: cannot list its admission policies: {why}"
            ));
            Fetched::Failed(why)
        }
        got => got,
    };
    let lock = match &admission {
        Fetched::Got(installed) if installed.bound(GuardRule::IdentityLocked) => {
            Some(read_lock(conn, &mut notes).await)
        }
        _ => None,
    };
    GuardRead { admission, lock, notes }
}

async fn read_lock(conn: &Connection, notes: &mut Vec<String>) -> LockFacts {
    let view = fetched(guard::enforced_shards(conn).await.map(|shards| LockView::of(&shards)));
    match &view {
        Fetched::NotServed => notes.push(format!(
            "the guard's lock is not installed: its CRD {LOCK_CRD} is not served, so identity-locked has nothing to read"
        )),
        Fetched::Failed(why) => notes.push(format!(
            "cannot read the guard's lock ({LOCK_CRD}): {why}; whether it holds every MR's identity is not checked"
        )),
        Fetched::Got(_) => {}
    }
    LockFacts { view, stale: Stale::default() }
}

/// A read's outcome: a 404 is "not served", any other failure its reason (a 403 names the
/// permission and the role that grants it).
fn fetched<T>(read: Result<T, RequestError>) -> Fetched<T> {
    match read {
        Ok(t) => Fetched::Got(t),
        Err(e) if e.status_code() == Some(404) => Fetched::NotServed,
        Err(e) => Fetched::Failed(e.reason()),
    }
}

/// The served managed kinds as the guard's findings take them.
pub(crate) fn guard_kinds<'a>(kinds: impl IntoIterator<Item = &'a ApiKind>) -> Vec<GuardKind> {
    kinds.into_iter().map(|k| GuardKind::new(&k.group, &k.kind, &k.plural, k.namespaced)).collect()
}
