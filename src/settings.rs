//! The process's surroundings — environment variables, the clock, the terminal — and kubectl's
//! global flags that depend on them (the connection, colour), resolved once into the values every
//! command runs with. A flag that changes how MRs are judged (`--create-timeout`) is no part of
//! it: each command's resolver (`commands::resolve`) reads it with the command's other flags.
//!
//! This is the only module that reads the environment, the wall clock and whether a stream is a
//! terminal. Everything below `commands/` is handed the values it needs, so the core can be
//! tested with any "now", any home folder and any terminal, and `cli/` stays plain clap.

use crate::cli::{Cli, ColorChoice, Command};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};
use upjet_cluster::connect::ConnectOptions;
use upjet_core::gotime::GoTime;

/// Pins "now" for ages and deadlines (RFC 3339), so snapshot tests and examples are stable.
pub(crate) const NOW_ENV: &str = "UPJET_NOW";
/// Prints one stderr line of where a fleet scan spent its time (the fleet benchmark reads it).
pub(crate) const TIMINGS_ENV: &str = "UPJET_TIMINGS";
/// Test hook: adopt exits abruptly right after this step number completes (0 = after the
/// backup), to prove the MR is safe at every step boundary.
pub(crate) const STOP_AFTER_STEP_ENV: &str = "UPJET_TEST_STOP_AFTER_STEP";
/// Test hook: adopt announces itself and hangs right after this step number, so a test can
/// `kill -9` it at that exact boundary.
pub(crate) const HANG_AFTER_STEP_ENV: &str = "UPJET_TEST_HANG_AFTER_STEP";
/// Set by the installed `kubectl_complete-upjet` script so the binary answers kubectl's
/// plugin-completion protocol.
pub(crate) const KUBECTL_COMPLETE_ENV: &str = "UPJET_KUBECTL_COMPLETE";
/// A tracing env-filter directive (`kubectl_upjet=trace`) that replaces the one `-v` picks.
pub(crate) const LOG_ENV: &str = "UPJET_LOG";
/// Where the discovery cache lives when `--discovery-cache-dir` is not given.
pub(crate) const DISCOVERY_CACHE_DIR_ENV: &str = "UPJET_DISCOVERY_CACHE_DIR";

/// The environment variables kubectl-upjet honours, read once at start-up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    /// `HOME` (or `USERPROFILE` on Windows), when set and non-empty.
    pub home: Option<PathBuf>,
    /// `KUBECONFIG`, when set and non-empty.
    pub kubeconfig: Option<OsString>,
    /// `KUBERNETES_SERVICE_HOST` is set: the process runs in a pod.
    pub in_cluster: bool,
    /// `NO_COLOR` is set and non-empty (<https://no-color.org>): it always wins.
    pub no_color: bool,
    /// `TERM`, when set.
    pub term: Option<String>,
    /// [`NOW_ENV`].
    pub now: Option<String>,
    /// [`TIMINGS_ENV`] is set to something other than empty or `0`.
    pub timings: bool,
    /// [`STOP_AFTER_STEP_ENV`].
    pub stop_after_step: Option<String>,
    /// [`HANG_AFTER_STEP_ENV`].
    pub hang_after_step: Option<String>,
    /// [`KUBECTL_COMPLETE_ENV`] is `1`.
    pub kubectl_complete: bool,
    /// [`LOG_ENV`], when set.
    pub log: Option<String>,
    /// [`DISCOVERY_CACHE_DIR_ENV`], when set and non-empty.
    pub discovery_cache_dir: Option<PathBuf>,
    /// The working directory, which shell completion of file names starts from.
    pub current_dir: Option<PathBuf>,
    /// `GITHUB_ACTIONS` is `true`: the run is a GitHub Actions step.
    pub github_actions: bool,
    /// `GITHUB_STEP_SUMMARY`: the file a step appends its Markdown summary to.
    pub github_step_summary: Option<PathBuf>,
}

