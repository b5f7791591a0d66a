//! One function per command: settings in, exit code out. The only place that wires I/O to the
//! core, and where errors become one printed line and an exit code.

pub mod admission;
pub mod adopt;
pub mod backup;
pub mod changelog;
pub mod cloud_audit;
pub mod completion;
pub mod composition;
pub mod doctor;
pub mod evidence;
pub mod exit;
pub mod fleet_inputs;
pub mod forms;
pub mod guard;
pub mod health;
pub mod history;
pub mod inputs;
pub mod journal;
pub mod kind_removal;
pub mod lint;
pub mod migrate;
pub mod mrd;
pub mod rbac;
pub mod resolve;
pub mod restore_plan;
pub mod watch;

use crate::cli::{Cli, Command, Invocation};
use crate::settings::{Environment, Settings};
use exit::{exit_for, one_line};
use std::io::Write;
use upjet_core::error::Exit;

/// Carries out what the command line asked for and returns the process's exit code. Nothing
/// escapes as a Rust error: every failure is printed as one line on stderr.
pub fn main(invocation: Invocation, env: Environment) -> Exit {
    match invocation {
        Invocation::KubectlComplete(words) => {
            let _ = completion::kubectl::kubectl_complete(words, &env, &mut std::io::stdout().lock());
            Exit::Ok
        }
        Invocation::Exit(e) => {
            let _ = e.print();
            if e.use_stderr() { Exit::Usage } else { Exit::Ok }
        }
        Invocation::Run(cli) => run_cli(*cli, &env),
    }
}

fn run_cli(cli: Cli, env: &Environment) -> Exit {
    let cli = env.fill_flags(cli);
    let settings = Settings::from_process(&cli, env);
    init_logging(cli.kube.verbosity, env.log.as_deref(), settings.color_stderr);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return Exit::Failed;
        }
    };
    let mut stdout = std::io::stdout().lock();
    match runtime.block_on(run(&cli, &settings, &mut stdout)) {
        Ok(exit) => exit,
        Err(err) => {
            let exit = exit_for(&err);
            if exit != Exit::Ok {
                eprintln!("error: {}", one_line(&err));
            }
            exit
        }
    }
}

/// Runs the parsed command, writing results to `out`.
pub async fn run(cli: &Cli, settings: &Settings, out: &mut dyn Write) -> anyhow::Result<Exit> {
    resolve::one_cluster_only(&cli.command, settings.several_contexts()).map_err(upjet_core::error::Error::from)?;
    match &cli.command {
        Command::Doctor(args) => doctor::run(settings, args, out).await,
        Command::History(args) => history::run(settings, args, out).await,
        Command::Completion(args) => completion::run(args, out),
        Command::Adopt(args) => adopt::run(settings, args, out).await,
        Command::Restore(args) => adopt::run_restore(settings, args, out).await,
        Command::Rbac(args) => rbac::run(settings, args, out).await,
        Command::Health(args) => health::run(settings, args, out).await,
        Command::Guard(args) => guard::run(settings, args, out).await,
        Command::RestorePlan(args) => restore_plan::run(settings, args, out).await,
        Command::Promote(args) => adopt::run_promote(settings, args, out).await,
        Command::Watch(args) => watch::run(settings, args, out).await,
        Command::Migrate(args) => migrate::run(settings, args, out).await,
    }
}

/// kubectl's -v levels mapped onto tracing: 0–3 warnings, 4–5 request logs, 6+ HTTP detail.
/// `UPJET_LOG` (an env-filter directive, read by the settings layer) overrides them.
/// Below -v 4 the kube client's own error lines are off: every failure reaches the user once, as
/// the one-line error that names what was being done. Colour follows `--color` and `NO_COLOR`.
fn init_logging(verbosity: u8, directive: Option<&str>, color: bool) {
    let filter = match verbosity {
        0..=3 => "warn,kube_client=off",
        4..=5 => "warn,kubectl_upjet=debug,kube_client=debug",
        _ => "debug,kubectl_upjet=trace,kube_client=trace",
    };
    let filter =
        directive.and_then(|d| tracing_subscriber::EnvFilter::try_new(d).ok()).unwrap_or_else(|| filter.into());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(color).with_writer(std::io::stderr).try_init();
}
