//! The I/O shell around the domain: reaching the cluster, discovering MR kinds, scanning them,
//! and reading offline snapshots.
//!
//! A new request is a function here that returns decoded data or a typed
//! [`request_error::RequestError`] (an RBAC denial names its verb and resource), going through
//! the shared [`connect::Limiter`] and [`retry`]; a command about one object reaches it with
//! [`target::resolve_target`] and [`target::get`]. A write is a conditional merge patch in
//! [`mod@write`], after the caller's backup (`upjet_local::backup`).

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
pub(crate) mod request_error;
pub mod retry;
pub mod scan;
pub mod snapshot;
pub mod target;
pub mod watch;
pub mod workspace;
pub mod write;
