//! external-name format: for the kinds whose ID format is known (learned from healthy peers or
//! given as a template, docs/id-templates.md), the external-name a write sets must be what the
//! format gives for the MR — the same judgement as the lint's ExternalNameOffFormat: each
//! template rendered from the MR's own fields, the external-name equal to one of them. A
//! template that reads a field the MR does not set judges nothing; one that reads a provider
//! config field an MR cannot show is left out.
//!
//! The templates are data, not code: each kind's templates are a list, each template a list of
//! parts (`['t', text]` the template as written, for messages; `['l', text]` literal, `['name']`,
//! `['namespace']`, `['pc']` for `spec.providerConfigRef.name`, `['fp', key]` for a
//! `spec.forProvider` scalar), rendered with the strings extension's `join`. The written kind's
//! list is found by a binary search over the sorted `group/Kind` keys written as nested
//! conditionals (a few comparisons, and only that kind's list is ever built, where a map literal
//! of every kind would be built on every write). One validation covers every kind, so the policy
//! stays small for thousands of kinds.

use super::admission::{Policy, Reason, Validation};
use super::cel::{Cel, bound};
use super::kind::GuardKind;
use super::rule::GuardRule;
use super::vars::Vars;
use crate::identity::template::{Field, Part, Template};

/// The fallback message.
pub const MESSAGE: &str = "kubectl upjet guard: crossplane.io/external-name does not follow the ID format of its kind (docs/id-templates.md); check it with: kubectl upjet doctor KIND/NAME";

/// One part of a template as data, or `None` for a field no MR carries; and its largest size.
fn part(p: &Part) -> Option<(Vec<String>, u64)> {
    Some(match p {
        Part::Lit(s) => (vec!["l".into(), s.clone()], s.len() as u64),
        Part::Field(Field::Name) => (vec!["name".into()], bound::NAME),
        Part::Field(Field::Namespace) => (vec!["namespace".into()], bound::NAMESPACE),
        Part::Field(Field::ProviderConfig(k)) if k == "name" => (vec!["pc".into()], bound::NAME),
        Part::Field(Field::ProviderConfig(_)) => return None,
        Part::Field(Field::ForProvider(k)) => (vec!["fp".into(), k.clone()], bound::SCALAR),
    })
}

/// A template as data (its text first) and the largest string it renders, or `None` when an MR
/// cannot render it.
pub(crate) fn template_data(t: &Template) -> Option<(Cel, u64)> {
    let mut parts: Vec<(Vec<String>, u64)> = t.parts().iter().map(part).collect::<Option<_>>()?;
    let longest = parts.iter().map(|(_, n)| n).sum();
    parts.insert(0, (vec!["t".into(), t.to_string()], 0));
    let list = Cel::list(parts.into_iter().map(|(p, _)| Cel::list(p.iter().map(|s| Cel::lit(s)).collect())).collect());
    Some((list, longest))
}

/// How many keys a leaf of the search compares one by one.
const LEAF: usize = 8;

/// The value for `key` among sorted `entries`, `missing` when none: nested conditionals that
/// halve the keys until a few are compared one by one.
fn search(entries: &[(String, Cel)], key: &Cel, missing: &Cel) -> Cel {
    if entries.len() <= LEAF {
        return entries.iter().rev().fold(missing.clone(), |rest, (k, v)| Cel::cond(&key.eq(&Cel::lit(k)), v, &rest));
    }
    let (low, high) = entries.split_at(entries.len() / 2);
    Cel::cond(&key.lt(&Cel::lit(&high[0].0)), &search(low, key, missing), &search(high, key, missing))
}

/// Whether the MR sets the field part `p` reads (a literal always holds).
fn present(p: &Cel) -> Cel {
    let tag = p.nth(0, 16);
    let is = |t: &str| tag.eq(&Cel::lit(t));
    let nonempty = |v: Cel| Cel::and(vec![v.has(), v.ne(&Cel::lit(""))]);
    let fp = Cel::path("object.spec.forProvider", bound::ANNOTATION);
    let value = fp.at(&p.nth(1, bound::KIND), bound::SCALAR);
    let scalar = Cel::or(vec![
        Cel::and(vec![
            value.is_type("string"),
            value.size_of().int_cmp(">", 0),
            value.size_of().int_cmp("<=", bound::SCALAR),
        ]),
        value.is_type("int"),
        value.is_type("bool"),
    ]);
    Cel::or(vec![
        is("t"),
        is("l"),
        is("name"),
        Cel::and(vec![is("namespace"), nonempty(Cel::path("object.metadata.namespace", bound::NAMESPACE))]),
        Cel::and(vec![
            is("pc"),
            Cel::path("object.spec.providerConfigRef", 1).has(),
            nonempty(Cel::path("object.spec.providerConfigRef.name", bound::NAME)),
        ]),
        Cel::and(vec![
            is("fp"),
            Cel::path("object.spec", 1).has(),
            fp.has(),
            fp.has_key(&p.nth(1, bound::KIND)),
            scalar,
        ]),
    ])
}

