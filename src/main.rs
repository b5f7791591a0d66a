//! Entry point: parse, wire, map errors to exit codes. Nothing else lives here.

use clap::Parser;
use kubectl_upjet::cli::Cli;
use kubectl_upjet::error::{Exit, exit_for};
use std::process::ExitCode;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error ({info}); please report it with the command you ran");
    }));
    let mut args = std::env::args_os();
    if kubectl_upjet::completion::invoked_as_kubectl_completer(&args.next().unwrap_or_default()) {
        let mut stdout = std::io::stdout().lock();
        let _ = kubectl_upjet::completion::kubectl_complete(args.collect(), &mut stdout);
        return ExitCode::SUCCESS;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { Exit::Usage as u8 } else { Exit::Ok as u8 });
        }
    };
    init_logging(cli.kube.verbosity);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::from(Exit::Failed as u8);
        }
    };
    let mut stdout = std::io::stdout().lock();
    let exit = match runtime.block_on(kubectl_upjet::commands::run(cli, &mut stdout)) {
        Ok(exit) => exit,
        Err(err) => {
            let exit = exit_for(&err);
            if exit != Exit::Ok {
                eprintln!("error: {err:#}");
            }
            exit
        }
    };
    ExitCode::from(exit as u8)
}

/// kubectl's -v levels mapped onto tracing: 0–3 warnings, 4–5 request logs, 6+ HTTP detail.
fn init_logging(verbosity: u8) {
    let filter = match verbosity {
        0..=3 => "warn",
        4..=5 => "warn,kubectl_upjet=debug,kube_client=debug",
        _ => "debug,kubectl_upjet=trace,kube_client=trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("UPJET_LOG").unwrap_or_else(|_| filter.into());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}
