//! What the MRs' healthy peers teach about the record: whose calls are the provider's (per
//! provider config), which API call creates which kind, where its response holds the ID and how
//! the external-name is read out of it, and which request fields carry the MR's own values.
//!
//! upjet compiles all of this into each provider (the Terraform resource's API calls, the
//! kind's `config.ExternalName`), where no tool can read it; but every healthy MR whose create
//! is in the record shows it: its external-name appears in that create's response (or, for a
//! name the caller chose, its request). The same ID may appear in later calls (a `CreateTags`
//! on the VPC), so a peer's create is its *earliest* call naming the ID, response first.

use super::{Cloud, CloudCall, Verb};
use crate::identity::Field;
use crate::identity::infer::fields_of;
use crate::inventory::id_form::IdForm;
use crate::inventory::normalize_kind;
use crate::managed::{ManagedResource, ProviderConfigKey};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// Whose credentials a call uses: one provider config (kind, namespace, name) of one provider
/// family (`aws.upbound.io`, the API group without its first label). Every kind of a family
/// provider shares its provider configs, so peers of other kinds teach the same identity.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProviderKey {
    /// The API group without its first label.
    pub family: String,
    /// `spec.providerConfigRef` (the API server's default when unset).
    pub config: ProviderConfigKey,
}

impl ProviderKey {
    /// The key of an MR.
    pub fn of(mr: &ManagedResource) -> ProviderKey {
        let group = mr.group();
        let family = group.split_once('.').map_or(group, |(_, f)| f).to_string();
        ProviderKey { family, config: mr.provider_config_or_default() }
    }

    /// In words.
    pub fn describe(&self) -> String {
        format!("provider config {:?} of {}", self.config.to_string(), self.family)
    }
}

/// The normalised `kind.group` of an MR, the key lessons are kept under.
pub(crate) fn kind_key(mr: &ManagedResource) -> String {
    normalize_kind(&format!("{}.{}", mr.kind, mr.group()))
}

/// Where a kind's create holds the ID, and how the external-name is read out of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IdRule {
    /// The value's path (`hostedZone.id`, `resource`, a request path for names the caller chose).
    pub path: String,
    /// How the external-name is read out of that value.
    pub form: IdForm,
}

impl IdRule {
    /// The value the call holds there, and the external-name it gives.
    pub fn apply(&self, call: &CloudCall) -> Option<(String, String)> {
        let raw = call.value_at(&self.path)?;
        Some((raw.to_string(), self.form.apply(raw)?))
    }
}

/// A request value a kind's create carries: which MR field, and where the request holds it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestField {
    /// The MR's field.
    pub field: Field,
    /// The request path.
    pub path: String,
    /// Whether its value tells MRs apart (peers differ in it), rather than being a setting they
    /// share (`combiner: OR`): only an identifying value can attribute a create.
    pub identifying: bool,
}

/// What one kind's healthy peers teach.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindLesson {
    /// The actions their creates were made with.
    pub actions: BTreeSet<String>,
    /// Where the ID is, agreed by the most peers.
    pub id_rule: Option<IdRule>,
    /// How many peers agree with `id_rule`.
    pub id_agree: usize,
    /// The request fields a majority of peers' creates carry.
    pub fields: Vec<RequestField>,
    /// Healthy peers whose create the record holds.
    pub peers: usize,
}

impl KindLesson {
    /// The ID rule in words.
    pub(crate) fn describe_id(&self) -> String {
        match &self.id_rule {
            Some(r) => format!(
                "{} of the value at {}, agreed by {} of {} healthy peers",
                r.form.describe(),
                r.path,
                self.id_agree,
                self.peers
            ),
            None => "no healthy peer's create is in the record".into(),
        }
    }
}

