//! Whether the lock is current: every MR that created its cloud object has its identity
//! ([`locked_id`]) recorded, under its key, and nothing else there. The identity-locked policy
//! refuses a create when any shard holds the key with another ID, and lets it through when none
//! holds it: an identity the lock lacks is not protected, and one it holds differently (the MR
//! was adopted to another object since) refuses the MR's own re-apply.

use super::entries::locked_id;
use super::key::LockKey;
use super::shard::Shard;
use crate::managed::ManagedResource;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// How many of the MRs the lock misses a finding names.
pub(crate) const SAMPLE: usize = 5;

/// The lock as the API server reads it: every shard's entries by encoded key (several shards
/// may hold one key), and what could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockView {
    entries: HashMap<String, Vec<String>>,
    /// The shards read.
    pub shards: usize,
    /// Shards whose entries are not a map of strings: the policy cannot read them, so they lock
    /// nothing.
    pub unreadable: Vec<String>,
}

impl LockView {
    /// The view of the listed lock objects (those the bindings select).
    pub fn of(objects: &[Value]) -> LockView {
        let mut view = LockView::default();
        for obj in objects {
            match Shard::from_object(obj) {
                Ok(shard) => {
                    view.shards += 1;
                    for (key, id) in shard.entries {
                        view.entries.entry(key).or_default().push(id);
                    }
                }
                Err(e) => view.unreadable.push(e.to_string()),
            }
        }
        view
    }

    /// Every MR key the shards hold, with its IDs (a key that does not decode is left out): the
    /// identities earlier composed MRs held (`domain::composition::Earlier`).
    pub fn entries(&self) -> impl Iterator<Item = (LockKey, &[String])> {
        self.entries.iter().filter_map(|(k, ids)| LockKey::decode(k).ok().map(|key| (key, ids.as_slice())))
    }

    /// Counts `mr` into `stale` when it has an identity the lock lacks or holds otherwise.
    pub fn check(&self, mr: &ManagedResource, stale: &mut Stale) {
        let Some(id) = locked_id(mr) else { return };
        stale.checked += 1;
        let key = LockKey::of(mr);
        let held = self.entries.get(&key.encode()).map(Vec::as_slice).unwrap_or_default();
        if held.iter().all(|h| h == id) && !held.is_empty() {
            return;
        }
        match held.is_empty() {
            true => stale.lacking += 1,
            false => stale.differing += 1,
        }
        stale.sample.insert(key, Miss { id: id.to_string(), held: held.to_vec() });
        if stale.sample.len() > SAMPLE {
            stale.sample.pop_last();
        }
    }
}

/// One MR the lock misses: its identity, and what the lock holds under its key (nothing: it lacks
/// it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Miss {
    /// The MR's identity.
    pub id: String,
    /// The IDs the shards hold under its key.
    pub held: Vec<String>,
}

/// What the MRs checked against the lock showed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stale {
    /// MRs with an identity, checked.
    pub checked: usize,
    /// Those whose key the lock does not hold.
    pub lacking: usize,
    /// Those whose key it holds with another ID.
    pub differing: usize,
    /// The first few missed, by key (the same whatever order the MRs came in).
    pub sample: BTreeMap<LockKey, Miss>,
}

impl Stale {
    /// Whether some identity is missed.
    pub fn any(&self) -> bool {
        self.lacking + self.differing > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::lock::crd::shard_object;
    use crate::managed::keys;
    use crate::testing::Mr;
    use serde_json::json;

    fn vpc(name: &str, id: Option<&str>) -> ManagedResource {
        let mr = Mr::new("VPC", name).api_version("ec2.aws.upbound.io/v1beta1");
        match id {
            Some(id) => mr.external_name(id).annotation(keys::CREATE_SUCCEEDED, "2024-01-01T00:00:00Z").build(),
            None => mr.build(),
        }
    }

    fn shard(index: usize, entries: &[(&str, &str)]) -> Value {
        let mut s = Shard::new(super::super::shard::name(index));
        s.entries = entries.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        shard_object(&s, false)
    }

    #[test]
    fn an_identity_the_lock_lacks_or_holds_otherwise_is_stale() {
        let view = LockView::of(&[
            shard(0, &[("ec2.aws.upbound.io/VPC//kept", "vpc-1"), ("ec2.aws.upbound.io/VPC//moved", "vpc-old")]),
            shard(1, &[("ec2.aws.upbound.io/VPC//twice", "vpc-3"), ("ec2.aws.upbound.io/VPC//gone", "vpc-9")]),
            shard(2, &[("ec2.aws.upbound.io/VPC//twice", "vpc-other")]),
            json!({"metadata": {"name": "kubectl-upjet-lock-0003"}, "spec": {"entries": {"k": 1}}}),
        ]);
        assert_eq!((view.shards, view.unreadable.len()), (3, 1));
        let mut stale = Stale::default();
        for mr in [
            vpc("kept", Some("vpc-1")),
            vpc("moved", Some("vpc-2")),
            vpc("twice", Some("vpc-3")),
            vpc("new", Some("vpc-4")),
            vpc("not-created", None),
        ] {
            view.check(&mr, &mut stale);
        }
        assert_eq!((stale.checked, stale.lacking, stale.differing), (4, 1, 2));
        let sample: Vec<(String, Vec<String>)> =
            stale.sample.iter().map(|(k, m)| (k.name.clone(), m.held.clone())).collect();
        assert_eq!(
            sample,
            [
                ("moved".to_string(), vec!["vpc-old".to_string()]),
                ("new".to_string(), vec![]),
                ("twice".to_string(), vec!["vpc-3".to_string(), "vpc-other".to_string()]),
            ]
        );
    }

    #[test]
    fn the_sample_keeps_the_first_keys_whatever_the_order() {
        let view = LockView::default();
        let names: Vec<String> = (0..20).map(|i| format!("v{i:02}")).collect();
        let (mut forward, mut backward) = (Stale::default(), Stale::default());
        for n in &names {
            view.check(&vpc(n, Some("id")), &mut forward);
        }
        for n in names.iter().rev() {
            view.check(&vpc(n, Some("id")), &mut backward);
        }
        assert_eq!(forward, backward);
        assert_eq!((forward.lacking, forward.sample.len()), (20, SAMPLE));
        assert_eq!(forward.sample.keys().next().map(|k| k.name.as_str()), Some("v00"));
    }
}
