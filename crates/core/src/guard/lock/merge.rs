//! The lock's writes, pure: given the shards as read and the entries to add and remove, the
//! shards to create and to replace.
//!
//! Each write carries a precondition: a replaced shard its resourceVersion as read, a new shard
//! its name (a create fails when it exists). When a write fails on its precondition, the writer
//! reads every shard again and merges the same change again: two `guard lock` runs at once (or
//! a run and `watch --guard-lock`) therefore never lose an entry, since no shard is written
//! from a stale copy. An entry stays in the shard that holds it; a new one goes to the first
//! shard with room, or a new shard. Two writers that saw the shards at different moments can
//! each put the same key in a different shard; the next merge keeps the first copy and drops
//! the others, so such a duplicate never outlives one run.

use super::key::LockKey;
use super::shard::{self, BUDGET, Shard};
use crate::placeholder::is_placeholder;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What one run changes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// Entries to hold, each with its ID (replacing the ID held for the key, if any).
    pub add: BTreeMap<LockKey, String>,
    /// Entries to drop (`guard unlock`, an MR whose deletion deleted its object).
    pub remove: BTreeSet<LockKey>,
}

impl Change {
    /// Holds `id` for `key`, replacing whatever an earlier event asked for it.
    pub fn hold(&mut self, key: LockKey, id: String) {
        self.remove.remove(&key);
        self.add.insert(key, id);
    }

    /// Drops `key`'s entry, replacing whatever an earlier event asked for it.
    pub fn release(&mut self, key: LockKey) {
        self.add.remove(&key);
        self.remove.insert(key);
    }

    /// Adds a later change to this one: for each key it names, the later change wins.
    pub fn absorb(&mut self, later: Change) {
        for key in later.remove {
            self.release(key);
        }
        for (key, id) in later.add {
            self.hold(key, id);
        }
    }

    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        self.add.is_empty() && self.remove.is_empty()
    }
}

/// One conditional write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardWrite {
    /// Create the shard (fails if it exists).
    Create(Shard),
    /// Replace the shard, on condition that it is still at its `resource_version`.
    Replace(Shard),
}

impl ShardWrite {
    /// The shard written.
    pub fn shard(&self) -> &Shard {
        match self {
            ShardWrite::Create(s) | ShardWrite::Replace(s) => s,
        }
    }
}

/// The writes of one merge, in the order to send them, and the entries it could not hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Creates first, then replacements that add entries, then those that only remove: an
    /// entry moved out of a shard is in its new one before it leaves the old.
    pub writes: Vec<ShardWrite>,
    /// Entries refused, and why (an empty or placeholder ID, an entry larger than a shard).
    pub rejected: Vec<(LockKey, String)>,
}

struct Work {
    shards: Vec<Shard>,
    /// Each shard's [`Shard::bytes`], kept as entries come and go.
    sizes: Vec<usize>,
    gained: Vec<bool>,
    changed: Vec<bool>,
    /// Encoded key → the shard that holds it.
    home: HashMap<String, usize>,
    budget: usize,
}

/// The writes that bring `read` to hold `change`, with shards of at most [`BUDGET`] bytes.
pub fn merge(read: &[Shard], change: &Change) -> Plan {
    merge_within(read, change, BUDGET)
}

/// [`merge`] with another shard size (tests use small ones).
pub(crate) fn merge_within(read: &[Shard], change: &Change, budget: usize) -> Plan {
    let mut shards = read.to_vec();
    shards.sort_by_cached_key(|s| (shard::index(&s.name).unwrap_or(usize::MAX), s.name.clone()));
    let n = shards.len();
    let sizes = shards.iter().map(Shard::bytes).collect();
    let mut w = Work { shards, sizes, gained: vec![false; n], changed: vec![false; n], home: HashMap::new(), budget };
    w.drop_duplicates();
    for key in &change.remove {
        w.remove(&key.encode());
    }
    let mut rejected = Vec::new();
    for (key, id) in &change.add {
        match why_not(key, id, budget) {
            Some(reason) => rejected.push((key.clone(), reason)),
            None => w.put(key.encode(), id),
        }
    }
    Plan { writes: w.writes(n), rejected }
}

fn why_not(key: &LockKey, id: &str, budget: usize) -> Option<String> {
    if id.trim().is_empty() {
        return Some("an empty ID names no object".into());
    }
    if is_placeholder(id) {
        return Some(format!("{id:?} is a provider's placeholder, not an ID"));
    }
    let bytes = shard::entry_bytes(&key.encode(), id);
    (bytes > budget).then(|| format!("the entry takes {bytes} bytes, more than a shard holds ({budget})"))
}

impl Work {
    fn drop_duplicates(&mut self) {
        for i in 0..self.shards.len() {
            let keys: Vec<String> = self.shards[i].entries.keys().cloned().collect();
            for k in keys {
                match self.home.entry(k) {
                    Entry::Occupied(held) => {
                        let id = self.shards[i].entries.remove(held.key()).unwrap_or_default();
                        self.sizes[i] -= shard::entry_bytes(held.key(), &id);
                        self.changed[i] = true;
                    }
                    Entry::Vacant(free) => {
                        free.insert(i);
                    }
                }
            }
        }
    }

    fn remove(&mut self, key: &str) {
        if let Some(i) = self.home.remove(key) {
            let id = self.shards[i].entries.remove(key).unwrap_or_default();
            self.sizes[i] -= shard::entry_bytes(key, &id);
            self.changed[i] = true;
        }
    }

    fn put(&mut self, key: String, id: &str) {
        if let Some(&i) = self.home.get(&key) {
            let held = &self.shards[i].entries[&key];
            if held == id {
                return;
            }
            let size = self.sizes[i] - shard::entry_bytes(&key, held) + shard::entry_bytes(&key, id);
            if size <= self.budget {
                self.sizes[i] = size;
                self.shards[i].entries.insert(key, id.to_string());
                self.changed[i] = true;
                return;
            }
            self.remove(&key);
        }
        let bytes = shard::entry_bytes(&key, id);
        let room = (0..self.shards.len()).find(|&i| self.sizes[i] + bytes <= self.budget);
        let i = room.unwrap_or_else(|| self.new_shard());
        self.sizes[i] += bytes;
        self.shards[i].entries.insert(key.clone(), id.to_string());
        (self.changed[i], self.gained[i]) = (true, true);
        self.home.insert(key, i);
    }

    fn new_shard(&mut self) -> usize {
        let next = self.shards.iter().filter_map(|s| shard::index(&s.name)).max().map_or(0, |m| m + 1);
        self.shards.push(Shard::new(shard::name(next)));
        self.sizes.push(0);
        self.gained.push(false);
        self.changed.push(false);
        self.shards.len() - 1
    }

    /// Creates (shards beyond the `read` ones), then replacements that gained, then the rest.
    fn writes(self, read: usize) -> Vec<ShardWrite> {
        let mut creates = Vec::new();
        let (mut gains, mut losses) = (Vec::new(), Vec::new());
        for (i, s) in self.shards.into_iter().enumerate() {
            match (i >= read, self.changed[i], self.gained[i]) {
                (true, _, _) => creates.push(ShardWrite::Create(s)),
                (false, true, true) => gains.push(ShardWrite::Replace(s)),
                (false, true, false) => losses.push(ShardWrite::Replace(s)),
                (false, false, _) => {}
            }
        }
        creates.into_iter().chain(gains).chain(losses).collect()
    }
}

/// The change `guard unlock KIND/NAME` makes: the one entry removed.
pub fn unlock(key: LockKey) -> Change {
    Change { add: BTreeMap::new(), remove: BTreeSet::from([key]) }
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
