//! Change logs: the entries a provider started with `--enable-changelogs` sends to its sidecar
//! for every create, update and delete it performs on a cloud object, and what they say about
//! one MR's identity.
//!
//! crossplane-runtime builds every entry from `managedPreOp`, the deep copy of the MR taken after
//! `Observe` and before the operation (pkg/reconciler/managed/reconciler.go, `Reconcile`;
//! `GRPCChangeLogger.Log` in changelogger.go reads its external-name and snapshots it). So a
//! create's entry carries the external-name the MR had *before* the create: a provider-assigned
//! ID first appears in the entry of the next operation on the same MR. [`MrChangeLog::creates`]
//! takes each create's result from there.
//!
//! An MR deleted and applied again (from Git, from a backup) is a new object with a new UID: the
//! entries of its earlier self carry the old UID in their snapshot. With `deletionPolicy: Orphan`
//! the reconciler skips `ExternalClient.Delete` and logs no DELETE entry, so the identity that
//! earlier MR held is still in its entries ([`MrChangeLog::earlier_ids`]).

use super::gotime::GoTime;
use super::managed::ManagedResource;
use super::redacted::same_id;

/// The operation an entry records (`OperationType` in crossplane-runtime's
/// `apis/changelogs/proto/v1alpha1/changelog.proto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// `OPERATION_TYPE_CREATE`: `ExternalClient.Create` ran.
    Create,
    /// `OPERATION_TYPE_UPDATE`: `ExternalClient.Update` ran.
    Update,
    /// `OPERATION_TYPE_DELETE`: `ExternalClient.Delete` ran.
    Delete,
    /// `OPERATION_TYPE_UNSPECIFIED` or a value this version does not know.
    Other,
}

impl Operation {
    /// The operation of protojson's enum name.
    pub fn parse(s: &str) -> Operation {
        match s {
            "OPERATION_TYPE_CREATE" => Operation::Create,
            "OPERATION_TYPE_UPDATE" => Operation::Update,
            "OPERATION_TYPE_DELETE" => Operation::Delete,
            _ => Operation::Other,
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Operation::Create => "create",
            Operation::Update => "update",
            Operation::Delete => "delete",
            Operation::Other => "operation",
        }
    }
}

/// One change-log entry, reduced to what identifies the MR and its cloud object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangeEntry {
    /// When the provider sent it (the sidecar keeps seconds).
    pub at: Option<GoTime>,
    /// The provider's name and version (`provider-aws-ec2:v1.21.0`).
    pub provider: String,
    /// The MR's `apiVersion`.
    pub api_version: String,
    /// The MR's kind.
    pub kind: String,
    /// The MR's name.
    pub name: String,
    /// The MR's namespace, from the snapshot: the entry itself has none.
    pub namespace: Option<String>,
    /// The MR's UID, from the snapshot: the entry itself has none.
    pub uid: Option<String>,
    /// The external-name the MR had before the operation.
    pub external_name: String,
    /// What the provider did.
    pub operation: Operation,
    /// Why the operation failed, when it did.
    pub error: Option<String>,
    /// Where the entry was read (`file:line`).
    pub source: String,
}

impl ChangeEntry {
    /// The API group of the MR (`ec2.aws.upbound.io`).
    pub fn group(&self) -> &str {
        self.api_version.rsplit_once('/').map_or("", |(g, _)| g)
    }

    /// Whether the entry is about `mr`: same group, kind and name; same namespace and UID where
    /// the snapshot says (an entry without a snapshot cannot tell namespaces or incarnations apart).
    pub fn is_about(&self, mr: &ManagedResource) -> bool {
        self.group() == mr.group()
            && self.kind == mr.kind
            && self.name == mr.name
            && self.namespace.as_ref().is_none_or(|ns| mr.namespace.as_ref() == Some(ns))
            && self.uid.as_ref().is_none_or(|uid| uid.is_empty() || mr.uid.is_empty() || *uid == mr.uid)
    }

    /// Whether the entry is about an earlier MR under `mr`'s name: same group, kind, name (and
    /// namespace where the snapshot says), another UID in its snapshot, and sent no later than
    /// `mr` was created. Only one MR of a name exists at a time, so such an entry was about an MR
    /// deleted before this one was applied; one sent after (a snapshot older than the log) or
    /// either time unknown could be a later MR, and is not taken.
    pub(crate) fn is_about_earlier(&self, mr: &ManagedResource) -> bool {
        let other = self.uid.as_ref().is_some_and(|uid| !mr.uid.is_empty() && *uid != mr.uid);
        let created = mr.creation_timestamp.as_deref().and_then(GoTime::parse_rfc3339);
        let before = self.at.zip(created).is_some_and(|(at, created)| !at.after(&created));
        other
            && before
            && self.group() == mr.group()
            && self.kind == mr.kind
            && self.name == mr.name
            && self.namespace.as_ref().is_none_or(|ns| mr.namespace.as_ref() == Some(ns))
    }

