//! `watch --guard-lock`: the guard's lock kept current as events arrive. What an event changes
//! is the domain's (`lock::entries::follow`: an MR seen with its ID holds it, an MR deleted with
//! its cloud object retires its entry); a batch's changes are sent at once to one writer task,
//! which writes them with `guard lock`'s conditional writes (`commands::guard::writer`) while the
//! loop goes on. Each `--resync`, every MR held is sent again over a fresh read of the shards,
//! so a shard deleted or edited by hand is written again. A failure is named on stderr once
//! (and its end once), the change kept and tried again each `--resync`; the watch never stops
//! for it.

use super::Msg;
use crate::commands::exit::one_line;
use crate::commands::guard::writer::LockWriter;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use upjet_cluster::connect::Connection;
use upjet_core::guard::lock::entries;
use upjet_core::guard::lock::merge::Change;
use upjet_core::managed::ManagedResource;

/// What the loop hands the writer.
struct Batch {
    change: Change,
    /// Read every shard before merging: the lock may have been changed by hand.
    reread: bool,
}

/// The loop's side: the change of the batch being handled, and the writer task's inbox.
pub(super) struct Follower {
    pending: Change,
    inbox: mpsc::UnboundedSender<Batch>,
}

impl Follower {
    /// Starts the writer task; its notes come back to the loop as [`Msg::Said`].
    pub(super) fn start(conn: Arc<Connection>, loop_tx: mpsc::Sender<Msg>, retry: Duration) -> Follower {
        let (inbox, rx) = mpsc::unbounded_channel();
        tokio::spawn(write(conn, rx, loop_tx, retry));
        Follower { pending: Change::default(), inbox }
    }

    /// One watch event on `mr` (`deleted`: its deletion).
    pub(super) fn saw(&mut self, mr: &ManagedResource, deleted: bool) {
        entries::follow(&mut self.pending, mr, deleted);
    }

    /// Sends the batch's change, if any.
    pub(super) fn flush(&mut self) {
        if !self.pending.is_empty() {
            let change = std::mem::take(&mut self.pending);
            let _ = self.inbox.send(Batch { change, reread: false });
        }
    }

    /// Each `--resync`: every MR held, over a fresh read of the shards.
    pub(super) fn refresh<'a>(&mut self, mrs: impl Iterator<Item = &'a ManagedResource>) {
        self.flush();
        let change = Change { add: mrs.filter_map(entries::held).collect(), ..Change::default() };
        let _ = self.inbox.send(Batch { change, reread: true });
    }
}

/// The writer task: takes every batch waiting, writes them as one change; on a failure keeps
/// them, says so once, and tries again after `retry` with what arrived meanwhile.
async fn write(
    conn: Arc<Connection>,
    mut rx: mpsc::UnboundedReceiver<Batch>,
    loop_tx: mpsc::Sender<Msg>,
    retry: Duration,
) {
    let mut writer = LockWriter::default();
    let mut pending = Change::default();
    let mut failing: Option<String> = None;
    loop {
        let mut reread = false;
        if pending.is_empty() {
            let Some(batch) = rx.recv().await else { return };
            reread |= batch.reread;
            pending.absorb(batch.change);
        }
        while let Ok(batch) = rx.try_recv() {
            reread |= batch.reread;
            pending.absorb(batch.change);
        }
        if reread {
            writer.forget();
        }
        let (said, failed) = match writer.apply(&conn, &pending).await {
            Ok(done) => {
                pending = Change::default();
                let mut said: Vec<String> = done.notes;
                said.extend(done.rejected.iter().map(|(k, why)| format!("guard lock: not locked: {k}: {why}")));
                if failing.take().is_some() {
                    said.push("guard lock: written again, the lock is current".into());
                }
                (said, false)
            }
            Err(e) => {
                let why = one_line(&upjet_core::error::Error::from(e).into());
                let first = failing.as_deref() != Some(why.as_str());
                failing = Some(why.clone());
                writer.forget();
                let note = format!(
                    "cannot keep the guard's lock current: {why}; trying again every {}s, the watch goes on",
                    retry.as_secs().max(1)
                );
                (if first { vec![note] } else { Vec::new() }, true)
            }
        };
        for note in said {
            if loop_tx.send(Msg::Said(note)).await.is_err() {
                return;
            }
        }
        if failed {
            tokio::time::sleep(retry).await;
        }
    }
}
