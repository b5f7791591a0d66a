//! The ID journal on disk: one JSON line per identity record in `DIR/journal.jsonl`, appended
//! and fsync'd before the watch goes on, compacted (latest record per uid and source) by
//! writing a new file beside it, fsync'ing it and renaming it over the old one, so that a kill
//! at any byte leaves either the old file or the new one, at worst with a torn last line that
//! readers skip and name (`domain::journal::parse`).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use upjet_core::journal::{self, ParsedJournal, Record, Source};

/// The file name inside a journal folder.
pub const FILE: &str = "journal.jsonl";

/// Compaction runs once the file holds this many more lines than distinct (uid, source) keys.
const SLACK: usize = 10_000;

/// Why the journal could not be opened, written or read.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The folder could not be created or the file opened for appending.
    #[error("cannot write the ID journal in {path}: {source}")]
    Open {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An append or compaction failed.
    #[error("cannot write the ID journal {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file exists but cannot be read.
    #[error("cannot read the ID journal {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// The default folder: `~/.kube/upjet/journal/<context>/` (`default` without a context name).
pub fn default_dir(home: &Path, context: Option<&str>) -> PathBuf {
    context_dir(&home.join(".kube").join("upjet").join("journal"), context)
}

/// The folder of one context's journal under `root`: its name, a path separator made `_` (a
/// context named `a/b` is one folder, not two), `default` without a context.
pub fn context_dir(root: &Path, context: Option<&str>) -> PathBuf {
    root.join(context.unwrap_or("default").replace(['/', '\\'], "_"))
}

/// Reads the journal in `dir`; a folder without a journal reads as empty.
pub fn read(dir: &Path) -> Result<ParsedJournal, JournalError> {
    let path = dir.join(FILE);
    match std::fs::read(&path) {
        Ok(bytes) => Ok(journal::parse(&String::from_utf8_lossy(&bytes))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ParsedJournal::default()),
        Err(source) => Err(JournalError::Read { path, source }),
    }
}

/// An open journal: the file appended to, and the latest ID per (uid, source) already in it,
/// so that an identity seen again is not written again.
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    file: File,
    latest: HashMap<(String, Source), String>,
    lines: usize,
}

impl Journal {
    /// Opens (creating) the journal in `dir`, reading what it holds; fails at once when the
    /// folder cannot be written, so that `watch` refuses to start blind to its own journal.
    pub fn open(dir: &Path) -> Result<Journal, JournalError> {
        let open_err = |source| JournalError::Open { path: dir.to_path_buf(), source };
        std::fs::create_dir_all(dir).map_err(open_err)?;
        let existing = read(dir)?;
        let file = OpenOptions::new().create(true).append(true).open(dir.join(FILE)).map_err(open_err)?;
        let mut j = Journal { dir: dir.to_path_buf(), file, latest: HashMap::new(), lines: existing.records.len() };
        for r in existing.records {
            j.latest.insert(r.key(), r.id);
        }
        if !existing.skipped.is_empty() {
            // A torn line from a kill: rewrite the file without it before appending after it.
            j.compact()?;
        }
        Ok(j)
    }

    /// The latest ID of each source the journal holds for each of `uids` (create marks left
    /// out): what is still known of MRs that lost their identity.
    pub fn latest_ids(&self, uids: &std::collections::HashSet<&str>) -> HashMap<String, Vec<(Source, String)>> {
        let mut out: HashMap<String, Vec<(Source, String)>> = HashMap::new();
        for ((uid, source), id) in &self.latest {
            if *source != Source::CreatePending && uids.contains(uid.as_str()) {
                out.entry(uid.clone()).or_default().push((*source, id.clone()));
            }
        }
        for ids in out.values_mut() {
            ids.sort();
        }
        out
    }

    /// Appends the records whose ID differs from the latest one of their (uid, source), in one
    /// write and one fsync; returns how many were written.
    pub fn append(&mut self, records: &[Record]) -> Result<usize, JournalError> {
        let mut text = String::new();
        let mut written = 0;
        for r in records {
            if self.latest.get(&r.key()) == Some(&r.id) {
                continue;
            }
            self.latest.insert(r.key(), r.id.clone());
            text.push_str(&journal::line(r));
            written += 1;
        }
        if written == 0 {
            return Ok(0);
        }
        let path = self.dir.join(FILE);
        let write_err = |source| JournalError::Write { path: path.clone(), source };
        self.file.write_all(text.as_bytes()).map_err(write_err)?;
        self.file.sync_data().map_err(write_err)?;
        self.lines += written;
        if self.lines > self.latest.len() + SLACK {
            self.compact()?;
        }
        Ok(written)
    }

