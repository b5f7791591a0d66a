//! What the lock holds: the identity of every MR that created its cloud object, and, for the
//! keys no live MR answers for, the newest external-name the ID journal saw. An MR alive but
//! without an ID (re-created without it: what the lock is for) does not erase its entry.

use super::key::LockKey;
use super::merge::Change;
use crate::create_marks::CreateMarks;
use crate::gotime::GoTime;
use crate::journal::{Record, Source};
use crate::managed::ManagedResource;
use crate::placeholder::is_placeholder;
use crate::policies::ManagementPolicies;
use std::collections::BTreeMap;

/// The ID the lock keeps for an MR: its external-name (not a placeholder), once it created its
/// object — a create-succeeded mark, an observed `status.atProvider.id`, or Ready=True — the
/// same sign the identity-kept rule reads.
pub(crate) fn locked_id(mr: &ManagedResource) -> Option<&str> {
    let created = CreateMarks::of(mr).succeeded.is_set()
        || mr.at_provider_id.as_deref().is_some_and(|id| !id.is_empty())
        || mr.is_true("Ready");
    mr.external_name().filter(|_| created)
}

/// An MR's entry, when it has one: its key and [`locked_id`]. What a scan keeps of each MR, so
/// that a fleet's lock is built without holding the fleet.
pub fn held(mr: &ManagedResource) -> Option<(LockKey, String)> {
    locked_id(mr).map(|id| (LockKey::of(mr), id.to_string()))
}

/// The entries a `guard lock` run holds: every live MR's locked ID, then, for the keys no live
/// MR gave an ID, the newest external-name the journal recorded (by its time).
pub fn entries(mrs: &[ManagedResource], journal: &[Record]) -> BTreeMap<LockKey, String> {
    with_journal(mrs.iter().filter_map(held).collect(), journal)
}

/// `live` (the entries of the live MRs, [`held`]) completed with the journal: for each key no
/// live MR answers for, the newest external-name the journal recorded.
pub fn with_journal(mut live: BTreeMap<LockKey, String>, journal: &[Record]) -> BTreeMap<LockKey, String> {
    let mut newest: BTreeMap<LockKey, (GoTime, &str)> = BTreeMap::new();
    for r in journal.iter().filter(|r| r.source == Source::ExternalName) {
        if r.id.is_empty() || is_placeholder(&r.id) {
            continue;
        }
        let key = LockKey::new(&r.group, &r.kind, r.namespace.as_deref(), &r.name);
        if live.contains_key(&key) {
            continue;
        }
        let at = GoTime::parse_or_zero(Some(&r.time));
        if newest.get(&key).is_none_or(|(t, _)| !at.before(t)) {
            newest.insert(key, (at, &r.id));
        }
    }
    live.extend(newest.into_iter().map(|(k, (_, id))| (k, id.to_string())));
    live
}

/// The change of one `guard lock` run: hold every entry, remove none.
pub fn change(mrs: &[ManagedResource], journal: &[Record]) -> Change {
    Change { add: entries(mrs, journal), ..Change::default() }
}

/// What one event of `watch --guard-lock` changes in the lock, added to `change`: an MR seen
/// with a locked ID holds it; an MR deleted with its cloud object ([`retire_on_delete`])
/// retires its entry; anything else (an MR without an ID yet, one deleted with
/// `deletionPolicy: Orphan`) changes nothing.
pub fn follow(change: &mut Change, mr: &ManagedResource, deleted: bool) {
    match (deleted, held(mr)) {
        (true, _) if retire_on_delete(mr) => change.release(LockKey::of(mr)),
        (false, Some((key, id))) => change.hold(key, id),
        _ => {}
    }
}

/// Whether an MR's entry goes when the MR is deleted: when deleting it deletes the cloud object
/// too (crossplane-runtime's `ShouldDelete`). An MR deleted with `deletionPolicy: Orphan` (or
/// policies without Delete) leaves its object behind, and its entry stays to guard it.
pub(crate) fn retire_on_delete(mr: &ManagedResource) -> bool {
    ManagementPolicies::of(mr).should_delete()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::managed::keys;
    use crate::testing::Mr;

    fn record(name: &str, time: &str, source: Source, id: &str) -> Record {
        Record {
            time: time.into(),
            uid: format!("uid-{name}-{time}"),
            group: "ec2.aws.upbound.io".into(),
            kind: "VPC".into(),
            namespace: None,
            name: name.into(),
            source,
            id: id.into(),
            composite: None,
            resource: None,
        }
    }

    #[test]
    fn live_identities_then_the_journal_for_the_rest() {
        let mr = |name: &str| Mr::new("VPC", name).api_version("ec2.aws.upbound.io/v1beta1");
        let mrs = vec![
            mr("created").external_name("vpc-1").annotation(keys::CREATE_SUCCEEDED, "2024-01-01T00:00:00Z").build(),
            mr("observed").external_name("vpc-2").at_provider_id("vpc-2").build(),
            mr("ready").external_name("vpc-3").healthy().build(),
            mr("named-not-created").external_name("vpc-4").build(),
            mr("stub").external_name("sgr-stub").healthy().build(),
            mr("recreated-bare").build(),
        ];
        let journal = vec![
            record("recreated-bare", "2024-01-01T00:00:00Z", Source::ExternalName, "vpc-old"),
            record("recreated-bare", "2024-02-01T00:00:00Z", Source::ExternalName, "vpc-new"),
            record("recreated-bare", "2024-03-01T00:00:00Z", Source::AtProviderId, "vpc-tf-id"),
            record("created", "2024-03-01T00:00:00Z", Source::ExternalName, "vpc-journal"),
            record("gone", "2024-01-01T00:00:00Z", Source::ExternalName, "tbdeid0"),
        ];
        let got: Vec<(String, String)> = entries(&mrs, &journal).into_iter().map(|(k, v)| (k.name, v)).collect();
        let want = [("created", "vpc-1"), ("observed", "vpc-2"), ("ready", "vpc-3"), ("recreated-bare", "vpc-new")];
        assert_eq!(got, want.map(|(k, v)| (k.to_string(), v.to_string())));
    }

    #[test]
    fn a_watch_holds_what_it_sees_and_retires_what_a_delete_deleted() {
        let mr = |name: &str| Mr::new("VPC", name).api_version("ec2.aws.upbound.io/v1beta1");
        let created = mr("a").external_name("vpc-a").healthy().build();
        let mut change = Change::default();
        follow(&mut change, &mr("bare").build(), false);
        follow(&mut change, &mr("orphaned").external_name("vpc-o").healthy().deletion_policy("Orphan").build(), true);
        assert_eq!(change, Change::default(), "no ID yet, or an orphaning delete: nothing changes");
        follow(&mut change, &created, false);
        assert_eq!(change.add.get(&LockKey::of(&created)).map(String::as_str), Some("vpc-a"));
        follow(&mut change, &created, true);
        assert!(change.add.is_empty() && change.remove.contains(&LockKey::of(&created)), "{change:?}");
        follow(&mut change, &created, false);
        assert!(change.remove.is_empty() && change.add.len() == 1, "the later event wins: {change:?}");
    }

    #[test]
    fn an_orphaning_delete_keeps_the_entry() {
        let mr = Mr::new("VPC", "v").api_version("ec2.aws.upbound.io/v1beta1");
        assert!(retire_on_delete(&mr.clone().build()));
        assert!(!retire_on_delete(&mr.clone().deletion_policy("Orphan").build()));
        assert!(!retire_on_delete(&mr.policies(&["Observe", "Create", "Update", "LateInitialize"]).build()));
    }
}
