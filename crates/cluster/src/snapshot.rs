//! Offline input: `kubectl get managed -A -o json` (or `-o yaml`) output, a file or a directory
//! of them, so a support engineer can analyse a customer's snapshot without a cluster. A file
//! may also hold one object (`kubectl get KIND NAME -o json`, an adopt backup), or the tree
//! `crossplane resource trace -o json|yaml` prints (its objects, root first).
//!
//! Files are listed and read one by one, so the caller decides what a file that is not a
//! snapshot means (in a folder, another input can be skipped).

use serde::Deserialize;
use serde_json::value::RawValue;
use std::path::{Path, PathBuf};
use upjet_core::composition::trace;
use upjet_core::error::Error;
use upjet_core::shell::ShellCommand;

/// One object from a snapshot, still as JSON text (decoded later like a list page item).
#[derive(Debug)]
pub struct SnapshotItem {
    /// The object's JSON.
    pub json: String,
    /// The file it came from.
    pub source: PathBuf,
}

#[derive(Deserialize)]
struct JsonDoc {
    #[serde(default)]
    kind: String,
    #[serde(default, rename = "apiVersion")]
    api_version: String,
    #[serde(default)]
    metadata: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    items: Option<Vec<Box<RawValue>>>,
    /// A `crossplane resource trace -o json` document's root node.
    #[serde(default)]
    object: Option<serde::de::IgnoredAny>,
}

/// The files a snapshot path names: the file itself, or every `.json`/`.yaml`/`.yml` file below a
/// directory in name order; and whether it was a directory.
pub fn files(path: &Path) -> Result<(Vec<PathBuf>, bool), Error> {
    let meta = std::fs::metadata(path).map_err(|e| Error::usage(format!("cannot read {}: {e}", path.display())))?;
    if !meta.is_dir() {
        return Ok((vec![path.to_path_buf()], false));
    }
    let mut files = Vec::new();
    collect_files(path, &mut files)?;
    if files.is_empty() {
        return Err(Error::usage(format!("{} holds no .json or .yaml files", path.display())));
    }
    Ok((files, true))
}

