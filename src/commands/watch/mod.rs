//! `kubectl upjet watch`: every MR kind that holds MRs is listed then watched (`cluster::watch`,
//! kube-runtime's watcher); a kind that holds none is looked at again each `--resync` (`probe`,
//! one `limit=1` list) and watched once it does; kinds installed later are picked up from the
//! CRDs of the `managed` category (watched by their metadata, fetched once when new), and
//! every event goes through the one pure state (`domain::watch::State`), which judges the MR
//! with doctor's rule book and answers with the findings that appeared or cleared. Those are
//! printed as lines, exported as metrics (`serve`) and the identities seen are appended to the
//! ID journal (`local::journal`). The flags are resolved once (`resolve`); a kind's phase is the
//! state's (`domain::watch::kinds`), the loop only does what its transitions ask (`kinds`).
//! SIGINT and SIGTERM end it with exit 0.

mod clock;
mod crds;
mod events;
mod guard_lock;
mod guard_look;
mod kinds;
mod probes;
mod providers;
mod serve;

use crate::cli::watch::WatchArgs;
use crate::commands::exit::one_line;
use crate::commands::resolve::{LoopOptions, Target, Watch};
use crate::settings::Settings;
use clock::Clock;
use clock::sleep_for;
use futures::StreamExt;
use kinds::Followed;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use upjet_cluster::connect::{self, ConnectOptions, Connection};
use upjet_cluster::discover;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::watch::{self as watching, Seen, WatchScope};
use upjet_core::error::{Error, Exit};
use upjet_core::gotime::GoTime;
use upjet_core::managed::ManagedResource;
use upjet_core::rules::ProviderStarts;
use upjet_core::watch::exposition::Counters;
use upjet_core::watch::restarts::RestartCounter;
use upjet_core::watch::{Change, KindId, State};
use upjet_local::journal::Journal;
use upjet_output::style;
use upjet_output::watch as lines;

/// What the loop and the metrics server share: the state and the counters, under one lock.
pub(crate) struct Watched {
    /// The pure state.
    pub(crate) state: State,
    /// What the loop counted.
    pub(crate) counters: Counters,
}

impl Watched {
    /// A cluster's fresh state (its rules and evidence as the watch's resolver built them),
    /// shared between its loop and the metrics server.
    fn shared(state: State) -> Shared {
        Arc::new(Mutex::new(Watched { state, counters: Counters::default() }))
    }
}

/// The shared handle.
pub(crate) type Shared = Arc<Mutex<Watched>>;

/// One cluster under watch, as its loop runs it: its resolved target, its state shared with the
/// metrics server.
struct OneCluster {
    /// The context's name, when several are watched.
    label: Option<String>,
    /// How to reach it.
    connect: ConnectOptions,
    /// Its ID journal.
    journal: Option<Journal>,
    /// Its state and counters.
    shared: Shared,
}

impl OneCluster {
    fn of(target: Target) -> OneCluster {
        let Target { label, connect, journal, state } = target;
        OneCluster { label, connect, journal, shared: Watched::shared(state) }
    }
}

/// A message from a watcher task to the loop.
enum Msg {
    /// What one kind's watcher saw.
    Kind(KindId, Box<Seen<ManagedResource>>),
    /// What the CRD watcher saw: CRD names.
    Crd(Seen<String>),
    /// A CRD not seen before, fetched by name (or why it could not be).
    CrdFetched(String, Result<Option<Box<upjet_evidence::crd::CrdSummary>>, String>),
    /// What a look at a kind that is not watched found.
    Probed(KindId, watching::Probe),
    /// One look at the provider pods (and, with `--logs`, their logs).
    Providers(Box<providers::Look>),
    /// A note for stderr from a task that says each thing once itself (`--guard-lock`'s writer).
    Said(String),
    /// One read of the guard's admission policies and lock.
    Guard(Box<crate::commands::admission::GuardRead>),
}

