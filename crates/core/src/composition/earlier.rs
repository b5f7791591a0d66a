//! The identities earlier MRs held in a slot, as the run's records keep them once those MRs are
//! gone: the ID journal (`kubectl upjet watch`: every external-name seen, and, since it records
//! them, the XR and resource name of a composed MR) and the guard's lock (an ID per MR key).
//!
//! A record with the XR and resource name is the slot's, exactly. One without (an older journal
//! line, a lock entry) is matched the way Crossplane names composed resources: the XR's
//! `crossplane.io/composite` label and a dash start the name of every MR it composes
//! (`RenderComposedResourceMetadata` sets `generateName`), so an earlier MR of the same kind and
//! namespace whose name starts so belonged to an XR of that name. Which resource it was is then
//! unknown: it is offered only when it is the one such ID and the MR asking is the one bare MR
//! of its kind under that XR.

use super::members::{Members, slot};
use crate::journal::{Record, Source as JournalSource};
use crate::placeholder::is_placeholder;
use crate::shared_names::MrKey;
use std::collections::HashMap;

/// Where an earlier identity was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// The MR is still there (live in the run).
    Live,
    /// The ID journal.
    Journal,
    /// The guard's lock.
    Lock,
}

impl Source {
    /// How a finding names it.
    pub fn label(self) -> &'static str {
        match self {
            Source::Live => "live",
            Source::Journal => "ID journal",
            Source::Lock => "guard lock",
        }
    }
}

/// One identity an earlier MR held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarlierId {
    /// Where it was found.
    pub source: Source,
    /// The earlier MR.
    pub mr: MrKey,
    /// Its UID, when the record keeps one (the lock does not).
    pub uid: Option<String>,
    /// The ID.
    pub id: String,
    /// When it was recorded.
    pub time: Option<String>,
}

/// The earlier identities of a run: by slot, and the ones whose slot is unknown.
#[derive(Debug, Default)]
pub struct Earlier {
    by_slot: HashMap<u64, Vec<EarlierId>>,
    loose: Vec<EarlierId>,
}

impl Earlier {
    /// The journal's external-names of MRs not live in the run (`members`), newest per MR.
    pub fn from_journal(records: &[Record], members: &Members) -> Earlier {
        let mut earlier = Earlier::default();
        let mut newest: HashMap<&str, &Record> = HashMap::new();
        for r in records.iter().filter(|r| r.source == JournalSource::ExternalName) {
            if r.id.is_empty() || is_placeholder(&r.id) || members.is_live(&r.uid) {
                continue;
            }
            if newest.get(r.uid.as_str()).is_none_or(|n| n.time <= r.time) {
                newest.insert(&r.uid, r);
            }
        }
        let mut kept: Vec<&Record> = newest.into_values().collect();
        kept.sort_by(|a, b| a.time.cmp(&b.time));
        for r in kept {
            let id = EarlierId {
                source: Source::Journal,
                mr: MrKey {
                    group: r.group.clone(),
                    kind: r.kind.clone(),
                    namespace: r.namespace.clone(),
                    name: r.name.clone(),
                },
                uid: Some(r.uid.clone()),
                id: r.id.clone(),
                time: Some(r.time.clone()),
            };
            match (&r.composite, &r.resource) {
                (Some(xr), Some(resource)) => {
                    earlier.by_slot.entry(slot(r.namespace.as_deref(), xr, resource)).or_default().push(id)
                }
                _ => earlier.loose.push(id),
            }
        }
        earlier
    }

    /// These identities and the lock's entries (each MR key with the IDs its shards hold) for
    /// MRs not live in the run (`live`: whether an MR of that key is). The lock's keys are taken
    /// as MR keys here, so that the guard may come to read this module, not the reverse.
    pub(crate) fn with_lock(
        mut self,
        entries: impl IntoIterator<Item = (MrKey, Vec<String>)>,
        live: impl Fn(&MrKey) -> bool,
    ) -> Earlier {
        for (mr, ids) in entries {
            if live(&mr) || self.loose.iter().any(|e| e.mr == mr) {
                continue;
            }
            for id in ids.iter().filter(|id| !id.is_empty() && !is_placeholder(id)) {
                self.loose.push(EarlierId {
                    source: Source::Lock,
                    mr: mr.clone(),
                    uid: None,
                    id: id.clone(),
                    time: None,
                });
            }
        }
        self
    }

    /// Whether nothing earlier is known.
    pub fn is_empty(&self) -> bool {
        self.by_slot.is_empty() && self.loose.is_empty()
    }

    /// The identities recorded for a slot.
    pub(crate) fn in_slot(&self, slot: u64) -> &[EarlierId] {
        self.by_slot.get(&slot).map(Vec::as_slice).unwrap_or_default()
    }

    /// The one earlier identity of an MR of `(group, kind)` in `namespace` whose name starts
    /// with `xr` and a dash, when there is exactly one such ID (and so nothing to choose).
    pub fn by_name(&self, group: &str, kind: &str, namespace: Option<&str>, xr: &str) -> Option<&EarlierId> {
        let prefix = format!("{xr}-");
        let mut found = self.loose.iter().filter(|e| {
            e.mr.group == group
                && e.mr.kind == kind
                && e.mr.namespace.as_deref() == namespace
                && e.mr.name.starts_with(&prefix)
        });
        let first = found.next()?;
        found.all(|e| e.id == first.id).then_some(first)
    }
}
