//! Tying the record's calls to MRs, and saying what cannot be tied.
//!
//! A create is an MR's when its ID is the one the MR tracks, or when it is a create of the MR's
//! kind made by its provider's identity inside its create window whose request names the MR's
//! own values (its `crossplane-name` tag; else the request fields its kind's peers carry, which
//! must all agree and include one that tells MRs apart; else, for a kind no peer teaches, its
//! name). A create that names several MRs, or comes from an account the provider's peers do not
//! use, or whose provider identity nobody knows, is reported and tied to nothing.

use super::learn::{self, IdHit, Identity, KindLesson, Lessons, ProviderKey, kind_key, principal_is, tracked_ids};
use super::names::{Index, id_of, identifying, is_tracked, names_mr};
use super::{CloudCall, Verb, Window};
use crate::gotime::GoTime;
use crate::inventory::id_form::IdForm;
use crate::inventory::matching::mr_key;
use crate::managed::ManagedResource;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// One create the record ties to an MR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    /// The call.
    pub call: Arc<CloudCall>,
    /// The external-name it gives, in the form the kind's healthy peers prove; `None` when no
    /// peer proves a form.
    pub id: Option<String>,
    /// The value the ID was read from: the cloud's own ID.
    pub raw_id: Option<String>,
    /// Why it is this MR's.
    pub by: Arc<str>,
    /// Whether the MR tracks the object it made.
    pub tracked: bool,
}

impl Observed {
    /// The object it made: the external-name when proven, else the cloud's ID.
    pub fn object(&self) -> Option<&str> {
        self.id.as_deref().or(self.raw_id.as_deref())
    }
}

/// A create of the MR that failed because the object exists, and the objects it ran into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The failed call.
    pub call: Arc<CloudCall>,
    /// What the record says exists: earlier creates for the MR (by anyone), or the name the
    /// failed call asked for read in the kind's form.
    pub existing: Vec<Observed>,
}

/// A delete of the object the MR tracks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deleted {
    /// The call.
    pub call: Arc<CloudCall>,
    /// The tracked ID it deleted.
    pub id: String,
    /// Whether the provider's identity made it; `None` when that identity is unknown.
    pub by_provider: Option<bool>,
}

/// A call that names the MR but is tied to nothing, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unattributed {
    /// The call.
    pub call: Arc<CloudCall>,
    /// Why it was not tied to this MR.
    pub why: String,
}

/// Everything the record says about one MR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MrCloudAudit {
    /// Creates by its provider tied to it (or making the object it tracks), oldest first.
    pub creates: Vec<Observed>,
    /// Creates by other principals whose request names it, oldest first.
    pub others: Vec<Observed>,
    /// Its creates answered "already exists".
    pub conflicts: Vec<Conflict>,
    /// Deletes of the object it tracks.
    pub deletes: Vec<Deleted>,
    /// Calls naming it that could not be tied to it.
    pub unattributed: Vec<Unattributed>,
    /// How its provider's identity is known, if it is (one copy per provider config).
    pub identity: Option<Arc<str>>,
    /// How its kind's ID is read from a create, in words (one copy per kind).
    pub id_rule: Arc<str>,
    /// The ID it tracks (external-name, else `status.atProvider.id`).
    pub tracked: Option<String>,
}

impl MrCloudAudit {
    fn is_empty(&self) -> bool {
        self.creates.is_empty()
            && self.others.is_empty()
            && self.conflicts.is_empty()
            && self.deletes.is_empty()
            && self.unattributed.is_empty()
    }

    /// The record's calls about this MR, one line each with its `file:line`, for a timeline:
    /// its provider's creates (and the object each made), others' creates naming it, creates
    /// answered "already exists", deletes of its object, and calls not tied to it with why.
    pub fn lines(&self) -> Vec<(Option<GoTime>, String)> {
        let made = |o: &Observed| match (o.object(), o.tracked) {
            (Some(id), true) => format!(": made {id:?}, the object this MR tracks"),
            (Some(id), false) => format!(": made {id:?}, which this MR does not track"),
            (None, _) => String::new(),
        };
        let mut out: Vec<(Option<GoTime>, String)> = Vec::new();
        for o in &self.creates {
            out.push((o.call.at, format!("create {}{} ({})", o.call.describe(), made(o), o.by)));
        }
        for o in &self.others {
            out.push((o.call.at, format!("create by another principal {}{} ({})", o.call.describe(), made(o), o.by)));
        }
        for c in &self.conflicts {
            out.push((c.call.at, format!("create answered \"already exists\": {}", c.call.describe())));
        }
        for d in &self.deletes {
            let who = match d.by_provider {
                Some(true) => "by the provider",
                Some(false) => "by someone other than the provider",
                None => "(the provider's identity is unknown)",
            };
            out.push((d.call.at, format!("delete of {:?} {who}: {}", d.id, d.call.describe())));
        }
        for u in &self.unattributed {
            out.push((u.call.at, format!("create not tied to this MR ({}): {}", u.why, u.call.describe())));
        }
        out
    }