/// Runs the watch until SIGINT or SIGTERM: one loop per context (several `--context`, or
/// `--all-contexts`), one metrics server over all of them. The flags are resolved once, here
/// (`resolve::Watch`).
pub async fn run(settings: &Settings, args: &WatchArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let watch = Watch::resolve(args, settings)?;
    let clock = Clock::of(settings);
    let clusters: Vec<OneCluster> = watch.targets.into_iter().map(OneCluster::of).collect();
    let listener = match &watch.metrics_addr {
        Some(addr) => {
            let listener = serve::bind(addr).await?;
            if let Ok(local) = listener.local_addr() {
                eprintln!("serving /metrics, /healthz and /readyz on {local}");
            }
            Some(listener)
        }
        None => None,
    };
    if let Some(listener) = listener {
        let watched = clusters.iter().map(|t| serve::Cluster { context: t.label.clone(), shared: t.shared.clone() });
        tokio::spawn(serve::serve(listener, watched.collect(), clock));
    }
    let sink = Sink { out: RefCell::new(out), json: watch.output.json };
    if watch.output.header {
        let mut out = sink.out.borrow_mut();
        lines::write_header(*out, watch.output.several)?;
        out.flush()?;
    }
    let loops = clusters.into_iter().map(|t| watch_one(t, &watch.loops, clock, &sink));
    tokio::select! {
        done = futures::future::try_join_all(loops) => { done?; }
        _ = stop_signal() => {}
    }
    Ok(Exit::Ok)
}

/// Watches one cluster until the process ends. One cluster of several that cannot be reached
/// is named and tried again each `--resync` while the others go on; a lone cluster that cannot
/// be reached ends the run.
async fn watch_one(target: OneCluster, loops: &LoopOptions, clock: Clock, sink: &Sink<'_>) -> anyhow::Result<()> {
    let (conn, kinds) = match &target.label {
        None => reach(&target.connect).await?,
        Some(name) => reach_again(name, &target.connect, loops.resync).await,
    };
    let (tx, rx) = mpsc::channel(4096);
    let mut lp = Loop {
        conn,
        scope: loops.scope.clone(),
        tx,
        shared: target.shared,
        clock,
        journal: target.journal,
        recorder: None,
        followed: HashMap::new(),
        crds_seen: HashSet::new(),
        probing: None,
        restarts: RestartCounter::default(),
        starts_given: HashMap::new(),
        announced: HashSet::new(),
        ready_said: false,
        json: sink.json,
        context: target.label,
        guard_lock: None,
    };
    if loops.events {
        lp.recorder = Some(events::Recorder::start(lp.conn.clone()));
    }
    if loops.guard_lock {
        lp.guard_lock = Some(guard_lock::Follower::start(lp.conn.clone(), lp.tx.clone(), loops.resync));
    }
    for kind in kinds {
        lp.track(kind);
    }
    lp.lock().state.discovered();
    lp.spawn_probes();
    lp.spawn_crds();
    providers::spawn(lp.conn.clone(), loops.providers.clone(), lp.tx.clone());
    guard_look::spawn(lp.conn.clone(), loops.resync, lp.tx.clone());
    lp.run(rx, loops.resync, sink).await
}

/// Connects and discovers the managed kinds served.
async fn reach(connect: &ConnectOptions) -> anyhow::Result<(Arc<Connection>, Vec<ApiKind>)> {
    let conn = Arc::new(connect::connect(connect).await?);
    let (kinds, _) = discover::discover_managed(&conn, 16).await.map_err(anyhow::Error::from)?;
    Ok((conn, kinds))
}

/// [`reach`] until it answers, naming the context and why on stderr (once per reason).
async fn reach_again(
    name: &str,
    connect: &ConnectOptions,
    every: std::time::Duration,
) -> (Arc<Connection>, Vec<ApiKind>) {
    let mut said: Option<String> = None;
    loop {
        match reach(connect).await {
            Ok(reached) => {
                if said.is_some() {
                    eprintln!("{}: reached, watching", style::sanitize(name));
                }
                return reached;
            }
            Err(e) => {
                let why = one_line(&e);
                if said.as_deref() != Some(why.as_str()) {
                    eprintln!(
                        "{}: cannot watch this context: {}; the others go on, trying again every {}s",
                        style::sanitize(name),
                        style::sanitize(&why),
                        every.as_secs().max(1)
                    );
                    said = Some(why);
                }
                tokio::time::sleep(every).await;
            }
        }
    }
}

