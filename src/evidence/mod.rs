//! Evidence beyond the MR object itself: provider logs (and, built on them, timelines and
//! log-derived findings). Pure: readers are handed in by the shell.

pub mod correlate;
pub mod logs;
pub mod timeline;
