//! placeholder: a write that sets an external-name which is a provider's placeholder
//! (`domain::placeholder::KNOWN`): the MR then tracks no object, as doctor's
//! PlaceholderExternalName says. Judged when the write sets or changes the external-name.

use super::admission::{Policy, Reason, Validation};
use super::cel::Cel;
use super::kind::GuardKind;
use super::rule::GuardRule;
use super::vars::{Vars, placeholders};

/// The fallback message.
pub const MESSAGE: &str = "kubectl upjet guard: crossplane.io/external-name is a placeholder a provider writes before the cloud assigns an ID, not an ID: the MR tracks no object; see kubectl upjet doctor KIND/NAME";

/// The rule's policy over `kinds`.
pub fn policy(kinds: &[GuardKind]) -> Policy {
    let v = Vars::default();
    let ext = v.ext();
    let expression = Cel::or(vec![v.ext_changed().not(), ext.one_of(&placeholders()).not()]);
    let message_expression = Cel::concat(vec![
        Cel::lit("kubectl upjet guard: crossplane.io/external-name of "),
        v.target(),
        Cel::lit(
            " is a placeholder a provider writes before the cloud assigns an ID, not an ID: the MR tracks no object. See: kubectl upjet doctor ",
        ),
        v.target(),
        Cel::lit(". Value: \""),
        ext,
        Cel::lit("\""),
    ]);
    Policy::single(
        GuardRule::Placeholder,
        &["CREATE", "UPDATE"],
        kinds.to_vec(),
        v,
        Validation { expression, message: MESSAGE.into(), message_expression, reason: Reason::Invalid },
    )
}
