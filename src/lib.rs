//! kubectl-upjet: find Crossplane managed resources whose cloud objects upjet lost track of, and
//! take them back safely.
//!
//! The crate is a functional core in a thin shell, collect → judge → display (ARCHITECTURE.md is
//! the map, and `tests/architecture.rs` checks it):
//! - [`domain`]: the pure core: the MR model, the rule book and every finding code's row, plans,
//!   adopt's decisions, restore verdicts;
//! - [`evidence`]: pure parsing of what is not the MR itself (provider logs, audit logs, the
//!   cloud's audit record, inventories, Velero backups) into the rules' per-MR evidence;
//! - [`cluster`]: API server I/O (kubeconfig, discovery, paginated scans, retries, writes);
//! - [`local`]: I/O on the user's machine (adopt's backups, the discovery cache's files,
//!   outputs, prompts);
//! - [`output`]: printers over any `io::Write` (table, JSON, YAML, detail view, history);
//! - [`cli`], [`settings`] and [`commands`]: flags, their resolution with the environment (the
//!   one reader of it), and the wiring of one command from settings to exit code;
//! - [`error`]: the exit-code contract;
//! - [`json_split`]: the one bounded JSON record splitter every JSON reader (logs, audit logs,
//!   the cloud's audit record, cloud inventories, list pages, snapshots) takes its records from.

pub mod cli;
pub mod cluster;
pub mod commands;
pub mod domain;
pub mod error;
pub mod evidence;
pub mod json_split;
pub mod local;
pub mod output;
pub mod settings;
