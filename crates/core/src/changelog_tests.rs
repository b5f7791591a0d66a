//! The change log of one MR: creates and their IDs, duplicates, the IDs held at its end, and
//! the entries of earlier MRs under its name.
use super::*;
use crate::testing::Mr;

/// An entry about ec2.aws.upbound.io/v1beta1 Instance `web` at minute `m`.
pub(crate) fn entry(m: u32, op: Operation, name: &str, error: Option<&str>) -> ChangeEntry {
    ChangeEntry {
        at: GoTime::parse_rfc3339(&format!("2025-04-25T08:{m:02}:00Z")),
        provider: "provider-aws-ec2:v1.21.0".into(),
        api_version: "ec2.aws.upbound.io/v1beta1".into(),
        kind: "Instance".into(),
        name: "web".into(),
        namespace: None,
        uid: None,
        external_name: name.into(),
        operation: op,
        error: error.map(str::to_owned),
        source: format!("sidecar:{m}"),
    }
}

use Operation::*;

/// (case, entries, the created IDs, duplicates as (first, second))
type Case =
    (&'static str, fn() -> Vec<ChangeEntry>, &'static [Option<&'static str>], &'static [(&'static str, &'static str)]);

/// The upstream basis: reconciler.go `Reconcile` logs `managedPreOp` for every operation, so
/// a provider-assigned ID appears in the entry after the create.
const CASES: &[Case] = &[
    (
        "one create, ID seen in the next update",
        || vec![entry(1, Create, "", None), entry(2, Update, "i-1", None)],
        &[Some("i-1")],
        &[],
    ),
    (
        "a name chosen before the create is its ID",
        || vec![entry(1, Create, "bucket-a", None)],
        &[Some("bucket-a")],
        &[],
    ),
    (
        "a failed create leads to nothing",
        || vec![entry(1, Create, "", Some("boom")), entry(2, Create, "", None), entry(3, Update, "i-2", None)],
        &[Some("i-2")],
        &[],
    ),
    (
        "the ID lost, a second create: a duplicate",
        || {
            vec![
                entry(1, Create, "", None),
                entry(2, Update, "i-1", None),
                entry(3, Create, "", None),
                entry(4, Delete, "i-2", None),
            ]
        },
        &[Some("i-1"), Some("i-2")],
        &[("i-1", "i-2")],
    ),
    (
        "the second create still held the first ID: Observe found it gone, a re-create",
        || vec![entry(1, Create, "", None), entry(3, Create, "i-1", None), entry(4, Update, "i-2", None)],
        &[Some("i-1"), Some("i-2")],
        &[],
    ),
    ("no later entry, no name: unknown", || vec![entry(1, Create, "", None)], &[None], &[]),
];

#[test]
fn a_create_s_id_is_taken_from_the_entry_after_it() {
    for (name, entries, ids, dups) in CASES {
        let log = MrChangeLog { entries: entries(), earlier: Vec::new() };
        let creates = log.creates();
        let got: Vec<Option<&str>> = creates.iter().map(|c| c.id.as_deref()).collect();
        assert_eq!(got, *ids, "{name}");
        let d = log.duplicates();
        let got: Vec<(&str, &str)> =
            d.iter().map(|(a, b)| (a.id.as_deref().unwrap(), b.id.as_deref().unwrap())).collect();
        assert_eq!(got, *dups, "{name}");
    }
}

#[test]
fn recorded_ids_leave_out_what_the_provider_deleted_or_found_gone() {
    let log = MrChangeLog {
        entries: vec![entry(1, Create, "", None), entry(2, Update, "i-1", None), entry(3, Delete, "i-1", None)],
        earlier: Vec::new(),
    };
    assert!(log.recorded_ids().is_empty());
    let log =
        MrChangeLog { entries: vec![entry(1, Create, "", None), entry(2, Update, "i-1", None)], earlier: Vec::new() };
    assert_eq!(log.recorded_ids(), [("i-1".to_string(), "sidecar:2".to_string())]);
}

#[test]
fn entries_match_by_group_kind_name_and_the_snapshot_s_namespace_and_uid() {
    let mr = Mr::new("Instance", "web").build();
    let mut e = entry(1, Create, "", None);
    e.api_version = mr.api_version.clone();
    assert!(e.is_about(&mr));
    let mut other = e.clone();
    other.uid = Some("another-incarnation".into());
    assert!(!other.is_about(&mr), "{}", mr.uid);
    let mut ns = e.clone();
    ns.namespace = Some("team-b".into());
    assert_eq!(ns.is_about(&mr), mr.namespace.as_deref() == Some("team-b"));
    let log = MrChangeLog::for_mr([&entry(2, Update, "x", None), &e], &mr);
    assert_eq!(log.map(|l| l.entries.len()), Some(1));
}

/// An entry about `web` at `time`, its snapshot carrying `uid`.
fn about(uid: &str, time: &str, op: Operation, name: &str) -> ChangeEntry {
    ChangeEntry {
        at: GoTime::parse_rfc3339(time),
        uid: Some(uid.into()),
        api_version: "dns.gcp.upbound.io/v1beta1".into(),
        source: format!("sidecar:{time}"),
        ..entry(0, op, name, None)
    }
}

/// The test MR (uid `uid-web`) was created at 2024-11-30T10:00:00Z: another UID's entries before
/// then are an earlier MR under its name; after, they may be a later one (a snapshot older than
/// the log), and without a time nothing orders them.
#[test]
fn entries_of_another_uid_before_the_mr_was_created_are_an_earlier_mr_s() {
    let mr = Mr::new("Instance", "web").build();
    let earlier = about("uid-old", "2024-11-30T09:00:00Z", Create, "");
    assert!(earlier.is_about_earlier(&mr) && !earlier.is_about(&mr));
    let later = about("uid-new", "2024-11-30T11:00:00Z", Update, "i-9");
    assert!(!later.is_about_earlier(&mr) && !later.is_about(&mr));
    let untimed = ChangeEntry { at: None, ..earlier.clone() };
    assert!(!untimed.is_about_earlier(&mr));
    let own = about("uid-web", "2024-11-30T10:05:00Z", Update, "i-2");
    assert!(own.is_about(&mr) && !own.is_about_earlier(&mr));

    let all = [
        about("uid-old", "2024-11-30T09:01:00Z", Update, "i-1"),
        earlier,
        about("uid-older", "2024-11-30T08:00:00Z", Create, "i-0"),
        later,
        own,
    ];
    let log = MrChangeLog::for_mr(&all, &mr).expect("entries about it");
    assert_eq!(log.entries.len(), 1);
    let uids: Vec<Option<&str>> = log.earlier.iter().map(MrChangeLog::uid).collect();
    assert_eq!(uids, [Some("uid-older"), Some("uid-old")], "oldest MR first");
    assert_eq!(log.earlier[1].entries.len(), 2);
    // uid-old's queue (read after its create) and uid-older's bucket (named before it) outlived them.
    let ids: Vec<(String, String)> = log.earlier_ids().into_iter().map(|e| (e.id, e.uid)).collect();
    assert_eq!(ids, [("i-0".to_string(), "uid-older".to_string()), ("i-1".to_string(), "uid-old".to_string())]);

    let only_earlier = MrChangeLog::for_mr(&all[..2], &mr).expect("an earlier MR's entries are about it too");
    assert!(only_earlier.entries.is_empty() && only_earlier.earlier.len() == 1);
}

/// A create entry that carries an error message records a `Create` that returned it: no object.
#[test]
fn a_failed_create_made_nothing_and_says_so() {
    let log =
        MrChangeLog { entries: vec![entry(1, Create, "web-bucket", Some("BucketAlreadyExists"))], earlier: Vec::new() };
    assert!(log.creates().is_empty() && log.recorded_ids().is_empty());
    let text = log.entries[0].describe();
    assert_eq!(
        text,
        "failed create by provider-aws-ec2:v1.21.0 (external-name \"web-bucket\" before it): BucketAlreadyExists; nothing was created [sidecar:1]"
    );
    let update = entry(2, Update, "i-1", Some("throttled")).describe();
    assert!(
        update.starts_with("failed update by provider-aws-ec2:v1.21.0 (external-name \"i-1\" before it): throttled")
    );
    assert_eq!(
        entry(3, Delete, "i-1", None).describe(),
        "delete by provider-aws-ec2:v1.21.0 (external-name \"i-1\" before it) [sidecar:3]"
    );
}
