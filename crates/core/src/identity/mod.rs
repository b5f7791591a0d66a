//! Which cloud object an MR names: the identity formats of upjet kinds, learned from healthy
//! peers or given by the user, and the candidate IDs they predict for MRs that lost track.
//!
//! upjet compiles each kind's external-name configuration (`IdentifierFromProvider`,
//! `NameAsIdentifier`, `ParameterAsIdentifier`, `TemplatedStringAsIdentifier`, see upjet
//! pkg/config/externalname.go) into the provider, where no tool can read it. Every healthy MR of
//! the kind shows it, though: [`infer`] learns it, [`predict`] applies it.

pub mod infer;
pub mod predict;
pub mod segments;
pub mod template;

pub use infer::{Identity, Sample, infer};
pub use predict::{Peers, Prediction, fill, predict};
pub(crate) use segments::names_object;
pub use template::{Field, Template, TemplateError, UserTemplate};
