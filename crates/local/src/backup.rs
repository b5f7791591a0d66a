//! Backups of a managed resource, written before `adopt` changes anything and read back by
//! `restore`.
//!
//! A backup is the whole object exactly as the API server returned it (`kubectl get -o json`
//! shape), so it can also be inspected or diffed by hand. Files are private (directory 0700,
//! file 0600) because MR annotations can hold provider state, and they are created with
//! `O_CREAT|O_EXCL`, so a symbolic link planted at the file's name is never followed; the backup
//! directory itself must not be a symbolic link either.

use chrono::{DateTime, Utc};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The largest file `read` accepts: a backup is one object, which etcd limits to ~1.5 MB.
const MAX_BACKUP_BYTES: u64 = 64 * 1024 * 1024;

/// Why a backup could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// No `$HOME` to put the default directory under.
    #[error("cannot find the home directory for the default backup directory; pass --backup-dir")]
    NoHome,
    /// The directory (or a directory this tool manages) is a symbolic link.
    #[error("backup directory {0} is a symbolic link; refusing to follow it (choose another --backup-dir)")]
    Symlink(PathBuf),
    /// Something that is not a directory is in the way.
    #[error("backup directory {0} exists and is not a directory")]
    NotADirectory(PathBuf),
    /// Creating or inspecting the directory failed.
    #[error("cannot create backup directory {path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Writing the file failed.
    #[error("cannot write backup {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Reading the file failed.
    #[error("cannot read backup {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a backup of an object.
    #[error("{path} is not an adopt backup: {problem}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
}

/// The folder backups go to, and whether it is the default one under the home directory
/// (whose intermediate `upjet` folder is then made private too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupDir {
    /// The folder.
    pub path: PathBuf,
    /// Whether it is `~/.kube/upjet/backups`.
    pub is_default: bool,
}

impl BackupDir {
    /// `~/.kube/upjet/backups`, next to the kubeconfig users already protect; `home` comes from
    /// the settings layer.
    pub fn default_under(home: Option<&Path>) -> Result<BackupDir, BackupError> {
        let home = home.filter(|h| !h.as_os_str().is_empty()).ok_or(BackupError::NoHome)?;
        Ok(BackupDir { path: home.join(".kube").join("upjet").join("backups"), is_default: true })
    }

    /// A folder the user chose with `--backup-dir`.
    pub fn chosen(path: impl Into<PathBuf>) -> BackupDir {
        BackupDir { path: path.into(), is_default: false }
    }
}

/// Makes sure the folder exists as a private directory and is not a symbolic link; for the
/// default folder the intermediate `upjet` directory is checked the same way.
pub(crate) fn prepare_dir(dir: &BackupDir) -> Result<PathBuf, BackupError> {
    let path = &dir.path;
    let abs = std::path::absolute(path).map_err(|source| BackupError::Dir { path: path.clone(), source })?;
    if dir.is_default
        && let Some(parent) = abs.parent()
    {
        ensure_private_dir(parent)?;
    }
    ensure_private_dir(&abs)?;
    Ok(abs)
}

fn ensure_private_dir(dir: &Path) -> Result<(), BackupError> {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => return Err(BackupError::Symlink(dir.to_path_buf())),
        Ok(m) if !m.is_dir() => return Err(BackupError::NotADirectory(dir.to_path_buf())),
        Ok(_) => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => return Err(BackupError::Dir { path: dir.to_path_buf(), source }),
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir).map_err(|source| BackupError::Dir { path: dir.to_path_buf(), source })?;
    // Re-check: something could have raced us into place.
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => Err(BackupError::Symlink(dir.to_path_buf())),
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(BackupError::NotADirectory(dir.to_path_buf())),
        Err(source) => Err(BackupError::Dir { path: dir.to_path_buf(), source }),
    }
}

/// `kind.group[_namespace]_name_YYYYMMDDTHHMMSS.mmmZ.json`: sortable, and readable in `ls`.
/// Kubernetes names never contain `_`, so the parts stay unambiguous.
pub fn file_name(obj: &Value, now: DateTime<Utc>) -> String {
    let text = |p: &str| obj.pointer(p).and_then(Value::as_str).unwrap_or("");
    let group = text("/apiVersion").rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    let kind = text("/kind").to_lowercase();
    let kind = if group.is_empty() { kind } else { format!("{kind}.{group}") };
    let mut parts = vec![safe(&kind)];
    if let Some(ns) = obj.pointer("/metadata/namespace").and_then(Value::as_str).filter(|n| !n.is_empty()) {
        parts.push(safe(ns));
    }
    parts.push(safe(text("/metadata/name")));
    parts.push(now.format("%Y%m%dT%H%M%S%.3fZ").to_string());
    format!("{}.json", parts.join("_"))
}

fn safe(s: &str) -> String {
    let out: String =
        s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' }).collect();
    if out.is_empty() || out.chars().all(|c| c == '.') { "unnamed".to_string() } else { out }
}

/// Writes `obj` into `dir` (created 0700 if missing) as a new 0600 file and returns its
/// absolute path. Never overwrites and never follows a link at the file's name.
pub fn write(dir: &BackupDir, obj: &Value, now: DateTime<Utc>) -> Result<PathBuf, BackupError> {
    let dir = prepare_dir(dir)?;
    let name = file_name(obj, now);
    let mut text = serde_json::to_string_pretty(obj).map_err(|e| BackupError::Write {
        path: dir.join(&name),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })?;
    text.push('\n');
    for attempt in 0..100 {
        let path = if attempt == 0 {
            dir.join(&name)
        } else {
            dir.join(format!("{}-{attempt}.json", name.trim_end_matches(".json")))
        };
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut file = match opts.open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => return Err(BackupError::Write { path, source }),
        };
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|source| BackupError::Write { path: path.clone(), source })?;
        return Ok(path);
    }
    Err(BackupError::Write {
        path: dir.join(name),
        source: std::io::Error::new(std::io::ErrorKind::AlreadyExists, "too many backups with this name"),
    })
}

