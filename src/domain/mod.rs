//! The functional core: pure functions from MR objects to findings. No I/O lives here.

pub mod adopt;
pub mod create_marks;
pub mod finding;
pub mod goduration;
pub mod gotime;
pub mod inventory;
pub mod kstatus;
pub mod managed;
pub mod plan;
pub mod policies;
pub mod report;
pub mod rules;
#[cfg(test)]
pub(crate) mod testing;
