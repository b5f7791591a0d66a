//! The backup reader over archives written here in Velero's layout, and over hostile ones.

use super::*;
use proptest::prelude::*;
use std::io::Write;

/// A minimal CRD as the API server returns it (what Velero backs up), managed or not.
fn crd(plural: &str, group: &str, kind: &str, managed: bool) -> String {
    let categories = if managed { r#"["crossplane","managed","aws"]"# } else { r#"["crossplane"]"# };
    format!(
        r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{{"name":"{plural}.{group}"}},
        "spec":{{"group":"{group}","scope":"Cluster","names":{{"kind":"{kind}","plural":"{plural}","categories":{categories}}},
        "versions":[{{"name":"v1beta1","served":true,"storage":true}}]}}}}"#
    )
}

fn mr(api_version: &str, kind: &str, name: &str, ext: Option<&str>) -> String {
    let ann = ext.map(|e| format!(r#","annotations":{{"crossplane.io/external-name":"{e}"}}"#)).unwrap_or_default();
    format!(
        r#"{{"apiVersion":"{api_version}","kind":"{kind}","metadata":{{"name":"{name}","uid":"u-{name}"{ann}}},"spec":{{"forProvider":{{"region":"eu-west-1"}}}}}}"#
    )
}

/// A tar (gzip-compressed when asked) of these entries, names written raw so hostile ones survive.
fn archive(entries: &[(&str, &[u8])], gzip: bool) -> Vec<u8> {
    let mut tar = tar::Builder::new(Vec::new());
    for (name, body) in entries {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o755);
        h.set_entry_type(tar::EntryType::Regular);
        if name.len() <= 100 {
            // Raw, so that hostile names (`..`, absolute) survive: the builder would refuse them.
            h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
            h.set_cksum();
            tar.append(&h, *body).unwrap();
        } else {
            tar.append_data(&mut h, name, *body).unwrap();
        }
    }
    let raw = tar.into_inner().unwrap();
    if !gzip {
        return raw;
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&raw).unwrap();
    gz.finish().unwrap()
}

const VPC: &str = "vpcs.ec2.aws.upbound.io";

fn sample() -> Vec<(String, String)> {
    let vpc = mr("ec2.aws.upbound.io/v1beta1", "VPC", "main", Some("vpc-1"));
    let vpc2 = mr("ec2.aws.upbound.io/v1beta1", "VPC", "spare", None);
    vec![
        ("metadata/version".into(), "1.1.0\n".into()),
        (format!("resources/customresourcedefinitions.apiextensions.k8s.io/cluster/{VPC}.json"), crd("vpcs", "ec2.aws.upbound.io", "VPC", true)),
        (
            format!("resources/customresourcedefinitions.apiextensions.k8s.io/v1-preferredversion/cluster/{VPC}.json"),
            crd("vpcs", "ec2.aws.upbound.io", "VPC", true),
        ),
        (
            "resources/customresourcedefinitions.apiextensions.k8s.io/cluster/providerconfigs.aws.upbound.io.json".into(),
            crd("providerconfigs", "aws.upbound.io", "ProviderConfig", false),
        ),
        (format!("resources/{VPC}/cluster/main.json"), vpc.clone()),
        (format!("resources/{VPC}/v1beta1-preferredversion/cluster/main.json"), vpc),
        (format!("resources/{VPC}/v1beta1-preferredversion/cluster/spare.json"), vpc2.clone()),
        (format!("resources/{VPC}/cluster/spare.json"), vpc2),
        (
            "resources/providerconfigs.aws.upbound.io/cluster/default.json".into(),
            r#"{"apiVersion":"aws.upbound.io/v1beta1","kind":"ProviderConfig","metadata":{"name":"default"},"spec":{"credentials":{}}}"#.into(),
        ),
        ("resources/secrets/namespaces/crossplane-system/aws.json".into(), r#"{"kind":"Secret","metadata":{"name":"aws"},"data":{"k":"c2VjcmV0"}}"#.into()),
        (
            "resources/buckets.s3.gcp.upbound.io/cluster/b.json".into(),
            mr("s3.gcp.upbound.io/v1beta1", "Bucket", "b", Some("b")),
        ),
    ]
}

fn build(entries: &[(String, String)], gzip: bool) -> Vec<u8> {
    let refs: Vec<(&str, &[u8])> = entries.iter().map(|(n, b)| (n.as_str(), b.as_bytes())).collect();
    archive(&refs, gzip)
}

#[test]
fn reads_velero_s_layout_once_per_object_and_filters_by_crd() {
    for gzip in [true, false] {
        let backup = read_archive(build(&sample(), gzip).as_slice()).unwrap();
        let names: Vec<(&str, &str)> =
            backup.items.iter().map(|i| (i.group_resource.as_str(), i.mr.name.as_str())).collect();
        assert_eq!(names, [("buckets.s3.gcp.upbound.io", "b"), (VPC, "main"), (VPC, "spare")]);
        assert_eq!(backup.items[1].mr.external_name(), Some("vpc-1"));
        assert_eq!(
            backup.items[1].entry,
            format!("resources/{VPC}/cluster/main.json"),
            "the plain copy is the one named"
        );
        assert_eq!(backup.crds.len(), 2);
        assert_eq!(backup.format_version.as_deref(), Some("1.1.0"));
        assert!(backup.skipped.is_empty(), "{:?}", backup.skipped);
        assert!(backup.notes[0].contains("no CRD for buckets.s3.gcp.upbound.io"), "{:?}", backup.notes);
        assert!(backup.notes[1].starts_with("2 objects of kinds that are not managed"), "{:?}", backup.notes);
    }
}

#[test]
fn different_copies_of_one_object_are_reported_and_the_plain_one_wins() {
    let mut entries = sample();
    let changed = mr("ec2.aws.upbound.io/v1beta1", "VPC", "main", Some("vpc-OTHER"));
    entries[5].1 = changed;
    let backup = read_archive(build(&entries, true).as_slice()).unwrap();
    let main = backup.items.iter().find(|i| i.mr.name == "main").unwrap();
    assert_eq!(main.mr.external_name(), Some("vpc-1"));
    assert_eq!(backup.skipped.len(), 1, "{:?}", backup.skipped);
    assert!(backup.skipped[0].contains("hold different copies of one object"), "{}", backup.skipped[0]);
    // The same entry twice with different content (a hostile archive): reported too.
    let mut twice = sample();
    twice.push((
        format!("resources/{VPC}/cluster/spare.json"),
        mr("ec2.aws.upbound.io/v1beta1", "VPC", "spare", Some("x")),
    ));
    let backup = read_archive(build(&twice, true).as_slice()).unwrap();
    assert!(
        backup.skipped.iter().any(|s| s.contains("spare.json") && s.contains("different copies")),
        "{:?}",
        backup.skipped
    );
    // An object of another version only (EnableAPIGroupVersions) is still read.
    let other = vec![
        (
            format!("resources/customresourcedefinitions.apiextensions.k8s.io/cluster/{VPC}.json"),
            crd("vpcs", "ec2.aws.upbound.io", "VPC", true),
        ),
        (
            format!("resources/{VPC}/v1beta2/cluster/old.json"),
            mr("ec2.aws.upbound.io/v1beta2", "VPC", "old", Some("vpc-9")),
        ),
    ];
    assert_eq!(read_archive(build(&other, true).as_slice()).unwrap().items.len(), 1);
}

#[test]
fn hostile_entries_are_named_and_skipped() {
    let mut entries = sample();
    entries.push(("../../etc/x".into(), "boom".into()));
    entries.push(("/etc/passwd".into(), "root".into()));
    entries.push((format!("resources/{VPC}/cluster/notjson.json"), "PNG\u{1}\u{2}".into()));
    entries.push((format!("resources/{VPC}/cluster/list.json"), "[1,2]".into()));
    entries.push((format!("resources/{VPC}/what.json"), "{}".into()));
    let backup = read_archive(build(&entries, true).as_slice()).unwrap();
    let skipped = backup.skipped.join("\n");
    for name in ["../../etc/x", "/etc/passwd", "notjson.json", "list.json", "what.json"] {
        assert!(skipped.contains(name), "{name} not named in:\n{skipped}");
    }
    assert!(skipped.contains("nothing is ever written"), "{skipped}");
    assert_eq!(backup.items.len(), 3, "the good objects are still read");
}

#[test]
fn broken_archives_are_one_error_naming_where() {
    let whole = build(&sample(), true);
    let cut = &whole[..whole.len() / 2];
    let err = read_archive(cut).unwrap_err().to_string();
    assert!(err.starts_with("the archive is broken "), "{err}");
    assert!(err.contains("entry "), "{err}");
    let err = read_archive(&b"\x1f\x8bnot really gzip at all"[..]).unwrap_err().to_string();
    assert!(err.contains("the archive is broken"), "{err}");
    let err = read_archive(build(&[("notes/readme.txt".into(), "hi".into())], true).as_slice()).unwrap_err();
    assert!(err.to_string().starts_with("not a Velero backup: no entry under resources/"), "{err}");
    let err = read_archive(&b""[..]).unwrap_err();
    assert!(err.to_string().starts_with("not a Velero backup"), "{err}");
}

#[test]
fn entries_are_read_in_bounded_memory() {
    let big = vec![b' '; (MAX_ENTRY_BYTES + 10) as usize];
    let mut r = Reader::new();
    r.entry(&format!("resources/{VPC}/cluster/huge.json"), &mut big.as_slice()).unwrap();
    assert!(r.skipped[0].contains("larger than 64 MiB"), "{:?}", r.skipped);
    assert!(r.buf.capacity() < 1 << 20, "a huge entry's buffer is not kept: {}", r.buf.capacity());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Cut anywhere, a backup is either refused with one error or read without inventing an
    /// object the whole archive does not hold (a cut between entries reads fewer).
    #[test]
    fn truncated_archives_are_refused_or_read_as_a_subset(cut in 0usize..6000, gzip in any::<bool>()) {
        let whole = build(&sample(), gzip);
        let key = |b: &Backup| -> Vec<(String, String)> { b.items.iter().map(|i| (i.group_resource.clone(), i.mr.name.clone())).collect() };
        let full = key(&read_archive(whole.as_slice()).unwrap());
        if let Ok(b) = read_archive(&whole[..cut.min(whole.len())]) {
            for k in key(&b) {
                prop_assert!(full.contains(&k), "invented {k:?}");
            }
        }
    }

    /// With bytes flipped anywhere (headers, gzip framing, JSON), reading never panics.
    #[test]
    fn corrupted_archives_never_panic(flips in proptest::collection::vec((0usize..6000, 1u8..=255), 1..6), gzip in any::<bool>()) {
        let mut bytes = build(&sample(), gzip);
        let len = bytes.len();
        for (at, b) in flips {
            bytes[at % len] ^= b;
        }
        let _ = read_archive(bytes.as_slice());
    }

    /// Arbitrary entry names and bodies: each is read, or skipped with its name; never a panic.
    #[test]
    fn arbitrary_entries_never_panic(name in "[a-z./\\\\:]{0,40}", body in proptest::collection::vec(any::<u8>(), 0..200)) {
        let mut r = Reader::new();
        r.entry(&name, &mut body.as_slice()).unwrap();
        let _ = r.finish();
    }
}
