//! The Ctrl-C latch shared by everything a command runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A Ctrl-C latch shared by everything a command runs: set once, observed between steps and
/// during waits (a request in flight is never abandoned half-way).
#[derive(Clone, Default)]
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    notify: Arc<tokio::sync::Notify>,
}

impl Interrupt {
    /// Marks the command interrupted and wakes every wait.
    pub fn trigger(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Whether Ctrl-C was pressed.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Resolves once triggered.
    pub async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            if self.is_set() {
                return;
            }
            notified.await;
        }
    }

    /// Routes Ctrl-C (SIGINT) into this latch; a second Ctrl-C exits at once (exit 130).
    pub(crate) fn listen_for_ctrl_c(&self) {
        let me = self.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!(
                    "interrupted: finishing the current request and leaving the MR in a safe state (Ctrl-C again to quit now)"
                );
                me.trigger();
                if tokio::signal::ctrl_c().await.is_ok() {
                    std::process::exit(130);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn interrupt_latch_wakes_waiters() {
        let i = Interrupt::default();
        let j = i.clone();
        let waiter = tokio::spawn(async move { j.wait().await });
        tokio::task::yield_now().await;
        assert!(!i.is_set());
        i.trigger();
        tokio::time::timeout(Duration::from_secs(5), waiter).await.unwrap().unwrap();
        assert!(i.is_set());
        i.wait().await;
    }
}
