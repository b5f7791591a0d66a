//! Which kinds are watched, and when. Kinds without MRs are not: each is looked at
//! (`cluster::watch::probe`, one `limit=1` metadata list) at start and again each `--resync`,
//! and watched from the moment a look finds MRs. A fleet of 2,000 served kinds of which 70 hold
//! MRs keeps 70 watches open, not 2,000, and an empty kind costs one small request per resync.
//! At most [`FIRST_LISTS`] watchers run their first list at once, the others wait their turn:
//! the list pages in flight are what the watch's memory peaks at, and the allocator keeps a
//! peak long after the pages are gone.

use super::{Loop, Msg};
use crate::cluster::kinds::ApiKind;
use crate::cluster::watch::{self as watching, Probe};
use crate::domain::watch::KindId;
use futures::StreamExt;

/// Kinds in their first list at once.
pub(super) const FIRST_LISTS: usize = 8;

/// Looks at kinds in flight at once: doctor's default `--concurrency`.
const LOOKS: usize = 16;

impl Loop {
    /// Watches one followed kind: at once when a first-list slot is free, else in turn
    /// (no-op when it is watched or waiting already). Readiness waits for it either way.
    pub(super) fn follow(&mut self, id: &KindId) {
        if self.tasks.contains_key(id) || self.waiting.contains(id) || !self.kinds.contains_key(id) {
            return;
        }
        self.lock().state.watch_kind(id);
        if self.first_lists.len() < FIRST_LISTS {
            self.start_watch(id);
        } else {
            self.waiting.push_back(id.clone());
        }
    }

    /// A kind's first list ended (or failed: its watcher retries on its own): the next kind
    /// waiting starts.
    pub(super) fn first_list_over(&mut self, id: &KindId) {
        if !self.first_lists.remove(id) {
            return;
        }
        while self.first_lists.len() < FIRST_LISTS {
            let Some(next) = self.waiting.pop_front() else { return };
            self.start_watch(&next);
        }
    }

    /// Looks at every followed kind that is not watched (at start, then each resync), at most
    /// [`LOOKS`] at once; a round still running is not started twice.
    pub(super) fn spawn_probes(&mut self) {
        if self.probing.as_ref().is_some_and(|p| !p.is_finished()) {
            return;
        }
        let todo: Vec<(KindId, ApiKind)> = self
            .kinds
            .iter()
            .filter(|(id, _)| !self.tasks.contains_key(*id))
            .map(|(i, k)| (i.clone(), k.clone()))
            .collect();
        if todo.is_empty() {
            return;
        }
        let (conn, scope, tx) = (self.conn.clone(), self.scope.clone(), self.tx.clone());
        self.probing = Some(tokio::spawn(async move {
            let looks = futures::stream::iter(todo).map(|(id, kind)| {
                let (conn, scope) = (conn.clone(), scope.clone());
                async move { (id, watching::probe(&conn, &kind, &scope).await) }
            });
            let mut looks = std::pin::pin!(looks.buffer_unordered(LOOKS));
            while let Some((id, probe)) = looks.next().await {
                if tx.send(Msg::Probed(id, probe)).await.is_err() {
                    return;
                }
            }
        }));
    }

    /// What a look at a kind that is not watched found: MRs (watch it), none (judged, looked at
    /// again next resync), a refusal (named; readiness does not wait for it) or another failure
    /// (its watcher takes over, retrying with a growing pause and naming what fails).
    pub(super) fn on_probe(&mut self, id: &KindId, probe: Probe) {
        if self.tasks.contains_key(id) || self.waiting.contains(id) || !self.kinds.contains_key(id) {
            return;
        }
        match probe {
            Probe::Populated => self.follow(id),
            Probe::Empty => self.lock().state.found_empty(id),
            Probe::Failed(f) if f.status == Some(404) => self.lock().state.found_empty(id),
            Probe::Failed(f) if f.status == Some(403) => {
                self.lock().state.deny(id);
                self.say(format!("watch of {}.{}: {}", id.1.to_lowercase(), id.0, f.reason));
            }
            Probe::Failed(_) => self.follow(id),
        }
    }
}
