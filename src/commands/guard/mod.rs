//! `kubectl upjet guard`: the admission policies of `domain::guard` for the managed kinds a
//! cluster serves (or CRD files describe), printed for `kubectl apply -f -` (`print`); the lock
//! they read, written from every MR's identity and the ID journal (`guard lock`) or cleared of
//! one entry (`guard unlock`), by conditional writes (`writer`, which `watch --guard-lock`
//! shares). The flags are resolved once (`resolve::Guard`).

mod kinds;
mod lock;
mod print;
pub(crate) mod writer;

use super::resolve::Guard;
use crate::cli::guard::GuardArgs;
use crate::settings::Settings;
use std::io::Write;
use upjet_core::error::{Error, Exit};

/// Runs `guard`, `guard lock` or `guard unlock`, the flags resolved once ([`Guard`]).
pub async fn run(settings: &Settings, args: &GuardArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    match Guard::resolve(args, settings).map_err(Error::from)? {
        Guard::Print(asked) => print::run(settings, &asked, out).await,
        Guard::Lock(asked) => lock::lock(settings, &asked, out).await,
        Guard::Unlock(asked) => lock::unlock(settings, &asked, out).await,
    }
}
