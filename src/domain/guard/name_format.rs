//! external-name format: for the kinds whose ID format is known (learned from healthy peers or
//! given as a template, docs/id-templates.md), the external-name a write sets must be what the
//! format gives for the MR — the same judgement as the lint's ExternalNameOffFormat: the
//! template rendered from the MR's own fields, compared for equality. A template that reads a
//! field the MR does not set (or a provider config field the MR cannot show) judges nothing.
//!
//! One validation per distinct set of templates, each limited to its kinds by a set lookup of
//! `group/Kind`, so the policy costs the same however many kinds share a format.

use super::admission::{Policy, Reason, Validation};
use super::cel::{Cel, bound};
use super::kind::GuardKind;
use super::rule::Rule;
use super::vars::Vars;
use crate::domain::identity::template::{Field, Part, Template};
use std::collections::BTreeMap;

/// The fallback message.
pub const MESSAGE: &str = "kubectl upjet guard: crossplane.io/external-name does not follow the ID format of its kind (docs/id-templates.md); check it with: kubectl upjet doctor KIND/NAME";

/// A field as the template reads it: whether it is usable, and its value as a string. Only a
/// string (non-empty, at most [`bound::SCALAR`] bytes, as doctor keeps them), an integer or a
/// boolean counts; `None` for a field no MR carries.
fn field(f: &Field) -> Option<(Cel, Cel)> {
    let value = |path: &str, size| {
        let v = Cel::path(path, size);
        let nonempty = Cel::and(vec![v.has(), v.ne(&Cel::lit(""))]);
        (nonempty, v)
    };
    match f {
        Field::Name => Some((Cel::constant("true"), Cel::path("object.metadata.name", bound::NAME))),
        Field::Namespace => Some(value("object.metadata.namespace", bound::NAMESPACE)),
        Field::ProviderConfig(k) if k == "name" => {
            let r = Cel::path("object.spec.providerConfigRef", 1);
            let (nonempty, v) = value("object.spec.providerConfigRef.name", bound::NAME);
            Some((Cel::and(vec![r.has(), nonempty]), v))
        }
        Field::ProviderConfig(_) => None,
        Field::ForProvider(k) => {
            let fp = Cel::path("object.spec.forProvider", bound::ANNOTATION);
            let v = fp.at(&Cel::lit(k), bound::SCALAR);
            let scalar = Cel::or(vec![
                Cel::and(vec![
                    v.is_type("string"),
                    v.size_of().int_cmp(">", 0),
                    v.size_of().int_cmp("<=", bound::SCALAR),
                ]),
                v.is_type("int"),
                v.is_type("bool"),
            ]);
            let present = Cel::and(vec![Cel::path("object.spec", 1).has(), fp.has(), fp.has_key(&Cel::lit(k)), scalar]);
            Some((present, v.to_str(bound::SCALAR)))
        }
    }
}

/// A template as (whether every field it reads is set, what it gives), or `None` when it reads
/// a field an MR cannot show.
pub fn render(t: &Template) -> Option<(Cel, Cel)> {
    let mut present = Vec::new();
    let mut parts = Vec::new();
    for p in t.parts() {
        match p {
            Part::Lit(s) => parts.push(Cel::lit(s)),
            Part::Field(f) => {
                let (ok, value) = field(f)?;
                present.push(ok);
                parts.push(value);
            }
        }
    }
    Some((Cel::and(present), Cel::concat(parts)))
}

/// The rule's policy over the kinds with a known format; `None` when no kind has one.
pub fn policy(kinds: &[GuardKind]) -> Option<Policy> {
    let mut by_templates: BTreeMap<Vec<String>, (Vec<&Template>, Vec<&GuardKind>)> = BTreeMap::new();
    for k in kinds {
        let usable: Vec<&Template> = k.id_templates.iter().filter(|t| render(t).is_some()).collect();
        if usable.is_empty() {
            continue;
        }
        let texts = usable.iter().map(|t| t.to_string()).collect();
        by_templates.entry(texts).or_insert_with(|| (usable, Vec::new())).1.push(k);
    }
    if by_templates.is_empty() {
        return None;
    }
    let v = Vars::default();
    let covered: Vec<GuardKind> = by_templates.values().flat_map(|(_, ks)| ks.iter().map(|k| (*k).clone())).collect();
    let validations = by_templates.values().map(|(templates, ks)| validation(&v, templates, ks)).collect();
    Some(Policy {
        rule: Rule::ExternalNameFormat,
        operations: &["CREATE", "UPDATE"],
        kinds: covered,
        validations,
        variables: v.into_defs(),
        conditions: Vec::new(),
        uses_lock: false,
    })
}

/// One validation: for these kinds, a write that sets or changes an external-name that names
/// an object must set one the templates give, when every field one of them reads is set.
fn validation(v: &Vars, templates: &[&Template], kinds: &[&GuardKind]) -> Validation {
    let keys: Vec<String> = kinds.iter().map(|k| k.key()).collect();
    let rendered: Vec<(Cel, Cel)> = templates.iter().filter_map(|t| render(t)).collect();
    let ext = v.ext();
    let judged = Cel::or(rendered.iter().map(|(present, _)| present.clone()).collect());
    let matches =
        Cel::or(rendered.iter().map(|(present, value)| Cel::and(vec![present.clone(), ext.eq(value)])).collect());
    let expression = Cel::or(vec![
        Cel::set(&keys).has_key(&v.kind_key()).not(),
        v.ext_changed().not(),
        v.ext_is_id().not(),
        judged.not(),
        matches,
    ]);
    let (first_present, first) = rendered[0].clone();
    let example = Cel::cond(
        &first_present,
        &Cel::concat(vec![Cel::lit(", which gives \""), first, Cel::lit("\" here")]),
        &Cel::lit(""),
    );
    let names: Vec<String> = templates.iter().map(|t| t.to_string()).collect();
    let message_expression = Cel::concat(vec![
        Cel::lit("kubectl upjet guard: crossplane.io/external-name of "),
        v.target(),
        Cel::lit(&format!(" does not follow {}, the ID format of its kind", names.join(" or "))),
        example,
        Cel::lit("; check the ID with: kubectl upjet doctor "),
        v.target(),
        Cel::lit(". This write: \""),
        ext,
        Cel::lit("\""),
    ]);
    Validation { expression, message: MESSAGE.into(), message_expression, reason: Reason::Invalid }
}
