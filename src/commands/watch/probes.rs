//! Which kinds are watched, and when. Kinds without MRs are not: each is looked at
//! (`cluster::watch::probe`, one `limit=1` metadata list) at start and again each `--resync`,
//! and watched from the moment a look finds MRs. A fleet of 2,000 served kinds of which 70 hold
//! MRs keeps 70 watches open, not 2,000, and an empty kind costs one small request per resync.
//! At most `domain::watch::kinds::FIRST_LISTS` watchers run their first list at once, the others
//! wait their turn (the state hands the slots out).

use super::{Loop, Msg};
use futures::StreamExt;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::watch::{self as watching, Probe};
use upjet_core::watch::KindId;
use upjet_core::watch::kinds::{Event, Look};

/// Looks in flight at once: doctor's default `--concurrency`.
const LOOKS: usize = 16;

impl Loop {
    /// Looks at every followed kind no watcher follows (at start, then each resync), at most
    /// [`LOOKS`] at once; a round still running is not started twice.
    pub(super) fn spawn_probes(&mut self) {
        if self.probing.as_ref().is_some_and(|p| !p.is_finished()) {
            return;
        }
        let looked_at = self.lock().state.looked_at();
        let todo: Vec<(KindId, ApiKind)> =
            looked_at.into_iter().filter_map(|id| Some((id.clone(), self.followed.get(&id)?.api.clone()))).collect();
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

    /// What a look at a kind that is not watched found: MRs (watch it), none or no such
    /// resource (judged, looked at again next resync), a refusal (named; readiness does not wait
    /// for it) or another failure (its watcher takes over, retrying with a growing pause and
    /// naming what fails). A look at a kind queued or watched meanwhile changes nothing.
    pub(super) fn on_probe(&mut self, id: &KindId, probe: Probe) {
        let look = match &probe {
            Probe::Populated => Look::Populated,
            Probe::Empty => Look::Empty,
            Probe::Failed(f) if f.status == Some(404) => Look::Empty,
            Probe::Failed(f) if f.status == Some(403) => Look::Refused,
            Probe::Failed(_) => Look::Failed,
        };
        let taken = self.kind_event(id, Event::Look(look)).taken;
        if let (true, Probe::Failed(f)) = (taken && look == Look::Refused, probe) {
            self.say(format!("watch of {}.{}: {}", id.1.to_lowercase(), id.0, f.reason));
        }
    }
}