    fn succeeded(&self) -> bool {
        self.error.is_none()
    }

    /// The external-name before the operation, when it names a cloud object.
    pub fn id(&self) -> Option<&str> {
        Some(self.external_name.as_str()).filter(|id| super::candidate::usable(id))
    }

    /// `create by provider-aws-ec2:v1.21.0 (external-name "vpc-1" before it) [src]`, or for an
    /// operation that failed `failed create by … : ERROR; nothing was created [src]`: an entry
    /// with an error message records an external call that returned it, and a create that failed
    /// made no object.
    pub fn describe(&self) -> String {
        let name = match self.id() {
            Some(id) => format!("external-name {id:?} before it"),
            None => "no external-name before it".to_string(),
        };
        let (verb, provider, source) = (self.operation.verb(), &self.provider, &self.source);
        match &self.error {
            None => format!("{verb} by {provider} ({name}) [{source}]"),
            Some(e) if self.operation == Operation::Create => {
                format!("failed create by {provider} ({name}): {e}; nothing was created [{source}]")
            }
            Some(e) => format!("failed {verb} by {provider} ({name}): {e} [{source}]"),
        }
    }
}

/// A successful create and the ID it led to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateOutcome {
    /// The create's entry.
    pub create: ChangeEntry,
    /// The ID it led to: the first external-name recorded after it (the next operation's
    /// pre-operation copy holds what the create persisted), else the name it was created under.
    pub id: Option<String>,
    /// Where the ID was read.
    pub seen_in: Option<String>,
}

/// The change-log entries about one MR, oldest first, and those about the earlier MRs under its
/// name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MrChangeLog {
    /// The entries about this MR.
    pub entries: Vec<ChangeEntry>,
    /// The entries about each earlier MR under its name ([`ChangeEntry::is_about_earlier`]), one
    /// log per UID, oldest MR first; their own `earlier` is empty.
    pub earlier: Vec<MrChangeLog>,
}

/// An ID an earlier MR under this one's name held and the provider never deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarlierId {
    /// The ID (the external-name that MR held).
    pub id: String,
    /// Where it was read (`file:line`).
    pub source: String,
    /// That MR's UID.
    pub uid: String,
}

