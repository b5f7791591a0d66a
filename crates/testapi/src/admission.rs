//! `admissionregistration.k8s.io/v1`'s ValidatingAdmissionPolicies and their bindings, served on
//! request ([`crate::TestApi::serve_admission_policies`]): stored and listed like any built-in
//! (cluster-scoped, every verb), never enforced. A server that was not asked answers 404 for
//! them, as a kube-apiserver before v1.30 does.

use crate::crd::{Registry, ResourceDef};

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
