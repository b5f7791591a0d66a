//! `watch`'s flags, resolved once as the other commands' are, into one value ([`Watch`]) that
//! holds its collaborators: the clusters to watch with their journals opened and their fresh
//! judging states, the metrics address, what every cluster's loop is told ([`LoopOptions`]) and
//! how lines are printed. Refusals (a journal folder that cannot be written, no home for the
//! default one, `--all-contexts` over a kubeconfig without contexts) are all here, before
//! anything is watched; nothing below `commands::watch::run` reads a flag.

use super::shared::reconcile_timeout;
use crate::cli::watch::{WatchArgs, WatchFormat};
use crate::settings::Settings;
use std::path::PathBuf;
use std::time::Duration;
use upjet_cluster::connect::{self, ConnectOptions};
use upjet_cluster::watch::WatchScope;
use upjet_core::error::Error;
use upjet_core::watch::State;
use upjet_local::journal::{Journal, context_dir, default_dir};

/// Items per list page of a watcher's list.
const PAGE_SIZE: u32 = 500;

/// `kubectl upjet watch`, resolved.
pub struct Watch {
    /// The clusters to watch, each with its journal opened and its fresh state.
    pub targets: Vec<Target>,
    /// `--metrics-addr`: where to serve `/metrics`, `/healthz` and `/readyz`.
    pub metrics_addr: Option<String>,
    /// What every cluster's loop is told.
    pub loops: LoopOptions,
    /// How the lines are printed.
    pub output: WatchOutput,
}

/// One cluster under watch: the name it carries in the output (only when several are watched),
/// how to reach it, its journal, and the state that judges its MRs (the rules with the
/// providers' reconcile timeout, `--create-timeout`, and the watch's evidence).
pub struct Target {
    /// The context's name, when several are watched.
    pub label: Option<String>,
    /// How to reach it.
    pub connect: ConnectOptions,
    /// Its ID journal, opened (`None`: `--no-journal`).
    pub journal: Option<Journal>,
    /// Its pure state, fresh.
    pub state: State,
}

/// What every cluster's loop is told, the same for each cluster.
#[derive(Clone)]
pub struct LoopOptions {
    /// `-n`, `-l` and the page size of the watchers' lists and of the looks.
    pub scope: WatchScope,
    /// `--resync`: how often every MR is judged again, the kinds without a watcher looked at,
    /// and a cluster that could not be reached tried again.
    pub resync: Duration,
    /// `--events`: an Event on each MR whose error finding appeared.
    pub events: bool,
    /// `--guard-lock`: the guard's lock kept current.
    pub guard_lock: bool,
    /// How the provider pods (and with `--logs` their logs) are followed.
    pub providers: Follow,
}

/// How the providers are followed.
#[derive(Clone)]
pub struct Follow {
    /// `--provider-namespace`: where the provider pods run (default: found by label anywhere).
    pub namespace: Option<String>,
    /// `--logs`: read their logs.
    pub logs: bool,
    /// How often to look (`--resync`).
    pub every: Duration,
}

/// How the watch prints.
#[derive(Clone, Copy)]
pub struct WatchOutput {
    /// `-o json`: one JSON object per line.
    pub json: bool,
    /// The header line (text only, without `--no-headers`).
    pub header: bool,
    /// Several clusters: every line names its context.
    pub several: bool,
}

impl Watch {
    /// Resolves the flags once (exit 2 naming a journal folder that cannot be written).
    pub fn resolve(args: &WatchArgs, settings: &Settings) -> anyhow::Result<Watch> {
        let several = settings.several_contexts();
        let names = if several { crate::commands::doctor::contexts(settings)? } else { Vec::new() };
        let journal = JournalAt::of(settings, args)?;
        let timeout = reconcile_timeout(Some(&args.reconciler));
        let state = || State::new(timeout).judging_with(upjet_evidence::watch::evidence);
        let targets = if several {
            let mut targets = Vec::with_capacity(names.len());
            for name in names {
                let journal = journal.open(Some(&name), true)?;
                let connect = settings.connect_to(&name);
                targets.push(Target { label: Some(name), connect, journal, state: state() });
            }
            targets
        } else {
            let context = connect::current_context(&settings.connect).ok().flatten();
            let journal = journal.open(context.as_deref(), false)?;
            vec![Target { label: None, connect: settings.connect.clone(), journal, state: state() }]
        };
        let json = args.output == WatchFormat::Json;
        Ok(Watch {
            targets,
            metrics_addr: args.metrics_addr.clone(),
            loops: LoopOptions {
                scope: WatchScope {
                    namespace: settings.namespace.clone(),
                    selector: settings.selector.clone(),
                    page_size: PAGE_SIZE,
                },
                resync: args.resync,
                events: args.events,
                guard_lock: args.guard_lock,
                providers: Follow {
                    namespace: args.provider_namespace.name.clone(),
                    logs: args.logs.read,
                    every: args.resync,
                },
            },
            output: WatchOutput { json, header: !json && !args.no_headers.set, several },
        })
    }
}