impl Environment {
    /// Reads this process's environment: the one place that does.
    pub fn from_process() -> Environment {
        let non_empty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Environment {
            home: non_empty("HOME").or_else(|| non_empty("USERPROFILE")).map(PathBuf::from),
            kubeconfig: non_empty("KUBECONFIG"),
            in_cluster: std::env::var_os("KUBERNETES_SERVICE_HOST").is_some(),
            no_color: non_empty("NO_COLOR").is_some(),
            term: std::env::var("TERM").ok(),
            now: std::env::var(NOW_ENV).ok(),
            timings: non_empty(TIMINGS_ENV).is_some_and(|v| v != "0"),
            stop_after_step: std::env::var(STOP_AFTER_STEP_ENV).ok(),
            hang_after_step: std::env::var(HANG_AFTER_STEP_ENV).ok(),
            kubectl_complete: std::env::var_os(KUBECTL_COMPLETE_ENV).is_some_and(|v| v == "1"),
            log: std::env::var(LOG_ENV).ok(),
            discovery_cache_dir: non_empty(DISCOVERY_CACHE_DIR_ENV).map(PathBuf::from),
            current_dir: std::env::current_dir().ok(),
            github_actions: std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true"),
            github_step_summary: non_empty("GITHUB_STEP_SUMMARY").map(PathBuf::from),
        }
    }

    /// Fills the flags the environment may give when the command line does not: a flag always
    /// wins over its variable (`--discovery-cache-dir` over [`DISCOVERY_CACHE_DIR_ENV`]).
    pub fn fill_flags(&self, mut cli: Cli) -> Cli {
        if let Command::Doctor(args) = &mut cli.command
            && args.discovery_cache_dir.is_none()
        {
            args.discovery_cache_dir = self.discovery_cache_dir.clone();
        }
        cli
    }
}

/// Which standard streams are terminals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terminal {
    /// Standard input.
    pub stdin: bool,
    /// Standard output.
    pub stdout: bool,
    /// Standard error.
    pub stderr: bool,
    /// Rows of the terminal on standard output, when it is one and its size can be read.
    pub stdout_rows: Option<usize>,
}

impl Terminal {
    /// Asks the operating system about this process's streams.
    pub fn detect() -> Terminal {
        Terminal {
            stdin: std::io::stdin().is_terminal(),
            stdout: std::io::stdout().is_terminal(),
            stderr: std::io::stderr().is_terminal(),
            stdout_rows: terminal_size::terminal_size_of(std::io::stdout())
                .map(|(_, terminal_size::Height(h))| usize::from(h))
                .filter(|h| *h > 0),
        }
    }
}

/// What every command runs with, resolved once from the flags, the environment, the clock and
/// the terminal.
#[derive(Clone, Debug)]
pub struct Settings {
    /// "Now" for ages, deadlines and backup names: [`NOW_ENV`] when it parses, else the clock.
    pub now: GoTime,
    /// The real wall clock at start-up (cache ages must not follow a pinned "now").
    pub wall_clock: SystemTime,
    /// The real wall clock, read when called (adopt's marker tokens and backup file names).
    pub clock: fn() -> chrono::DateTime<chrono::Utc>,
    /// Colour what goes to standard output.
    pub color_stdout: bool,
    /// Colour what goes to standard error (adopt's prompts and progress).
    pub color_stderr: bool,
    /// A person can answer questions: standard input and standard error are terminals.
    pub interactive: bool,
    /// Show progress bars: standard error is a terminal.
    pub progress: bool,
    /// Standard output is a terminal (a person reads it, not a script).
    pub stdout_terminal: bool,
    /// The height of that terminal, when known.
    pub screen_rows: Option<usize>,
    /// How to reach the cluster (the first `--context`, when several are given).
    pub connect: ConnectOptions,
    /// Every `--context` given, in order (doctor scans each; other commands accept one).
    pub contexts: Vec<String>,
    /// `--all-contexts`: doctor scans every context of the merged kubeconfig.
    pub all_contexts: bool,
    /// `-n`, unless `-A` was given.
    pub namespace: Option<String>,
    /// `-n` as typed, even with `-A` (one-object commands use it).
    pub namespace_flag: Option<String>,
    /// `-l`.
    pub selector: Option<String>,
    /// The user's home directory (for caches and backups).
    pub home: Option<PathBuf>,
    /// Print a timings line after a fleet scan.
    pub timings: bool,
    /// adopt's crash-test hook (see [`STOP_AFTER_STEP_ENV`]).
    pub stop_after_step: Option<usize>,
    /// adopt's kill-test hook (see [`HANG_AFTER_STEP_ENV`]).
    pub hang_after_step: Option<usize>,
    /// In a GitHub Actions step: error findings are also printed as workflow annotations, and
    /// a Markdown summary is appended to this file when the step has one (`Some(None)` when not).
    pub github_actions: Option<Option<PathBuf>>,
    /// The working folder: a lint names the files below it relative to it.
    pub current_dir: Option<PathBuf>,
}

