//! `kubectl upjet completion SHELL`: the static completion scripts generated from the clap definition.

use crate::cli::{Cli, CompletionArgs};
use crate::error::Exit;
use clap::CommandFactory;
use std::io::Write;

/// Writes the completion script for one shell.
pub fn run(args: &CompletionArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    clap_complete::generate(args.shell, &mut Cli::command(), "kubectl-upjet", out);
    Ok(Exit::Ok)
}
