//! Where the commands that read the ID journal (`doctor`, `history`, `adopt`, `restore-plan`)
//! find it, and how they read it: `--journal DIR`, else the folder `kubectl upjet watch` writes
//! for the cluster's context (`local::journal::default_dir`). The default folder is read only
//! when it exists, since most clusters are never watched; a folder the user named must be
//! readable, because a typo would otherwise silently drop the evidence asked for.

use crate::settings::Settings;
use std::path::{Path, PathBuf};
use upjet_core::error::Error;
use upjet_core::journal::{JournalIndex, Record};
use upjet_local::journal::{self, FILE};

/// The journal folder one command reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalAt {
    /// The folder.
    pub dir: PathBuf,
    /// Named by `--journal` (an unreadable one is an error) rather than the default place (an
    /// absent one is nothing).
    pub given: bool,
}

impl JournalAt {
    /// `--journal`, else the default folder of `context` under `home`; `None` without either.
    pub fn resolve(flag: Option<&Path>, home: Option<&Path>, context: Option<&str>) -> Option<JournalAt> {
        match (flag, home) {
            (Some(dir), _) => Some(JournalAt { dir: dir.to_path_buf(), given: true }),
            (None, Some(home)) => Some(JournalAt { dir: journal::default_dir(home, context), given: false }),
            (None, None) => None,
        }
    }
}

/// The journal a command reads: `--journal`, else the default folder of `context` (`None`: the
/// kubeconfig's current context, as `watch` names the folder it writes).
pub fn locate(settings: &Settings, flag: Option<&Path>, context: Option<&str>) -> Option<JournalAt> {
    let current = || upjet_cluster::connect::current_context(&settings.connect).ok().flatten();
    let context = context.map(str::to_owned).or_else(current);
    JournalAt::resolve(flag, settings.home.as_deref(), context.as_deref())
}

/// Reads the journal at `at` (nothing without one): its records by MR uid, and notes on the
/// lines skipped (a torn last line a kill left, or any line that does not parse). A given folder
/// that cannot be read, or holds no journal, is a usage error naming it; the default folder is
/// nothing when absent and a note when unreadable.
pub fn read(at: Option<&JournalAt>) -> Result<(JournalIndex, Vec<String>), Error> {
    let (records, notes) = records(at)?;
    Ok((JournalIndex::new(records), notes))
}

/// The journal's records as [`read`] finds them, not indexed: `guard lock` locks the newest
/// external-name recorded for each MR no live MR answers for.
pub fn records(at: Option<&JournalAt>) -> Result<(Vec<Record>, Vec<String>), Error> {
    let Some(at) = at else { return Ok((Vec::new(), Vec::new())) };
    let file = at.dir.join(FILE);
    if at.given {
        if let Err(e) = std::fs::read_dir(&at.dir) {
            return Err(Error::usage(format!("cannot read the ID journal folder {}: {e}", at.dir.display())));
        }
        if !file.is_file() {
            return Err(Error::usage(format!(
                "{} holds no ID journal ({FILE}, written by kubectl upjet watch --journal)",
                at.dir.display()
            )));
        }
    } else if !at.dir.is_dir() {
        return Ok((Vec::new(), Vec::new()));
    }
    let read = match journal::read(&at.dir) {
        Ok(read) => read,
        Err(e) if at.given => return Err(Error::usage(e.to_string())),
        Err(e) => return Ok((Vec::new(), vec![e.to_string()])),
    };
    let notes = match read.skipped.as_slice() {
        [] => Vec::new(),
        lines => vec![format!(
            "ID journal {}: skipped line{} {} (cut short by a kill, or unreadable)",
            file.display(),
            if lines.len() == 1 { "" } else { "s" },
            lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
        )],
    };
    Ok((read.records, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_folder_is_nothing_when_absent_a_given_one_must_be_readable() {
        let home = tempfile::tempdir().unwrap();
        let default = JournalAt::resolve(None, Some(home.path()), Some("prod"));
        assert_eq!(default.as_ref().map(|a| a.given), Some(false));
        let (index, notes) = read(default.as_ref()).unwrap();
        assert!(index.is_empty() && notes.is_empty());
        let missing = home.path().join("typo");
        let err = read(JournalAt::resolve(Some(&missing), None, None).as_ref()).unwrap_err().to_string();
        assert!(err.contains("typo"), "{err}");
        let err = read(JournalAt::resolve(Some(home.path()), None, None).as_ref()).unwrap_err().to_string();
        assert!(err.contains("holds no ID journal"), "{err}");
        assert_eq!(JournalAt::resolve(None, None, None), None);
    }

    #[test]
    fn a_torn_line_is_skipped_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let line = r#"{"time":"2024-11-30T10:00:00Z","uid":"u1","group":"g","kind":"K","name":"a","source":"external-name","id":"x"}"#;
        std::fs::write(dir.path().join(FILE), format!("{line}\n{}", &line[..40])).unwrap();
        let (index, notes) = read(JournalAt::resolve(Some(dir.path()), None, None).as_ref()).unwrap();
        assert_eq!(index.for_uid("u1")[0].id, "x");
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("skipped line 2") && notes[0].contains(FILE), "{}", notes[0]);
    }
}
