//! What an adoption reports while it runs, as data: the executor emits these and
//! `output::adopt` renders them, so the caller can keep facts (the backup path) without parsing
//! printed text.

use super::Change;
use std::path::PathBuf;

/// One thing that happened during an adoption.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A resumed adoption keeps the backup its first run wrote.
    Resuming {
        /// When the adoption started (RFC3339).
        started: String,
        /// The original backup.
        backup: String,
    },
    /// The backup of the original object was written before the first change.
    BackupWritten(PathBuf),
    /// A step starts (`[n/total] title`).
    StepStarted {
        /// Its number.
        number: usize,
        /// How many steps the plan has.
        total: usize,
        /// Its title.
        title: String,
    },
    /// A write a resumed adoption already made.
    StepSkipped {
        /// Its number.
        number: usize,
        /// How many steps the plan has.
        total: usize,
        /// Its title.
        title: String,
    },
    /// A write was stored.
    Written {
        /// The resourceVersion the server answered with.
        resource_version: String,
    },
    /// A 409 caused only by status writes; the write is sent again.
    RetryingStatusOnly {
        /// The fresh resourceVersion it is retried on.
        resource_version: String,
    },
    /// Someone else changed what matters (followed by one [`Event::ChangedField`] per change).
    ChangedMeanwhile {
        /// `kind.group/name [-n ns]`.
        target: String,
    },
    /// One field someone else changed.
    ChangedField(Change),
    /// The plan is made again from the fresh object and confirmed again.
    Replanning,
    /// The provider's progress, as the wait judgement describes it.
    Progress(String),
    /// A read during a wait failed (it is retried).
    ReadFailed(String),
    /// The MR observing only is paused again before the command gives up.
    PausingAgain,
    /// Pausing again hit a change to what matters.
    CouldNotPauseChanged(usize),
    /// Pausing again failed.
    CouldNotPause(String),
    /// The provider reports that no cloud object has the ID.
    ProviderReports(String),
    /// The MR is being put back exactly as it was.
    PuttingBack,
}
