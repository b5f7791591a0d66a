//! pending resolved by hand: an UPDATE that removes `crossplane.io/external-create-pending`
//! while the MR holds no external-name (a placeholder is none) and neither a succeeded nor a
//! failed mark. The reconciler stops at that mark because a create may have made an object it
//! could not record; removing it by hand lets the provider create again, a second object beside
//! the first (the create-incomplete gate, domain.md §1.3).

use super::admission::{Policy, Reason, Validation};
use super::cel::Cel;
use super::kind::GuardKind;
use super::rule::GuardRule;
use super::vars::{Vars, has_annotation};
use crate::managed::keys;

/// The fallback message.
pub const MESSAGE: &str = "kubectl upjet guard: this write removes crossplane.io/external-create-pending while the MR records no ID: the provider will create again, beside an object the interrupted create may have made; find it first with: kubectl upjet history KIND/NAME";

/// The rule's policy over `kinds`.
pub fn policy(kinds: &[GuardKind]) -> Policy {
    let v = Vars::default();
    let removed = Cel::and(vec![
        has_annotation("oldObject", keys::CREATE_PENDING, true),
        has_annotation("object", keys::CREATE_PENDING, false).not(),
    ]);
    let unrecorded = Cel::and(vec![
        v.ext_is_id().not(),
        has_annotation("object", keys::CREATE_SUCCEEDED, false).not(),
        has_annotation("object", keys::CREATE_FAILED, false).not(),
    ]);
    let expression = Cel::and(vec![removed, unrecorded]).not();
    let message_expression = Cel::concat(vec![
        Cel::lit("kubectl upjet guard: this write removes crossplane.io/external-create-pending from "),
        v.target(),
        Cel::lit(
            " while it records no ID and no succeeded or failed create: the create may have made an object nobody recorded, and the provider will now create another. Find it first with: kubectl upjet history ",
        ),
        v.target(),
        Cel::lit(", then: kubectl upjet adopt "),
        v.target(),
        Cel::lit(" --id ID"),
    ]);
    Policy::single(
        GuardRule::PendingResolved,
        &["UPDATE"],
        kinds.to_vec(),
        v,
        Validation { expression, message: MESSAGE.into(), message_expression, reason: Reason::Forbidden },
    )
}
