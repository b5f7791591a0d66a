//! The MR-only entry point, kept at its old path for callers that diagnose an object without any
//! evidence (`adopt`, property tests); the rules themselves live in [`super::rules`].

pub use super::rules::{ERR_CREATE_INCOMPLETE, ERR_OBSERVE_NOT_FOUND, Facts, diagnose, says_already_exists};
