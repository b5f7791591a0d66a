//! Evidence beyond the MR object itself: provider logs, provider pods, events and the Terraform
//! workspace, parsed from what the cluster layer fetched, reduced to the rules' per-MR evidence,
//! and ordered into timelines. Pure: readers and API bodies are handed in by the shell.

pub mod audit;
pub mod changelog;
pub mod cloud_audit;
pub mod correlate;
pub mod crd;
pub mod create_loop;
pub mod events;
pub mod index;
pub mod input;
pub mod inventory;
pub mod logs;
pub mod mrd;
pub mod pods;
pub mod sniff;
pub mod source;
pub mod timeline;
pub mod velero;
pub mod workspace;
