//! kubectl-upjet: find Crossplane managed resources whose cloud objects upjet lost track of, and
//! take them back safely.
//!
//! The crate is a functional core with a thin shell, collect → transform → display:
//! - [`domain`]: pure rules over MR objects (create annotations, conditions, kstatus, findings);
//! - [`cluster`]: the I/O that collects MRs (kubeconfig, discovery, paginated scans, snapshots);
//! - [`output`]: printers over any `io::Write` (table, JSON, YAML, detail view);
//! - [`cli`] and [`commands`]: flags, and the wiring of one command from flags to exit code.

pub mod cli;
pub mod cluster;
pub mod commands;
pub mod domain;
pub mod error;
pub mod evidence;
pub mod local;
pub mod output;

pub mod settings;
