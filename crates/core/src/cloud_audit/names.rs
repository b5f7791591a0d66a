//! How a create's request names an MR, and what ID it gives: the lookups and comparisons
//! [`super::attribute`] ties calls with.

use super::CloudCall;
use super::learn::{self, KindLesson, Lessons, kind_key, tracked_ids};
use crate::identity::Field;
use crate::inventory::id_form::tracks;
use crate::inventory::{Cloud, normalize_kind};
use crate::managed::ManagedResource;
use std::collections::{BTreeMap, HashMap};

/// Lookups from a request's values to the MRs they may name. Keyed by a number per kind and by
/// the MRs' and lessons' own strings (borrowed, not copied): built over the whole fleet, it is
/// alive at the check's peak memory.
#[derive(Default)]
pub(super) struct Index<'a> {
    /// Normalised kind key → the number the maps below key it by.
    kinds: HashMap<String, u32>,
    /// (kind, name) → MRs, for `crossplane-name` tags.
    tag: HashMap<(u32, &'a str), Vec<usize>>,
    /// (kind, request path, value) → MRs, for the identifying fields their kind's peers teach.
    field: HashMap<(u32, &'a str, &'a str), Vec<usize>>,
    /// (kind, value) → MRs, for kinds no peer teaches: name, external-name, `forProvider.name`.
    name: HashMap<(u32, &'a str), Vec<usize>>,
    /// Kinds no peer teaches: normalised key → `Kind`.
    pub(super) unlearned: BTreeMap<String, String>,
}

impl<'a> Index<'a> {
    pub(super) fn new(mrs: &[&'a ManagedResource], lessons: &'a Lessons) -> Index<'a> {
        let mut ix = Index::default();
        for (i, mr) in mrs.iter().enumerate() {
            let kind = kind_key(mr);
            let next = ix.kinds.len() as u32;
            let k = *ix.kinds.entry(kind.clone()).or_insert(next);
            ix.tag.entry((k, mr.name.as_str())).or_default().push(i);
            let fields: Vec<_> = lessons.kinds.get(&kind).map(|l| identifying(l).collect()).unwrap_or_default();
            if fields.is_empty() {
                for (_, v) in identifying_values(mr) {
                    ix.name.entry((k, v)).or_default().push(i);
                }
                if !lessons.kinds.contains_key(&kind) {
                    ix.unlearned.insert(kind, mr.kind.clone());
                }
                continue;
            }
            for (field, path) in fields {
                if let Some(v) = field_value(mr, field) {
                    ix.field.entry((k, path, v)).or_default().push(i);
                }
            }
        }
        ix
    }

    /// The MRs of `kind` named `name` (a `crossplane-name` tag).
    pub(super) fn tagged<'s>(&'s self, kind: &str, name: &'s str) -> &'s [usize] {
        self.kinds.get(kind).and_then(|&k| self.tag.get(&(k, name))).map_or(&[], Vec::as_slice)
    }

    /// The MRs of `kind` (one no peer teaches) whose identifying value is `value`.
    pub(super) fn named<'s>(&'s self, kind: &str, value: &'s str) -> &'s [usize] {
        self.kinds.get(kind).and_then(|&k| self.name.get(&(k, value))).map_or(&[], Vec::as_slice)
    }

    /// The MRs of `kind` whose value of the field its peers send at `path` is `value`.
    pub(super) fn by_field<'s>(&'s self, kind: &str, path: &'s str, value: &'s str) -> &'s [usize] {
        self.kinds.get(kind).and_then(|&k| self.field.get(&(k, path, value))).map_or(&[], Vec::as_slice)
    }
}

/// The identifying request fields of a lesson.
pub(super) fn identifying(l: &KindLesson) -> impl Iterator<Item = (&Field, &str)> {
    l.fields.iter().filter(|f| f.identifying).map(|f| (&f.field, f.path.as_str()))
}

/// An MR's value of a field.
pub(super) fn field_value<'m>(mr: &'m ManagedResource, field: &Field) -> Option<&'m str> {
    match field {
        Field::Name => Some(mr.name.as_str()),
        Field::Namespace => mr.namespace.as_deref(),
        Field::ForProvider(k) => mr.for_provider.get(k).map(String::as_str),
        Field::ProviderConfig(_) => mr.provider_config.as_ref().map(|k| k.name.as_str()),
    }
    .filter(|v| !v.is_empty())
}

