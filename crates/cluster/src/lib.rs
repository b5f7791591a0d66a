//! The I/O shell around the domain: reaching the cluster, discovering MR kinds, scanning them,
//! and reading offline snapshots.

pub mod admission;
pub mod composition;
pub mod connect;
pub mod discover;
pub mod discovery_cache;
pub mod events;
pub mod guard;
pub mod kinds;
pub mod logs;
pub mod permission;
pub mod providers;
pub mod request;
pub mod request_error;
pub mod retry;
pub mod scan;
pub mod snapshot;
pub mod target;
pub mod watch;
pub mod workspace;
pub mod write;
