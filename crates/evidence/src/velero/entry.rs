//! The name of one backup entry, read as Velero writes it (`pkg/archive/filesystem.go`
//! `GetVersionedItemFilePath`, `GetScopeDir`): what object it holds, at which version path.

/// The scope folder of an entry, named after Velero's `GetScopeDir`: whether the object is
/// cluster-scoped (`cluster/`) or in a namespace (`namespaces/<ns>/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ScopeDir {
    /// `cluster/`.
    Cluster,
    /// `namespaces/<ns>/`.
    Namespace(String),
}

/// One object entry: `resources/<group_resource>/[<version>/]<scope>/<name>.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ItemPath {
    /// `<plural>.<group>` (the core group has no suffix).
    pub group_resource: String,
    /// The version folder (`v1-preferredversion`, `v1beta1`), `None` at the plain path.
    pub version: Option<String>,
    /// Where the object lives.
    pub scope: ScopeDir,
    /// The file name without `.json`.
    pub name: String,
}

impl ItemPath {
    /// The namespace, for a namespaced object.
    pub fn namespace(&self) -> Option<&str> {
        match &self.scope {
            ScopeDir::Namespace(ns) => Some(ns),
            ScopeDir::Cluster => None,
        }
    }
}

/// What an entry of a backup archive is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EntryPath {
    /// `metadata/version`: the backup format.
    Version,
    /// An object.
    Item(ItemPath),
    /// Anything else Velero may add (other metadata); not read.
    Other,
}

impl EntryPath {
    /// Reads an entry name. Names that could point outside a folder (absolute, `..`) and names
    /// under `resources/` that are not laid out as Velero lays objects out are errors, so the
    /// caller reports them instead of guessing.
    pub fn parse(name: &str) -> Result<EntryPath, String> {
        let name = name.strip_prefix("./").unwrap_or(name);
        if name.starts_with('/') || name.starts_with('\\') || name.contains(':') && name.contains('\\') {
            return Err("an absolute path".into());
        }
        let parts: Vec<&str> = name.split(['/', '\\']).filter(|p| !p.is_empty() && *p != ".").collect();
        if parts.contains(&"..") {
            return Err("a path that climbs out of the archive (..)".into());
        }
        match parts.as_slice() {
            ["metadata", "version"] => Ok(EntryPath::Version),
            ["resources", rest @ ..] => item(rest).map(EntryPath::Item),
            _ => Ok(EntryPath::Other),
        }
    }
}

fn item(parts: &[&str]) -> Result<ItemPath, String> {
    let unexpected =
        || "not laid out as resources/<plural>.<group>/[<version>/]{cluster|namespaces/<ns>}/<name>.json".to_string();
    let (group_resource, version, scope, file) = match parts {
        [gr, "cluster", file] => (gr, None, ScopeDir::Cluster, file),
        [gr, "namespaces", ns, file] => (gr, None, ScopeDir::Namespace(ns.to_string()), file),
        [gr, v, "cluster", file] => (gr, Some(v), ScopeDir::Cluster, file),
        [gr, v, "namespaces", ns, file] => (gr, Some(v), ScopeDir::Namespace(ns.to_string()), file),
        _ => return Err(unexpected()),
    };
    let name = file.strip_suffix(".json").filter(|n| !n.is_empty()).ok_or_else(unexpected)?;
    Ok(ItemPath {
        group_resource: group_resource.to_string(),
        version: version.map(|v| v.to_string()),
        scope,
        name: name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths from Velero's own tests (`pkg/backup/backup_test.go`, `pkg/archive/parser_test.go`)
    /// and hostile ones.
    #[test]
    fn velero_layouts_and_hostile_names() {
        let item = |gr: &str, v: Option<&str>, ns: Option<&str>, name: &str| {
            Ok(EntryPath::Item(ItemPath {
                group_resource: gr.into(),
                version: v.map(Into::into),
                scope: ns.map_or(ScopeDir::Cluster, |n| ScopeDir::Namespace(n.into())),
                name: name.into(),
            }))
        };
        let cases: &[(&str, Result<EntryPath, String>)] = &[
            ("resources/pods/namespaces/foo/bar.json", item("pods", None, Some("foo"), "bar")),
            ("resources/persistentvolumes/cluster/bar.json", item("persistentvolumes", None, None, "bar")),
            (
                "resources/pods/v1-preferredversion/namespaces/foo/bar.json",
                item("pods", Some("v1-preferredversion"), Some("foo"), "bar"),
            ),
            (
                "resources/customresourcedefinitions.apiextensions.k8s.io/v1-preferredversion/cluster/vpcs.ec2.aws.upbound.io.json",
                item(
                    "customresourcedefinitions.apiextensions.k8s.io",
                    Some("v1-preferredversion"),
                    None,
                    "vpcs.ec2.aws.upbound.io",
                ),
            ),
            (
                "resources/horizontalpodautoscalers.autoscaling/v2beta1/namespaces/a/h.json",
                item("horizontalpodautoscalers.autoscaling", Some("v2beta1"), Some("a"), "h"),
            ),
            (
                "./resources/vpcs.ec2.aws.upbound.io/cluster/main.json",
                item("vpcs.ec2.aws.upbound.io", None, None, "main"),
            ),
            ("resources/x.g/namespaces/cluster/n.json", item("x.g", None, Some("cluster"), "n")),
            ("metadata/version", Ok(EntryPath::Version)),
            ("velero-backup.json", Ok(EntryPath::Other)),
        ];
        for (name, want) in cases {
            assert_eq!(&EntryPath::parse(name), want, "{name}");
        }
        for bad in [
            "/etc/passwd",
            "../../etc/x",
            "resources/../../etc/x",
            "resources/pods/namespaces/../../../x.json",
            "resources/pods/bar.json",
            "resources/pods/cluster/bar.yaml",
            "resources/pods/cluster/.json",
            "resources/a/b/c/d/e/f.json",
        ] {
            assert!(EntryPath::parse(bad).is_err(), "{bad}");
        }
    }
}
