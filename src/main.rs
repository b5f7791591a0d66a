//! Entry point: parse, wire, map to an exit code. Nothing else lives here.

use kubectl_upjet::settings::Environment;
use kubectl_upjet::{cli, commands};
use std::process::ExitCode;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error ({info}); please report it with the command you ran");
    }));
    let env = Environment::from_process();
    let invocation = cli::parse(std::env::args_os(), env.kubectl_complete);
    ExitCode::from(commands::main(invocation, env) as u8)
}