impl MrChangeLog {
    /// The entries about `mr` and about the earlier MRs under its name, oldest first (entries
    /// without a time keep their order, last); `None` when there are none.
    pub fn for_mr<'a>(all: impl IntoIterator<Item = &'a ChangeEntry>, mr: &ManagedResource) -> Option<MrChangeLog> {
        let (mut entries, mut before) = (Vec::new(), Vec::new());
        for e in all {
            if e.is_about(mr) {
                entries.push(e.clone());
            } else if e.is_about_earlier(mr) {
                before.push(e.clone());
            }
        }
        if entries.is_empty() && before.is_empty() {
            return None;
        }
        let oldest_first = |e: &ChangeEntry| (e.at.is_none(), e.at);
        entries.sort_by_key(oldest_first);
        before.sort_by_key(oldest_first);
        let mut earlier: Vec<MrChangeLog> = Vec::new();
        for e in before {
            match earlier.iter_mut().find(|l| l.entries[0].uid == e.uid) {
                Some(log) => log.entries.push(e),
                None => earlier.push(MrChangeLog { entries: vec![e], earlier: Vec::new() }),
            }
        }
        Some(MrChangeLog { entries, earlier })
    }

    /// The UID the entries' snapshots carry, when they do.
    pub fn uid(&self) -> Option<&str> {
        self.entries.iter().find_map(|e| e.uid.as_deref())
    }

    /// The IDs earlier MRs under this one's name held at their end (their [`recorded_ids`]:
    /// never deleted by the provider, nor found gone), oldest first, without those this MR's own
    /// entries show it holding (then they are its own to judge).
    ///
    /// [`recorded_ids`]: MrChangeLog::recorded_ids
    pub(crate) fn earlier_ids(&self) -> Vec<EarlierId> {
        let own = self.recorded_ids();
        let mine = |id: &str| own.iter().any(|(o, _)| o == id) || self.entries.iter().any(|e| e.id() == Some(id));
        let mut out: Vec<EarlierId> = Vec::new();
        for log in &self.earlier {
            let uid = log.uid().unwrap_or_default();
            for (id, source) in log.recorded_ids() {
                if !mine(&id) && !out.iter().any(|o| o.id == id) {
                    out.push(EarlierId { id, source, uid: uid.to_string() });
                }
            }
        }
        out
    }

    /// Every successful create with the ID it led to, oldest first.
    pub fn creates(&self) -> Vec<CreateOutcome> {
        (0..self.entries.len()).filter_map(|i| self.outcome_of(i)).collect()
    }

    /// The ID the entry at `i` led to, when it is a successful create.
    fn outcome_of(&self, i: usize) -> Option<CreateOutcome> {
        let e = self.entries.get(i).filter(|e| e.operation == Operation::Create && e.succeeded())?;
        // The entries after this create, up to and including the next create: each was copied
        // after this create's external-name was persisted (or lost).
        let mut window = Vec::new();
        for later in &self.entries[i + 1..] {
            window.push(later);
            if later.operation == Operation::Create {
                break;
            }
        }
        let seen = window.iter().find(|l| l.id().is_some());
        let (id, seen_in) = match (seen, e.id()) {
            (Some(l), _) => (l.id().map(str::to_owned), Some(l.source.clone())),
            (None, Some(own)) => (Some(own.to_owned()), Some(e.source.clone())),
            (None, None) => (None, None),
        };
        Some(CreateOutcome { create: e.clone(), id, seen_in })
    }

    /// Pairs of successful creates that made two objects: the later create ran without the
    /// earlier one's ID (its pre-operation external-name is not that ID), and led to another.
    /// A create whose pre-operation copy still held the earlier ID is a re-create after Observe
    /// found that object gone, not a duplicate.
    pub fn duplicates(&self) -> Vec<(CreateOutcome, CreateOutcome)> {
        let creates = self.creates();
        creates
            .windows(2)
            .filter_map(|w| {
                let (a, b) = (&w[0], &w[1]);
                let (x, y) = (a.id.as_deref()?, b.id.as_deref()?);
                let knew_x = b.create.id().is_some_and(|pre| same_id(x, pre) || same_id(pre, x));
                (!same_id(x, y) && !same_id(y, x) && !knew_x).then(|| (a.clone(), b.clone()))
            })
            .collect()
    }

    /// Every ID the change log shows this MR holding at its end (before an operation, or as a
    /// create's result), once each, at its first sighting, read forward: an ID held before an
    /// update or a failed delete still exists; one held before a successful delete was deleted,
    /// and one held before a create was not found by Observe (a create that failed made nothing);
    /// a successful create's result exists, even under the name it was created under.
    pub(crate) fn recorded_ids(&self) -> Vec<(String, String)> {
        let mut held: Vec<(String, String, bool)> = Vec::new();
        let mut see = |id: &str, source: &str, exists: bool| match held.iter_mut().find(|(h, _, _)| h == id) {
            Some(h) => h.2 = exists,
            None => held.push((id.to_owned(), source.to_owned(), exists)),
        };
        for (i, e) in self.entries.iter().enumerate() {
            if let Some(id) = e.id() {
                let exists = match e.operation {
                    Operation::Create => false,
                    Operation::Delete => !e.succeeded(),
                    Operation::Update | Operation::Other => true,
                };
                see(id, &e.source, exists);
            }
            if let Some(CreateOutcome { id: Some(id), seen_in: Some(at), .. }) = self.outcome_of(i) {
                see(&id, &at, true);
            }
        }
        held.into_iter().filter(|(_, _, exists)| *exists).map(|(id, source, _)| (id, source)).collect()
    }

    /// One timeline line per entry: the entry, the source its ID is a sighting of, and what the
    /// provider did; the earlier MRs' entries name their UID.
    pub fn lines(&self) -> Vec<(&ChangeEntry, &'static str, String)> {
        let own = self.entries.iter().map(|e| (e, "change log", format!("change log: {}", e.describe())));
        let earlier = self.earlier.iter().flat_map(|log| {
            let uid = log.uid().unwrap_or_default();
            log.entries.iter().map(move |e| {
                let text = format!("change log, earlier MR under this name (uid {uid}): {}", e.describe());
                (e, "change log (earlier MR)", text)
            })
        });
        own.chain(earlier).collect()
    }
}

/// Every entry read in a run, by kind and name, so that each MR finds its own without a scan of
/// them all.
#[derive(Debug, Default)]
pub struct ChangeLogIndex {
    by_name: std::collections::HashMap<(String, String), Vec<ChangeEntry>>,
}

impl ChangeLogIndex {
    /// Indexes the entries.
    pub fn new(entries: Vec<ChangeEntry>) -> ChangeLogIndex {
        let mut by_name: std::collections::HashMap<(String, String), Vec<ChangeEntry>> = Default::default();
        for e in entries {
            by_name.entry((e.kind.clone(), e.name.clone())).or_default().push(e);
        }
        ChangeLogIndex { by_name }
    }

    /// Whether nothing was read.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The entries about `mr`.
    pub fn for_mr(&self, mr: &ManagedResource) -> Option<MrChangeLog> {
        MrChangeLog::for_mr(self.by_name.get(&(mr.kind.clone(), mr.name.clone()))?, mr)
    }
}

#[cfg(test)]
#[path = "changelog_tests.rs"]
mod tests;
