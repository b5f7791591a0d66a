//! What GitOps tools should make of an MR's health: the Argo CD Lua check (`argocd`) and the
//! Flux `healthCheckExprs` (`flux`). Both say, in the tool's own language, what the rule book
//! says from the object alone: a create that never recorded its result, an async operation past
//! upjet's deadline, an external-name lost after a create, an import that found nothing, a pause.
//! The texts are printed, never run here; the tests run them in a Lua 5.1 and a CEL evaluator.

pub mod argocd;
pub mod flux;