/// Everything learned from the record and the healthy peers.
#[derive(Clone, Debug, Default)]
pub struct Lessons {
    /// The principals each provider config's peers were created by, with the peers counted.
    pub principals: HashMap<ProviderKey, BTreeMap<Arc<str>, usize>>,
    /// The accounts (projects, subscriptions) each provider config's peers were created in.
    pub accounts: HashMap<ProviderKey, BTreeSet<Arc<str>>>,
    /// Per kind ([`kind_key`]).
    pub kinds: HashMap<String, KindLesson>,
    /// The kinds each action creates.
    pub by_action: HashMap<String, BTreeSet<String>>,
}

/// A call whose ID values name an ID an MR tracks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdHit {
    /// Index of the call.
    pub call: usize,
    /// Index of the MR.
    pub mr: usize,
    /// The path of the value.
    pub path: String,
    /// How the tracked ID reads out of it.
    pub form: IdForm,
    /// From the response or resource path (the object the call made), not the request.
    pub from_response: bool,
}

/// The IDs an MR tracks: its external-name (never a placeholder) and `status.atProvider.id`.
pub(crate) fn tracked_ids(mr: &ManagedResource) -> impl Iterator<Item = &str> {
    mr.external_name().into_iter().chain(mr.at_provider_id.as_deref()).filter(|s| !s.trim().is_empty())
}

/// Every (create call, MR) pair where a value of the call reads, in some form, as an ID the MR
/// tracks: response and resource values first; request values only for calls whose response
/// names none (a bucket's name is only in its request). The external-name wins over
/// `status.atProvider.id` (an Azure object's full ARM ID), so the form learned is the one the
/// external-name has. IDs compare as their cloud compares them (`Cloud::id_key`).
pub(crate) fn id_hits(calls: &[Arc<CloudCall>], mrs: &[&ManagedResource]) -> Vec<IdHit> {
    let tracked = Tracked::of(mrs, calls);
    let mut hits = Vec::new();
    for (ci, call) in calls.iter().enumerate().filter(|(_, c)| c.verb == Verb::Create && c.outcome.made_something()) {
        // Per MR: the hit, and whether it reads the external-name.
        let mut found: Vec<(IdHit, bool)> = Vec::new();
        for (from_response, values) in
            [(true, call.id_values().collect::<Vec<_>>()), (false, call.request_values().collect())]
        {
            for (path, value) in values {
                for form in IdForm::ALL {
                    let Some(id) = form.apply(value) else { continue };
                    for &(mr, named) in tracked.get(call.cloud, &id) {
                        let hit = IdHit { call: ci, mr, path: path.to_string(), form, from_response };
                        match found.iter_mut().find(|(h, _)| h.mr == mr) {
                            Some(f) if named && !f.1 => *f = (hit, named),
                            Some(_) => {}
                            None => found.push((hit, named)),
                        }
                    }
                }
            }
            if !found.is_empty() {
                break;
            }
        }
        hits.extend(found.into_iter().map(|(h, _)| h));
    }
    hits
}

/// The IDs MRs track, looked up as each cloud of the record compares IDs ([`Cloud::id_key`]):
/// each with its MR and whether it is that MR's external-name (else its `status.atProvider.id`).
pub struct Tracked<'a> {
    by_cloud: Vec<(Cloud, HashMap<Cow<'a, str>, Vec<(usize, bool)>>)>,
}

