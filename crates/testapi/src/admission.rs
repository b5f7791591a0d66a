//! `admissionregistration.k8s.io/v1`'s ValidatingAdmissionPolicies and their bindings, served on
//! request ([`crate::TestApi::serve_admission_policies`]): stored and listed like any built-in
//! (cluster-scoped, every verb), never enforced. A server that was not asked answers 404 for
//! them, as a kube-apiserver before v1.30 does. A test may also admit writes itself
//! ([`crate::TestApi::on_admit`]): each hook sees a custom resource's create or update before it
//! is stored, with the requester, and may refuse it, as an admission plugin does.

use crate::crd::{Registry, ResourceDef};
use serde_json::Value;

/// The API group.
const GROUP: &str = "admissionregistration.k8s.io";

/// Registers both kinds (and MutatingAdmissionPolicies, GA in v1.36 beside them).
pub(crate) fn register(r: &mut Registry) {
    let defs = [
        ("validatingadmissionpolicies", "validatingadmissionpolicy", "ValidatingAdmissionPolicy"),
        ("validatingadmissionpolicybindings", "validatingadmissionpolicybinding", "ValidatingAdmissionPolicyBinding"),
        ("mutatingadmissionpolicies", "mutatingadmissionpolicy", "MutatingAdmissionPolicy"),
        ("mutatingadmissionpolicybindings", "mutatingadmissionpolicybinding", "MutatingAdmissionPolicyBinding"),
    ];
    for (plural, singular, kind) in defs {
        let store = r.store_for(GROUP, plural);
        r.add(ResourceDef::builtin((GROUP, plural, singular), kind, false, store));
    }
}

/// One write as an admission plugin sees it, handed to the hooks of
/// [`crate::TestApi::on_admit`] before the object is stored.
#[derive(Debug)]
pub struct AdmissionRequest<'a> {
    /// `CREATE` or `UPDATE`.
    pub operation: &'a str,
    /// The resource's API group.
    pub group: &'a str,
    /// The version the request was made at.
    pub version: &'a str,
    /// The plural.
    pub resource: &'a str,
    /// The object's namespace.
    pub namespace: Option<&'a str>,
    /// The object as it would be stored.
    pub object: &'a Value,
    /// The stored object (UPDATE).
    pub old_object: Option<&'a Value>,
    /// Who writes, when RBAC is on ([`crate::TestApi::enable_rbac`]).
    pub user: Option<&'a crate::User>,
}

/// A refusal by an admission hook: the status code, reason and message the client gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denial {
    /// `403` for a policy's `Forbidden`, `422` for `Invalid`.
    pub code: u16,
    /// `Forbidden`, `Invalid`.
    pub reason: String,
    /// The whole message, as the API server words it.
    pub message: String,
}

pub(crate) type AdmitHook = std::sync::Arc<dyn Fn(&AdmissionRequest) -> Option<Denial> + Send + Sync>;

thread_local! {
    /// The user of the request being dispatched on this thread (dispatch is synchronous).
    static REQUESTER: std::cell::RefCell<Option<crate::User>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` (one request's synchronous dispatch) with `user` as the requester admission sees.
pub(crate) fn with_requester<T>(user: Option<crate::User>, f: impl FnOnce() -> T) -> T {
    REQUESTER.with(|r| *r.borrow_mut() = user);
    let out = f();
    REQUESTER.with(|r| r.borrow_mut().take());
    out
}

/// Asks every hook about a write of a custom resource (built-ins are not admitted): the first
/// refusal is the answer.
pub(crate) fn admit(
    inner: &crate::Inner,
    def: &ResourceDef,
    operation: &str,
    namespace: Option<&str>,
    object: &Value,
    old_object: Option<&Value>,
) -> Result<(), crate::resp::Resp> {
    if def.builtin {
        return Ok(());
    }
    let hooks: Vec<AdmitHook> = inner.admit_hooks.read().expect("admit hooks lock").clone();
    if hooks.is_empty() {
        return Ok(());
    }
    REQUESTER.with(|r| {
        let user = r.borrow();
        let req = AdmissionRequest {
            operation,
            group: &def.group,
            version: &def.version,
            resource: &def.plural,
            namespace,
            object,
            old_object,
            user: user.as_ref(),
        };
        match hooks.iter().find_map(|h| h(&req)) {
            Some(d) => Err(crate::resp::Resp::status(d.code, &d.reason, &d.message, None, None)),
            None => Ok(()),
        }
    })
}
