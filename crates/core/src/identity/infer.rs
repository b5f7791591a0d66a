//! Learning a kind's identity format from its healthy peers.
//!
//! Each healthy MR (Ready, external-name set) shows how its provider turned its spec into an ID.
//! Its external-name is cut into the values of its own fields (name, namespace, forProvider
//! scalars, provider config name) and the literal text between them; every way of doing so is a
//! template that fits this peer. A template that fits every peer (or a supermajority) is the
//! kind's format. A value that no field explains (a random suffix, `vpc-0abc…`, a UUID) makes
//! every peer's template different, so nothing is agreed: the ID is provider-assigned and must
//! never be predicted.

use super::template::{Field, Part, Template};
use crate::managed::{ManagedResource, ProviderConfigKey};

/// Fewer healthy peers than this prove nothing.
pub(crate) const MIN_PEERS: usize = 3;
/// A template must fit at least this share of the peers (in percent) to count as agreed.
pub(crate) const SUPERMAJORITY_PERCENT: usize = 90;
/// At most this many templates are enumerated per peer (values that overlap multiply them).
const MAX_FITS: usize = 64;
/// Candidate templates are enumerated from this many peers, then counted over all of them.
const SEED_PEERS: usize = 8;

/// What inference keeps of one healthy MR: its IDs and only the fields whose values occur in them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The external-name.
    pub external_name: String,
    /// `status.atProvider.id`, if set.
    pub id: Option<String>,
    /// The fields whose values occur in the external-name or the ID.
    pub fields: Vec<(Field, String)>,
    /// The MR's provider config: peers under different ones (different accounts or projects)
    /// may write different constants, so they are also learned apart.
    pub provider_config: ProviderConfigKey,
}

/// Every field of an MR a template may read, with its value.
pub(crate) fn fields_of(mr: &ManagedResource) -> Vec<(Field, String)> {
    let mut out = vec![(Field::Name, mr.name.clone())];
    if let Some(ns) = &mr.namespace {
        out.push((Field::Namespace, ns.clone()));
    }
    out.extend(mr.for_provider.iter().map(|(k, v)| (Field::ForProvider(k.clone()), v.clone())));
    if let Some(pc) = &mr.provider_config {
        out.push((Field::ProviderConfig("name".into()), pc.name.clone()));
    }
    out
}

impl Sample {
    /// The sample of a healthy MR (Ready=True, Synced not False, external-name set), else `None`.
    pub fn of(mr: &ManagedResource) -> Option<Sample> {
        let external_name = mr.external_name()?;
        if !mr.is_true("Ready") || mr.is_false("Synced") || mr.deletion_timestamp.is_some() {
            return None;
        }
        Some(Sample::named(mr, external_name))
    }

    /// The sample of a manifest (desired state, no status to be healthy by) that sets an
    /// external-name, else `None`: what a repository's manifests of one kind teach about its
    /// format, for the lint.
    pub(crate) fn of_desired(mr: &ManagedResource) -> Option<Sample> {
        mr.external_name().map(|name| Sample::named(mr, name))
    }

    /// The sample of `mr` holding `external_name`.
    fn named(mr: &ManagedResource, external_name: &str) -> Sample {
        let id = mr.at_provider_id.clone();
        let mut fields: Vec<_> = fields_of(mr)
            .into_iter()
            .filter(|(_, v)| {
                !occurrences(v, external_name).is_empty()
                    || id.as_deref().is_some_and(|i| !occurrences(v, i).is_empty())
            })
            .collect();
        // The filter keeps one or two of the MR's fields, in place: without this, every healthy
        // MR of a fleet keeps room for all of them until the formats are learned.
        fields.shrink_to_fit();
        Sample {
            external_name: external_name.to_string(),
            id,
            fields,
            provider_config: mr.provider_config_or_default(),
        }
    }

    fn value(&self, f: &Field) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == f).map(|(_, v)| v.as_str())
    }
}

/// Start offsets where `value` occurs in `target` as a whole token: not glued to letters or
/// digits on either side, so `a` in `rrsets/a` counts but the `a` in `data` does not.
pub(crate) fn occurrences(value: &str, target: &str) -> Vec<usize> {
    if value.is_empty() {
        return Vec::new();
    }
    let glued = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    target
        .match_indices(value)
        .map(|(i, _)| i)
        .filter(|&i| {
            let before = target[..i].chars().next_back();
            let after = target[i + value.len()..].chars().next();
            let first = value.chars().next();
            let last = value.chars().next_back();
            let glued_before = glued(before) && glued(first);
            let glued_after = glued(after) && glued(last);
            !glued_before && !glued_after
        })
        .collect()
}

