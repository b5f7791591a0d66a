//! What the black-box tests share: test clusters and MRs ([`cluster`]), the one builder that runs
//! the binary under one environment policy ([`upjet`]), the simulated provider of the write
//! commands ([`adopt`]), Velero as far as the tests need it ([`velero`]) and the rule for the other
//! programs a test runs, required on CI ([`tools`]).

pub mod adopt;
pub mod argo_lua;
pub mod cel_types;
pub mod cluster;
pub mod compose;
pub mod flux_cel;
pub mod guard_cel;
pub mod tools;
pub mod upjet;
pub mod velero;

pub use cluster::{Cluster, Mr, crd_dir};
pub use tools::installed;
pub use upjet::{FLEET_SUMMARY, NO_GUARD, Report, Run, Upjet, codes, find, text, upjet};
