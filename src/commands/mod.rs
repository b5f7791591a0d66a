//! One function per command: flags in, exit code out. The only place that wires I/O to the core.

pub mod adopt;
pub mod completion;
pub mod doctor;
pub mod evidence;
pub mod history;

use crate::cli::{Cli, Command};
use crate::error::Exit;
use std::io::Write;

/// Runs the parsed command, writing results to `out`.
pub async fn run(cli: Cli, out: &mut dyn Write) -> anyhow::Result<Exit> {
    match &cli.command {
        Command::Doctor(args) => doctor::run(&cli, args, out).await,
        Command::History(args) => history::run(&cli, args, out).await,
        Command::Completion(args) => completion::run(args, out),
        Command::Adopt(args) => adopt::run(&cli, args, out).await,
        Command::Restore(args) => adopt::run_restore(&cli, args, out).await,
    }
}
