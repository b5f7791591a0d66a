//! identity kept: an UPDATE may not remove or change the external-name of an MR that created its
//! cloud object (crossplane#2532: the provider would then create a second object, or adopt
//! another one). A placeholder was never an identity; a repair that declares the new ID
//! (`kubectl-upjet.io/identity-change`) passes.

use super::admission::{Policy, Reason, Validation};
use super::cel::Cel;
use super::kind::GuardKind;
use super::rule::GuardRule;
use super::vars::{Declarers, Vars, declaration_not_allowed, declaration_note};

/// The fallback message (when the message expression cannot be used).
pub const MESSAGE: &str = "kubectl upjet guard: this write removes or changes crossplane.io/external-name of an MR that created its cloud object; keep the ID, or move the MR to another object with: kubectl upjet adopt KIND/NAME --id NEW_ID";

/// The rule's policy over `kinds`, its declarations counting for `declarers`.
pub fn policy(kinds: &[GuardKind], declarers: Declarers) -> Policy {
    let v = Vars::declared_by(declarers);
    let (ext, old_ext) = (v.ext(), v.old_ext());
    let expression =
        Cel::or(vec![Cel::and(vec![v.old_ext_is_id(), v.created()]).not(), ext.eq(&old_ext), v.change_declared()]);
    let removed = ext.eq(&Cel::lit(""));
    let mut parts = vec![
        Cel::lit("kubectl upjet guard: this write "),
        Cel::cond(&removed, &Cel::lit("removes"), &Cel::lit("changes")),
        Cel::lit(" crossplane.io/external-name of "),
        v.target(),
        Cel::lit(
            ", an MR that created its cloud object: the provider would then create or adopt another one. Keep the ID; to move the MR to another object run: kubectl upjet adopt ",
        ),
        v.target(),
        Cel::lit(" --id NEW_ID. Its ID: \""),
        old_ext,
        Cel::cond(&removed, &Cel::lit("\""), &Cel::concat(vec![Cel::lit("\", this write: \""), ext, Cel::lit("\"")])),
    ];
    if declarers == Declarers::Authorized {
        parts.push(Cel::lit("."));
        parts.push(declaration_not_allowed(&v.change_carried()));
    }
    let message = format!("{MESSAGE}{}", declaration_note(declarers));
    let message_expression = Cel::concat(parts);
    Policy::single(
        GuardRule::IdentityKept,
        &["UPDATE"],
        kinds.to_vec(),
        v,
        Validation { expression, message, message_expression, reason: Reason::Forbidden },
    )
}