    /// The distinct objects its provider's creates made, oldest first, each with its first create.
    pub fn objects(&self) -> Vec<&Observed> {
        let mut out: Vec<&Observed> = Vec::new();
        for c in &self.creates {
            if let Some(id) = c.object()
                && !out.iter().any(|o| o.object() == Some(id))
            {
                out.push(c);
            }
        }
        out
    }
}

/// How the check runs: the principals the user gave, and the window of each MR (the hook a
/// restore verdict uses to look before the MR now in the cluster existed).
pub struct Options<'a> {
    /// `--cloud-principal`: the identity of providers no healthy peer shows.
    pub principals: &'a [String],
    /// Each MR's create window.
    pub window: &'a dyn Fn(&ManagedResource) -> Option<Window>,
}

/// The result over a fleet.
#[derive(Clone, Debug, Default)]
pub struct CloudAuditCheck {
    /// Per MR, by [`mr_key`], only MRs the record says something about.
    pub per_mr: HashMap<String, MrCloudAudit>,
    /// What was learned and what could not be tied, for the run's notes.
    pub notes: Vec<String>,
}

impl CloudAuditCheck {
    /// What the record says about one MR.
    pub fn for_mr(&self, mr: &ManagedResource) -> Option<&MrCloudAudit> {
        self.per_mr.get(&mr_key(mr))
    }
}

/// Ties `calls` to `mrs` (every MR known: the healthy ones teach, and a create that names two
/// MRs must be seen naming both).
pub fn check(calls: &[Arc<CloudCall>], mrs: &[&ManagedResource], opts: &Options) -> CloudAuditCheck {
    let hits = learn::id_hits(calls, mrs);
    let lessons = learn::learn(calls, mrs, &hits);
    let mut st = State::new(calls, mrs, &lessons, opts);
    st.by_id(&hits);
    st.by_request();
    st.conflicts();
    // The request lookups are done with: freed before the deletes' ID lookups are built (the
    // check's peak memory for a large fleet).
    st.index = Index::default();
    st.deletes();
    st.finish()
}

/// Counts for the notes.
#[derive(Default)]
struct Stats {
    by_id: usize,
    by_request: usize,
    ambiguous: usize,
    other_accounts: BTreeMap<Arc<str>, usize>,
    unknown_identity: BTreeMap<ProviderKey, usize>,
}

/// The check while it runs.
struct State<'a> {
    calls: &'a [Arc<CloudCall>],
    mrs: &'a [&'a ManagedResource],
    lessons: &'a Lessons,
    opts: &'a Options<'a>,
    per: Vec<MrCloudAudit>,
    attributed: Vec<bool>,
    identities: HashMap<ProviderKey, Identity>,
    index: Index<'a>,
    stats: Stats,
    texts: super::Interner,
}

/// Where a create that names an MR stands with that MR.
enum Standing {
    /// Its provider's, in its account: tied if no other MR contends.
    Provider(String),
    /// Its provider's identity is unknown: contends, never tied.
    Unknown(String),
    /// Another principal made it.
    Other(String),
    /// From an account the MR's provider peers do not use.
    OtherAccount(String),
}

