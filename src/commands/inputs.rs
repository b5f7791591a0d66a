//! Files given to the wrong flag. When a reader cannot use a file, the sniffer
//! ([`upjet_evidence::sniff`]) is asked what the file is; if it is another input, the user is
//! told which flag takes it (a usage error, exit 2) instead of the reader's own complaint. A
//! `--from` folder skips such files, one stderr line each, instead of failing the run.

use std::path::Path;
use upjet_cluster::snapshot::{self, SnapshotItem};
use upjet_core::error::Error;
use upjet_evidence::format::Reader;
use upjet_evidence::sniff;

/// "looks like …; pass it with …" for `path` given to `reader`, when its first bytes are another
/// input. Stdin (`-`), folders and files that cannot be opened say nothing: the reader's own
/// error stands.
fn looks_like(path: &Path, reader: Reader) -> Option<String> {
    if path.as_os_str() == "-" {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return None;
    }
    sniff::looks_like(sniff::sniff_reader(file).ok()??, reader)
}

/// The usage error for a file `reader` could not use but another flag takes
/// (`aws.json looks like an AWS tagging export (…); pass it with --inventory`).
pub fn misplaced(path: &Path, reader: Reader) -> Option<Error> {
    looks_like(path, reader).map(|why| named(path, &why))
}

/// The usage error "PATH looks like …".
fn named(path: &Path, why: &str) -> Error {
    Error::usage(format!("{} {why}", path.display()))
}

/// `reader`'s own error for `path`, unless the file is another input: then the error that says so.
pub fn explain(path: &Path, reader: Reader, own: Error) -> Error {
    misplaced(path, reader).unwrap_or(own)
}

/// A `--from` snapshot as read, and the files of its folder that were skipped as another input.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// The objects read.
    pub items: Vec<SnapshotItem>,
    /// One line per skipped file: `skipped X: looks like …; pass it with …`.
    pub skipped: Vec<String>,
}

/// Reads a `--from` path. A file that is not a snapshot fails the read, saying which flag takes
/// it when it is another input; in a folder such a file is skipped instead (a user points
/// `--from` at a folder holding everything of one incident), while a file that is no known
/// input still fails: silently reading less of a fleet would report MRs as missing.
pub fn read_snapshot(path: &Path) -> Result<Snapshot, Error> {
    let (files, folder) = snapshot::files(path)?;
    let mut snap = Snapshot::default();
    for file in &files {
        let Err(own) = snapshot::read_file(file, &mut snap.items) else { continue };
        match looks_like(file, Reader::From) {
            Some(why) if folder => snap.skipped.push(format!("skipped {}: {why}", file.display())),
            Some(why) => return Err(named(file, &why)),
            None => return Err(own),
        }
    }
    if snap.skipped.len() == files.len() {
        let why = snap.skipped.join("; ");
        return Err(Error::usage(format!("{} holds no snapshot of managed resources ({why})", path.display())));
    }
    drop_crossplane_objects(&mut snap);
    Ok(snap)
}

/// Leaves out Crossplane's own API objects a snapshot may hold (ManagedResourceDefinitions,
/// activation policies, packages): they are not managed resources, and judged as ones they would
/// get findings about conditions they never have. One line says how many, and how many of the
/// MRDs are inactive.
fn drop_crossplane_objects(snap: &mut Snapshot) {
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(default, rename = "apiVersion")]
        api_version: String,
    }
    let before = snap.items.len();
    let mut mrds = Vec::new();
    snap.items.retain(|i| {
        let ours =
            serde_json::from_str::<Head>(&i.json).is_ok_and(|h| upjet_core::mrd::is_crossplane_api(&h.api_version));
        if ours {
            mrds.extend(upjet_evidence::mrd::parse_one(&i.json));
        }
        !ours
    });
    let dropped = before - snap.items.len();
    if dropped > 0 {
        let (all, inactive) = upjet_core::mrd::MrdStates::new(mrds).counts();
        snap.skipped.push(format!(
            "{dropped} Crossplane API objects are not managed resources and were not diagnosed ({all} ManagedResourceDefinitions, {inactive} inactive)"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_skips_other_inputs_and_fails_on_unknown_files() {
        let dir = tempfile::tempdir().unwrap();
        let list =
            r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"a.b/v1","kind":"X","metadata":{"name":"x"}}]}"#;
        std::fs::write(dir.path().join("fleet.json"), list).unwrap();
        std::fs::write(dir.path().join("plan.json"), r#"[{"resource":"x.a.b/x","id":"i"}]"#).unwrap();
        let snap = read_snapshot(dir.path()).unwrap();
        assert_eq!(snap.items.len(), 1);
        let plan = dir.path().join("plan.json");
        assert_eq!(
            snap.skipped,
            [format!(
                "skipped {}: looks like an adoption plan (doctor --plan); pass it to `kubectl upjet adopt -f`",
                plan.display()
            )]
        );
        let err = read_snapshot(&plan).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{} looks like an adoption plan", plan.display())), "{err}");

        std::fs::write(dir.path().join("notes.json"), "not json").unwrap();
        let err = read_snapshot(dir.path()).unwrap_err().to_string();
        assert!(err.contains("notes.json is not valid JSON"), "{err}");
    }

    #[test]
    fn a_folder_of_other_inputs_only_is_no_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("aws.json"), r#"{"ResourceTagMappingList":[]}"#).unwrap();
        let err = read_snapshot(dir.path()).unwrap_err().to_string();
        assert!(err.contains("holds no snapshot of managed resources (skipped "), "{err}");
        assert!(err.ends_with("pass it with --inventory)"), "{err}");
    }
}
