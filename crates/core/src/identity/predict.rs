//! Applying a kind's identity format to the MRs of that kind that lost their cloud object.

use super::infer::{Identity, Sample, fields_of, infer};
use super::template::{Field, Part, Template, UserTemplate};
use crate::candidate::{Candidate, Confidence};
use crate::finding::Finding;
use crate::managed::{ManagedResource, ProviderConfigKey};
use std::collections::BTreeMap;

/// The evidence key a prediction (or the reason there is none) is recorded under.
pub(crate) const EVIDENCE_KEY: &str = "identity";

/// The healthy peers of every kind a scan saw, as compact [`Sample`]s keyed by (group, kind), and
/// then what they teach: per kind, and per kind and provider config when a kind's peers use
/// several (two accounts or projects may put different constants into one kind's IDs).
#[derive(Debug, Default)]
pub struct Peers {
    samples: BTreeMap<(String, String), Vec<Sample>>,
    learned: BTreeMap<(String, String), Identity>,
    per_config: BTreeMap<(String, String, ProviderConfigKey), Identity>,
}

impl Peers {
    /// Keeps a sample of `mr` when it is a healthy peer.
    pub fn observe(&mut self, mr: &ManagedResource) {
        if let Some(s) = Sample::of(mr) {
            self.add(mr.group(), &mr.kind, s);
        }
    }

    /// Keeps a sample taken elsewhere (a scan's worker thread).
    pub fn add(&mut self, group: &str, kind: &str, sample: Sample) {
        self.samples.entry((group.to_string(), kind.to_string())).or_default().push(sample);
    }

    /// Infers every kind's format, dropping the samples.
    pub fn learn(&mut self) {
        for ((group, kind), mut samples) in std::mem::take(&mut self.samples) {
            self.learned.insert((group.clone(), kind.clone()), infer(&samples));
            if samples.iter().all(|s| s.provider_config == samples[0].provider_config) {
                continue;
            }
            samples.sort_by(|a, b| a.provider_config.cmp(&b.provider_config));
            for same in samples.chunk_by(|a, b| a.provider_config == b.provider_config) {
                let key = (group.clone(), kind.clone(), same[0].provider_config.clone());
                self.per_config.insert(key, infer(same));
            }
        }
    }

    /// What was learned about a kind (after [`Peers::learn`]).
    pub fn identity(&self, group: &str, kind: &str) -> Option<&Identity> {
        self.learned.get(&(group.to_string(), kind.to_string()))
    }

    /// What was learned for an MR: from the peers under its own provider config when its kind's
    /// peers use several and its own has peers, else from all the kind's peers.
    pub(crate) fn identity_for(&self, mr: &ManagedResource) -> Option<&Identity> {
        let key = (mr.group().to_string(), mr.kind.clone(), mr.provider_config_or_default());
        self.per_config.get(&key).or_else(|| self.identity(mr.group(), &mr.kind))
    }
}

/// What the identity format says about one MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prediction {
    /// One ID.
    Predicted(Candidate),
    /// Nothing predicted, and why (provider-assigned, ambiguous, too few peers, a missing field).
    None(String),
}

fn plural(kind: &str) -> String {
    match kind {
        k if k.ends_with('s') => format!("{k}es"),
        k if k.ends_with('y') => format!("{}ies", &k[..k.len() - 1]),
        k => format!("{k}s"),
    }
}

/// Literal tokens that look like values rather than structure (they hold a digit or a dash): the
/// project, account or subscription that the provider config supplies and the MR does not carry.
fn constants(t: &Template) -> Vec<&str> {
    let mut out: Vec<&str> = t
        .parts()
        .iter()
        .filter_map(|p| if let Part::Lit(s) = p { Some(s.as_str()) } else { None })
        .flat_map(|s| s.split(['/', ':', '_', '|', '@', ',', '=']))
        .filter(|w| w.len() >= 3 && w.contains(|c: char| c.is_ascii_digit() || c == '-'))
        .collect();
    out.dedup();
    out
}

fn values(mr: &ManagedResource) -> Vec<(Field, String)> {
    fields_of(mr)
}

fn lookup<'a>(values: &'a [(Field, String)], f: &Field) -> Option<&'a str> {
    values.iter().find(|(k, _)| k == f).map(|(_, v)| v.as_str())
}

/// Applies a user's template to an MR.
fn from_user(mr: &ManagedResource, user: &UserTemplate) -> Prediction {
    let vals = values(mr);
    match user.template.render(|f| lookup(&vals, f)) {
        Ok(id) => Prediction::Predicted(Candidate::new(
            id,
            "user template",
            Confidence::Medium,
            format!("template `{}` given with --id-template (wins over what healthy peers suggest)", user.template),
        )),
        Err(missing) => Prediction::None(format!(
            "the --id-template `{}` reads {missing}, which this MR does not set{}",
            user.template,
            if matches!(missing, Field::ProviderConfig(_)) {
                " (write the provider config's value into the template)"
            } else {
                ""
            }
        )),
    }
}

