//! Printers over any `io::Write`, so tests print into a buffer and the shell into stdout.
//!
//! A printer decides nothing: it shows a report, a plan or a timeline the core made. A new
//! format is a printer here over `&mut dyn Write` and a variant of the command's output value
//! (doctor's `DoctorOutput`, history's `HistoryOutput`, in the binary's `commands::resolve`),
//! snapshot-tested over the bundled examples in `tests/it/formats.rs`.

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