/// Where the ID journal goes: nowhere (`--no-journal`), `--journal DIR`, or the home's default.
enum JournalAt {
    None,
    Dir(PathBuf),
    Home(PathBuf),
}

impl JournalAt {
    /// The flags' answer (exit 2 when no home is known for the default folder).
    fn of(settings: &Settings, args: &WatchArgs) -> anyhow::Result<JournalAt> {
        Ok(match (args.no_journal, &args.journal.dir, &settings.home) {
            (true, _, _) => JournalAt::None,
            (false, Some(dir), _) => JournalAt::Dir(dir.clone()),
            (false, None, Some(home)) => JournalAt::Home(home.clone()),
            (false, None, None) => {
                return Err(Error::usage(
                    "cannot find the home directory for the ID journal; pass --journal DIR or --no-journal",
                )
                .into());
            }
        })
    }

    /// Opens one context's journal (exit 2 naming the folder when it cannot be written). With
    /// several contexts, `--journal DIR` holds one folder per context (`DIR/<context>/`).
    fn open(&self, context: Option<&str>, several: bool) -> anyhow::Result<Option<Journal>> {
        let dir = match self {
            JournalAt::None => return Ok(None),
            JournalAt::Dir(dir) if several => context_dir(dir, context),
            JournalAt::Dir(dir) => dir.clone(),
            JournalAt::Home(home) => default_dir(home, context),
        };
        Journal::open(&dir).map(Some).map_err(|e| Error::usage(e.to_string()).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use crate::commands::exit::exit_for;
    use crate::settings::{Environment, Terminal};
    use clap::Parser;
    use std::path::Path;
    use upjet_core::error::Exit;

    /// `watch ARGS` resolved under an environment whose home is `home`.
    fn resolved(args: &[&str], home: Option<&Path>) -> anyhow::Result<Watch> {
        let cli = Cli::try_parse_from(["kubectl-upjet", "watch"].into_iter().chain(args.iter().copied())).unwrap();
        let env = Environment { home: home.map(Path::to_path_buf), ..Environment::default() };
        let settings = Settings::resolve(&cli, &env, std::time::SystemTime::UNIX_EPOCH, Terminal::default());
        let Command::Watch(watch) = &cli.command else { panic!("not a watch: {args:?}") };
        Watch::resolve(watch, &settings)
    }

    #[test]
    fn every_flag_lands_in_the_one_value_the_loops_read() {
        let args = ["--no-journal", "-o", "json", "-n", "team-a", "-l", "app=x", "--resync", "5s", "--logs"];
        let more = ["--provider-namespace", "crossplane-system", "--events", "--metrics-addr", ":0", "--guard-lock"];
        let got = resolved(&[&args[..], &more[..]].concat(), None).unwrap();
        let [target] = &got.targets[..] else { panic!("one cluster") };
        assert!(target.label.is_none() && target.journal.is_none(), "--no-journal needs no home");
        let (out, each) = (got.output, &got.loops);
        assert_eq!((out.json, out.header, out.several), (true, false, false));
        assert_eq!((each.scope.namespace.as_deref(), each.scope.selector.as_deref()), (Some("team-a"), Some("app=x")));
        assert_eq!((each.scope.page_size, each.resync, each.events), (PAGE_SIZE, Duration::from_secs(5), true));
        assert!(each.guard_lock);
        let follow = &each.providers;
        assert_eq!(
            (follow.namespace.as_deref(), follow.logs, follow.every),
            (Some("crossplane-system"), true, each.resync)
        );
        assert_eq!(got.metrics_addr.as_deref(), Some(":0"));
    }

    #[test]
    fn several_contexts_each_get_a_journal_folder_of_their_own_and_tagged_lines() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        let got = resolved(&["--context", "a/b", "--context", "c", "--journal", root], None).unwrap();
        let labels: Vec<Option<&str>> = got.targets.iter().map(|t| t.label.as_deref()).collect();
        assert_eq!(labels, [Some("a/b"), Some("c")]);
        assert!(got.targets.iter().all(|t| t.journal.is_some()));
        assert!(dir.path().join("a_b").is_dir() && dir.path().join("c").is_dir());
        assert_eq!((got.output.json, got.output.header, got.output.several), (false, true, true));
    }

    #[test]
    fn without_a_home_the_default_journal_is_refused_naming_both_ways_out() {
        let err = resolved(&[], None).err().expect("refused");
        assert_eq!(exit_for(&err), Exit::Usage);
        assert!(err.to_string().contains("pass --journal DIR or --no-journal"), "{err}");
        let home = tempfile::tempdir().unwrap();
        let got = resolved(&[], Some(home.path())).unwrap();
        assert!(got.targets[0].journal.is_some());
        assert!(home.path().join(".kube/upjet/journal/default").is_dir(), "no current context: the default folder");
    }
}