/// Applies the learned format to an MR.
fn from_peers(mr: &ManagedResource, identity: Option<&Identity>) -> Prediction {
    let kinds = plural(&mr.kind);
    let hint = format!("pass --id-template {}.{}=TEMPLATE to name the format", mr.kind.to_lowercase(), mr.group());
    let (peers, agreed, id_equal) = match identity {
        None | Some(Identity::TooFewPeers { .. }) => {
            let n = match identity {
                Some(Identity::TooFewPeers { peers }) => *peers,
                _ => 0,
            };
            return Prediction::None(format!(
                "no ID predicted: {n} healthy {kinds} to learn the ID format from (at least {} needed); {hint}",
                super::infer::MIN_PEERS
            ));
        }
        Some(Identity::ProviderAssigned { peers, example }) => {
            return Prediction::None(format!(
                "provider-assigned: the external-names of {peers} healthy {kinds} (e.g. `{example}`) follow no common template over their fields, so the cloud assigns part of the ID and it cannot be predicted"
            ));
        }
        Some(Identity::Templates { peers, agreed, id_equal }) => (*peers, agreed, *id_equal),
    };
    let vals = values(mr);
    let mut by_id: BTreeMap<String, Vec<&super::infer::Agreed>> = BTreeMap::new();
    let mut missing = None;
    for a in agreed {
        match a.template.render(|f| lookup(&vals, f)) {
            Ok(id) => by_id.entry(id).or_default().push(a),
            Err(f) => missing = missing.or(Some(f)),
        }
    }
    let count = agreed[0].count;
    match by_id.len() {
        0 => Prediction::None(format!(
            "template `{}` (agreed by {count} of {peers} healthy {kinds}) reads {}, which this MR does not set",
            agreed[0].template,
            missing.map(|f| f.to_string()).unwrap_or_default()
        )),
        1 => {
            let (id, templates) = by_id.into_iter().next().expect("one");
            let t = &templates[0].template;
            let mut evidence = format!("template `{t}`, agreed by {count} of {peers} healthy {kinds}");
            if id_equal == peers {
                evidence.push_str("; their status.atProvider.id equals the external-name");
            }
            let consts = constants(t);
            if !consts.is_empty() {
                evidence.push_str(&format!(
                    "; `{}` is the same in every peer and no field of the MR (likely the provider config's), taken as a constant",
                    consts.join("`, `")
                ));
            }
            let confidence = if count == peers { Confidence::Medium } else { Confidence::Low };
            Prediction::Predicted(Candidate::new(id, "peer template", confidence, evidence))
        }
        _ => {
            let options: Vec<String> =
                by_id.iter().map(|(id, ts)| format!("`{}` gives `{id}`", ts[0].template)).collect();
            Prediction::None(format!(
                "ambiguous: {} templates fit {count} of {peers} healthy {kinds} but disagree here ({}); no ID predicted, {hint}",
                by_id.len(),
                options.join("; ")
            ))
        }
    }
}

/// The prediction for one MR: a user template for its kind wins, else what its peers agree on.
pub fn predict(mr: &ManagedResource, peers: &Peers, users: &[UserTemplate]) -> Prediction {
    match users.iter().rev().find(|u| u.matches(&mr.kind, mr.group())) {
        Some(user) => from_user(mr, user),
        None => from_peers(mr, peers.identity_for(mr)),
    }
}

/// Completes an MR's "exists but untracked" findings that name no ID: the predicted ID becomes
/// their `suggestedId`, and the prediction's evidence (or why there is none) is recorded.
pub fn fill(findings: &mut [Finding], mr: &ManagedResource, peers: &Peers, users: &[UserTemplate]) {
    let mut prediction = None;
    for f in findings.iter_mut().filter(|f| f.code.wants_id() && f.suggested_id.is_none()) {
        let p = prediction.get_or_insert_with(|| predict(mr, peers, users));
        match p {
            Prediction::Predicted(c) => {
                f.suggested_id = Some(c.id.clone());
                f.evidence
                    .insert(EVIDENCE_KEY.into(), format!("{} ({}, {} confidence)", c.evidence, c.source, c.confidence));
            }
            Prediction::None(why) => {
                f.evidence.insert(EVIDENCE_KEY.into(), why.clone());
            }
        }
    }
}

#[cfg(test)]
#[path = "predict_tests.rs"]
mod tests;
