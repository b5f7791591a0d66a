//! Files given to the wrong flag. When a reader cannot use a file, the sniffer
//! ([`upjet_evidence::sniff`]) is asked what the file is; if it is another input, the user is
//! told which flag takes it (a usage error, exit 2) instead of the reader's own complaint. A
//! `--from` folder skips such files, one stderr line each, instead of failing the run.

use std::path::Path;
use upjet_cluster::snapshot::{self, SnapshotItem};
use upjet_core::composition::Composites;
use upjet_core::error::Error;
use upjet_core::kind_removal::KindRemovals;
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
pub(crate) fn misplaced(path: &Path, reader: Reader) -> Option<Error> {
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
    /// The kinds whose CRD or MRD the snapshot holds as being deleted (`deletionTimestamp`):
    /// their MRs are judged as going away with them.
    pub removals: KindRemovals,
    /// The XRDs, XRs and claims it holds beside the MRs (`kubectl get composite,claim -A -o json`,
    /// `crossplane resource trace -o json`), taken out of `items`: the composition tree.
    pub tree: Composites,
}

/// Reads a `--from` path. A file that is not a snapshot fails the read, saying which flag takes
/// it when it is another input; in a folder such a file is skipped instead (a user points
/// `--from` at a folder holding everything of one incident), while a file that is no known
/// input still fails: silently reading less of a fleet would report MRs as missing.
pub(crate) fn read_snapshot(path: &Path) -> Result<Snapshot, Error> {
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
    take_composition(&mut snap);
    drop_crossplane_objects(&mut snap);
    drop_crds(&mut snap);
    Ok(snap)
}

/// Takes the XRDs, XRs and claims out of the snapshot's items into its composition tree
/// (`upjet_evidence::composition::sort`), with one line saying how many.
fn take_composition(snap: &mut Snapshot) {
    let sorted = upjet_evidence::composition::sort(snap.items.iter().map(|i| i.json.as_str()));
    let (xrds, xrs, claims) = sorted.counts;
    if xrds + xrs + claims > 0 {
        let mut taken = sorted.taken.iter();
        snap.items.retain(|_| !taken.next().copied().unwrap_or(false));
        snap.skipped.push(format!(
            "composition tree read beside the managed resources: {xrds} XRD(s), {xrs} XR(s), {claims} claim(s)"
        ));
    }
    snap.tree = sorted.index;
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
    let mut mrds: Vec<upjet_core::mrd::Mrd> = Vec::new();
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
        let states = upjet_core::mrd::MrdStates::new(mrds);
        snap.removals.merge(states.removals());
        let (all, inactive) = states.counts();
        snap.skipped.push(format!(
            "{dropped} Crossplane API objects are not managed resources and were not diagnosed ({all} ManagedResourceDefinitions, {inactive} inactive)"
        ));
    }
}

/// Leaves out the CustomResourceDefinitions a snapshot may hold (`kubectl get crd -o json` beside
/// the MRs): they define kinds, they are no managed resources. One line says how many, and
/// those being deleted are kept as the removals of their kinds.
fn drop_crds(snap: &mut Snapshot) {
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(default, rename = "apiVersion")]
        api_version: String,
        #[serde(default)]
        kind: String,
    }
    let is_crd = |json: &str| {
        serde_json::from_str::<Head>(json)
            .is_ok_and(|h| h.kind == "CustomResourceDefinition" && h.api_version.starts_with("apiextensions.k8s.io/"))
    };
    let (mut crds, mut deleting) = (0, 0);
    let mut removals = KindRemovals::default();
    snap.items.retain(|i| {
        if !is_crd(&i.json) {
            return true;
        }
        crds += 1;
        if let Ok(crd) = upjet_evidence::crd::parse(&i.json)
            && crd.deleted_at.is_some()
        {
            deleting += 1;
            removals.crd((crd.group.as_str(), crd.kind.as_str()), &crd.name, crd.deleted_at.as_deref());
        }
        false
    });
    snap.removals.merge(removals);
    if crds > 0 {
        snap.skipped.push(format!(
            "{crds} CustomResourceDefinitions are not managed resources and were not diagnosed ({deleting} being deleted)"
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

    /// A snapshot's CRDs and MRDs are not judged as MRs; those being deleted name their kinds.
    #[test]
    fn definitions_in_a_snapshot_are_kept_apart_and_say_what_is_going_away() {
        let dir = tempfile::tempdir().unwrap();
        let crd = |plural: &str, kind: &str, deleted: Option<&str>| {
            serde_json::json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                "metadata": {"name": format!("{plural}.ec2.aws.upbound.io"), "deletionTimestamp": deleted},
                "spec": {"group": "ec2.aws.upbound.io", "names": {"kind": kind, "plural": plural}, "scope": "Cluster"}})
        };
        let mrd = serde_json::json!({"apiVersion": "apiextensions.crossplane.io/v1alpha1", "kind": "ManagedResourceDefinition",
            "metadata": {"name": "buckets.s3.aws.m.upbound.io", "deletionTimestamp": "2024-11-30T11:00:01Z"},
            "spec": {"group": "s3.aws.m.upbound.io", "names": {"kind": "Bucket"}, "state": "Active"}});
        let vpc =
            serde_json::json!({"apiVersion": "ec2.aws.upbound.io/v1beta1", "kind": "VPC", "metadata": {"name": "v"}});
        let items = [vpc, crd("vpcs", "VPC", Some("2024-11-30T11:00:00Z")), crd("subnets", "Subnet", None), mrd];
        let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string();
        std::fs::write(dir.path().join("fleet.json"), list).unwrap();
        let snap = read_snapshot(dir.path()).unwrap();
        assert_eq!(snap.items.len(), 1, "the VPC alone is an MR");
        assert!(snap.removals.of("ec2.aws.upbound.io", "VPC").is_some_and(|r| r.crd_deleted_at.is_some()));
        assert!(snap.removals.of("ec2.aws.upbound.io", "Subnet").is_none());
        assert!(snap.removals.of("s3.aws.m.upbound.io", "Bucket").is_some_and(|r| r.mrd_deleted_at.is_some()));
        assert!(
            snap.skipped.iter().any(|l| l
                == "2 CustomResourceDefinitions are not managed resources and were not diagnosed (1 being deleted)"),
            "{:?}",
            snap.skipped
        );
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
