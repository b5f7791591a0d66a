//! What the watch reads of `kubectl upjet guard` every `--resync`, as it looks at the providers:
//! the guard's policies and bindings and, when its identity-locked rule is bound, its lock
//! (`commands::admission`). The state checks the lock against every MR it holds and judges the
//! guard over the kinds followed (`State::guard`); what could not be read is said once on stderr.

use super::{Loop, Msg};
use crate::commands::admission::{self, GuardRead};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use upjet_cluster::connect::Connection;
use upjet_core::watch::Change;

/// Reads the guard every `every` until the loop goes away.
pub(super) fn spawn(conn: Arc<Connection>, every: Duration, tx: mpsc::Sender<Msg>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let read = admission::read(&conn).await;
            if tx.send(Msg::Guard(Box::new(read))).await.is_err() {
                return;
            }
        }
    });
}

impl Loop {
    /// One read of the guard: its notes said once, its findings judged over the kinds followed.
    pub(super) fn on_guard(&mut self, read: GuardRead) -> Vec<Change> {
        let GuardRead { admission, lock, notes } = read;
        for note in notes {
            self.say(note);
        }
        let kinds = admission::guard_kinds(self.followed.values().map(|f| &f.api));
        self.lock().state.guard(&admission, lock, &kinds)
    }
}