/// The string part `p` gives (read once [`present`] holds for every part).
fn value(p: &Cel) -> Cel {
    let tag = p.nth(0, 16);
    let is = |t: &str| tag.eq(&Cel::lit(t));
    let fp = Cel::path("object.spec.forProvider", bound::ANNOTATION).at(&p.nth(1, bound::KIND), bound::SCALAR);
    Cel::cond(&is("t"), &Cel::lit(""), &Cel::cond(&is("l"), &p.nth(1, bound::SCALAR), &fields(p, fp)))
}

/// The value of a field part.
fn fields(p: &Cel, fp: Cel) -> Cel {
    let tag = p.nth(0, 16);
    let is = |t: &str| tag.eq(&Cel::lit(t));
    Cel::cond(
        &is("name"),
        &Cel::path("object.metadata.name", bound::NAME),
        &Cel::cond(
            &is("namespace"),
            &Cel::path("object.metadata.namespace", bound::NAMESPACE),
            &Cel::cond(
                &is("pc"),
                &Cel::path("object.spec.providerConfigRef.name", bound::NAME),
                &fp.to_str(bound::SCALAR),
            ),
        ),
    )
}

/// The rule's policy over the kinds with a renderable format; `None` when no kind has one.
pub fn policy(kinds: &[GuardKind]) -> Option<Policy> {
    let mut formats = Vec::new();
    let (mut most_templates, mut most_parts, mut longest, mut longest_name) = (0u64, 0u64, 0u64, 0u64);
    let mut covered = Vec::new();
    for k in kinds {
        let usable: Vec<(&Template, (Cel, u64))> =
            k.id_templates.iter().filter_map(|t| template_data(t).map(|d| (t, d))).collect();
        if usable.is_empty() {
            continue;
        }
        most_templates = most_templates.max(usable.len() as u64);
        most_parts = most_parts.max(usable.iter().map(|(t, _)| t.parts().len() as u64 + 1).max().unwrap_or(0));
        longest = longest.max(usable.iter().map(|(_, (_, n))| *n).max().unwrap_or(0));
        longest_name = longest_name.max(usable.iter().map(|(t, _)| t.to_string().len() as u64 + 4).sum());
        formats.push((k.key(), Cel::list(usable.into_iter().map(|(_, (d, _))| d).collect())));
        covered.push(k.clone());
    }
    if covered.is_empty() {
        return None;
    }
    formats.sort_by(|a, b| a.0.cmp(&b.0));
    let v = Vars::default();
    let kind = v.kind_key();
    let templates = v.get("templates", |_| search(&formats, &kind, &Cel::list(vec![])).bounded(most_templates));
    let rendered = v.get("rendered", |_| {
        templates.filter("t", most_parts, |t| t.clone().bounded(most_parts).all("p", 2, present)).map_each(
            "t",
            most_parts,
            |t| t.clone().bounded(most_parts).map_each("p", 2, value).join(longest),
        )
    });
    let ext = v.ext();
    let expression = Cel::or(vec![
        v.ext_changed().not(),
        v.ext_is_id().not(),
        rendered.size_of().eq(&Cel::constant("0")),
        rendered.contains(&ext, longest),
    ]);
    let names =
        templates.map_each("t", most_parts, |t| t.nth(0, 2).nth(1, longest_name)).join_with(" or ", longest_name);
    let message_expression = Cel::concat(vec![
        Cel::lit("kubectl upjet guard: crossplane.io/external-name of "),
        v.target(),
        Cel::lit(" does not follow "),
        names,
        Cel::lit(", the ID format of its kind, which gives \""),
        rendered.nth(0, longest),
        Cel::lit("\" here; check the ID with: kubectl upjet doctor "),
        v.target(),
        Cel::lit(". This write: \""),
        ext,
        Cel::lit("\""),
    ]);
    Some(Policy::single(
        GuardRule::ExternalNameFormat,
        &["CREATE", "UPDATE"],
        covered,
        v,
        Validation { expression, message: MESSAGE.into(), message_expression, reason: Reason::Invalid },
    ))
}
