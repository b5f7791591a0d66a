//! Offline input: `kubectl get managed -A -o json` (or `-o yaml`) output, a file or a directory
//! of them, so a support engineer can analyse a customer's snapshot without a cluster.

use crate::error::Error;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::path::{Path, PathBuf};

/// One object from a snapshot, still as JSON text (decoded later like a list page item).
#[derive(Debug)]
pub struct SnapshotItem {
    /// The object's JSON.
    pub json: String,
    /// The file it came from.
    pub source: PathBuf,
}

#[derive(Deserialize)]
struct JsonList {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    items: Option<Vec<Box<RawValue>>>,
}

/// Reads every item of a snapshot file, or of every `.json`/`.yaml`/`.yml` file below a directory.
pub fn read(path: &Path) -> Result<Vec<SnapshotItem>, Error> {
    let meta = std::fs::metadata(path).map_err(|e| Error::usage(format!("cannot read {}: {e}", path.display())))?;
    let files = if meta.is_dir() {
        let mut files = Vec::new();
        collect_files(path, &mut files)?;
        if files.is_empty() {
            return Err(Error::usage(format!("{} holds no .json or .yaml files", path.display())));
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut items = Vec::new();
    for file in files {
        read_file(&file, &mut items)?;
    }
    Ok(items)
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::usage(format!("cannot read directory {}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_files(&p, out)?;
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("json" | "yaml" | "yml")) {
            out.push(p);
        }
    }
    Ok(())
}

fn not_a_list(file: &Path, kind: &str) -> Error {
    let what = if kind.is_empty() { "no kind".to_string() } else { format!("kind {kind:?}") };
    Error::usage(format!(
        "{} is not a List ({what}); write one with `kubectl get managed -A -o json > {}`",
        file.display(),
        file.file_name().and_then(|n| n.to_str()).unwrap_or("fleet.json")
    ))
}

fn read_file(file: &Path, out: &mut Vec<SnapshotItem>) -> Result<(), Error> {
    let text =
        std::fs::read_to_string(file).map_err(|e| Error::usage(format!("cannot read {}: {e}", file.display())))?;
    let is_yaml = matches!(file.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    if is_yaml {
        let value: serde_json::Value = serde_saphyr::from_str(&text)
            .map_err(|e| Error::usage(format!("{} is not valid YAML: {e}", file.display())))?;
        let kind = value.get("kind").and_then(|k| k.as_str()).unwrap_or_default().to_string();
        let Some(items) = value.get("items").and_then(|i| i.as_array()).filter(|_| kind.ends_with("List")) else {
            return Err(not_a_list(file, &kind));
        };
        out.extend(items.iter().map(|i| SnapshotItem { json: i.to_string(), source: file.to_path_buf() }));
    } else {
        let list: JsonList = serde_json::from_str(&text)
            .map_err(|e| Error::usage(format!("{} is not valid JSON: {e}", file.display())))?;
        let Some(items) = list.items.filter(|_| list.kind.ends_with("List")) else {
            return Err(not_a_list(file, &list.kind));
        };
        out.extend(items.into_iter().map(|i| SnapshotItem { json: i.get().to_string(), source: file.to_path_buf() }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_files_and_errors() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.json");
        std::fs::write(
            &a,
            r#"{"apiVersion":"v1","kind":"List","items":[{"metadata":{"name":"x"}},{"metadata":{"name":"y"}}]}"#,
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/b.yaml"), "apiVersion: v1\nkind: List\nitems:\n- metadata:\n    name: z\n")
            .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        let items = read(dir.path()).unwrap();
        assert_eq!(items.len(), 3);
        assert!(items[2].json.contains("\"z\""));

        let bad = dir.path().join("pod.json");
        std::fs::write(&bad, r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}"#).unwrap();
        let err = read(&bad).unwrap_err().to_string();
        assert!(err.contains("is not a List (kind \"Pod\")"), "{err}");
        std::fs::write(&bad, "{nope").unwrap();
        assert!(read(&bad).unwrap_err().to_string().contains("is not valid JSON"));
        assert!(read(&dir.path().join("missing.json")).unwrap_err().to_string().contains("cannot read"));
    }
}
