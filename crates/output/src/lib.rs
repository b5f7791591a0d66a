//! Printers over any `io::Write`, so tests print into a buffer and the shell into stdout.

pub mod adopt;
pub mod detail;
pub mod forms;
pub mod github;
pub mod guard;
pub mod history;
pub mod html;
pub mod jsonpath;
pub mod junit;
pub mod markup;
pub mod metrics;
pub mod sarif;
pub mod structured;
pub mod style;
pub mod summary;
pub mod table;
pub mod tree;
pub mod watch;
