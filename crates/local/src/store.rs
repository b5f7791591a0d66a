//! The files kubectl-upjet keeps or writes on the user's machine besides adopt's backups: the
//! discovery cache's entries and the outputs a command was asked to write (restore-plan's files,
//! the installed completion script). With `backup.rs` this is the only code that creates,
//! replaces or removes files, so what the tool can change on disk is reviewed in one folder.
//!
//! Plain bytes in, plain `io::Result` out: callers own the format and word the errors.

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Reads a whole file (a missing file is `NotFound`, which callers treat as "absent").
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    std::fs::read(path)
}

/// Replaces `path` with `bytes` atomically, creating its folder: a temporary file beside it is
/// renamed over it, so a concurrent reader (another run sharing the cache) sees the old or the
/// new content, never half of one. The temporary file is removed when the rename fails.
pub fn replace_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    /// Tells apart the temporary files of one process's concurrent writes.
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().ok_or_else(|| io::Error::other("the path has no parent folder"))?;
    let name = path.file_name().ok_or_else(|| io::Error::other("the path has no file name"))?;
    std::fs::create_dir_all(dir)?;
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{}.{}.{n}.tmp", name.to_string_lossy(), std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Opens an output file for writing: a new file, or with `overwrite` an existing one emptied.
/// Without `overwrite` an existing file (or a symlink) is an error, never clobbered.
pub fn create(path: &Path, overwrite: bool) -> io::Result<File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true);
    if overwrite {
        opts.create(true).truncate(true);
    } else {
        opts.create_new(true);
    }
    opts.open(path)
}

/// Appends to a file, creating it if needed (a CI step's summary file, which other steps write too).
pub fn append(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new().create(true).append(true).open(path)?.write_all(bytes)
}

/// Writes (or overwrites) a whole file.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    std::fs::write(path, bytes)
}

/// Makes a file executable by everyone and writable by its owner (`rwxr-xr-x`), as an installed
/// script must be; nothing to do where files carry no such mode.
pub fn make_executable(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn replacing_creates_the_folder_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a").join("b").join("entry.json");
        replace_atomically(&path, b"one").unwrap();
        replace_atomically(&path, b"two").unwrap();
        assert_eq!(read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(path.parent().unwrap()).unwrap().count(), 1, "no temporary file left");
    }

    #[test]
    fn a_failed_rename_removes_its_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A non-empty folder where the file should be: the rename over it fails.
        let path = dir.path().join("entry.json");
        std::fs::create_dir_all(path.join("inside")).unwrap();
        assert!(replace_atomically(&path, b"x").is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "only the folder stays");
    }

    #[test]
    fn outputs_are_new_unless_overwriting_is_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.yaml");
        create(&path, false).unwrap().write_all(b"first").unwrap();
        assert_eq!(create(&path, false).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        create(&path, true).unwrap().write_all(b"2").unwrap();
        assert_eq!(read(&path).unwrap(), b"2", "overwriting empties the old content");
    }

    #[cfg(unix)]
    #[test]
    fn an_installed_script_is_executable() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("script");
        write(&path, b"#!/bin/sh\n").unwrap();
        make_executable(&path).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o755);
    }
}