/// Reads a backup back: a JSON object with apiVersion, kind and metadata.name.
pub fn read(path: &Path) -> Result<Value, BackupError> {
    let invalid = |problem: String| BackupError::Invalid { path: path.to_path_buf(), problem };
    let meta = std::fs::metadata(path).map_err(|source| BackupError::Read { path: path.to_path_buf(), source })?;
    if !meta.is_file() {
        return Err(invalid("not a regular file".into()));
    }
    if meta.len() > MAX_BACKUP_BYTES {
        return Err(invalid(format!("{} bytes is too large for one object", meta.len())));
    }
    let text =
        std::fs::read_to_string(path).map_err(|source| BackupError::Read { path: path.to_path_buf(), source })?;
    let obj: Value = serde_json::from_str(&text).map_err(|e| invalid(format!("not JSON ({e})")))?;
    for (pointer, what) in [("/apiVersion", "apiVersion"), ("/kind", "kind"), ("/metadata/name", "metadata.name")] {
        if obj.pointer(pointer).and_then(Value::as_str).is_none_or(str::is_empty) {
            return Err(invalid(format!("{what} is missing")));
        }
    }
    Ok(obj)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn when() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2024-11-30T12:00:00.123Z").unwrap().with_timezone(&Utc)
    }

    fn obj(ns: Option<&str>) -> Value {
        let mut o = json!({"apiVersion": "dns.gcp.upbound.io/v1beta2", "kind": "RecordSet",
                           "metadata": {"name": "www", "uid": "u"}, "spec": {}});
        if let Some(ns) = ns {
            o["metadata"]["namespace"] = json!(ns);
        }
        o
    }

    #[test]
    fn names() {
        assert_eq!(file_name(&obj(None), when()), "recordset.dns.gcp.upbound.io_www_20241130T120000.123Z.json");
        assert_eq!(
            file_name(&obj(Some("team-a")), when()),
            "recordset.dns.gcp.upbound.io_team-a_www_20241130T120000.123Z.json"
        );
        let mut o = obj(None);
        o["metadata"]["name"] = json!("../x/..");
        assert_eq!(file_name(&o, when()), "recordset.dns.gcp.upbound.io_..-x-.._20241130T120000.123Z.json");
        o["metadata"]["name"] = json!("..");
        assert!(!file_name(&o, when()).contains("_.._"));
    }

    #[test]
    fn write_then_read_is_private_and_never_overwrites() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a").join("b");
        let first = write(&BackupDir::chosen(&dir), &obj(None), when()).unwrap();
        let second = write(&BackupDir::chosen(&dir), &obj(None), when()).unwrap();
        assert_ne!(first, second, "same millisecond gets a new name");
        assert!(second.to_string_lossy().ends_with("-1.json"));
        assert_eq!(read(&first).unwrap(), obj(None));
        assert!(first.is_absolute());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&first).unwrap().permissions().mode() & 0o777, 0o600);
            assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        assert!(matches!(write(&BackupDir::chosen(&link), &obj(None), when()), Err(BackupError::Symlink(_))));
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        // A link planted at the file's own name is not followed either: a new name is used.
        let dir = tmp.path().join("dir");
        std::fs::create_dir(&dir).unwrap();
        let target = tmp.path().join("victim");
        std::os::unix::fs::symlink(&target, dir.join(file_name(&obj(None), when()))).unwrap();
        let path = write(&BackupDir::chosen(&dir), &obj(None), when()).unwrap();
        assert!(!target.exists(), "the link target was not created");
        assert!(path.to_string_lossy().ends_with("-1.json"));
        // A file where the directory should be.
        let file = tmp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(matches!(write(&BackupDir::chosen(&file), &obj(None), when()), Err(BackupError::NotADirectory(_))));
    }

    #[test]
    fn the_default_folder_lives_under_home_and_is_private_two_levels_deep() {
        assert!(matches!(BackupDir::default_under(None), Err(BackupError::NoHome)));
        let tmp = tempfile::tempdir().unwrap();
        let dir = BackupDir::default_under(Some(tmp.path())).unwrap();
        assert_eq!(dir.path, tmp.path().join(".kube/upjet/backups"));
        write(&dir, &obj(None), when()).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&tmp.path().join(".kube/upjet")), 0o700);
            assert_eq!(mode(&dir.path), 0o700);
        }
    }

    #[test]
    fn bad_backups() {
        let tmp = tempfile::tempdir().unwrap();
        for (text, want) in [
            ("not json", "not JSON"),
            ("[1]", "apiVersion is missing"),
            (r#"{"apiVersion":"v1","kind":"K","metadata":{}}"#, "metadata.name is missing"),
        ] {
            let p = tmp.path().join("b.json");
            std::fs::write(&p, text).unwrap();
            let err = read(&p).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
        assert!(matches!(read(&tmp.path().join("missing.json")), Err(BackupError::Read { .. })));
        assert!(matches!(read(tmp.path()), Err(BackupError::Invalid { .. })));
    }
}