impl<'a> Tracked<'a> {
    /// The IDs `mrs` track, by index, keyed as each cloud `calls` come from compares them.
    pub fn of(mrs: &[&'a ManagedResource], calls: &[Arc<CloudCall>]) -> Tracked<'a> {
        let clouds = calls.iter().fold(Vec::new(), |mut clouds: Vec<Cloud>, c| {
            if !clouds.contains(&c.cloud) {
                clouds.push(c.cloud);
            }
            clouds
        });
        let by_cloud = clouds
            .into_iter()
            .map(|cloud| {
                let mut ids: HashMap<Cow<'a, str>, Vec<(usize, bool)>> = HashMap::new();
                for (i, mr) in mrs.iter().enumerate() {
                    for id in tracked_ids(mr) {
                        ids.entry(cloud.id_key(id)).or_default().push((i, mr.external_name() == Some(id)));
                    }
                }
                (cloud, ids)
            })
            .collect();
        Tracked { by_cloud }
    }

    /// The MRs tracking `id` in `cloud`.
    pub fn get(&self, cloud: Cloud, id: &str) -> &[(usize, bool)] {
        let ids = self.by_cloud.iter().find(|(c, _)| *c == cloud).map(|(_, ids)| ids);
        ids.and_then(|ids| ids.get(&*cloud.id_key(id))).map_or(&[], Vec::as_slice)
    }
}

/// A healthy peer: Ready, Synced not False, not being deleted, with a real external-name.
pub fn healthy(mr: &ManagedResource) -> bool {
    mr.is_true("Ready") && !mr.is_false("Synced") && mr.deletion_timestamp.is_none() && mr.external_name().is_some()
}

/// Each healthy peer's create: the earliest of its ID hits, response hits first.
fn peer_creates<'h>(calls: &[Arc<CloudCall>], mrs: &[&ManagedResource], hits: &'h [IdHit]) -> Vec<&'h IdHit> {
    let mut best: HashMap<usize, &IdHit> = HashMap::new();
    for h in hits.iter().filter(|h| healthy(mrs[h.mr])) {
        let rank = |h: &IdHit| (!h.from_response, calls[h.call].at.is_none(), calls[h.call].at, h.call);
        match best.get(&h.mr) {
            Some(b) if rank(b) <= rank(h) => {}
            _ => {
                best.insert(h.mr, h);
            }
        }
    }
    let mut out: Vec<&IdHit> = best.into_values().collect();
    out.sort_by_key(|h| (h.mr, h.call));
    out
}

/// Per kind while learning: ID rules and request fields counted over peers.
#[derive(Default)]
struct Tally {
    rules: BTreeMap<IdRule, usize>,
    fields: BTreeMap<(Field, String), BTreeSet<String>>,
    field_counts: BTreeMap<(Field, String), usize>,
    lesson: KindLesson,
}

/// Learns from the healthy peers' creates.
pub fn learn(calls: &[Arc<CloudCall>], mrs: &[&ManagedResource], hits: &[IdHit]) -> Lessons {
    let mut lessons = Lessons::default();
    let mut tallies: HashMap<String, Tally> = HashMap::new();
    for h in peer_creates(calls, mrs, hits) {
        let (mr, call) = (mrs[h.mr], &calls[h.call]);
        let key = ProviderKey::of(mr);
        if let Some(p) = &call.principal {
            *lessons.principals.entry(key.clone()).or_default().entry(p.clone()).or_default() += 1;
        }
        if let Some(a) = &call.account {
            lessons.accounts.entry(key).or_default().insert(a.clone());
        }
        let kind = kind_key(mr);
        lessons.by_action.entry(call.action_key.to_string()).or_default().insert(kind.clone());
        let t = tallies.entry(kind).or_default();
        t.lesson.peers += 1;
        t.lesson.actions.insert(call.action_key.to_string());
        *t.rules.entry(IdRule { path: h.path.clone(), form: h.form }).or_default() += 1;
        let mut seen = BTreeSet::new();
        for (field, value) in fields_of(mr).into_iter().filter(|(_, v)| !v.is_empty()) {
            for (path, v) in call.request_values() {
                if v == value && seen.insert((field.clone(), path.to_string())) {
                    let k = (field.clone(), path.to_string());
                    *t.field_counts.entry(k.clone()).or_default() += 1;
                    let values = t.fields.entry(k).or_default();
                    if values.len() < 3 {
                        values.insert(value.clone());
                    }
                }
            }
        }
    }
    for (kind, t) in tallies {
        lessons.kinds.insert(kind, finish(t));
    }
    lessons
}

