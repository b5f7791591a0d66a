//! Velero backups, read where users have them: the gzip tar `velero backup download` writes, or
//! that tar unpacked into a folder.
//!
//! Velero's layout (`pkg/archive/filesystem.go` `GetVersionedItemFilePath`, constants in
//! `pkg/apis/velero/v1/constants.go`): each object is one JSON file at
//! `resources/<plural>.<group>/[<version>[-preferredversion]/]{cluster|namespaces/<ns>}/<name>.json`.
//! Every item of a resource's preferred version is written twice, at the plain path and under
//! `<version>-preferredversion/` (`pkg/backup/item_backupper.go`), with the same bytes; other
//! versions (`EnableAPIGroupVersions`) only under `<version>/`. The CRDs of the custom resources
//! backed up are in the same archive, so they decide which kinds are managed resources.
//!
//! The reader is handed entries one at a time, in whatever order the archive has them, and never
//! writes anything: an entry's name is only a key. Each object is decoded at once into the
//! compact [`ManagedResource`] (its JSON is dropped), CRDs into [`CrdSummary`] (schemas skipped),
//! and the filtering by CRD happens at the end, since a tar has no order. Memory is therefore
//! the compact MRs plus one entry at a time.

mod entry;
#[cfg(test)]
mod tests;

pub(crate) use entry::EntryPath;

use crate::crd::{self, CrdSummary};
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::io::Read;
use upjet_core::managed::ManagedResource;

/// The largest entry read: etcd keeps objects under ~1.5 MB and the biggest upjet CRDs are a few
/// MB, so anything larger is not an object of a real backup and is skipped, not held.
pub(crate) const MAX_ENTRY_BYTES: u64 = 64 * 1024 * 1024;

/// The largest read buffer kept between entries.
const KEPT_BUFFER: usize = 8 * 1024 * 1024;

/// The CRDs' own group resource.
const CRDS: &str = "customresourcedefinitions.apiextensions.k8s.io";

/// One managed resource read from a backup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupItem {
    /// The MR, as backed up (metadata, spec and status).
    pub mr: ManagedResource,
    /// `<plural>.<group>`, as Velero names the folder and a resource modifier's `groupResource`.
    pub group_resource: String,
    /// The archive entry it was read from.
    pub entry: String,
}

/// What a backup holds, reduced to what a diagnosis needs.
#[derive(Debug, Default)]
pub struct Backup {
    /// The managed resources, one per object, sorted by group resource, namespace and name.
    pub items: Vec<BackupItem>,
    /// The CRDs found, one per name.
    pub crds: Vec<CrdSummary>,
    /// `metadata/version` (`1.1.0` for current Velero).
    pub format_version: Option<String>,
    /// Entries that could not be used, each with the entry's name and why: a report built on the
    /// backup is incomplete while this is not empty.
    pub skipped: Vec<String>,
    /// What else the reader has to say (kinds taken as managed without a CRD, objects of other kinds).
    pub notes: Vec<String>,
}

/// Why a backup could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The archive itself is broken: not gzip or tar, or cut short.
    #[error("the archive is broken {at}: {source}")]
    Archive {
        /// Where: `in entry X`, `after entry X`, or `at its start`.
        at: String,
        /// What the decompressor or tar reader said.
        #[source]
        source: std::io::Error,
    },
    /// Nothing in it is laid out as Velero lays out a backup.
    #[error("not a Velero backup: {0}")]
    NotABackup(String),
}

/// How good a copy of an object is: the plain path first, then the preferred version's copy,
/// then any other version's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Plain,
    Preferred,
    OtherVersion,
}

/// The copy of one object the reader holds, and where it is.
struct Held {
    rank: Rank,
    hash: u64,
    entry: String,
    /// Index into `candidates`, `None` for a CRD.
    index: Option<usize>,
}

/// An object read, before the CRDs decide whether it is managed.
struct Candidate {
    item: BackupItem,
    /// It has `spec.forProvider` or `spec.providerConfigRef`: managed-resource shaped.
    looks_managed: bool,
}

/// Reads a backup entry by entry. Feed it every entry with [`Reader::entry`], then [`Reader::finish`].
#[derive(Default)]
pub struct Reader {
    candidates: Vec<Candidate>,
    held: HashMap<(String, Option<String>, String), Held>,
    crds: Vec<CrdSummary>,
    crds_held: HashMap<String, Held>,
    format_version: Option<String>,
    skipped: Vec<String>,
    resources_seen: usize,
    other_kinds: usize,
    buf: Vec<u8>,
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// Core Kubernetes groups (no dot: core, apps, batch, …) and `*.k8s.io` never hold managed
/// resources; their objects (Secrets among them) are not even decoded.
fn kubernetes_own(group_resource: &str) -> bool {
    match group_resource.split_once('.') {
        None => true,
        Some((_, group)) => !group.contains('.') || group.ends_with(".k8s.io") || group == "velero.io",
    }
}

impl Reader {
    /// A reader with nothing read yet.
    pub fn new() -> Reader {
        Reader::default()
    }

