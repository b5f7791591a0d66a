//! Printers over any `io::Write`, so tests print into a buffer and the shell into stdout.

pub mod adopt;
pub mod detail;
pub mod history;
pub mod metrics;
pub mod structured;
pub mod style;
pub mod summary;
pub mod table;
pub mod watch;
