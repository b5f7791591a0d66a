//! Evidence beyond the MR object itself: provider logs, provider pods and restarts, events, the
//! Terraform workspace, cloud inventory exports, Kubernetes audit logs, the cloud's own audit
//! record, Velero backups and CRDs. Each is parsed from what the shell read (one opener for
//! files, `input.rs`; the sniffer names what a file is), reduced to the rules' per-MR evidence
//! (one file per source in `sources/`, kept by a run's `index.rs`), and ordered into the
//! timeline `history` prints. Pure: readers and API bodies are handed in by the shell.

pub mod audit;
pub mod changelog;
pub mod cloud_audit;
pub mod composition;
pub mod correlate;
pub mod crd;
pub(crate) mod create_loop;
pub mod events;
pub mod fleet;
pub mod format;
pub mod index;
pub mod input;
pub mod inventory;
pub mod logs;
pub mod manifests;
pub mod mrd;
pub mod pods;
pub mod sniff;
pub mod sources;
pub mod timeline;
pub mod velero;
pub mod watch;
pub mod workspace;