    /// Records something the caller could not hand over (a link in an unpacked folder).
    pub fn skip(&mut self, what: String) {
        self.skipped.push(what);
    }

    /// Reads one entry: `name` as the archive has it, `body` its content. An I/O error is the
    /// archive's (a cut-off gzip stream), and stops the read; anything wrong with the entry itself
    /// is recorded as skipped and the read goes on.
    pub fn entry(&mut self, name: &str, body: &mut dyn Read) -> std::io::Result<()> {
        let path = match EntryPath::parse(name) {
            Ok(EntryPath::Version) => return self.version(body),
            Ok(EntryPath::Other) => return Ok(()),
            Ok(EntryPath::Item(p)) => p,
            Err(why) => {
                self.skipped.push(format!("entry {:?}: {why}; skipped (nothing is ever written)", name));
                return Ok(());
            }
        };
        self.resources_seen += 1;
        let is_crd = path.group_resource == CRDS;
        if !is_crd && kubernetes_own(&path.group_resource) {
            self.other_kinds += 1;
            return Ok(());
        }
        self.buf.clear();
        body.take(MAX_ENTRY_BYTES + 1).read_to_end(&mut self.buf)?;
        if self.buf.len() as u64 > MAX_ENTRY_BYTES {
            self.skipped.push(format!("entry {name}: larger than {} MiB; skipped", MAX_ENTRY_BYTES >> 20));
            self.buf = Vec::new();
            return Ok(());
        }
        let bytes = std::mem::take(&mut self.buf);
        if is_crd {
            self.crd(name, &path, &bytes);
        } else {
            self.object(name, &path, &bytes);
        }
        // One large CRD does not keep its buffer for the rest of the read.
        self.buf = if bytes.capacity() > KEPT_BUFFER { Vec::new() } else { bytes };
        Ok(())
    }

    fn version(&mut self, body: &mut dyn Read) -> std::io::Result<()> {
        let mut text = String::new();
        body.take(1024).read_to_string(&mut text).or_else(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => Ok(0),
            _ => Err(e),
        })?;
        self.format_version = Some(text.trim().to_string()).filter(|v| !v.is_empty());
        Ok(())
    }

    /// Whether a new copy of something already held replaces it. Another version's copy never
    /// replaces a plain or preferred one; an identical copy changes nothing; two different copies
    /// of the plain or preferred path are a conflict, recorded, and the better-ranked one is kept.
    fn compare(&mut self, held: &Held, rank: Rank, hash: u64, name: &str) -> bool {
        match (held.rank, rank) {
            (_, Rank::OtherVersion) => false,
            (Rank::OtherVersion, _) => true,
            _ if held.hash == hash => false,
            (was, now) => {
                let kept = if now < was { name } else { held.entry.as_str() };
                self.skipped.push(format!(
                    "entries {} and {name} hold different copies of one object; {kept} was used",
                    held.entry
                ));
                now < was
            }
        }
    }

    fn crd(&mut self, name: &str, path: &entry::ItemPath, bytes: &[u8]) {
        let (rank, h) = (rank_of(path), hash(bytes));
        let key = path.name.clone();
        let replace_at = match self.crds_held.remove(&key) {
            None => None,
            Some(held) => {
                let replace = self.compare(&held, rank, h, name);
                let at = held.index;
                if !replace {
                    self.crds_held.insert(key, held);
                    return;
                }
                at
            }
        };
        let summary = match std::str::from_utf8(bytes)
            .map_err(|e| e.to_string())
            .and_then(|t| crd::parse(t).map_err(|e| e.to_string()))
        {
            Ok(s) => s,
            Err(e) => {
                self.skipped.push(format!("entry {name}: {e}; skipped"));
                return;
            }
        };
        let index = match replace_at {
            Some(i) => {
                self.crds[i] = summary;
                i
            }
            None => {
                self.crds.push(summary);
                self.crds.len() - 1
            }
        };
        self.crds_held.insert(key, Held { rank, hash: h, entry: name.to_string(), index: Some(index) });
    }