/// Where every loop prints: one writer, borrowed by one loop at a time (they all run on the
/// command's task); with several contexts each loop's lines are tagged with its context.
struct Sink<'a> {
    out: RefCell<&'a mut dyn Write>,
    json: bool,
}

impl Sink<'_> {
    /// Writes what one loop printed (`buf`, whole lines) and flushes.
    fn emit(&self, buf: &[u8], context: Option<&str>) -> std::io::Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        let mut out = self.out.borrow_mut();
        match context {
            None => out.write_all(buf)?,
            Some(context) => lines::tag(*out, buf, context, self.json)?,
        }
        out.flush()
    }
}

/// The loop's own state: how to reach the cluster, the one map of the kinds it follows (the
/// phase of each is in the shared state), and what it already told the user.
struct Loop {
    conn: Arc<Connection>,
    scope: WatchScope,
    tx: mpsc::Sender<Msg>,
    shared: Shared,
    clock: Clock,
    journal: Option<Journal>,
    /// `--events`: records an Event on the MR when an error finding appears.
    recorder: Option<events::Recorder>,
    /// Every managed kind followed: as discovery or its CRD described it, and its watcher while
    /// one runs (the state's phase says when: `domain::watch::kinds`).
    followed: HashMap<KindId, Followed>,
    /// CRD names already judged (fetched, or known from discovery): fetched once each.
    crds_seen: HashSet<String>,
    /// The looks at kinds that are not watched, while they run (one round at a time).
    probing: Option<JoinHandle<()>>,
    /// The provider pods' restarts, look after look.
    restarts: RestartCounter,
    /// By provider: the starts last given to the state, so a change re-judges its MRs.
    starts_given: HashMap<String, ProviderStarts>,
    /// Failures already printed, so a retried failure is said once.
    announced: HashSet<String>,
    ready_said: bool,
    json: bool,
    /// The context, when several are watched: named in every note.
    context: Option<String>,
    /// `--guard-lock`: what the events change in the guard's lock, and its writer.
    guard_lock: Option<guard_lock::Follower>,
}

