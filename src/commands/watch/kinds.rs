//! The kinds the loop follows, as the shell holds them: how to ask for each (`ApiKind`) and its
//! watcher task while one runs. When a kind is looked at, queued, watched or relisted is the
//! state's to say (`domain::watch::kinds`: one phase per kind, one transition); the loop hands
//! it each event and does what the answer asks: start a watcher, count a relist, print what
//! cleared. A kind dropped from the map stops its watcher.

use super::{Loop, Msg};
use futures::StreamExt;
use tokio::task::JoinHandle;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::watch::{self as watching, Failure, Seen};
use upjet_core::gotime::GoTime;
use upjet_core::journal;
use upjet_core::managed::ManagedResource;
use upjet_core::watch::kinds::{self as phases, Event, Outcome};
use upjet_core::watch::{Change, KindId, MrKey};

/// One followed kind: as discovery or its CRD described it (which provider serves it), and its
/// watcher while one runs.
pub(super) struct Followed {
    pub(super) api: ApiKind,
    watcher: Option<JoinHandle<()>>,
}

impl Followed {
    /// Whether a watcher follows the kind.
    pub(super) fn watched(&self) -> bool {
        self.watcher.is_some()
    }

    /// Its CRD's name, `<plural>.<group>`: what the CRD watcher names.
    pub(super) fn crd_name(&self) -> String {
        format!("{}.{}", self.api.plural, self.api.group)
    }
}

impl Drop for Followed {
    /// A kind no longer followed stops its watcher.
    fn drop(&mut self) {
        if let Some(watcher) = &self.watcher {
            watcher.abort();
        }
    }
}

/// A watcher's failure as the kind's state reads it.
fn failure(f: &Failure) -> phases::Failure {
    match (f.status, f.relists) {
        (Some(403), _) => phases::Failure::Refused,
        (_, true) => phases::Failure::Expired,
        _ => phases::Failure::Other,
    }
}

impl Loop {
    /// Follows one kind from now on (no-op when it is followed already); whether it is watched
    /// depends on what a look at it finds. Returns whether it was new.
    pub(super) fn track(&mut self, api: ApiKind) -> bool {
        let id: KindId = (api.group.clone(), api.kind.clone());
        if self.followed.contains_key(&id) {
            return false;
        }
        self.lock().state.add_kind(id.clone());
        let followed = Followed { api, watcher: None };
        self.crds_seen.insert(followed.crd_name());
        self.followed.insert(id, followed);
        true
    }

    /// Hands one kind's event to the state and does what the answer asks: counts a relist,
    /// starts the watchers whose turn it is. Returns the answer, for what cleared.
    pub(super) fn kind_event(&mut self, id: &KindId, event: Event) -> Outcome {
        let outcome = {
            let mut w = self.lock();
            let outcome = w.state.kind_event(id, event);
            if let Some(reason) = outcome.relist {
                *w.counters.relists.entry(reason.label().to_string()).or_default() += 1;
            }
            outcome
        };
        self.start_watchers(&outcome.start);
        outcome
    }

    /// Starts the watchers of these followed kinds.
    fn start_watchers(&mut self, ids: &[KindId]) {
        for id in ids {
            let Some(followed) = self.followed.get_mut(id) else { continue };
            let stream = watching::managed(&self.conn, &followed.api, &self.scope);
            let tx = self.tx.clone();
            let key = id.clone();
            followed.watcher = Some(tokio::spawn(async move {
                let mut stream = std::pin::pin!(stream);
                while let Some(seen) = stream.next().await {
                    if tx.send(Msg::Kind(key.clone(), Box::new(seen))).await.is_err() {
                        return;
                    }
                }
            }));
        }
    }

    /// Stops following one kind (its CRD was deleted); returns the findings that cleared.
    pub(super) fn unfollow(&mut self, id: &KindId) -> Vec<Change> {
        self.followed.remove(id);
        let outcome = self.lock().state.remove_kind(id);
        self.start_watchers(&outcome.start);
        outcome.changes
    }

    /// What one kind's watcher saw: its MRs go to the state and the journal, its lists and
    /// failures to the kind's phase. A message from a watcher no longer running is dropped.
    pub(super) fn on_kind(
        &mut self,
        kind: &KindId,
        seen: Seen<ManagedResource>,
        now: GoTime,
        stamp: &str,
        records: &mut Vec<journal::Record>,
    ) -> Vec<Change> {
        if !self.followed.get(kind).is_some_and(Followed::watched) {
            return Vec::new();
        }
        match seen {
            Seen::Listing => self.kind_event(kind, Event::Listing).changes,
            Seen::ListDone => self.kind_event(kind, Event::ListDone).changes,
            Seen::Applied(mr) => {
                if let Some(lock) = &mut self.guard_lock {
                    lock.saw(&mr, false);
                }
                let mut w = self.lock();
                w.counters.events += 1;
                records.extend(journal::identities(&mr, stamp));
                w.state.apply(mr, now)
            }
            Seen::Deleted(mr) => {
                if let Some(lock) = &mut self.guard_lock {
                    lock.saw(&mr, true);
                }
                let mut w = self.lock();
                w.counters.events += 1;
                w.state.delete(&MrKey::of(&mr), now)
            }
            Seen::Failed(f) => {
                let changes = self.kind_event(kind, Event::Failed(failure(&f))).changes;
                self.say(format!("watch of {}.{}: {}", kind.1.to_lowercase(), kind.0, f.reason));
                changes
            }
            Seen::Unreadable(why) => {
                self.say(format!("{}.{}: {why}", kind.1.to_lowercase(), kind.0));
                Vec::new()
            }
        }
    }
}
