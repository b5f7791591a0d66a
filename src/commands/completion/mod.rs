//! `kubectl upjet completion SHELL`: completion scripts generated from the clap definition, and
//! the installer of kubectl's plugin-completion helper.

pub mod candidates;
pub mod kubectl;

use crate::cli::{Cli, CompletionArgs, CompletionShell};
use clap::CommandFactory;
use clap_complete::Shell;
use kubectl::{KUBECTL_COMPLETER, kubectl_completer_script};
use std::io::Write;
use upjet_core::error::{Error, Exit};
use upjet_local::store;

/// The static script for one shell (also what `completions/` holds).
pub fn script(shell: Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "kubectl-upjet", &mut out);
    out
}

/// Writes the completion script for one shell, or installs the kubectl plugin completer.
pub fn run(args: &CompletionArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let shell = match args.shell {
        CompletionShell::Bash => Shell::Bash,
        CompletionShell::Zsh => Shell::Zsh,
        CompletionShell::Fish => Shell::Fish,
        CompletionShell::Powershell => Shell::PowerShell,
        CompletionShell::KubectlPlugin => return install_kubectl_completer(args, out),
    };
    out.write_all(&script(shell))?;
    Ok(Exit::Ok)
}

fn install_kubectl_completer(args: &CompletionArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let Some(dir) = &args.install_dir else {
        out.write_all(kubectl_completer_script().as_bytes())?;
        return Ok(Exit::Ok);
    };
    if !dir.is_dir() {
        return Err(Error::usage(format!("--install-dir {} is not a directory", dir.display())).into());
    }
    let path = dir.join(KUBECTL_COMPLETER);
    store::write(&path, kubectl_completer_script().as_bytes())
        .map_err(|e| Error::failed(format!("cannot write {}: {e}", path.display())))?;
    store::make_executable(&path)
        .map_err(|e| Error::failed(format!("cannot make {} executable: {e}", path.display())))?;
    writeln!(out, "wrote {}; `kubectl upjet <TAB>` now completes when that directory is on PATH", path.display())?;
    Ok(Exit::Ok)
}