impl<'a> State<'a> {
    fn new(
        calls: &'a [Arc<CloudCall>],
        mrs: &'a [&'a ManagedResource],
        lessons: &'a Lessons,
        opts: &'a Options,
    ) -> Self {
        let mut identities = HashMap::new();
        for mr in mrs {
            let key = ProviderKey::of(mr);
            identities.entry(key).or_insert_with_key(|key| lessons.identity(key, opts.principals));
        }
        State {
            calls,
            mrs,
            lessons,
            opts,
            per: vec![MrCloudAudit::default(); mrs.len()],
            attributed: vec![false; calls.len()],
            identities,
            index: Index::new(mrs, lessons),
            stats: Stats::default(),
            texts: Default::default(),
        }
    }

    fn lesson(&self, mr: usize) -> Option<&'a KindLesson> {
        self.lessons.kinds.get(&kind_key(self.mrs[mr]))
    }

    fn identity(&self, mr: usize) -> &Identity {
        &self.identities[&ProviderKey::of(self.mrs[mr])]
    }

    /// Creates whose ID the MR tracks are its own, whoever made them and whenever (an imported
    /// object was made before its MR): but only a create of its kind (a `CreateTags` naming the
    /// VPC is not its create), or for a kind no peer teaches, a call whose response holds the ID.
    fn by_id(&mut self, hits: &[IdHit]) {
        for h in hits {
            let call = &self.calls[h.call];
            let ok = match self.lesson(h.mr) {
                Some(l) => l.actions.contains(&*call.action_key),
                None => h.from_response,
            };
            if !ok {
                continue;
            }
            self.attributed[h.call] = true;
            self.stats.by_id += 1;
            let raw = call.value_at(&h.path).map(str::to_owned);
            let id = raw.as_deref().and_then(|r| h.form.apply(r));
            let by = format!("its ID is the one the MR tracks (the value at {})", h.path);
            let by = self.shared(by);
            self.per[h.mr].creates.push(Observed { call: call.clone(), id, raw_id: raw, by, tracked: true });
        }
    }

    /// The kinds a create may be of: those whose peers were created by its action, and those no
    /// peer teaches whose name the action names.
    fn kinds_of(&self, call: &CloudCall) -> Vec<String> {
        let mut kinds: Vec<String> =
            self.lessons.by_action.get(&*call.action_key).into_iter().flatten().cloned().collect();
        for (key, kind) in &self.index.unlearned {
            if learn::action_names_kind(call, kind) {
                kinds.push(key.clone());
            }
        }
        kinds
    }

    /// The MRs a create's request may name, from the lookups.
    fn candidates(&self, call: &CloudCall, kinds: &[String]) -> Vec<usize> {
        let mut out = Vec::new();
        let ix = &self.index;
        for kind in kinds {
            if let Some(tag) = &call.tags.name {
                out.extend(ix.tagged(kind, tag));
                continue;
            }
            let fields: Vec<_> = self.lessons.kinds.get(kind).map(|l| identifying(l).collect()).unwrap_or_default();
            for (p, v) in call.request_values() {
                if fields.is_empty() {
                    out.extend(ix.named(kind, v));
                } else if fields.iter().any(|(_, fp)| *fp == p) {
                    out.extend(ix.by_field(kind, p, v));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Where a create that names MR `m` (by `how`) stands with it; `None` outside its window.
    fn standing(&self, call: &CloudCall, m: usize, how: String) -> Option<Standing> {
        let mr = self.mrs[m];
        let window = (self.opts.window)(mr)?;
        if !call.at.is_some_and(|t| window.contains(t)) {
            return None;
        }
        let key = ProviderKey::of(mr);
        match (self.identity(m), &call.principal) {
            (Identity::Unknown, _) => return Some(Standing::Unknown(how)),
            (Identity::Known(ps, _), Some(p)) if principal_is(p, ps) => {}
            _ => return Some(Standing::Other(how)),
        }
        match (self.lessons.accounts.get(&key), &call.account) {
            (Some(accounts), Some(a)) if !accounts.is_empty() && !accounts.contains(a) => {
                let known: Vec<&str> = accounts.iter().map(|a| &**a).collect();
                Some(Standing::OtherAccount(format!(
                    "{how}, but it was made in {a} and the healthy peers of {} were created in {}",
                    key.describe(),
                    known.join(", ")
                )))
            }
            _ => Some(Standing::Provider(how)),
        }
    }

    /// Every create not tied by its ID: tied to the one MR its request names, or reported to
    /// each MR it names when it cannot be tied.
    fn by_request(&mut self) {
        for ci in 0..self.calls.len() {
            let call = self.calls[ci].clone();
            let exists = matches!(call.outcome, super::Outcome::Failed { exists: true, .. });
            if self.attributed[ci] || call.verb != Verb::Create || !(call.outcome.made_something() || exists) {
                continue;
            }
            let kinds = self.kinds_of(&call);
            if kinds.is_empty() {
                continue;
            }
            let mut named: Vec<(usize, Standing)> = Vec::new();
            for m in self.candidates(&call, &kinds) {
                if let Some(how) = names_mr(&call, self.mrs[m], self.lesson(m))
                    && let Some(s) = self.standing(&call, m, how)
                {
                    named.push((m, s));
                }
            }
            self.settle(&call, ci, named, exists);
        }
        for p in &mut self.per {
            p.creates.sort_by_key(|o| (o.call.at, o.call.line));
            p.others.sort_by_key(|o| (o.call.at, o.call.line));
        }
    }

    /// Ties a create to the one MR it names, or reports why it cannot be tied.
    fn settle(&mut self, call: &Arc<CloudCall>, ci: usize, named: Vec<(usize, Standing)>, exists: bool) {
        let contenders: Vec<usize> = named
            .iter()
            .filter(|(_, s)| matches!(s, Standing::Provider(_) | Standing::Unknown(_)))
            .map(|(m, _)| *m)
            .collect();
        let label = |m: usize| self.mrs[m].reference();
        for (m, standing) in &named {
            let m = *m;
            let why = match standing {
                Standing::Provider(how) if contenders.len() == 1 => {
                    self.tie(call, ci, m, how.clone(), exists);
                    continue;
                }
                Standing::Other(how) => {
                    if call.outcome.made_something() {
                        let (id, raw_id) = id_of(call, self.lesson(m));
                        let tracked = is_tracked(self.mrs[m], call.cloud, id.as_deref(), raw_id.as_deref());
                        let by = format!("{how}; made by another principal").into();
                        self.per[m].others.push(Observed { call: call.clone(), id, raw_id, by, tracked });
                    }
                    continue;
                }
                Standing::Provider(how) | Standing::Unknown(how) if contenders.len() > 1 => {
                    let others: Vec<String> = contenders.iter().filter(|o| **o != m).map(|o| label(*o)).collect();
                    format!("{how}, but it also names {}: nothing is guessed", others.join(", "))
                }
                Standing::Unknown(how) => {
                    *self.stats.unknown_identity.entry(ProviderKey::of(self.mrs[m])).or_default() += 1;
                    let p = call.principal.as_deref().unwrap_or("<unknown>");
                    format!(
                        "{how}, but no healthy peer of {} shows its provider's identity: if {p} is that provider, pass --cloud-principal {p}",
                        ProviderKey::of(self.mrs[m]).describe()
                    )
                }
                Standing::OtherAccount(why) => {
                    let a = call.account.clone().unwrap_or_else(|| Arc::from("?"));
                    *self.stats.other_accounts.entry(a).or_default() += 1;
                    why.clone()
                }
                Standing::Provider(_) => unreachable!("a single contender is tied above"),
            };
            self.stats.ambiguous += 1;
            self.per[m].unattributed.push(Unattributed { call: call.clone(), why });
        }
    }

    /// Ties one create (or one failed-exists create) to MR `m`.
    fn tie(&mut self, call: &Arc<CloudCall>, ci: usize, m: usize, how: String, exists: bool) {
        self.attributed[ci] = true;
        self.stats.by_request += 1;
        if exists {
            self.per[m].conflicts.push(Conflict { call: call.clone(), existing: Vec::new() });
            return;
        }
        let (id, raw_id) = id_of(call, self.lesson(m));
        let tracked = is_tracked(self.mrs[m], call.cloud, id.as_deref(), raw_id.as_deref());
        self.per[m].creates.push(Observed { call: call.clone(), id, raw_id, by: how.into(), tracked });
    }

    /// What each conflict ran into: the MR's earlier creates, by its provider or by anyone
    /// else, and the name the failed call asked for in the kind's form.
    fn conflicts(&mut self) {
        for m in 0..self.per.len() {
            if self.per[m].conflicts.is_empty() {
                continue;
            }
            let lesson = self.lesson(m);
            let earlier: Vec<Observed> = self.per[m].creates.iter().chain(&self.per[m].others).cloned().collect();
            for c in &mut self.per[m].conflicts {
                let before = |o: &&Observed| o.call.at <= c.call.at;
                c.existing = earlier.iter().filter(before).cloned().collect();
                if let Some((raw, id)) = lesson.and_then(|l| l.id_rule.as_ref()).and_then(|r| r.apply(&c.call))
                    && !c.existing.iter().any(|o| o.id.as_deref() == Some(id.as_str()))
                {
                    let tracked = is_tracked(self.mrs[m], c.call.cloud, Some(&id), Some(&raw));
                    let by = Arc::from("the name the failed create asked for");
                    c.existing.push(Observed { call: c.call.clone(), id: Some(id), raw_id: Some(raw), by, tracked });
                }
            }
        }
    }

    /// Deletes of a tracked object, by whom.
    fn deletes(&mut self) {
        let tracked = learn::Tracked::of(self.mrs, self.calls);
        for call in self.calls.iter().filter(|c| c.verb == Verb::Delete && c.outcome.made_something()) {
            let mut found: Vec<(usize, String)> = Vec::new();
            for (_, value) in call.id_values().chain(call.request_values()) {
                for id in IdForm::ALL.iter().filter_map(|f| f.apply(value)) {
                    for &(m, _) in tracked.get(call.cloud, &id) {
                        if !found.iter().any(|(f, _)| *f == m) {
                            found.push((m, id.clone()));
                        }
                    }
                }
            }
            for (m, id) in found {
                let by_provider = match (self.identity(m), &call.principal) {
                    (Identity::Known(ps, _), Some(p)) => Some(principal_is(p, ps)),
                    (Identity::Known(..), None) => Some(false),
                    (Identity::Unknown, _) => None,
                };
                // Said as the MR says it: its external-name, when the delete matched its atProvider.id.
                let id = self.mrs[m].external_name().map_or(id, str::to_owned);
                self.per[m].deletes.push(Deleted { call: call.clone(), id, by_provider });
            }
        }
    }

    /// One shared copy of a text many MRs carry (how a create was tied, an identity, a rule).
    fn shared(&mut self, text: String) -> Arc<str> {
        self.texts.get(&text)
    }

    /// The per-MR results that say something, and the notes.
    fn finish(mut self) -> CloudAuditCheck {
        let mut out = CloudAuditCheck { notes: self.notes(), ..CloudAuditCheck::default() };
        let per = std::mem::take(&mut self.per);
        out.per_mr.reserve(per.iter().filter(|a| !a.is_empty()).count());
        for (m, mut audit) in per.into_iter().enumerate() {
            if audit.is_empty() {
                continue;
            }
            let mr = self.mrs[m];
            if let Identity::Known(ps, how) = &self.identities[&ProviderKey::of(mr)] {
                let ps: Vec<&str> = ps.iter().map(|p| &**p).collect();
                let text = format!("{} ({how})", ps.join(", "));
                audit.identity = Some(self.shared(text));
            }
            let rule = self.lessons.kinds.get(&kind_key(mr)).map_or_else(
                || "no healthy peer of this kind has its create in the record".to_string(),
                KindLesson::describe_id,
            );
            audit.id_rule = self.shared(rule);
            audit.tracked = tracked_ids(mr).next().map(str::to_owned);
            out.per_mr.insert(mr_key(mr), audit);
        }
        out
    }

    /// What was learned and tied, in a few lines.
    fn notes(&self) -> Vec<String> {
        let s = &self.stats;
        let learned: usize = self.lessons.kinds.values().map(|l| l.peers).sum();
        let mut notes = vec![format!(
            "cloud audit: {} healthy MRs of {} kind(s) have their create in the record; {} creates tied to MRs by their ID, {} by their request; {} not tied (reported on the MRs they name)",
            learned,
            self.lessons.kinds.len(),
            s.by_id,
            s.by_request,
            s.ambiguous
        )];
        for (p, keys) in self.lessons.shared_principals() {
            let keys: Vec<String> = keys.iter().map(|k| k.describe()).collect();
            notes.push(format!(
                "cloud audit: principal {p} is used by several providers ({}): its creates are told apart by kind and request values only",
                keys.join("; ")
            ));
        }
        if !s.other_accounts.is_empty() {
            let list: Vec<String> = s.other_accounts.iter().map(|(a, n)| format!("{a}: {n}")).collect();
            notes.push(format!(
                "cloud audit: creates naming MRs came from accounts their providers' healthy peers do not use ({}): not tied",
                list.join(", ")
            ));
        }
        for (key, n) in &s.unknown_identity {
            notes.push(format!(
                "cloud audit: no healthy peer of {} has its create in the record, so its provider's identity is unknown ({n} creates name its MRs): give --cloud-principal",
                key.describe()
            ));
        }
        notes
    }
}