/// The values that name an MR when its kind teaches nothing: its name, its external-name and
/// `forProvider.name`, when they can name one object.
pub(super) fn identifying_values(mr: &ManagedResource) -> impl Iterator<Item = (&'static str, &str)> {
    [
        ("name", Some(mr.name.as_str())),
        ("external-name", mr.external_name()),
        ("forProvider.name", mr.for_provider.get("name").map(String::as_str)),
    ]
    .into_iter()
    .filter_map(|(what, v)| Some((what, v?)))
    .filter(|(_, v)| learn::looks_identifying(v))
}

/// Whether a create's request names an MR, and how: its `crossplane-name` tag decides when it
/// has one; else every field the kind's peers carry must agree and an identifying one must be
/// present; else (no lesson) its name must appear.
pub(super) fn names_mr(call: &CloudCall, mr: &ManagedResource, lesson: Option<&KindLesson>) -> Option<String> {
    if let Some(tag) = &call.tags.name {
        let kind_ok = call.tags.kind.as_deref().is_none_or(|k| normalize_kind(k) == kind_key(mr));
        let ns_ok = call.tags.namespace.is_none() || call.tags.namespace == mr.namespace;
        return (*tag == mr.name && kind_ok && ns_ok).then(|| format!("its crossplane-name tag {tag:?}"));
    }
    if let Some(l) = lesson.filter(|l| identifying(l).next().is_some()) {
        let mut matched = Vec::new();
        for f in &l.fields {
            let Some(v) = field_value(mr, &f.field) else { continue };
            let at: Vec<&str> = call.request_values().filter(|(p, _)| *p == f.path).map(|(_, v)| v).collect();
            if at.is_empty() {
                continue;
            }
            if !at.contains(&v) {
                return None;
            }
            let said = format!("{v:?} at {}", f.path);
            if f.identifying && !matched.iter().any(|m: &String| m.ends_with(&said)) {
                matched.push(format!("{} {said}", f.field));
            }
        }
        return (!matched.is_empty()).then(|| format!("its request carries {}", matched.join(", ")));
    }
    let values: Vec<(&str, &str)> = call.request_values().collect();
    identifying_values(mr).find_map(|(what, v)| {
        let (path, _) = values.iter().find(|(_, rv)| *rv == v)?;
        Some(format!("its {what} {v:?} in the request at {path} (no healthy peer teaches this kind's fields)"))
    })
}

/// The ID a create gives: by the kind's rule, else (unproven) the response's most ID-like value:
/// one under the key the action names (`hostedZone.id` for `CreateHostedZone`, not
/// `changeInfo.id`), the shallowest first; else the resource path.
pub(super) fn id_of(call: &CloudCall, lesson: Option<&KindLesson>) -> (Option<String>, Option<String>) {
    if let Some((raw, id)) = lesson.and_then(|l| l.id_rule.as_ref()).and_then(|r| r.apply(call)) {
        return (Some(id), Some(raw));
    }
    let noun = &*call.action_noun;
    let id_like = |p: &str| {
        let last = p.rsplit('.').next().unwrap_or(p).to_ascii_lowercase();
        last != "requestid" && (last.ends_with("id") || last.ends_with("arn") || last == "name")
    };
    let rank = |p: &str| {
        let top = p.split('.').next().unwrap_or(p).to_ascii_lowercase();
        (noun.is_empty() || !noun.contains(&top), p.matches('.').count())
    };
    let raw =
        call.response.iter().filter(|p| id_like(&p.path)).min_by_key(|p| rank(&p.path)).map(|p| p.value.to_string());
    (None, raw.or_else(|| call.resource.as_deref().map(str::to_owned)))
}

/// Whether an observed object is one the MR tracks.
pub(super) fn is_tracked(mr: &ManagedResource, cloud: Cloud, id: Option<&str>, raw: Option<&str>) -> bool {
    tracked_ids(mr).any(|t| [id, raw].into_iter().flatten().any(|v| tracks(t, v, cloud)))
}