impl Loop {
    fn spawn_crds(&self) {
        let stream = watching::crds(&self.conn);
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let mut stream = std::pin::pin!(stream);
            while let Some(seen) = stream.next().await {
                if tx.send(Msg::Crd(seen)).await.is_err() {
                    return;
                }
            }
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Watched> {
        self.shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Handles messages in batches (one journal write and one flush per batch), judges every
    /// MR again each `resync` and a create in flight when its result comes due; runs until the
    /// command ends (SIGINT or SIGTERM, in [`run`]).
    async fn run(
        &mut self,
        mut rx: mpsc::Receiver<Msg>,
        resync: std::time::Duration,
        sink: &Sink<'_>,
    ) -> anyhow::Result<()> {
        let mut tick = tokio::time::interval(resync);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.tick().await;
        loop {
            let mut printed = Vec::new();
            let due = self.lock().state.next_due().map(|at| self.clock.until(at));
            let first = tokio::select! {
                _ = tick.tick() => {
                    self.spawn_probes();
                    self.judge_again(State::resync, sink)?;
                    self.refresh_lock();
                    continue;
                }
                _ = sleep_for(due) => {
                    self.judge_again(State::due, sink)?;
                    continue;
                }
                msg = rx.recv() => match msg {
                    Some(msg) => msg,
                    None => return Ok(()),
                },
            };
            let mut batch = vec![first];
            while batch.len() < 512 {
                match rx.try_recv() {
                    Ok(msg) => batch.push(msg),
                    Err(_) => break,
                }
            }
            self.handle(batch, &mut printed)?;
            sink.emit(&printed, self.context.as_deref())?;
        }
    }

    /// Judges MRs again without an event (`State::resync`, `State::due`) and publishes what changed.
    fn judge_again(&mut self, judge: fn(&mut State, GoTime) -> Vec<Change>, sink: &Sink<'_>) -> anyhow::Result<()> {
        let now = self.clock.now();
        let changes = judge(&mut self.lock().state, now);
        let mut printed = Vec::new();
        self.print(&changes, now, &mut printed)?;
        sink.emit(&printed, self.context.as_deref())?;
        self.record_events(&changes, now);
        Ok(())
    }

    fn handle(&mut self, batch: Vec<Msg>, out: &mut dyn Write) -> anyhow::Result<()> {
        let now = self.clock.now();
        let stamp = now.to_string();
        let mut changes = Vec::new();
        let mut records = Vec::new();
        for msg in batch {
            match msg {
                Msg::Kind(kind, seen) => changes.extend(self.on_kind(&kind, *seen, now, &stamp, &mut records)),
                Msg::Crd(seen) => changes.extend(self.on_crd(seen)),
                Msg::CrdFetched(name, found) => self.on_crd_fetched(name, found),
                Msg::Probed(kind, probe) => self.on_probe(&kind, probe),
                Msg::Providers(look) => changes.extend(self.on_providers(*look, now, &mut records, out)?),
                Msg::Said(note) => self.tell(&note),
                Msg::Guard(read) => changes.extend(self.on_guard(*read)),
            }
        }
        if let Some(lock) = &mut self.guard_lock {
            lock.flush();
        }
        if let Some(journal) = &mut self.journal {
            let written = journal.append(&records).map_err(|e| Error::failed(e.to_string()))?;
            self.lock().counters.journal_records += written as u64;
        }
        self.print(&changes, now, out)?;
        self.record_events(&changes, now);
        let ready = self.lock().state.ready();
        if ready && !self.ready_said {
            self.ready_said = true;
            let kinds = self.followed.values().filter(|f| f.watched()).count();
            let idle = self.followed.len() - kinds;
            eprintln!(
                "{}watching {kinds} managed resource kind{}: every first list judged{}",
                self.context.as_deref().map(|c| format!("{}: ", style::sanitize(c))).unwrap_or_default(),
                if kinds == 1 { "" } else { "s" },
                match idle {
                    0 => String::new(),
                    n => format!(" ({n} more without MRs, looked at each resync)"),
                }
            );
        }
        Ok(())
    }

    /// With `--events`, an Event on each MR whose error finding appeared.
    fn record_events(&mut self, changes: &[Change], now: GoTime) {
        if let Some(recorder) = &mut self.recorder {
            let shared = self.shared.clone();
            let w = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            recorder.record(changes, &w.state, now);
        }
    }

    /// Prints a note on stderr once.
    fn say(&mut self, note: String) {
        if self.announced.insert(note.clone()) {
            self.tell(&note);
        }
    }

    /// Prints a note on stderr, naming the context when several are watched.
    fn tell(&self, note: &str) {
        match &self.context {
            Some(context) => eprintln!("{}", style::sanitize(&format!("{context}: {note}"))),
            None => eprintln!("{}", style::sanitize(note)),
        }
    }

    /// `--guard-lock`, each `--resync`: every MR held sent to the lock's writer again.
    fn refresh_lock(&mut self) {
        let shared = self.shared.clone();
        if let Some(lock) = &mut self.guard_lock {
            let w = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            lock.refresh(w.state.mrs());
        }
    }

    fn print(&self, changes: &[Change], now: GoTime, out: &mut dyn Write) -> std::io::Result<()> {
        for change in changes {
            if self.json {
                lines::write_json(out, now, change)?;
            } else {
                lines::write_line(out, now, change)?;
            }
        }
        if !changes.is_empty() {
            out.flush()?;
        }
        Ok(())
    }
}

/// Resolves on SIGINT or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
