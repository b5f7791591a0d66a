//! Adoption: making an MR track an existing cloud object, as a pure plan of conditional writes.
//!
//! The shell reads the MR, asks this module what to do, and executes the answer step by step.
//! Everything that decides *what* is written lives here so it can be table-tested:
//! - the preflight verdict (refuse, nothing to do, or a plan) — see [`preflight`];
//! - the guardrail warnings a user must see before confirming;
//! - the ordered steps, each a concrete JSON merge patch (the shell adds the resourceVersion it
//!   read, so every write is conditional) or a wait with a pure completion rule ([`progress`]);
//! - the state machine that sequences them ([`machine::next`]): phases, wait timeouts and the
//!   conflict policy;
//! - the undo patches ([`undo_patch`] from a backup, [`undo_from_marker`] from the marker);
//! - the candidate IDs an interactive user picks from ([`candidates`]).
//!
//! Safety argument: crossplane-runtime's managed reconciler (pkg/reconciler/managed/reconciler.go)
//! does nothing while `crossplane.io/paused` is "true", so the MR is paused before its identity
//! changes, and it is only unpaused in a single write that also completes the identity: an
//! interruption at any step boundary leaves it as it was, paused, or with its identity complete.
//! While an adoption is in progress the MR carries the [`MARKER`] annotation, which records the
//! original values of everything the adoption touches; that makes a re-run resume, and an undo
//! exact, even without the backup file.

use super::create_marks;

use super::finding;
use super::managed::{self, keys};
use super::policies;

mod candidates;
pub mod composite;
mod event;
pub mod machine;
mod marker;
mod options;
pub mod probe;
mod steps;
mod undo;
mod verdict;
mod wait;

use crate::patch::IDENTITY_CHANGE;
pub use candidates::{Candidate, Confidence, EventName, candidates};
pub use event::Event;
pub(crate) use marker::Marker;
pub use options::{Options, final_policies};
pub use steps::{Action, Plan, Step, Wait, marks_resolved_by_identity};
pub use undo::{Change, conflicting_changes, diff, safe_stop_patch, undo_from_marker, undo_patch};
pub use verdict::{Context, Refusal, Verdict, deletes_cloud_object, preflight, validate_id};
pub use wait::{Baseline, Observed, Progress, id_matches, progress};

/// Annotation present only while an adoption is in progress: a JSON [`Marker`]. Outside the
/// `crossplane.io/` prefix so that no controller interprets it.
pub const MARKER: &str = "kubectl-upjet.io/adoption";

/// The annotations an adoption may change; the marker records their original values. The
/// guard's declaration ([`IDENTITY_CHANGE`]) is one: an undo from the marker takes it away.
pub(crate) const TOUCHED: &[&str] = &[
    keys::PAUSED,
    keys::EXTERNAL_NAME,
    keys::CREATE_PENDING,
    keys::CREATE_FAILED,
    keys::RECONCILE_REQUESTED_AT,
    IDENTITY_CHANGE,
];

#[cfg(test)]
mod tests;