/// The entries of a directory, sorted by path, so every folder input is read in the same order
/// on every machine.
pub fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::usage(format!("cannot read directory {}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    Ok(entries)
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    for p in sorted_entries(dir)? {
        if p.is_dir() {
            collect_files(&p, out)?;
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("json" | "yaml" | "yml")) {
            out.push(p);
        }
    }
    Ok(())
}

fn no_objects(file: &Path, kind: &str) -> Error {
    let what = if kind.is_empty() { "no kind".to_string() } else { format!("kind {kind:?}") };
    let write = ShellCommand::kubectl("get")
        .word("managed")
        .word("-A")
        .opt("-o", "json")
        .word(">")
        .arg(file.file_name().and_then(|n| n.to_str()).unwrap_or("fleet.json"));
    Error::usage(format!(
        "{} is neither a List nor a Kubernetes object ({what}); write one with `{write}`",
        file.display()
    ))
}

/// Whether a document that is not a List with items is one object: a kind (not a List kind, which
/// without items holds nothing), an apiVersion and metadata.
fn one_object(kind: &str, api_version: &str, has_metadata: bool) -> bool {
    !kind.is_empty() && !kind.ends_with("List") && !api_version.is_empty() && has_metadata
}

/// Reads the objects of one snapshot file into `out`: the items of a List, or one object
/// (`kubectl get KIND NAME -o json`, an adopt backup).
pub fn read_file(file: &Path, out: &mut Vec<SnapshotItem>) -> Result<(), Error> {
    let text =
        std::fs::read_to_string(file).map_err(|e| Error::usage(format!("cannot read {}: {e}", file.display())))?;
    let item = |json: String| SnapshotItem { json, source: file.to_path_buf() };
    let is_yaml = matches!(file.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    if is_yaml {
        // Several objects may follow one another as documents (`---`), as `kubectl get -o yaml`
        // of several names writes them when concatenated.
        let values: Vec<serde_json::Value> = serde_saphyr::from_multiple(&text)
            .map_err(|e| Error::usage(format!("{} is not valid YAML: {e}", file.display())))?;
        for value in values.iter().filter(|v| !v.is_null()) {
            let text_of = |key: &str| value.get(key).and_then(|k| k.as_str()).unwrap_or_default();
            let kind = text_of("kind");
            if let Some(items) = value.get("items").and_then(|i| i.as_array()).filter(|_| kind.ends_with("List")) {
                out.extend(items.iter().map(|i| item(i.to_string())));
            } else if trace::is_trace(value) {
                out.extend(trace::trace_objects(value).iter().map(|o| item(o.to_string())));
            } else if one_object(kind, text_of("apiVersion"), value.get("metadata").is_some()) {
                out.push(item(value.to_string()));
            } else {
                return Err(no_objects(file, kind));
            }
        }
    } else {
        // A List goes through the path of a live page: items delimited by the one splitter, each
        // decoded later on its own (an object that does not decode is named, not the whole file).
        if let Some((items, envelope)) = super::scan::split_list(&text)
            && let Ok(doc) = serde_json::from_str::<JsonDoc>(&envelope)
            && doc.kind.ends_with("List")
        {
            out.extend(items.into_iter().map(|i| item(i.to_string())));
            return Ok(());
        }
        let doc: JsonDoc = serde_json::from_str(&text)
            .map_err(|e| Error::usage(format!("{} is not valid JSON: {e}", file.display())))?;
        if doc.kind.is_empty() && doc.object.is_some() {
            // `crossplane resource trace -o json`: the tree's objects, root first.
            let value: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| Error::usage(format!("{} is not valid JSON: {e}", file.display())))?;
            if trace::is_trace(&value) {
                out.extend(trace::trace_objects(&value).iter().map(|o| item(o.to_string())));
                return Ok(());
            }
        }
        match doc.items {
            Some(items) if doc.kind.ends_with("List") => {
                out.extend(items.into_iter().map(|i| item(i.get().to_string())))
            }
            _ if one_object(&doc.kind, &doc.api_version, doc.metadata.is_some()) => {
                out.push(item(text.trim().to_string()))
            }
            _ => return Err(no_objects(file, &doc.kind)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> Result<Vec<SnapshotItem>, Error> {
        let mut items = Vec::new();
        for file in files(path)?.0 {
            read_file(&file, &mut items)?;
        }
        Ok(items)
    }

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
        assert_eq!(files(dir.path()).unwrap(), (vec![a.clone(), dir.path().join("sub/b.yaml")], true));
        assert_eq!(files(&a).unwrap(), (vec![a.clone()], false));
        let items = read(dir.path()).unwrap();
        assert_eq!(items.len(), 3);
        assert!(items[2].json.contains("\"z\""));

        let bad = dir.path().join("cm.json");
        std::fs::write(&bad, r#"{"apiVersion":"v1","kind":"ConfigMapList","metadata":{}}"#).unwrap();
        let err = read(&bad).unwrap_err().to_string();
        assert!(err.contains("is neither a List nor a Kubernetes object (kind \"ConfigMapList\")"), "{err}");
        std::fs::write(&bad, r#"{"kind":"VPC"}"#).unwrap();
        assert!(read(&bad).unwrap_err().to_string().contains("(kind \"VPC\")"));
        std::fs::write(&bad, "{nope").unwrap();
        assert!(read(&bad).unwrap_err().to_string().contains("is not valid JSON"));
        assert!(read(&dir.path().join("missing.json")).unwrap_err().to_string().contains("cannot read"));
    }

    #[test]
    fn a_list_s_objects_are_delimited_like_a_live_page_s() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("fleet.json");
        // One object that will not decode does not hide the others: it is handed on by itself.
        std::fs::write(
            &f,
            r#"{"kind":"List","items":[{"metadata":{"name":"a"}},{"metadata":{"name":tru}}],"apiVersion":"v1"}"#,
        )
        .unwrap();
        let items = read(&f).unwrap();
        let texts: Vec<&str> = items.iter().map(|i| i.json.as_str()).collect();
        assert_eq!(texts, [r#"{"metadata":{"name":"a"}}"#, r#"{"metadata":{"name":tru}}"#]);
        // An envelope that is not a List is still refused as a whole.
        std::fs::write(&f, r#"{"kind":"ConfigMapList","items":[{"a":1}]} x"#).unwrap();
        assert!(read(&f).unwrap_err().to_string().contains("is not valid JSON"));
    }

    #[test]
    fn one_object_is_a_snapshot_of_one() {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("vpc.json");
        std::fs::write(&json, "{\n  \"apiVersion\": \"ec2.aws.upbound.io/v1beta1\",\n  \"kind\": \"VPC\",\n  \"metadata\": {\"name\": \"main\"}\n}\n")
            .unwrap();
        let yaml = dir.path().join("key.yaml");
        std::fs::write(&yaml, "apiVersion: kms.aws.upbound.io/v1beta1\nkind: Key\nmetadata:\n  name: k\n").unwrap();
        let items = read(dir.path()).unwrap();
        assert_eq!(items.len(), 2);
        assert!(items[0].json.contains("\"name\":\"k\"") && items[0].source == yaml, "{:?}", items[0]);
        assert!(items[1].json.starts_with('{') && items[1].json.contains("\"main\"") && items[1].source == json);
    }
}