/// The lesson of one kind from its tallies: the ID rule most peers agree on (ties: the first in
/// path order, so the result does not depend on hash order), and the fields a majority carries.
fn finish(t: Tally) -> KindLesson {
    let mut lesson = t.lesson;
    if let Some((rule, n)) = t.rules.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))) {
        lesson.id_rule = Some(rule.clone());
        lesson.id_agree = *n;
    }
    for ((field, path), n) in t.field_counts {
        if n * 2 <= lesson.peers {
            continue;
        }
        let values = &t.fields[&(field.clone(), path.clone())];
        let identifying = values.len() > 1 || (lesson.peers == 1 && values.iter().all(|v| looks_identifying(v)));
        lesson.fields.push(RequestField { field, path, identifying });
    }
    lesson
}

/// A value that can name one object rather than a setting many share: not a boolean, not a
/// small number, at least three characters.
pub(crate) fn looks_identifying(v: &str) -> bool {
    v.chars().count() >= 3 && !matches!(v, "true" | "false" | "null") && v.parse::<i64>().is_err()
}

/// Who the provider of an MR's provider config is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// Its principals, and how they are known.
    Known(Vec<Arc<str>>, String),
    /// Neither a healthy peer nor `--cloud-principal` says.
    Unknown,
}

impl Lessons {
    /// The identity of `key`'s provider: what its peers' creates show, else the principals the
    /// user gave (`--cloud-principal`), else unknown. Peers of another provider config are not
    /// used: other credentials may be another account.
    pub fn identity(&self, key: &ProviderKey, given: &[String]) -> Identity {
        if let Some(p) = self.principals.get(key).filter(|p| !p.is_empty()) {
            let peers: usize = p.values().sum();
            let how = format!("learned from {peers} healthy peer(s) of {}", key.describe());
            return Identity::Known(p.keys().cloned().collect(), how);
        }
        if given.is_empty() {
            return Identity::Unknown;
        }
        Identity::Known(given.iter().map(|g| Arc::from(g.as_str())).collect(), "given with --cloud-principal".into())
    }

    /// The provider configs each principal is learned for, when several share it.
    pub(crate) fn shared_principals(&self) -> BTreeMap<Arc<str>, Vec<&ProviderKey>> {
        let mut by: BTreeMap<Arc<str>, Vec<&ProviderKey>> = BTreeMap::new();
        for (key, ps) in &self.principals {
            for p in ps.keys() {
                by.entry(p.clone()).or_default().push(key);
            }
        }
        by.retain(|_, keys| keys.len() > 1);
        for keys in by.values_mut() {
            keys.sort();
        }
        by
    }
}

/// Whether a call's principal is one of `known`: equal (ignoring case: emails and Azure IDs
/// are case-insensitive), a bare name equal to its last `/`-segment (a role or service principal
/// given by name), or an AWS assumed-role ARN (`arn:aws:sts::ACCT:assumed-role/ROLE/SESSION`, as
/// `aws sts get-caller-identity` prints it) naming the same account and role.
pub(crate) fn principal_is(call: &str, known: &[Arc<str>]) -> bool {
    let last = call.rsplit('/').next().unwrap_or(call);
    let account = call.split(':').nth(4).unwrap_or_default();
    known.iter().any(|k| {
        if call.eq_ignore_ascii_case(k) {
            return true;
        }
        if !k.contains(':') && !k.contains('@') {
            return last == &**k;
        }
        match k.split_once(":assumed-role/") {
            Some((head, rest)) => {
                let role = rest.split('/').next().unwrap_or(rest);
                head.split(':').nth(4) == Some(account) && role == last && call.contains(":role/")
            }
            None => false,
        }
    })
}

/// Whether an action's name names a kind (`CreateHostedZone` and `Zone`,
/// `v1.compute.networks.insert` and `Network`, `Microsoft.Network/virtualNetworks/write` and
/// `VirtualNetwork`): the mapping used for kinds no healthy peer teaches.
pub(crate) fn action_names_kind(call: &CloudCall, kind: &str) -> bool {
    let kind = kind.to_ascii_lowercase();
    let noun = &*call.action_noun;
    !noun.is_empty() && (noun == kind || noun.ends_with(&kind))
}
