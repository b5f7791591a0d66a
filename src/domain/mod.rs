//! The functional core: pure functions from MR objects to findings. No I/O lives here.

pub mod adopt;
pub mod age;
pub mod audit;
pub mod candidate;
pub mod changelog;
pub mod cloud_audit;
pub mod clusters;
pub mod codes;
pub mod create_marks;
pub mod deletion;
pub mod finding;
pub mod goduration;
pub mod gotime;
pub mod health;
pub mod identity;
pub mod inventory;
pub mod journal;
pub mod kstatus;
pub mod lint;
pub mod managed;
pub mod migrate;
pub mod mrd;
pub mod placeholder;
pub mod plan;
pub mod policies;
pub mod provider_config;
pub mod rbac;
pub mod report;
pub mod restore;
pub mod rules;
pub mod shared_names;
pub mod str_map;
pub mod summary;
#[cfg(test)]
pub(crate) mod testing;
pub mod watch;
