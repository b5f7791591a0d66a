//! The lock written as `domain::guard::lock::merge` plans it, by `guard lock`, `guard unlock`
//! and `watch --guard-lock` alike: every write carries its precondition (a new shard its name, a
//! replaced one the resourceVersion it was read at), and a write refused on it (409, or 404 for
//! a shard deleted since it was read) means every shard is read again and the same change
//! merged again. So two writers at once lose no entry, a shard deleted by hand is created again
//! with what the change holds, and one edited by hand is merged from its edited content (one
//! whose entries cannot be read, or that lost the label the bindings select by, as empty).

use std::time::Duration;
use upjet_cluster::connect::Connection;
use upjet_cluster::guard::{self as api, LockError};
use upjet_cluster::write::WriteError;
use upjet_core::error::Error;
use upjet_core::guard::lock::crd::{SHARD_LABEL, shard_object};
use upjet_core::guard::lock::key::LockKey;
use upjet_core::guard::lock::merge::{Change, ShardWrite, merge};
use upjet_core::guard::lock::shard::{Shard, ShardError};

/// How many times a change is merged again after a refused precondition before giving up:
/// each round, some writer's write succeeded, so only a lock rewritten this often is lost.
const ROUNDS: u32 = 32;

/// The lock as this writer last read or wrote it: a change is merged against it, and it is read
/// again only when a write finds it stale.
#[derive(Default)]
pub(crate) struct LockWriter {
    shards: Option<Vec<Shard>>,
}

/// What one change did.
#[derive(Debug, Default)]
pub(crate) struct Written {
    /// Shards created or replaced.
    pub(crate) writes: usize,
    /// Times every shard was read again after a refused precondition.
    pub(crate) rereads: usize,
    /// Entries the merge refused, and why (an empty or placeholder ID, one larger than a shard).
    pub(crate) rejected: Vec<(LockKey, String)>,
    /// What reading the lock said (an object that holds no readable entries).
    pub(crate) notes: Vec<String>,
}

/// Why a change could not be written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WriteFailure {
    /// The lock's CRD is not installed.
    #[error(transparent)]
    Missing(LockError),
    /// Any other failure, in the shell's terms.
    #[error(transparent)]
    Failed(Error),
}

impl From<WriteFailure> for Error {
    fn from(f: WriteFailure) -> Error {
        match f {
            WriteFailure::Missing(e) => Error::usage(e.to_string()).nothing_changed(),
            WriteFailure::Failed(e) => e,
        }
    }
}

/// Why a round of writes stopped.
enum Refused {
    /// A precondition failed: the shards changed since they were read.
    Stale,
    /// Anything else.
    Failed(Error),
}

impl LockWriter {
    /// The shards as the API server holds them now (also what [`LockWriter::apply`] merges
    /// against next).
    pub(crate) async fn read(&mut self, conn: &Connection) -> Result<(&[Shard], Vec<String>), WriteFailure> {
        let objects = api::shards(conn).await.map_err(|e| match e {
            LockError::Missing => WriteFailure::Missing(e),
            LockError::Read(r) => WriteFailure::Failed(r.explain(conn, "listing the guard's lock")),
        })?;
        let mut notes = Vec::new();
        let shards = objects
            .iter()
            .filter_map(|o| {
                let unread = |name: String| {
                    let rv = o["metadata"]["resourceVersion"].as_str().map(str::to_string);
                    Some(Shard { resource_version: rv, ..Shard::new(name) })
                };
                match Shard::from_object(o) {
                    Ok(s) if o["metadata"]["labels"][SHARD_LABEL] == "shard" => Some(s),
                    Ok(s) => {
                        notes.push(format!(
                            "lock object {}: without the label {SHARD_LABEL}=shard no binding reads it; read as empty, its entries are written again from the MRs",
                            s.name
                        ));
                        unread(s.name)
                    }
                    Err(ShardError::Entries(name)) => {
                        notes.push(format!(
                            "lock object {name}: spec.entries is not a map of strings; read as empty, its entries are written again from the MRs"
                        ));
                        unread(name)
                    }
                    Err(ShardError::NoName) => None,
                }
            })
            .collect();
        Ok((self.shards.insert(shards), notes))
    }

    /// Forgets the shards last seen: the next change reads them again (the lock may have been
    /// changed by hand, or a write failed half-way).
    pub(crate) fn forget(&mut self) {
        self.shards = None;
    }

    /// How many shards and entries the lock holds, as last read or written.
    pub(crate) fn held(&self) -> (usize, usize) {
        let shards = self.shards.as_deref().unwrap_or_default();
        (shards.len(), shards.iter().map(|s| s.entries.len()).sum())
    }

    /// Writes `change`: merged against the shards last seen, each write with its precondition;
    /// a refused one reads every shard again and merges again.
    pub(crate) async fn apply(&mut self, conn: &Connection, change: &Change) -> Result<Written, WriteFailure> {
        let mut done = Written::default();
        for round in 0..ROUNDS {
            if round > 0 {
                done.rereads += 1;
                tokio::time::sleep(Duration::from_millis(10 * u64::from(round.min(10)))).await;
            }
            if self.shards.is_none() {
                done.notes.extend(self.read(conn).await?.1);
            }
            let plan = merge(self.shards.as_deref().unwrap_or_default(), change);
            done.rejected = plan.rejected;
            match self.send(conn, plan.writes, &mut done).await {
                Ok(()) => return Ok(done),
                Err(Refused::Stale) => self.shards = None,
                Err(Refused::Failed(e)) => {
                    self.shards = None;
                    return Err(WriteFailure::Failed(e));
                }
            }
        }
        Err(WriteFailure::Failed(Error::failed(format!(
            "the guard's lock changed under every one of {ROUNDS} writes (another writer?); nothing is lost, run it again"
        ))))
    }

    /// Sends the writes in order, keeping what the server stored as the shards last seen.
    async fn send(&mut self, conn: &Connection, writes: Vec<ShardWrite>, done: &mut Written) -> Result<(), Refused> {
        for w in writes {
            let object = shard_object(w.shard(), true);
            let stored = match &w {
                ShardWrite::Create(_) => api::create(conn, &object).await,
                ShardWrite::Replace(_) => api::replace(conn, &object).await,
            };
            let stored = match stored {
                Ok(stored) => stored,
                Err(WriteError::Conflict { .. } | WriteError::NotFound { .. }) => return Err(Refused::Stale),
                Err(e) => return Err(Refused::Failed(e.into_error(conn))),
            };
            done.writes += 1;
            let kept = Shard::from_object(&stored).unwrap_or_else(|_| w.shard().clone());
            let shards = self.shards.get_or_insert_with(Vec::new);
            match shards.iter_mut().find(|s| s.name == kept.name) {
                Some(s) => *s = kept,
                None => shards.push(kept),
            }
        }
        Ok(())
    }
}