    /// Rewrites the file to the latest record per (uid, source): a new file beside it, fsync'd,
    /// renamed over the old one, and the folder fsync'd so the rename survives a crash.
    pub fn compact(&mut self) -> Result<(), JournalError> {
        let path = self.dir.join(FILE);
        let write_err = |source| JournalError::Write { path: path.clone(), source };
        let kept = journal::compact(read(&self.dir)?.records);
        let tmp = self.dir.join(format!("{FILE}.tmp"));
        let mut out = File::create(&tmp).map_err(write_err)?;
        let text: String = kept.iter().map(journal::line).collect();
        out.write_all(text.as_bytes()).map_err(write_err)?;
        out.sync_all().map_err(write_err)?;
        std::fs::rename(&tmp, &path).map_err(write_err)?;
        if let Ok(d) = File::open(&self.dir) {
            let _ = d.sync_all();
        }
        self.file = OpenOptions::new().append(true).open(&path).map_err(write_err)?;
        self.lines = kept.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(uid: &str, id: &str) -> Record {
        Record {
            time: "2024-11-30T10:00:00Z".into(),
            uid: uid.into(),
            group: "g".into(),
            kind: "K".into(),
            namespace: Some("ns".into()),
            name: uid.into(),
            source: Source::ExternalName,
            id: id.into(),
            composite: None,
            resource: None,
        }
    }

    #[test]
    fn appends_only_what_changed_and_reopens_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = Journal::open(dir.path()).unwrap();
        assert_eq!(j.append(&[rec("u1", "a"), rec("u2", "b")]).unwrap(), 2);
        assert_eq!(j.append(&[rec("u1", "a")]).unwrap(), 0, "unchanged: not written again");
        assert_eq!(j.append(&[rec("u1", "c")]).unwrap(), 1);
        drop(j);
        let mut j = Journal::open(dir.path()).unwrap();
        assert_eq!(j.append(&[rec("u1", "c"), rec("u2", "b")]).unwrap(), 0);
        let latest = j.latest_ids(&["u1"].into_iter().collect());
        assert_eq!(latest.len(), 1);
        assert_eq!(latest["u1"], [(Source::ExternalName, "c".to_string())]);
        j.compact().unwrap();
        let ids: Vec<String> = read(dir.path()).unwrap().records.into_iter().map(|r| r.id).collect();
        assert_eq!(ids, ["b", "c"]);
    }

    #[test]
    fn a_torn_line_is_removed_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let whole = journal::line(&rec("u1", "a")) + &journal::line(&rec("u2", "b"));
        std::fs::write(dir.path().join(FILE), &whole[..whole.len() - 7]).unwrap();
        let mut j = Journal::open(dir.path()).unwrap();
        j.append(&[rec("u3", "c")]).unwrap();
        let read = read(dir.path()).unwrap();
        assert!(read.skipped.is_empty());
        assert_eq!(read.records.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["a", "c"]);
    }

    #[test]
    fn a_folder_that_cannot_be_written_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-a-folder");
        std::fs::write(&file, "x").unwrap();
        let err = Journal::open(&file.join("journal")).unwrap_err().to_string();
        assert!(err.contains("not-a-folder"), "{err}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, .. Default::default() })]

        /// A kill at any byte of an append leaves a journal that reads as the records written
        /// whole before it (the torn line skipped and named), and that opens, repairs itself and
        /// takes the next append.
        #[test]
        fn a_kill_at_any_byte_leaves_a_readable_journal(
            ids in proptest::collection::vec("[a-z0-9/\"\\\\é\n-]{0,24}", 1..12),
            cut_per_mille in 0u32..=1000,
        ) {
            let records: Vec<Record> = ids.iter().enumerate().map(|(i, id)| rec(&format!("u{i}"), id)).collect();
            let whole: String = records.iter().map(journal::line).collect();
            let cut = whole.len() * cut_per_mille as usize / 1000;
            let bytes = &whole.as_bytes()[..cut];
            let read = journal::parse(&String::from_utf8_lossy(bytes));
            let complete = whole.as_bytes()[..cut].iter().filter(|b| **b == b'\n').count();
            proptest::prop_assert_eq!(&read.records[..], &records[..complete]);
            let torn = cut > 0 && bytes[cut - 1] != b'\n';
            proptest::prop_assert_eq!(read.skipped.clone(), if torn { vec![complete + 1] } else { vec![] });

            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join(FILE), bytes).unwrap();
            let mut j = Journal::open(dir.path()).unwrap();
            j.append(&[rec("after", "kill")]).unwrap();
            let reread = super::read(dir.path()).unwrap();
            proptest::prop_assert!(reread.skipped.is_empty());
            proptest::prop_assert_eq!(reread.records.len(), complete + 1);
            proptest::prop_assert_eq!(&reread.records[complete].id, "kill");
        }
    }

    #[test]
    fn a_kill_during_compaction_leaves_the_old_journal() {
        let dir = tempfile::tempdir().unwrap();
        let mut j = Journal::open(dir.path()).unwrap();
        j.append(&[rec("u1", "a"), rec("u1", "b")]).unwrap();
        drop(j);
        std::fs::write(dir.path().join(format!("{FILE}.tmp")), "{\"time\":\"2024").unwrap();
        let mut j = Journal::open(dir.path()).unwrap();
        j.compact().unwrap();
        let ids: Vec<String> = read(dir.path()).unwrap().records.into_iter().map(|r| r.id).collect();
        assert_eq!(ids, ["b"]);
    }
}