impl Settings {
    /// Resolves the settings of this process's run: reads the clock and the terminal.
    pub(crate) fn from_process(cli: &Cli, env: &Environment) -> Settings {
        Settings::resolve(cli, env, SystemTime::now(), Terminal::detect())
    }

    /// Resolves the settings of one run.
    pub fn resolve(cli: &Cli, env: &Environment, wall_clock: SystemTime, term: Terminal) -> Settings {
        let clock = wall_clock.duration_since(UNIX_EPOCH).unwrap_or_default();
        let real_now = GoTime::from_unix(clock.as_secs() as i64, clock.subsec_nanos());
        let k = &cli.kube;
        Settings {
            now: env.now.as_deref().and_then(GoTime::parse_rfc3339).unwrap_or(real_now),
            wall_clock,
            clock: chrono::Utc::now,
            color_stdout: use_color(cli.ui.color, term.stdout, env),
            color_stderr: use_color(cli.ui.color, term.stderr, env),
            interactive: term.stdin && term.stderr,
            progress: term.stderr,
            stdout_terminal: term.stdout,
            screen_rows: term.stdout_rows.filter(|_| term.stdout),
            connect: connect_options(cli, env),
            contexts: k.contexts.clone(),
            all_contexts: k.all_contexts,
            namespace: if k.all_namespaces { None } else { k.namespace.clone() },
            namespace_flag: k.namespace.clone(),
            selector: k.selector.clone(),
            home: env.home.clone(),
            timings: env.timings,
            stop_after_step: env.stop_after_step.as_deref().and_then(|s| s.parse().ok()),
            hang_after_step: env.hang_after_step.as_deref().and_then(|s| s.parse().ok()),
            github_actions: env.github_actions.then(|| env.github_step_summary.clone()),
            current_dir: env.current_dir.clone(),
        }
    }
}

impl Settings {
    /// Whether more than one cluster may be asked for (several `--context`, `--all-contexts`):
    /// commands that act on one object refuse it.
    pub(crate) fn several_contexts(&self) -> bool {
        self.all_contexts || self.contexts.len() > 1
    }

    /// The connection options of one named context: the same flags, another `--context`.
    pub(crate) fn connect_to(&self, context: &str) -> ConnectOptions {
        ConnectOptions { context: Some(context.to_string()), ..self.connect.clone() }
    }
}

/// kubectl's connection flags plus the environment they fall back on.
fn connect_options(cli: &Cli, env: &Environment) -> ConnectOptions {
    let k = cli.kube.clone();
    ConnectOptions {
        kubeconfig: k.kubeconfig,
        kubeconfig_env: env.kubeconfig.clone(),
        home: env.home.clone(),
        in_cluster: env.in_cluster,
        context: k.contexts.first().cloned(),
        cluster: k.cluster,
        user: k.user,
        server: k.server,
        token: k.token,
        insecure_skip_tls_verify: k.insecure_skip_tls_verify,
        as_user: k.as_user,
        as_group: k.as_group,
        request_timeout: k.request_timeout,
    }
}

