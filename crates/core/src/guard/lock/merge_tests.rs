use super::*;
use proptest::prelude::*;

fn key(name: &str) -> LockKey {
    LockKey::new("ec2.aws.upbound.io", "VPC", None, name)
}

fn add(pairs: &[(&str, &str)]) -> Change {
    Change { add: pairs.iter().map(|(k, v)| (key(k), v.to_string())).collect(), remove: BTreeSet::new() }
}

fn read(shards: &[(&str, &str, &[(&str, &str)])]) -> Vec<Shard> {
    shards
        .iter()
        .map(|(name, rv, entries)| Shard {
            name: name.to_string(),
            resource_version: Some(rv.to_string()),
            entries: entries.iter().map(|(k, v)| (key(k).encode(), v.to_string())).collect(),
        })
        .collect()
}

/// Room for about two entries of the tests' size.
const SMALL: usize = 80;

#[test]
fn an_empty_lock_gets_its_first_shard() {
    let plan = merge(&[], &add(&[("a", "vpc-a"), ("b", "vpc-b")]));
    assert_eq!(plan.writes.len(), 1);
    let ShardWrite::Create(s) = &plan.writes[0] else { panic!("{plan:?}") };
    assert_eq!(s.name, "kubectl-upjet-lock-0000");
    assert_eq!(s.entries.get(&key("a").encode()).map(String::as_str), Some("vpc-a"));
}

#[test]
fn entries_stay_where_they_are_and_new_ones_fill_the_first_room() {
    let shards = read(&[("kubectl-upjet-lock-0000", "1", &[("a", "vpc-a")]), ("kubectl-upjet-lock-0001", "7", &[])]);
    // Same ID: nothing to write.
    assert!(merge_within(&shards, &add(&[("a", "vpc-a")]), SMALL).writes.is_empty());
    // A new ID for a held key replaces it where it is, with its resourceVersion as precondition.
    let plan = merge_within(&shards, &add(&[("a", "vpc-a2")]), SMALL);
    assert_eq!(plan.writes.len(), 1);
    let ShardWrite::Replace(s) = &plan.writes[0] else { panic!() };
    assert_eq!((s.name.as_str(), s.resource_version.as_deref()), ("kubectl-upjet-lock-0000", Some("1")));
    // Two new keys: the first fills shard 0, the second goes to shard 1.
    let plan = merge_within(&shards, &add(&[("b", "vpc-b"), ("c", "vpc-c")]), SMALL);
    let names: Vec<&str> = plan.writes.iter().map(|w| w.shard().name.as_str()).collect();
    assert_eq!(names, ["kubectl-upjet-lock-0000", "kubectl-upjet-lock-0001"]);
    assert!(plan.writes.iter().all(|w| w.shard().bytes() <= SMALL));
    // No room anywhere: a new shard after the highest index.
    let plan = merge_within(&shards, &add(&[("b", "vpc-b"), ("c", "vpc-c"), ("d", "vpc-d"), ("e", "vpc-e")]), SMALL);
    assert!(matches!(&plan.writes[0], ShardWrite::Create(s) if s.name == "kubectl-upjet-lock-0002"), "{plan:?}");
}

#[test]
fn unlock_removes_and_duplicates_keep_their_first_copy() {
    let shards = read(&[
        ("kubectl-upjet-lock-0000", "1", &[("a", "vpc-a"), ("b", "vpc-b")]),
        ("kubectl-upjet-lock-0001", "2", &[("b", "vpc-other")]),
    ]);
    let plan = merge(&shards, &unlock(key("a")));
    let after: Vec<(&str, Vec<&String>)> =
        plan.writes.iter().map(|w| (w.shard().name.as_str(), w.shard().entries.values().collect())).collect();
    assert_eq!(after, [("kubectl-upjet-lock-0000", vec![&"vpc-b".to_string()]), ("kubectl-upjet-lock-0001", vec![])]);
    assert!(merge(&shards, &unlock(key("nope"))).writes.len() == 1, "only the duplicate is cleaned");
}

#[test]
fn a_moved_entry_is_written_to_its_new_shard_before_it_leaves_the_old() {
    let shards = read(&[("kubectl-upjet-lock-0000", "1", &[("a", "x"), ("b", "vpc-b")])]);
    let plan = merge_within(&shards, &add(&[("a", "vpc-aaaaaaaaaaaaaaaaaaaaaaaa")]), SMALL);
    let order: Vec<(bool, &str)> =
        plan.writes.iter().map(|w| (matches!(w, ShardWrite::Create(_)), w.shard().name.as_str())).collect();
    assert_eq!(order, [(true, "kubectl-upjet-lock-0001"), (false, "kubectl-upjet-lock-0000")]);
}

