//! identity locked: a CREATE of an MR whose (group, kind, namespace, name) the lock holds an ID
//! for must carry that ID. An MR deleted with `deletionPolicy: Orphan` and applied again without
//! its external-name would otherwise create a duplicate on its first reconcile.
//!
//! Every shard is a parameter object: the API server evaluates the policy once per shard and
//! refuses when any evaluation fails, and only the shard holding the key can fail. A create
//! without an external-name passes when the recorded ID is the MR's own name: upjet's name
//! initializer gives it that very ID (`NameAsExternalName`), so nothing is lost.

use super::admission::{Policy, Reason, Validation};
use super::cel::{Cel, bound};
use super::kind::GuardKind;
use super::rule::GuardRule;
use super::vars::{Declarers, Vars, declaration_not_allowed, declaration_note};

/// The fallback message.
pub const MESSAGE: &str = "kubectl upjet guard: the guard lock records the ID of the cloud object an MR of this kind, namespace and name created, and this create does not carry it; set crossplane.io/external-name to it, or, if that object is really gone, run: kubectl upjet guard unlock KIND/NAME";

/// The lock key of the written object: `group/Kind/namespace/name`, the namespace empty for a
/// cluster-scoped MR (the plain join the lock's encoding gives for every name the API server
/// admits, `lock::key`).
pub(crate) fn lock_key() -> Cel {
    let ns = Cel::path("object.metadata.namespace", bound::NAMESPACE);
    Cel::concat(vec![
        Cel::path("request.kind.group", bound::GROUP),
        Cel::lit("/"),
        Cel::path("request.kind.kind", bound::KIND),
        Cel::lit("/"),
        Cel::cond(&ns.has(), &ns, &Cel::lit("")),
        Cel::lit("/"),
        Cel::path("object.metadata.name", bound::NAME),
    ])
}

/// The shard's entries.
pub fn entries() -> Cel {
    Cel::path("params.spec.entries", bound::ANNOTATION)
}

/// Whether this shard holds an entry for `key`.
pub fn holds(key: &Cel) -> Cel {
    let spec = Cel::path("params.spec", 1);
    Cel::and(vec![
        Cel::path("params", 1).ne(&Cel::constant("null")),
        spec.has(),
        entries().has(),
        entries().has_key(key),
    ])
}

/// The ID this shard holds for `key` (only read once [`holds`] is true).
pub fn recorded(key: &Cel) -> Cel {
    entries().at(key, bound::ANNOTATION)
}

/// The rule's policy over `kinds`, its declarations counting for `declarers`.
pub fn policy(kinds: &[GuardKind], declarers: Declarers) -> Policy {
    let v = Vars::declared_by(declarers);
    let key = v.get("lockKey", |_| lock_key());
    let held = v.get("locked", |_| holds(&key));
    let id = v.get("recordedId", |_| Cel::cond(&held, &recorded(&key), &Cel::lit("")));
    let ext = v.ext();
    let named_by_initializer =
        Cel::and(vec![ext.eq(&Cel::lit("")), id.eq(&Cel::path("object.metadata.name", bound::NAME))]);
    let expression = Cel::or(vec![held.not(), ext.eq(&id), named_by_initializer, v.change_declared()]);
    let bare = ext.eq(&Cel::lit(""));
    let mut parts = vec![
        Cel::lit("kubectl upjet guard: "),
        v.target(),
        Cel::lit(" is created "),
        Cel::cond(
            &bare,
            &Cel::lit("without crossplane.io/external-name"),
            &Cel::lit("with another crossplane.io/external-name"),
        ),
        Cel::lit(", but the guard lock ("),
        Cel::path("params.metadata.name", bound::NAME),
        Cel::lit(
            ") records the ID of the cloud object an MR of this name created: set crossplane.io/external-name to it to take that object over, or, if it is really gone, run: kubectl upjet guard unlock ",
        ),
        v.target(),
        Cel::lit(". Recorded ID: \""),
        id,
        Cel::cond(&bare, &Cel::lit("\""), &Cel::concat(vec![Cel::lit("\", this create: \""), ext, Cel::lit("\"")])),
    ];
    if declarers == Declarers::Authorized {
        parts.push(Cel::lit("."));
        parts.push(declaration_not_allowed(&v.change_carried()));
    }
    let message = format!("{MESSAGE}{}", declaration_note(declarers));
    let message_expression = Cel::concat(parts);
    Policy {
        uses_lock: true,
        ..Policy::single(
            GuardRule::IdentityLocked,
            &["CREATE"],
            kinds.to_vec(),
            v,
            Validation { expression, message, message_expression, reason: Reason::Forbidden },
        )
    }
}