/// Whether to colour a stream: `--color`, a terminal on the stream, a `TERM` that is not
/// `dumb`, and `NO_COLOR`, which always wins.
pub(crate) fn use_color(choice: ColorChoice, stream_is_terminal: bool, env: &Environment) -> bool {
    !env.no_color
        && match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => stream_is_terminal && env.term.as_deref() != Some("dumb"),
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn cli(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("kubectl-upjet").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn colour_follows_flag_terminal_term_and_no_color() {
        let plain = Environment::default();
        let dumb = Environment { term: Some("dumb".into()), ..Default::default() };
        let no_color = Environment { no_color: true, ..Default::default() };
        for (choice, tty, env, want) in [
            (ColorChoice::Auto, true, &plain, true),
            (ColorChoice::Auto, false, &plain, false),
            (ColorChoice::Auto, true, &dumb, false),
            (ColorChoice::Always, false, &dumb, true),
            (ColorChoice::Always, true, &no_color, false),
            (ColorChoice::Never, true, &plain, false),
        ] {
            assert_eq!(use_color(choice, tty, env), want, "{choice:?} tty={tty} {env:?}");
        }
    }

    #[test]
    fn a_flag_wins_over_its_environment_variable() {
        let env = Environment { discovery_cache_dir: Some("/from/env".into()), ..Default::default() };
        let dir = |cli: Cli| match cli.command {
            Command::Doctor(args) => args.discovery_cache_dir,
            _ => unreachable!("a doctor command line"),
        };
        assert_eq!(dir(env.fill_flags(cli(&["doctor"]))), Some("/from/env".into()));
        assert_eq!(dir(env.fill_flags(cli(&["doctor", "--discovery-cache-dir", "/flag"]))), Some("/flag".into()));
        assert_eq!(dir(Environment::default().fill_flags(cli(&["doctor"]))), None);
    }

    #[test]
    fn now_is_pinned_only_by_a_valid_rfc3339_time() {
        let clock = UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        let at = |now: Option<&str>| {
            let env = Environment { now: now.map(Into::into), ..Default::default() };
            Settings::resolve(&cli(&["doctor"]), &env, clock, Terminal::default()).now
        };
        assert_eq!(at(Some("2024-11-30T12:00:00Z")), GoTime::parse_rfc3339("2024-11-30T12:00:00Z").unwrap());
        assert_eq!(at(Some("yesterday")), GoTime::from_unix(1_700_000_000, 0));
        assert_eq!(at(None), GoTime::from_unix(1_700_000_000, 0));
    }

    #[test]
    fn scope_and_connection_come_from_flags_and_environment() {
        let env = Environment {
            home: Some("/home/u".into()),
            kubeconfig: Some("/a:/b".into()),
            stop_after_step: Some("2".into()),
            ..Default::default()
        };
        let term = Terminal { stdin: true, stdout: false, stderr: true, stdout_rows: Some(40) };
        let s = Settings::resolve(&cli(&["doctor", "-n", "team-a", "-A", "--context", "prod"]), &env, UNIX_EPOCH, term);
        assert_eq!(s.namespace, None, "-A wins for scans");
        assert_eq!(s.namespace_flag.as_deref(), Some("team-a"));
        assert_eq!(s.connect.context.as_deref(), Some("prod"));
        assert!(!s.several_contexts());
        let two = cli(&["doctor", "--context", "a", "--context", "b"]);
        let s = Settings::resolve(&two, &env, UNIX_EPOCH, term);
        assert_eq!((s.contexts.len(), s.connect.context.as_deref()), (2, Some("a")));
        assert!(s.several_contexts());
        assert_eq!(s.connect_to("b").context.as_deref(), Some("b"));
        let all = Settings::resolve(&cli(&["doctor", "--all-contexts"]), &env, UNIX_EPOCH, term);
        assert!(all.several_contexts() && all.contexts.is_empty());
        assert_eq!(s.connect.kubeconfig_env.as_deref(), Some(std::ffi::OsStr::new("/a:/b")));
        assert_eq!(s.connect.home.as_deref(), Some(std::path::Path::new("/home/u")));
        assert!(s.interactive && s.progress && !s.color_stdout && s.color_stderr);
        assert_eq!(s.stop_after_step, Some(2));
        assert!(!s.stdout_terminal && s.screen_rows.is_none(), "a pipe has no screen");
    }
}