    fn object(&mut self, name: &str, path: &entry::ItemPath, bytes: &[u8]) {
        let (rank, h) = (rank_of(path), hash(bytes));
        let key = (path.group_resource.clone(), path.namespace().map(str::to_owned), path.name.clone());
        let replace_at = match self.held.remove(&key) {
            None => None,
            Some(held) => {
                let replace = self.compare(&held, rank, h, name);
                let at = held.index;
                if !replace {
                    self.held.insert(key, held);
                    return;
                }
                at
            }
        };
        let decoded = std::str::from_utf8(bytes)
            .map_err(|e| format!("not UTF-8 text ({e})"))
            .and_then(|t| ManagedResource::from_json(t).map_err(|e| e.to_string()));
        let mr = match decoded {
            Ok(mr) => mr,
            Err(e) => {
                self.skipped.push(format!("entry {name}: {e}; skipped"));
                return;
            }
        };
        let looks_managed = memchr::memmem::find(bytes, b"\"forProvider\"").is_some()
            || memchr::memmem::find(bytes, b"\"providerConfigRef\"").is_some();
        let item = BackupItem { mr, group_resource: path.group_resource.clone(), entry: name.to_string() };
        let candidate = Candidate { item, looks_managed };
        let index = match replace_at {
            Some(i) => {
                self.candidates[i] = candidate;
                i
            }
            None => {
                self.candidates.push(candidate);
                self.candidates.len() - 1
            }
        };
        self.held.insert(key, Held { rank, hash: h, entry: name.to_string(), index: Some(index) });
    }

    /// Decides which objects are managed resources (their CRD's `managed` category; without a
    /// CRD, their shape) and returns the backup.
    pub fn finish(self) -> Result<Backup, BackupError> {
        if self.resources_seen == 0 {
            let why = match &self.format_version {
                Some(_) => "it has metadata/version but no object under resources/".to_string(),
                None => "no entry under resources/ (resources/<plural>.<group>/…/<name>.json)".to_string(),
            };
            return Err(BackupError::NotABackup(why));
        }
        let by_resource: HashMap<String, &CrdSummary> =
            self.crds.iter().map(|c| (format!("{}.{}", c.plural, c.group), c)).collect();
        let mut without_crd = BTreeSet::new();
        let mut not_managed = self.other_kinds;
        let mut items = Vec::with_capacity(self.candidates.len());
        for c in self.candidates {
            let managed = match by_resource.get(&c.item.group_resource) {
                Some(crd) => crd.is_managed(),
                None if c.looks_managed => {
                    without_crd.insert(c.item.group_resource.clone());
                    true
                }
                None => false,
            };
            if managed {
                items.push(c.item);
            } else {
                not_managed += 1;
            }
        }
        items.sort_by(|a, b| {
            (&a.group_resource, &a.mr.namespace, &a.mr.name).cmp(&(&b.group_resource, &b.mr.namespace, &b.mr.name))
        });
        let mut notes = Vec::new();
        if !without_crd.is_empty() {
            let list: Vec<&str> = without_crd.iter().map(String::as_str).collect();
            notes.push(format!(
                "the backup has no CRD for {}: their objects were taken as managed resources because they have spec.forProvider or spec.providerConfigRef",
                list.join(", ")
            ));
        }
        if not_managed > 0 {
            notes.push(format!("{not_managed} objects of kinds that are not managed resources were not diagnosed"));
        }
        let mut crds = self.crds;
        crds.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Backup { items, crds, format_version: self.format_version, skipped: self.skipped, notes })
    }
}

fn rank_of(path: &entry::ItemPath) -> Rank {
    match path.version.as_deref() {
        None => Rank::Plain,
        Some(v) if v.ends_with("-preferredversion") => Rank::Preferred,
        Some(_) => Rank::OtherVersion,
    }
}

/// Whether these first bytes (at least 262) are a tar header (`ustar` magic at offset 257).
pub fn is_tar(prefix: &[u8]) -> bool {
    prefix.get(257..262) == Some(b"ustar")
}

/// Reads a whole backup archive, gzip-compressed (as `velero backup download` writes it) or not,
/// streaming: nothing is unpacked.
pub fn read_archive(input: impl Read) -> Result<Backup, BackupError> {
    let input =
        crate::input::open(input).map_err(|source| BackupError::Archive { at: "at its start".into(), source })?;
    read_tar(input)
}

fn read_tar(input: impl Read) -> Result<Backup, BackupError> {
    let mut archive = tar::Archive::new(input);
    let mut reader = Reader::new();
    let mut last: Option<String> = None;
    let after = |last: &Option<String>| match last {
        Some(e) => format!("after entry {e}"),
        None => "at its start".to_string(),
    };
    let broken = |at: String, source| BackupError::Archive { at, source };
    let entries = archive.entries().map_err(|e| broken(after(&last), e))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| broken(after(&last), e))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = match entry.path() {
            Ok(p) => p.to_string_lossy().into_owned(),
            Err(e) => {
                reader.skipped.push(format!(
                    "an entry after {}: unreadable name ({e}); skipped",
                    last.as_deref().unwrap_or("the start")
                ));
                continue;
            }
        };
        reader.entry(&name, &mut entry).map_err(|e| broken(format!("in entry {name}"), e))?;
        last = Some(name);
    }
    reader.finish()
}