/// Every template (with at least one placeholder) that turns these fields into `target`, the
/// ones reading the most fields first, at most [`MAX_FITS`].
pub fn fits(fields: &[(Field, String)], target: &str) -> Vec<Template> {
    let mut occ: Vec<(usize, usize, &Field)> =
        fields.iter().flat_map(|(f, v)| occurrences(v, target).into_iter().map(move |i| (i, i + v.len(), f))).collect();
    occ.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)));
    let mut out = Vec::new();
    let mut chosen = Vec::new();
    enumerate(&occ, 0, 0, &mut chosen, target, &mut out);
    out.sort_by_key(|t: &Template| std::cmp::Reverse(t.placeholders()));
    out.dedup();
    out
}

fn enumerate<'a>(
    occ: &[(usize, usize, &'a Field)],
    i: usize,
    pos: usize,
    chosen: &mut Vec<(usize, usize, &'a Field)>,
    target: &str,
    out: &mut Vec<Template>,
) {
    if out.len() >= MAX_FITS {
        return;
    }
    let Some(&(start, end, field)) = occ.get(i) else {
        if !chosen.is_empty() {
            out.push(build(chosen, target));
        }
        return;
    };
    if start >= pos {
        chosen.push((start, end, field));
        enumerate(occ, i + 1, end, chosen, target, out);
        chosen.pop();
    }
    enumerate(occ, i + 1, pos, chosen, target, out);
}

fn build(chosen: &[(usize, usize, &Field)], target: &str) -> Template {
    let mut parts = Vec::new();
    let mut pos = 0;
    for &(start, end, f) in chosen {
        parts.push(Part::Lit(target[pos..start].to_string()));
        parts.push(Part::Field(f.clone()));
        pos = end;
    }
    parts.push(Part::Lit(target[pos..].to_string()));
    Template::from_parts(parts)
}

/// A template and how many peers it fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreed {
    /// The template.
    pub template: Template,
    /// Peers whose ID it reproduces.
    pub count: usize,
}

/// What a kind's healthy peers say about its identity format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// Fewer than [`MIN_PEERS`] healthy peers: nothing is learned.
    TooFewPeers {
        /// Healthy peers seen.
        peers: usize,
    },
    /// No template fits a supermajority: the provider assigns the ID.
    ProviderAssigned {
        /// Healthy peers seen.
        peers: usize,
        /// One peer's external-name, to show what the IDs look like.
        example: String,
    },
    /// Templates that fit the most peers (at least a supermajority), best first.
    Templates {
        /// Healthy peers seen.
        peers: usize,
        /// The agreed templates, all with the same (highest) count.
        agreed: Vec<Agreed>,
        /// How many peers' `status.atProvider.id` equals their external-name.
        id_equal: usize,
    },
}

/// The templates reproducing `target` of a supermajority of `samples`, all with the top count.
fn agree(samples: &[Sample], target: impl Fn(&Sample) -> Option<&str>) -> Vec<Agreed> {
    let with_target: Vec<(&Sample, &str)> = samples.iter().filter_map(|s| Some((s, target(s)?))).collect();
    let peers = samples.len();
    let needed = (peers * SUPERMAJORITY_PERCENT).div_ceil(100).max(MIN_PEERS);
    let mut seeds: Vec<Template> = with_target.iter().take(SEED_PEERS).flat_map(|(s, t)| fits(&s.fields, t)).collect();
    seeds.sort();
    seeds.dedup();
    let mut agreed: Vec<Agreed> = seeds
        .into_iter()
        .filter_map(|template| {
            let mut count = 0;
            for (i, (s, t)) in with_target.iter().enumerate() {
                if template.render(|f| s.value(f)).is_ok_and(|r| r == *t) {
                    count += 1;
                } else if with_target.len() - (i + 1) + count < needed {
                    return None;
                }
            }
            (count >= needed).then_some(Agreed { template, count })
        })
        .collect();
    let top = agreed.iter().map(|a| a.count).max().unwrap_or(0);
    agreed.retain(|a| a.count == top);
    agreed.sort_by_key(|a| (std::cmp::Reverse(a.template.placeholders()), literal_len(&a.template)));
    agreed
}

/// The length of a template's literal text: among equally good templates, the one explaining more
/// of the ID by fields reads better.
pub(crate) fn literal_len(t: &Template) -> usize {
    t.parts().iter().map(|p| if let Part::Lit(s) = p { s.len() } else { 0 }).sum()
}

/// Infers a kind's identity format from the samples of its healthy peers.
pub fn infer(samples: &[Sample]) -> Identity {
    let peers = samples.len();
    if peers < MIN_PEERS {
        return Identity::TooFewPeers { peers };
    }
    let agreed = agree(samples, |s| Some(s.external_name.as_str()));
    if agreed.is_empty() {
        let example = samples[0].external_name.clone();
        return Identity::ProviderAssigned { peers, example };
    }
    let id_equal = samples.iter().filter(|s| s.id.as_deref() == Some(s.external_name.as_str())).count();
    Identity::Templates { peers, agreed, id_equal }
}

#[cfg(test)]
#[path = "infer_tests.rs"]
mod tests;
