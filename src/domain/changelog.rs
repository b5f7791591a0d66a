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

use super::gotime::GoTime;
use super::managed::ManagedResource;
use super::rules::same_id;

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

    fn succeeded(&self) -> bool {
        self.error.is_none()
    }

    /// The external-name before the operation, when it names a cloud object.
    pub fn id(&self) -> Option<&str> {
        Some(self.external_name.as_str()).filter(|id| super::candidate::usable(id))
    }

    /// `create by provider-aws-ec2:v1.21.0 (external-name "vpc-1"), failed: …`.
    pub fn describe(&self) -> String {
        let name = match self.id() {
            Some(id) => format!("external-name {id:?} before it"),
            None => "no external-name before it".to_string(),
        };
        let outcome = match &self.error {
            Some(e) => format!(", failed: {e}"),
            None => String::new(),
        };
        format!("{} by {} ({name}){outcome} [{}]", self.operation.verb(), self.provider, self.source)
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

/// The change-log entries about one MR, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MrChangeLog {
    /// The entries.
    pub entries: Vec<ChangeEntry>,
}

impl MrChangeLog {
    /// The entries about `mr`, oldest first (entries without a time keep their order, last);
    /// `None` when there are none.
    pub fn for_mr<'a>(all: impl IntoIterator<Item = &'a ChangeEntry>, mr: &ManagedResource) -> Option<MrChangeLog> {
        let mut entries: Vec<ChangeEntry> = all.into_iter().filter(|e| e.is_about(mr)).cloned().collect();
        if entries.is_empty() {
            return None;
        }
        entries.sort_by_key(|e| (e.at.is_none(), e.at));
        Some(MrChangeLog { entries })
    }

    /// Every successful create with the ID it led to, oldest first.
    pub fn creates(&self) -> Vec<CreateOutcome> {
        let mut out = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            if e.operation != Operation::Create || !e.succeeded() {
                continue;
            }
            // The entries after this create, up to and including the next create: each was copied
            // after this create's external-name was persisted (or lost).
            let after = self.entries[i + 1..].iter();
            let mut window = Vec::new();
            for later in after {
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
            out.push(CreateOutcome { create: e.clone(), id, seen_in });
        }
        out
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

    /// Every ID the change log shows this MR holding (before an operation, or as a create's
    /// result), once each, at its first sighting, without the IDs the provider later deleted or
    /// found gone (a successful delete, or a create run while still holding it).
    pub fn recorded_ids(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut see = |id: &str, source: &str| {
            if !out.iter().any(|(o, _)| o == id) {
                out.push((id.to_owned(), source.to_owned()));
            }
        };
        for e in &self.entries {
            if let Some(id) = e.id() {
                see(id, &e.source);
            }
        }
        for c in self.creates() {
            if let (Some(id), Some(at)) = (&c.id, &c.seen_in) {
                see(id, at);
            }
        }
        let gone = |id: &str| {
            self.entries.iter().any(|e| {
                matches!(e.operation, Operation::Delete | Operation::Create) && e.succeeded() && e.id() == Some(id)
            })
        };
        out.retain(|(id, _)| !gone(id));
        out
    }

    /// One timeline line per entry: when, and what the provider did.
    pub fn lines(&self) -> Vec<(Option<GoTime>, String)> {
        self.entries.iter().map(|e| (e.at, format!("change log: {}", e.describe()))).collect()
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
mod tests {
    use super::*;
    use crate::domain::testing::Mr;

    /// An entry about ec2.aws.upbound.io/v1beta1 Instance `web` at minute `m`.
    pub(crate) fn entry(m: u32, op: Operation, name: &str, error: Option<&str>) -> ChangeEntry {
        ChangeEntry {
            at: GoTime::parse_rfc3339(&format!("2025-04-25T08:{m:02}:00Z")),
            provider: "provider-aws-ec2:v1.21.0".into(),
            api_version: "ec2.aws.upbound.io/v1beta1".into(),
            kind: "Instance".into(),
            name: "web".into(),
            namespace: None,
            uid: None,
            external_name: name.into(),
            operation: op,
            error: error.map(str::to_owned),
            source: format!("sidecar:{m}"),
        }
    }

    use Operation::*;

    /// (case, entries, the created IDs, duplicates as (first, second))
    type Case = (
        &'static str,
        fn() -> Vec<ChangeEntry>,
        &'static [Option<&'static str>],
        &'static [(&'static str, &'static str)],
    );

    /// The upstream basis: reconciler.go `Reconcile` logs `managedPreOp` for every operation, so
    /// a provider-assigned ID appears in the entry after the create.
    const CASES: &[Case] = &[
        (
            "one create, ID seen in the next update",
            || vec![entry(1, Create, "", None), entry(2, Update, "i-1", None)],
            &[Some("i-1")],
            &[],
        ),
        (
            "a name chosen before the create is its ID",
            || vec![entry(1, Create, "bucket-a", None)],
            &[Some("bucket-a")],
            &[],
        ),
        (
            "a failed create leads to nothing",
            || vec![entry(1, Create, "", Some("boom")), entry(2, Create, "", None), entry(3, Update, "i-2", None)],
            &[Some("i-2")],
            &[],
        ),
        (
            "the ID lost, a second create: a duplicate",
            || {
                vec![
                    entry(1, Create, "", None),
                    entry(2, Update, "i-1", None),
                    entry(3, Create, "", None),
                    entry(4, Delete, "i-2", None),
                ]
            },
            &[Some("i-1"), Some("i-2")],
            &[("i-1", "i-2")],
        ),
        (
            "the second create still held the first ID: Observe found it gone, a re-create",
            || vec![entry(1, Create, "", None), entry(3, Create, "i-1", None), entry(4, Update, "i-2", None)],
            &[Some("i-1"), Some("i-2")],
            &[],
        ),
        ("no later entry, no name: unknown", || vec![entry(1, Create, "", None)], &[None], &[]),
    ];

    #[test]
    fn a_create_s_id_is_taken_from_the_entry_after_it() {
        for (name, entries, ids, dups) in CASES {
            let log = MrChangeLog { entries: entries() };
            let creates = log.creates();
            let got: Vec<Option<&str>> = creates.iter().map(|c| c.id.as_deref()).collect();
            assert_eq!(got, *ids, "{name}");
            let d = log.duplicates();
            let got: Vec<(&str, &str)> =
                d.iter().map(|(a, b)| (a.id.as_deref().unwrap(), b.id.as_deref().unwrap())).collect();
            assert_eq!(got, *dups, "{name}");
        }
    }

    #[test]
    fn recorded_ids_leave_out_what_the_provider_deleted_or_found_gone() {
        let log = MrChangeLog {
            entries: vec![entry(1, Create, "", None), entry(2, Update, "i-1", None), entry(3, Delete, "i-1", None)],
        };
        assert!(log.recorded_ids().is_empty());
        let log = MrChangeLog { entries: vec![entry(1, Create, "", None), entry(2, Update, "i-1", None)] };
        assert_eq!(log.recorded_ids(), [("i-1".to_string(), "sidecar:2".to_string())]);
    }

    #[test]
    fn entries_match_by_group_kind_name_and_the_snapshot_s_namespace_and_uid() {
        let mr = Mr::new("Instance", "web").build();
        let mut e = entry(1, Create, "", None);
        e.api_version = mr.api_version.clone();
        assert!(e.is_about(&mr));
        let mut other = e.clone();
        other.uid = Some("another-incarnation".into());
        assert!(!other.is_about(&mr), "{}", mr.uid);
        let mut ns = e.clone();
        ns.namespace = Some("team-b".into());
        assert_eq!(ns.is_about(&mr), mr.namespace.as_deref() == Some("team-b"));
        let log = MrChangeLog::for_mr([&entry(2, Update, "x", None), &e], &mr);
        assert_eq!(log.map(|l| l.entries.len()), Some(1));
    }
}