#[test]
fn a_later_change_wins_for_each_key_it_names() {
    let mut pending = add(&[("a", "vpc-a"), ("b", "vpc-b")]);
    pending.release(key("c"));
    let mut later = unlock(key("a"));
    later.hold(key("c"), "vpc-c".into());
    pending.absorb(later);
    let held: Vec<(&str, &str)> = pending.add.iter().map(|(k, v)| (k.name.as_str(), v.as_str())).collect();
    assert_eq!(held, [("b", "vpc-b"), ("c", "vpc-c")]);
    assert_eq!(pending.remove, BTreeSet::from([key("a")]));
    assert!(!pending.is_empty() && Change::default().is_empty());
}

#[test]
fn ids_that_name_no_object_are_refused() {
    let plan = merge_within(&[], &add(&[("a", ""), ("b", "sgr-stub"), ("c", &"x".repeat(100))]), SMALL);
    let why: Vec<&str> = plan.rejected.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(why.len(), 3, "{why:?}");
    assert!(why[0].contains("empty") && why[1].contains("placeholder") && why[2].contains("more than a shard"));
    assert!(plan.writes.is_empty());
}

/// An API server's view of the lock: each shard with its resourceVersion; writes with
/// preconditions, as kube-apiserver answers them (409 on a stale update or an existing name).
#[derive(Default)]
struct Store {
    shards: BTreeMap<String, (u64, BTreeMap<String, String>)>,
    next_rv: u64,
}

impl Store {
    fn read(&self) -> Vec<Shard> {
        let shard = |(name, (rv, entries)): (&String, &(u64, BTreeMap<String, String>))| Shard {
            name: name.clone(),
            resource_version: Some(rv.to_string()),
            entries: entries.clone(),
        };
        self.shards.iter().map(shard).collect()
    }

    fn write(&mut self, w: &ShardWrite) -> bool {
        self.next_rv += 1;
        let s = w.shard();
        let ok = match (w, self.shards.get(&s.name)) {
            (ShardWrite::Create(_), None) => true,
            (ShardWrite::Replace(_), Some((rv, _))) => s.resource_version.as_deref() == Some(&rv.to_string()),
            _ => false,
        };
        if ok {
            self.shards.insert(s.name.clone(), (self.next_rv, s.entries.clone()));
        }
        ok
    }
}

/// One `guard lock` run: read, merge, write in order; a refused write means read again.
struct Writer {
    change: Change,
    pending: Option<(Vec<ShardWrite>, usize)>,
    done: bool,
}

impl Writer {
    fn step(&mut self, store: &mut Store) {
        match self.pending.take() {
            None => self.pending = Some((merge_within(&store.read(), &self.change, SMALL * 2).writes, 0)),
            Some((writes, i)) if i == writes.len() => self.done = true,
            Some((writes, i)) => {
                if store.write(&writes[i]) {
                    self.pending = Some((writes, i + 1));
                }
            }
        }
    }
}

proptest! {
    /// Two runs at once, their steps interleaved in any order: every entry of both is held
    /// at the end, and one more merge finds nothing to fix.
    #[test]
    fn two_writers_at_once_lose_no_entry(
        schedule in proptest::collection::vec(any::<bool>(), 200),
        a in proptest::collection::btree_set("[a-h]", 1..6),
        b in proptest::collection::btree_set("[e-p]", 1..6),
        seeded in proptest::collection::btree_set("[a-z]", 0..6),
    ) {
        let mut store = Store::default();
        let seed: Vec<(String, String)> = seeded.iter().map(|k| (k.clone(), format!("old-{k}"))).collect();
        for w in merge_within(&[], &add(&seed.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect::<Vec<_>>()), SMALL * 2).writes {
            store.write(&w);
        }
        let change = |keys: &BTreeSet<String>, tag: &str| {
            add(&keys.iter().map(|k| (k.as_str(), Box::leak(format!("vpc-{tag}-{k}").into_boxed_str()) as &str)).collect::<Vec<_>>())
        };
        let mut writers = [
            Writer { change: change(&a, "a"), pending: None, done: false },
            Writer { change: change(&b, "b"), pending: None, done: false },
        ];
        let mut turns = schedule.into_iter().cycle();
        for _ in 0..10_000 {
            if writers.iter().all(|w| w.done) { break; }
            let pick = usize::from(turns.next().unwrap_or(false));
            let w = if writers[pick].done { 1 - pick } else { pick };
            writers[w].step(&mut store);
        }
        prop_assert!(writers.iter().all(|w| w.done), "both runs finish");
        let held: BTreeMap<String, String> = store.read().into_iter().flat_map(|s| s.entries).collect();
        for k in a.iter().chain(&b).chain(&seeded) {
            prop_assert!(held.contains_key(&key(k).encode()), "{k} lost: {held:?}");
        }
        for k in a.difference(&b) {
            prop_assert_eq!(&held[&key(k).encode()], &format!("vpc-a-{k}"));
        }
        for w in merge_within(&store.read(), &Change::default(), SMALL * 2).writes {
            prop_assert!(store.write(&w), "a settling write with nobody else writing succeeds");
        }
        let total: usize = store.read().iter().map(|s| s.entries.len()).sum();
        prop_assert_eq!(total, held.len(), "one merge leaves each key in one shard");
        prop_assert!(store.read().iter().all(|s| s.bytes() <= SMALL * 2));
    }
}
