//! kubectl-upjet: find Crossplane managed resources whose cloud objects upjet lost track of, and
//! take them back safely.
//!
//! This crate is the binary's wiring, the top of a workspace of layers (ARCHITECTURE.md is the
//! map): `upjet-core` (the pure core), `json-split`, `upjet-evidence` (readers of what is not the
//! MR), `upjet-output` (printers), `upjet-local` (the user's machine), `upjet-cluster` (the API
//! server). Here live the flags ([`cli`]), their resolution with the environment ([`settings`],
//! the one reader of it) and the wiring of one command from settings to exit code
//! ([`commands`]).

pub mod cli;
pub mod commands;
pub mod settings;
