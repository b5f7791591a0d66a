//! `kubectl upjet adopt` and `kubectl upjet restore`: the shell around [`crate::domain::adopt`].
//!
//! The core decides every write; this module reads the MR, asks the user, writes the backup,
//! sends each step as a conditional merge patch, waits for the provider, and reports. Its one
//! rule: whatever happens (refusal, conflict, RBAC denial, Ctrl-C, crash between steps), the MR
//! is left as it was, paused with its backup path printed, or fully adopted.

use crate::backup;
use crate::cli::Cli;
use crate::cli::adopt::{AdoptArgs, RestoreArgs};
use crate::cluster::connect::{self, Connection};
use crate::cluster::discover;
use crate::cluster::kinds::{self, ApiKind};
use crate::cluster::scan::{self, ScanOptions};
use crate::cluster::write::{self, Target, WriteError};
use crate::domain::adopt::{
    self, Action, Baseline, Candidate, Change, Context, EventName, Options, Plan, Progress, Refusal, Verdict, Wait,
};
use crate::domain::diagnose::diagnose;
use crate::domain::managed::ManagedResource;
use crate::domain::plan::{PlanItem, parse_plan};
use crate::error::{Error, Exit};
use crate::output::{detail, style};
use crate::prompt::{Prompter, TerminalPrompter};
use anyhow::Context as _;
use futures::StreamExt;
use serde_json::Value;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Test hook: the process exits abruptly (no clean-up) right after this step number completes
/// (0 = after the backup is written), to prove the MR is safe at every step boundary.
pub const STOP_AFTER_STEP_ENV: &str = "UPJET_TEST_STOP_AFTER_STEP";
/// How often a wait step re-reads the MR.
const POLL: Duration = Duration::from_millis(500);
/// Status-only conflicts (the provider writing status) retried before giving up.
const MAX_BENIGN_CONFLICTS: usize = 20;

/// A Ctrl-C latch shared by everything a command runs: set once, observed between steps and
/// during waits (a request in flight is never abandoned half-way).
#[derive(Clone, Default)]
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    notify: Arc<tokio::sync::Notify>,
}

impl Interrupt {
    /// Marks the command interrupted and wakes every wait.
    pub fn trigger(&self) {
        self.flag.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }

    /// Whether Ctrl-C was pressed.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Resolves once triggered.
    pub async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            if self.is_set() {
                return;
            }
            notified.await;
        }
    }

    /// Routes Ctrl-C (SIGINT) into this latch; a second Ctrl-C exits at once (exit 130).
    pub fn listen_for_ctrl_c(&self) {
        let me = self.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!(
                    "interrupted: finishing the current request and leaving the MR in a safe state (Ctrl-C again to quit now)"
                );
                me.trigger();
                if tokio::signal::ctrl_c().await.is_ok() {
                    std::process::exit(130);
                }
            }
        });
    }
}

/// Where questions and progress go; tests substitute a scripted prompter and a buffer.
pub struct Ui {
    /// Asks the user.
    pub prompter: Box<dyn Prompter>,
    /// Whether there is a terminal to ask on.
    pub interactive: bool,
    /// Progress and messages (stderr).
    pub err: Box<dyn Write + Send>,
    /// Ctrl-C.
    pub interrupt: Interrupt,
}

impl Ui {
    /// The real terminal: dialoguer prompts on stderr when stdin and stderr are terminals.
    pub fn terminal(cli: &Cli) -> Ui {
        let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
        let color = style::use_color(cli.ui.color, std::io::stderr().is_terminal());
        Ui {
            prompter: Box::new(TerminalPrompter::new(color)),
            interactive,
            err: Box::new(std::io::stderr()),
            interrupt: Interrupt::default(),
        }
    }

    fn say(&mut self, line: impl AsRef<str>) {
        let _ = writeln!(self.err, "{}", line.as_ref());
        let _ = self.err.flush();
    }
}

/// Runs `adopt` on the terminal, with Ctrl-C handling.
pub async fn run(cli: &Cli, args: &AdoptArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let mut ui = Ui::terminal(cli);
    ui.interrupt.listen_for_ctrl_c();
    run_with(cli, args, out, &mut ui).await
}

/// Runs `adopt` with the given UI (the testable entry point).
pub async fn run_with(cli: &Cli, args: &AdoptArgs, out: &mut dyn Write, ui: &mut Ui) -> anyhow::Result<Exit> {
    match (&args.filename, &args.target) {
        (Some(path), _) => bulk(cli, args, path, out, ui).await,
        (None, Some(target)) => single(cli, args, target, out, ui).await,
        (None, None) => Err(Error::Usage("name the MR (KIND/NAME) or a plan file (-f)".into()).into()),
    }
}

/// Runs `restore` on the terminal, with Ctrl-C handling.
pub async fn run_restore(cli: &Cli, args: &RestoreArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let mut ui = Ui::terminal(cli);
    ui.interrupt.listen_for_ctrl_c();
    restore_with(cli, args, out, &mut ui).await
}

// ---------------------------------------------------------------- resolving the MR

fn split_target(target: &str) -> Result<(&str, &str), Error> {
    match target.split_once('/') {
        Some((k, n)) if !k.is_empty() && !n.is_empty() && !n.contains('/') => {
            check_name(n, "name")?;
            Ok((k, n))
        }
        _ => Err(Error::Usage(format!("{target:?} is not KIND/NAME (for example recordset.dns.gcp.upbound.io/www)"))),
    }
}

/// Object names and namespaces go into URLs: only what Kubernetes itself allows (RFC 1123
/// subdomains: lower-case letters, digits, `-` and `.`) is accepted.
fn check_name(name: &str, what: &str) -> Result<(), Error> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    if ok { Ok(()) } else { Err(Error::Usage(format!("{:?} is not a valid Kubernetes {what}", style::sanitize(name)))) }
}

/// Every API kind, and the managed ones.
async fn kinds_of(conn: &Connection) -> Result<(Vec<ApiKind>, Vec<ApiKind>), Error> {
    let (all, _) = discover::discover_all(conn, 16).await?;
    let managed = all.iter().filter(|k| k.is_managed()).cloned().collect();
    Ok((all, managed))
}

fn resolve_kind(all: &[ApiKind], managed: &[ApiKind], spec: &str) -> Result<ApiKind, Error> {
    match kinds::resolve(managed, spec) {
        Ok(k) => Ok(k.clone()),
        Err(kinds::ResolveError::Unknown(_)) if all.iter().any(|k| k.matches(spec)) => Err(Error::Usage(format!(
            "{spec:?} is not a managed resource kind (its CRD is not in the `managed` category); adopt works on Crossplane managed resources only"
        ))),
        Err(e) => Err(Error::Usage(e.to_string())),
    }
}

fn namespace_for(cli: &Cli, conn: &Connection, explicit: Option<&str>) -> Result<String, Error> {
    let ns = explicit
        .map(str::to_owned)
        .or_else(|| cli.kube.namespace.clone())
        .unwrap_or_else(|| conn.default_namespace.clone());
    check_name(&ns, "namespace")?;
    Ok(ns)
}

async fn read_existing(conn: &Connection, target: &Target) -> Result<Value, Error> {
    write::read(conn, target).await.map_err(|e| match e {
        WriteError::NotFound { target } => Error::Usage(format!("{target} not found")),
        other => other.into_error(conn),
    })
}

fn decode(obj: &Value) -> Result<ManagedResource, Error> {
    ManagedResource::from_json(&obj.to_string())
        .map_err(|e| Error::Usage(format!("not a readable managed resource: {e}")))
}

fn refusal_error(r: Refusal) -> Error {
    if r.is_bad_input() { Error::Usage(r.to_string()) } else { Error::Failed(format!("refused: {r}")) }
}

/// The `external-name` annotations of the MR's events (best effort: events expire after 1h).
async fn event_names(conn: &Connection, mr: &ManagedResource) -> Result<Vec<EventName>, String> {
    let events = crate::commands::evidence::events_of(conn, mr).await.map_err(|e| e.reason())?;
    Ok(events
        .into_iter()
        .filter_map(|e| Some(EventName { id: e.external_name?, reason: e.reason, time: e.last, message: e.message }))
        .collect())
}

/// Other MRs of the given kinds by external-name (for the duplicate guardrail), best effort.
async fn external_names(
    conn: &Arc<Connection>,
    kinds: Vec<ApiKind>,
) -> (HashMap<String, Vec<ManagedResource>>, Vec<String>) {
    let opts = ScanOptions { namespace: None, label_selector: None, page_size: 500, concurrency: 4 };
    let results = scan::scan(conn.clone(), kinds, opts, |mr| mr.external_name().is_some().then_some(mr), |_| {}).await;
    let mut by_name: HashMap<String, Vec<ManagedResource>> = HashMap::new();
    let mut problems = Vec::new();
    for r in results {
        if let Some(e) = r.error {
            problems.push(format!("{}: {e}", r.kind.resource_name()));
        }
        for mr in r.kept {
            if let Some(n) = mr.external_name().map(str::to_owned) {
                by_name.entry(n).or_default().push(mr);
            }
        }
    }
    (by_name, problems)
}

fn options(args: &AdoptArgs) -> Options {
    Options {
        import: args.import,
        force: args.force,
        add_late_initialize: args.add_late_initialize,
        dry_run: args.dry_run,
        now: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    }
}

// ---------------------------------------------------------------- one MR

async fn single(cli: &Cli, args: &AdoptArgs, target: &str, out: &mut dyn Write, ui: &mut Ui) -> anyhow::Result<Exit> {
    if let Some(id) = &args.id {
        adopt::validate_id(id).map_err(refusal_error)?;
    }
    let (kind_spec, name) = split_target(target)?;
    let conn = Arc::new(connect::connect(&cli.kube).await?);
    let (all, managed) = kinds_of(&conn).await?;
    let kind = resolve_kind(&all, &managed, kind_spec)?;
    let ns = if kind.namespaced { Some(namespace_for(cli, &conn, None)?) } else { None };
    let target = Target::new(kind.clone(), ns.as_deref(), name);
    let obj = read_existing(&conn, &target).await?;
    let mr = decode(&obj)?;

    let id = match &args.id {
        Some(id) => id.clone(),
        None => {
            if !ui.interactive {
                return Err(Error::Usage(
                    "no --id given and no terminal to ask on: pass --id <cloud-id> (and --yes to skip the confirmation)"
                        .into(),
                )
                .into());
            }
            choose_interactively(&conn, &mr, ui).await?
        }
    };
    adopt::validate_id(&id).map_err(refusal_error)?;

    let (by_name, problems) = external_names(&conn, vec![kind]).await;
    for p in problems {
        ui.say(format!("note: could not check other MRs for the same ID: {}", style::sanitize(&p)));
    }
    let duplicates = by_name.get(&id).cloned().unwrap_or_default();
    let opts = options(args);
    let interrupt = ui.interrupt.clone();
    let mut job = Job {
        conn: &conn,
        target: &target,
        args,
        opts: &opts,
        log: Log::Live(ui),
        can_ask: true,
        confirmed: args.yes,
        interrupt,
    };
    match job.adopt(obj, &id, &duplicates, out).await? {
        Outcome::NothingToDo(msg) => {
            writeln!(out, "{}", style::sanitize(&msg))?;
            Ok(Exit::Ok)
        }
        Outcome::DryRun => Ok(Exit::Ok),
        Outcome::Adopted { note } => {
            let obj = write::read(&conn, &target).await.map_err(|e| e.into_error(&conn))?;
            let mr = decode(&obj)?;
            if let Some(note) = note {
                job.log.line(format!("warning: {note}"));
            }
            job.log.line(format!(
                "adopted {}: external-name {:?}",
                style::sanitize(&target.display()),
                style::sanitize(mr.external_name().unwrap_or(""))
            ));
            let findings = diagnose(&mr);
            detail::write_detail(out, &mr, &findings, crate::commands::doctor::now())?;
            Ok(Exit::Ok)
        }
    }
}

/// Evidence from the provider for the interactive choice: orphan candidates and the last logged
/// ID from the provider pods' logs (only this MR's lines are kept), and the Terraform workspace
/// of CLI-mode resources. Best effort: what cannot be read is noted and skipped.
async fn log_candidates(
    conn: &Connection,
    mr: &ManagedResource,
    ui: &mut Ui,
) -> (Vec<crate::domain::finding::Finding>, Vec<Candidate>) {
    use crate::cluster::kinds::ApiKind;
    use crate::evidence::correlate::log_findings;
    use crate::evidence::logs::Retention;
    ui.say("reading provider logs for evidence…");
    let opts =
        crate::cli::LogOptions { since: Duration::ZERO, limit_bytes: 64 * 1024 * 1024, provider_namespace: None };
    let focus = Retention::Focus { uid: mr.uid.clone(), name: mr.name.clone(), namespace: mr.namespace.clone() };
    let gathered = match crate::commands::evidence::gather(Some(conn), true, &[], &opts, focus).await {
        Ok(g) => g,
        Err(e) => {
            ui.say(format!("note: could not read provider logs: {}", style::sanitize(&format!("{e:#}"))));
            return (Vec::new(), Vec::new());
        }
    };
    let mut extra = Vec::new();
    let findings = log_findings(mr, gathered.logs.as_ref(), None);
    // IDs logged as created but not tracked: offered even when not suggested (the MR tracks another).
    for f in
        findings.iter().filter(|f| f.code == crate::domain::finding::Code::OrphanCandidate && f.suggested_id.is_none())
    {
        if let Some(id) = f.evidence.get("loggedId") {
            extra.push(Candidate { id: id.clone(), source: "logged as created".into(), detail: f.message.clone() });
        }
    }
    if let Some(last) = gathered.logs.as_ref().and_then(|l| l.last_logged_id(&mr.uid)) {
        let when = last.time.map(|t| format!(" at {}", crate::evidence::correlate::go_time(t))).unwrap_or_default();
        extra.push(Candidate {
            id: last.id.clone(),
            source: "last provider-logged ID".into(),
            detail: format!("logged{when}: {}", last.source),
        });
    }
    // The MR's provider, by its API group, for the workspace of Terraform-CLI resources.
    let kind = ApiKind {
        group: mr.group().to_string(),
        version: String::new(),
        plural: String::new(),
        singular: String::new(),
        kind: mr.kind.clone(),
        namespaced: mr.namespace.is_some(),
        short_names: Vec::new(),
        categories: Vec::new(),
    };
    for pod in gathered.pods.iter().filter(|p| crate::cluster::kinds::provider_matches(&kind, &p.provider)) {
        if let Ok(ws) = crate::commands::evidence::read_workspace(conn, pod, &mr.uid).await {
            if let Some(id) = ws.id {
                extra.push(Candidate {
                    id,
                    source: "Terraform workspace".into(),
                    detail: format!("terraform.tfstate in {}", ws.pod),
                });
            }
            break;
        }
    }
    (findings, extra)
}

async fn choose_interactively(conn: &Connection, mr: &ManagedResource, ui: &mut Ui) -> anyhow::Result<String> {
    let findings = diagnose(mr);
    let mut state = Vec::new();
    detail::write_detail(&mut state, mr, &findings, crate::commands::doctor::now())?;
    let _ = ui.err.write_all(&state);
    let events = match event_names(conn, mr).await {
        Ok(e) => e,
        Err(e) => {
            ui.say(format!("note: could not read the MR's events: {}", style::sanitize(&e)));
            Vec::new()
        }
    };
    let (log_findings, extra) = log_candidates(conn, mr, ui).await;
    let mut all_findings = findings.clone();
    all_findings.extend(log_findings);
    let candidates: Vec<Candidate> = adopt::candidates(mr, &all_findings, &events, extra);
    ui.say("");
    if candidates.is_empty() {
        ui.say("No candidate IDs found (no status.atProvider.id, no suggested ID, no event annotation). `kubectl upjet history` may find one in the provider logs.");
    } else {
        ui.say("Candidate IDs (best evidence first):");
        for c in &candidates {
            ui.say(format!("  {}", crate::prompt::candidate_line(c)));
        }
    }
    match ui.prompter.choose_id(&candidates) {
        Ok(Some(id)) => Ok(id),
        Ok(None) => Err(Error::Failed("cancelled; nothing changed".into()).into()),
        Err(e) => Err(Error::Failed(format!("{e}; nothing changed")).into()),
    }
}

/// Where a job's progress goes: straight to the UI (one MR), or into a buffer (plans print one
/// line per MR, plus the buffered detail when it failed).
enum Log<'a> {
    Live(&'a mut Ui),
    Buffer(Vec<String>),
}

impl Log<'_> {
    fn line(&mut self, s: impl Into<String>) {
        match self {
            Log::Live(ui) => ui.say(s.into()),
            Log::Buffer(b) => b.push(s.into()),
        }
    }
}

/// How a job ended when it did not fail.
enum Outcome {
    NothingToDo(String),
    DryRun,
    Adopted { note: Option<String> },
}

/// Where an adoption stands, to say what state an interruption or failure leaves the MR in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Nothing written.
    Untouched,
    /// Paused (identity possibly written).
    Paused,
    /// Observe-only and unpaused (import phase).
    Observing,
    /// Identity complete and unpaused with the final policies.
    Adopted,
}

/// A write that could not be made.
enum StepError {
    /// Someone changed what matters; the fresh object and the changes.
    Conflict(Box<Value>, Vec<Change>),
    /// Anything else.
    Other(Error),
}

/// One adoption being carried out.
struct Job<'a> {
    conn: &'a Connection,
    target: &'a Target,
    args: &'a AdoptArgs,
    opts: &'a Options,
    log: Log<'a>,
    /// Whether a conflict may be resolved by asking (single MR, terminal, no --yes).
    can_ask: bool,
    /// Whether the user already confirmed (--yes, or once for a whole plan).
    confirmed: bool,
    /// Ctrl-C.
    interrupt: Interrupt,
}

impl Job<'_> {
    fn interactive(&self) -> bool {
        matches!(&self.log, Log::Live(ui) if ui.interactive)
    }

    fn interrupted(&self) -> bool {
        self.interrupt.is_set()
    }

    fn confirm(&mut self, question: &str) -> Result<bool, Error> {
        match &mut self.log {
            Log::Live(ui) => ui.prompter.confirm(question).map_err(|e| Error::Failed(format!("{e}; nothing changed"))),
            Log::Buffer(_) => Ok(false),
        }
    }

    /// The adoption of `id`, from the object as read to the end state.
    async fn adopt(
        &mut self,
        mut obj: Value,
        id: &str,
        duplicates: &[ManagedResource],
        out: &mut dyn Write,
    ) -> anyhow::Result<Outcome> {
        let mut phase = Phase::Untouched;
        let mut backup_path: Option<String> = None;
        loop {
            let verdict = adopt::preflight(&obj, id, self.opts, &Context { duplicates });
            let mut plan = match verdict {
                Verdict::Refused(r) => return Err(refusal_error(r).into()),
                Verdict::NothingToDo(msg) => return Ok(Outcome::NothingToDo(msg)),
                Verdict::Adopt(p) => *p,
            };
            if self.args.dry_run {
                self.dry_run(&plan, &obj, out).await?;
                return Ok(Outcome::DryRun);
            }
            if matches!(self.log, Log::Live(_)) {
                let mut text = Vec::new();
                write_plan(&mut text, &plan, None, &obj)?;
                for l in String::from_utf8_lossy(&text).lines() {
                    self.log.line(l.to_string());
                }
            }
            if !self.confirmed {
                if !self.interactive() {
                    return Err(Error::Usage(format!(
                        "refusing to change {} without confirmation: there is no terminal to ask on; pass --yes (or --dry-run to only see the plan)",
                        self.target.display()
                    ))
                    .into());
                }
                if !self.confirm(&format!("Adopt {} as {id:?}?", style::sanitize(&self.target.display())))? {
                    return Err(Error::Failed(match phase {
                        Phase::Untouched => "cancelled; nothing changed".to_string(),
                        _ => format!("cancelled; {}", self.state_text(phase, &plan)),
                    })
                    .into());
                }
            }
            // Backup before the first change; a resumed adoption keeps its original backup.
            if phase == Phase::Untouched {
                match (&plan.marker.backup, plan.resumed) {
                    (Some(path), true) => {
                        self.log.line(format!(
                            "resuming the adoption started at {}; original backup: {}",
                            style::sanitize(&plan.marker.started),
                            style::sanitize(path)
                        ));
                        backup_path = Some(path.clone());
                    }
                    _ => {
                        let dir = match &self.args.backup_dir {
                            Some(d) => d.clone(),
                            None => {
                                backup::default_dir().map_err(|e| Error::Failed(format!("{e}; nothing changed")))?
                            }
                        };
                        let path = backup::write(&dir, &obj, chrono::Utc::now())
                            .map_err(|e| Error::Failed(format!("{e}; nothing changed")))?;
                        let path = path.display().to_string();
                        self.log.line(format!("backup: {path}"));
                        backup_path = Some(path);
                    }
                }
                stop_hook(0);
            }
            if let Some(p) = &backup_path {
                plan.record_backup(p);
            }
            match self.execute(&plan, obj, &mut phase).await? {
                Executed::Done(note) => return Ok(Outcome::Adopted { note }),
                Executed::Replan(fresh) => obj = *fresh,
            }
        }
    }

    /// Prints the plan and every patch, and has the server dry-run each write.
    async fn dry_run(&mut self, plan: &Plan, obj: &Value, out: &mut dyn Write) -> anyhow::Result<()> {
        write_plan(out, plan, Some(&self.target.path()), obj)?;
        for step in plan.writes() {
            let patch = step.patch_at(adopt::resource_version(obj)).unwrap_or_default();
            match write::merge_patch(self.conn, self.target, &patch, true).await {
                Ok(_) => {
                    writeln!(out, "step {}: accepted by the API server (dryRun=All; nothing changed)", step.number)?
                }
                Err(e) => {
                    writeln!(
                        out,
                        "step {}: rejected by the API server: {}",
                        step.number,
                        style::sanitize(&e.to_string())
                    )?;
                    return Err(e.into_error(self.conn).into());
                }
            }
        }
        writeln!(out, "dry run: nothing was changed and no backup was written")?;
        Ok(())
    }

    fn state_text(&self, phase: Phase, plan: &Plan) -> String {
        let backup = plan.marker.backup.as_deref().map(style::sanitize).unwrap_or_else(|| "(none)".into());
        let target = style::sanitize(&self.target.display());
        match phase {
            Phase::Untouched => "nothing changed".to_string(),
            Phase::Paused => format!(
                "{target} is left paused (crossplane.io/paused: \"true\"); backup: {backup}. Run the same command again to finish the adoption, or `kubectl upjet restore {backup}` to undo it"
            ),
            Phase::Observing => format!(
                "{target} is left observing only (managementPolicies [\"Observe\"]: it cannot create, update or delete) with external-name {:?}; backup: {backup}. Run the same command again to finish, or `kubectl upjet restore {backup}`",
                style::sanitize(&plan.id)
            ),
            Phase::Adopted => format!(
                "{target} is adopted (external-name {:?}, unpaused); backup: {backup}",
                style::sanitize(&plan.id)
            ),
        }
    }

    /// Sends one step's patch conditionally on `current`'s resourceVersion. A conflict caused
    /// only by writes that do not matter (status) is retried on the fresh object; a conflict on
    /// what matters is returned with the changes.
    async fn write_step(&mut self, patch: &Value, current: &mut Value) -> Result<(Value, Value), StepError> {
        for _ in 0..MAX_BENIGN_CONFLICTS {
            let body = adopt::with_resource_version(patch.clone(), adopt::resource_version(current));
            match write::merge_patch(self.conn, self.target, &body, false).await {
                Ok(new) => return Ok((current.clone(), new)),
                Err(WriteError::Conflict { .. }) => {
                    let fresh = write::read(self.conn, self.target)
                        .await
                        .map_err(|e| StepError::Other(e.into_error(self.conn)))?;
                    let changes = adopt::conflicting_changes(current, &fresh);
                    if !changes.is_empty() {
                        return Err(StepError::Conflict(Box::new(fresh), changes));
                    }
                    self.log.line(format!(
                        "      the object changed meanwhile (status only); retrying on resourceVersion {}",
                        style::sanitize(adopt::resource_version(&fresh))
                    ));
                    *current = fresh;
                }
                Err(e) => return Err(StepError::Other(e.into_error(self.conn))),
            }
        }
        Err(StepError::Other(Error::Failed(format!(
            "{} keeps changing; gave up after {MAX_BENIGN_CONFLICTS} conflicts",
            self.target.display()
        ))))
    }

    /// Carries out the plan's steps in order.
    async fn execute(&mut self, plan: &Plan, obj: Value, phase: &mut Phase) -> anyhow::Result<Executed> {
        let total = plan.steps.len();
        let mut current = obj;
        let mut baseline = Baseline::default();
        let mut note = None;
        for step in &plan.steps {
            if self.interrupted() {
                return Err(self.stop(plan, phase, &mut current, "interrupted").await.into());
            }
            let head = format!("[{}/{total}] {}", step.number, style::sanitize(&step.title));
            if let Some(patch) = &step.patch {
                self.log.line(head);
                match self.write_step(patch, &mut current).await {
                    Ok((before, after)) => {
                        let token = adopt::annotation(&after, crate::domain::managed::keys::RECONCILE_REQUESTED_AT)
                            .unwrap_or_default()
                            .to_string();
                        baseline = Baseline::after_write(&before, &after, &token);
                        current = after;
                        *phase = match step.action {
                            Action::Pause | Action::Identity => Phase::Paused,
                            Action::Observe => Phase::Observing,
                            Action::RestorePolicies | Action::Unpause => Phase::Adopted,
                            Action::WaitImported | Action::WaitReady => *phase,
                        };
                        self.log.line(format!(
                            "      done (resourceVersion {})",
                            style::sanitize(adopt::resource_version(&current))
                        ));
                    }
                    Err(StepError::Conflict(fresh, changes)) => {
                        self.log.line(format!(
                            "      {} was changed by someone else meanwhile:",
                            style::sanitize(&self.target.display())
                        ));
                        for c in &changes {
                            self.log.line(format!("        {}", change_line(c)));
                        }
                        if self.can_ask && self.interactive() && !self.args.yes {
                            self.log.line("      re-planning from its current state");
                            return Ok(Executed::Replan(fresh));
                        }
                        let mut fresh = *fresh;
                        let why = "it changed while adopting (a conflicting write); not overwriting it";
                        return Err(self.stop(plan, phase, &mut fresh, why).await.into());
                    }
                    Err(StepError::Other(e)) => {
                        let why = e.to_string();
                        let stopped = self.stop(plan, phase, &mut current, &why).await;
                        return Err(match e {
                            Error::Cluster(_) => Error::Cluster(stopped.to_string()),
                            _ => stopped,
                        }
                        .into());
                    }
                }
            } else if let Some(wait) = &step.wait {
                self.log.line(head);
                match self.wait(wait, &baseline, &mut current).await {
                    WaitEnd::Done(msg) => {
                        self.log.line(format!("      {}", style::sanitize(&msg)));
                        let name = adopt::annotation(&current, crate::domain::managed::keys::EXTERNAL_NAME);
                        if name != Some(plan.id.as_str()) {
                            let why = format!(
                                "the external-name changed to {:?} while waiting; not continuing",
                                style::sanitize(name.unwrap_or("<none>"))
                            );
                            return Err(self.stop(plan, phase, &mut current, &why).await.into());
                        }
                    }
                    WaitEnd::NotFound(msg) => return Err(self.not_found(plan, phase, &mut current, &msg).await.into()),
                    WaitEnd::Failed(e) => {
                        let why = e.to_string();
                        return Err(self.stop(plan, phase, &mut current, &why).await.into());
                    }
                    WaitEnd::Timeout(last) => {
                        let why = format!(
                            "the provider did not confirm within {} (last seen: {})",
                            humantime(self.args.timeout),
                            style::sanitize(&last)
                        );
                        if *phase == Phase::Adopted && plan.import {
                            // The import already proved the ID; only the final confirmation is missing.
                            note = Some(why);
                        } else {
                            return Err(self.stop(plan, phase, &mut current, &why).await.into());
                        }
                    }
                    WaitEnd::Interrupted => {
                        return Err(self.stop(plan, phase, &mut current, "interrupted").await.into());
                    }
                }
            } else {
                self.log.line(format!("{head} (already done)"));
            }
            stop_hook(step.number);
        }
        Ok(Executed::Done(note))
    }

    /// Polls the MR until the wait is over.
    async fn wait(&mut self, wait: &Wait, baseline: &Baseline, current: &mut Value) -> WaitEnd {
        let deadline = Instant::now() + self.args.timeout;
        let mut last = String::new();
        let interrupt = self.interrupt.clone();
        let mut read_failures = 0;
        loop {
            match write::read(self.conn, self.target).await {
                Ok(obj) => {
                    read_failures = 0;
                    *current = obj;
                    match adopt::progress(wait, baseline, current) {
                        Progress::Done(m) => return WaitEnd::Done(m),
                        Progress::NotFound(m) => return WaitEnd::NotFound(m),
                        Progress::Waiting(m) => {
                            if m != last {
                                self.log.line(format!("      {}", style::sanitize(&m)));
                                last = m;
                            }
                        }
                    }
                }
                Err(e @ WriteError::Forbidden { .. }) | Err(e @ WriteError::NotFound { .. }) => {
                    return WaitEnd::Failed(e.into_error(self.conn));
                }
                Err(e) => {
                    read_failures += 1;
                    self.log.line(format!("      could not read the MR: {}", style::sanitize(&e.to_string())));
                    if read_failures >= 5 {
                        return WaitEnd::Failed(e.into_error(self.conn));
                    }
                }
            }
            let now = Instant::now();
            if now >= deadline {
                return WaitEnd::Timeout(last);
            }
            let nap = POLL.min(deadline - now);
            tokio::select! {
                _ = tokio::time::sleep(nap) => {}
                _ = interrupt.wait() => return WaitEnd::Interrupted,
            }
        }
    }

    /// Leaves the MR safe after an interruption or failure and says in which state.
    async fn stop(&mut self, plan: &Plan, phase: &mut Phase, current: &mut Value, why: &str) -> Error {
        if *phase == Phase::Observing {
            self.log.line("      pausing it again and putting its management policies back");
            let patch = adopt::safe_stop_patch(&plan.marker, current);
            let patch = strip_rv(patch);
            match self.write_step(&patch, current).await {
                Ok(_) => *phase = Phase::Paused,
                Err(StepError::Conflict(_, changes)) => {
                    self.log.line(format!("      could not pause it: it changed meanwhile ({} fields)", changes.len()));
                }
                Err(StepError::Other(e)) => self.log.line(format!("      could not pause it: {e}")),
            }
        }
        Error::Failed(format!("{}; {}", style::sanitize(why), self.state_text(*phase, plan)))
    }

    /// The provider says no cloud object has the ID: put the MR back exactly as it was.
    async fn not_found(&mut self, plan: &Plan, phase: &mut Phase, current: &mut Value, msg: &str) -> Error {
        self.log.line(format!("      the provider reports: {}", style::sanitize(msg)));
        self.log.line("      putting the MR back exactly as it was");
        let patch = strip_rv(adopt::undo_from_marker(&plan.marker, current));
        let backup = plan.marker.backup.as_deref().map(style::sanitize).unwrap_or_else(|| "(none)".into());
        match self.write_step(&patch, current).await {
            Ok(_) => {
                *phase = Phase::Untouched;
                Error::Failed(format!(
                    "no cloud object has ID {:?} ({}); {} is back exactly as it was (backup: {backup})",
                    style::sanitize(&plan.id),
                    style::sanitize(msg),
                    style::sanitize(&self.target.display())
                ))
            }
            Err(e) => {
                let why = match e {
                    StepError::Conflict(_, _) => "it changed meanwhile".to_string(),
                    StepError::Other(e) => e.to_string(),
                };
                self.stop(
                    plan,
                    phase,
                    current,
                    &format!("no cloud object has ID {:?}, and putting the MR back failed ({why})", plan.id),
                )
                .await
            }
        }
    }
}

enum Executed {
    Done(Option<String>),
    Replan(Box<Value>),
}

enum WaitEnd {
    Done(String),
    NotFound(String),
    Timeout(String),
    Failed(Error),
    Interrupted,
}

fn strip_rv(mut patch: Value) -> Value {
    if let Some(m) = patch.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("resourceVersion");
    }
    patch
}

fn humantime(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 && s.is_multiple_of(60) { format!("{}m", s / 60) } else { format!("{}s", d.as_secs_f64()) }
}

/// Test hook: after this step the process announces itself and hangs, so a test can `kill -9` it
/// at that exact boundary (nothing in the process gets a chance to react).
pub const HANG_AFTER_STEP_ENV: &str = "UPJET_TEST_HANG_AFTER_STEP";

/// The test hooks (see [`STOP_AFTER_STEP_ENV`] and [`HANG_AFTER_STEP_ENV`]).
fn stop_hook(step: usize) {
    let at = |var: &str| std::env::var(var).ok().and_then(|v| v.parse::<usize>().ok()) == Some(step);
    if at(STOP_AFTER_STEP_ENV) {
        eprintln!("test hook: stopping abruptly after step {step}");
        std::process::exit(99);
    }
    if at(HANG_AFTER_STEP_ENV) {
        eprintln!("test hook: waiting to be killed after step {step}");
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}

fn change_line(c: &Change) -> String {
    let show = |v: &Option<String>| {
        v.as_deref().map(|s| format!("{:?}", style::sanitize(s))).unwrap_or_else(|| "<none>".into())
    };
    format!("{}: {} -> {}", style::sanitize(&c.field), show(&c.before), show(&c.after))
}

/// The plan for a human: what, the warnings, the end-state changes, the steps (and patches).
fn write_plan(w: &mut dyn Write, plan: &Plan, patch_path: Option<&str>, obj: &Value) -> std::io::Result<()> {
    let s = style::sanitize;
    writeln!(
        w,
        "Adopt {} as ID {:?}{}",
        s(&plan.target),
        s(&plan.id),
        if plan.import { " (--import: verified with Observe-only first)" } else { "" }
    )?;
    if plan.resumed {
        writeln!(
            w,
            "Resuming an unfinished adoption started at {} (backup: {})",
            s(&plan.marker.started),
            s(plan.marker.backup.as_deref().unwrap_or("unknown"))
        )?;
    }
    if !plan.warnings.is_empty() {
        writeln!(w, "Warnings:")?;
        for warning in &plan.warnings {
            writeln!(w, "  ! {}", s(warning))?;
        }
    }
    writeln!(w, "Changes when done:")?;
    if plan.changes.is_empty() {
        writeln!(w, "  (none beyond the steps below)")?;
    }
    for c in &plan.changes {
        writeln!(w, "  {}", change_line(c))?;
    }
    writeln!(
        w,
        "Meanwhile the MR is paused{}.",
        if plan.import {
            ", then observes only (managementPolicies [\"Observe\"]) until the provider confirms the ID"
        } else {
            ""
        }
    )?;
    writeln!(w, "Steps:")?;
    for step in &plan.steps {
        let done = if step.patch.is_none() && step.wait.is_none() { " (already done)" } else { "" };
        writeln!(w, "  {}. {}{done}", step.number, s(&step.title))?;
        if let (Some(path), Some(p)) = (patch_path, step.patch_at(adopt::resource_version(obj))) {
            writeln!(w, "     PATCH {} (application/merge-patch+json, dryRun=All)", s(path))?;
            writeln!(w, "     {}", s(&p.to_string()))?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- plans

struct Item {
    plan: PlanItem,
    target: Target,
    obj: Value,
}

async fn bulk(cli: &Cli, args: &AdoptArgs, path: &PathBuf, out: &mut dyn Write, ui: &mut Ui) -> anyhow::Result<Exit> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Usage(format!("cannot read the plan {}: {e}", path.display())))?;
    let items = parse_plan(&text).map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?;
    if items.is_empty() {
        writeln!(out, "the plan is empty; nothing to do")?;
        return Ok(Exit::Ok);
    }
    let conn = Arc::new(connect::connect(&cli.kube).await?);
    let (all, managed) = kinds_of(&conn).await?;
    // Everything is resolved and read before anything is changed: bad input changes nothing.
    let mut problems = Vec::new();
    let mut targets = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let (kind_spec, name) = match split_target(&item.resource) {
            Ok(x) => x,
            Err(e) => {
                problems.push(format!("item {index}: {e}"));
                continue;
            }
        };
        match resolve_kind(&all, &managed, kind_spec) {
            Ok(kind) => {
                let ns = if kind.namespaced {
                    namespace_for(cli, &conn, item.namespace.as_deref()).map(Some)
                } else {
                    Ok(None)
                };
                match ns {
                    Ok(ns) => targets.push((index, item.clone(), Target::new(kind, ns.as_deref(), name))),
                    Err(e) => problems.push(format!("item {index} ({}): {e}", item.resource)),
                }
            }
            Err(e) => problems.push(format!("item {index} ({}): {e}", item.resource)),
        }
    }
    let fetched: Vec<Result<Item, String>> = futures::stream::iter(targets)
        .map(|(index, plan, target)| {
            let conn = conn.clone();
            async move {
                match write::read(&conn, &target).await {
                    Ok(obj) => Ok(Item { plan, target, obj }),
                    Err(WriteError::NotFound { target }) => Err(format!("item {index}: {target} not found")),
                    Err(e) => Err(format!("item {index}: {e}")),
                }
            }
        })
        .buffered(usize::from(args.concurrency).max(4))
        .collect()
        .await;
    let mut ready = Vec::new();
    for f in fetched {
        match f {
            Ok(item) => ready.push(item),
            Err(p) => problems.push(p),
        }
    }
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(|p| format!("  {}", style::sanitize(p))).collect();
        return Err(Error::Usage(format!(
            "the plan {} cannot be applied; nothing was changed:\n{}",
            path.display(),
            list.join("\n")
        ))
        .into());
    }
    let mut kinds_needed: Vec<ApiKind> = ready.iter().map(|i| i.target.kind.clone()).collect();
    kinds_needed.sort_by_key(|k| k.resource_name());
    kinds_needed.dedup_by_key(|k| k.resource_name());
    let (by_name, scan_problems) = external_names(&conn, kinds_needed).await;
    for p in scan_problems {
        ui.say(format!("note: could not check other MRs for the same IDs: {}", style::sanitize(&p)));
    }

    // Preview: what each item would do.
    let opts = options(args);
    let mut to_adopt = Vec::new();
    let (mut skipped, mut refused) = (0usize, 0usize);
    for item in ready {
        let dups = by_name.get(&item.plan.id).cloned().unwrap_or_default();
        let line = |verb: &str, rest: String| format!("{verb:<8} {} {}", style::sanitize(&item.target.display()), rest);
        match adopt::preflight(&item.obj, &item.plan.id, &opts, &Context { duplicates: &dups }) {
            Verdict::NothingToDo(_) => {
                skipped += 1;
                writeln!(
                    out,
                    "{}",
                    line("skipped", format!("already has external-name {:?}", style::sanitize(&item.plan.id)))
                )?;
            }
            Verdict::Refused(r) => {
                refused += 1;
                writeln!(out, "{}", line("refused", style::sanitize(&r.to_string())))?;
            }
            Verdict::Adopt(p) => to_adopt.push((item, dups, p.resumed)),
        }
    }
    if args.dry_run {
        for (item, dups, _) in &to_adopt {
            let mut job = Job {
                conn: &conn,
                target: &item.target,
                args,
                opts: &opts,
                log: Log::Buffer(Vec::new()),
                can_ask: false,
                confirmed: true,
                interrupt: ui.interrupt.clone(),
            };
            writeln!(out)?;
            if let Err(e) = job.adopt(item.obj.clone(), &item.plan.id, dups, out).await {
                refused += 1;
                writeln!(
                    out,
                    "{:<8} {}: {}",
                    "failed",
                    style::sanitize(&item.target.display()),
                    style::sanitize(&format!("{e:#}"))
                )?;
            }
        }
        writeln!(
            out,
            "dry run: {} to adopt, {skipped} already adopted, {refused} refused; nothing was changed",
            to_adopt.len()
        )?;
        return Ok(if refused > 0 { Exit::Failed } else { Exit::Ok });
    }
    if to_adopt.is_empty() {
        writeln!(out, "nothing to adopt: {skipped} already adopted, {refused} refused")?;
        return Ok(if refused > 0 { Exit::Failed } else { Exit::Ok });
    }
    if !args.yes {
        if !ui.interactive {
            return Err(Error::Usage(format!(
                "refusing to adopt {} MRs without confirmation: there is no terminal to ask on; pass --yes (or --dry-run to only see the plans)",
                to_adopt.len()
            ))
            .into());
        }
        for (item, _, resumed) in &to_adopt {
            ui.say(format!(
                "  adopt {} as {:?}{}",
                style::sanitize(&item.target.display()),
                style::sanitize(&item.plan.id),
                if *resumed { " (resume)" } else { "" }
            ));
        }
        let q = format!("Adopt these {} MRs{}?", to_adopt.len(), if args.import { " (--import)" } else { "" });
        if !ui.prompter.confirm(&q).map_err(|e| Error::Failed(format!("{e}; nothing changed")))? {
            return Err(Error::Failed("cancelled; nothing changed".into()).into());
        }
    }

    // Adopt with bounded concurrency; one line per MR as each finishes.
    let (mut adopted, mut failed, mut not_started) = (0usize, 0usize, 0usize);
    {
        let (conn, opts, interrupt) = (&conn, &opts, &ui.interrupt);
        let mut stream = futures::stream::iter(to_adopt)
            .map(|(item, dups, _)| async move {
                if interrupt.is_set() {
                    return (item, Err(None), Vec::new());
                }
                let mut job = Job {
                    conn,
                    target: &item.target,
                    args,
                    opts,
                    log: Log::Buffer(Vec::new()),
                    can_ask: false,
                    confirmed: true,
                    interrupt: interrupt.clone(),
                };
                let r = job.adopt(item.obj.clone(), &item.plan.id, &dups, &mut std::io::sink()).await;
                let lines = match job.log {
                    Log::Buffer(b) => b,
                    Log::Live(_) => Vec::new(),
                };
                (item, r.map_err(Some), lines)
            })
            .buffer_unordered(usize::from(args.concurrency));
        while let Some((item, result, lines)) = stream.next().await {
            let who = style::sanitize(&item.target.display());
            let id = style::sanitize(&item.plan.id);
            let line = match result {
                Ok(Outcome::Adopted { note }) => {
                    adopted += 1;
                    let backup = lines
                        .iter()
                        .find_map(|l| l.strip_prefix("backup: ").or_else(|| l.split("original backup: ").nth(1)))
                        .map(|b| format!(" (backup {b})"))
                        .unwrap_or_default();
                    let extra = note.map(|n| format!(" (warning: {})", style::sanitize(&n))).unwrap_or_default();
                    format!("{:<8} {who} as {id:?}{backup}{extra}", "adopted")
                }
                Ok(Outcome::NothingToDo(_)) => {
                    skipped += 1;
                    format!("{:<8} {who} already has external-name {id:?}", "skipped")
                }
                Ok(Outcome::DryRun) => format!("{:<8} {who}", "planned"),
                Err(None) => {
                    not_started += 1;
                    format!("{:<8} {who} (interrupted before it started)", "skipped")
                }
                Err(Some(e)) => {
                    failed += 1;
                    let mut l = format!("{:<8} {who}: {}", "failed", style::sanitize(&format!("{e:#}")));
                    for d in &lines {
                        l.push_str(&format!("\n           {d}"));
                    }
                    l
                }
            };
            writeln!(out, "{line}")?;
            out.flush()?;
        }
    }
    writeln!(
        out,
        "{adopted} adopted, {skipped} skipped (already adopted), {refused} refused, {failed} failed{} of {} in the plan",
        if not_started > 0 { format!(", {not_started} not started (interrupted)") } else { String::new() },
        items.len()
    )?;
    Ok(if failed + refused + not_started > 0 { Exit::Failed } else { Exit::Ok })
}

// ---------------------------------------------------------------- restore

/// Runs `restore` with the given UI (the testable entry point).
pub async fn restore_with(cli: &Cli, args: &RestoreArgs, out: &mut dyn Write, ui: &mut Ui) -> anyhow::Result<Exit> {
    let backup = backup::read(&args.backup_file).map_err(|e| Error::Usage(e.to_string()))?;
    let conn = connect::connect(&cli.kube).await?;
    let (all, managed) = kinds_of(&conn).await?;
    let api_version = backup["apiVersion"].as_str().unwrap_or("");
    let group = api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    let kind_name = backup["kind"].as_str().unwrap_or("");
    let kind = managed.iter().find(|k| k.group == group && k.kind == kind_name).cloned().ok_or_else(|| {
        if all.iter().any(|k| k.group == group && k.kind == kind_name) {
            Error::Usage(format!(
                "{kind_name}.{group} is not a managed resource kind; restore works on Crossplane managed resources only"
            ))
        } else {
            Error::Usage(format!("the cluster serves no kind {kind_name}.{group} (is this the right cluster/context?)"))
        }
    })?;
    let name = backup.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let ns = backup.pointer("/metadata/namespace").and_then(Value::as_str).filter(|n| !n.is_empty());
    check_name(name, "name in the backup")?;
    if let Some(ns) = ns {
        check_name(ns, "namespace in the backup")?;
    }
    let target = Target::new(kind, ns, name);
    let who = style::sanitize(&target.display());
    let mut current = read_existing(&conn, &target).await?;
    loop {
        let (was, now) = (
            backup.pointer("/metadata/uid").and_then(Value::as_str),
            current.pointer("/metadata/uid").and_then(Value::as_str),
        );
        if let (Some(was), Some(now)) = (was, now)
            && was != now
        {
            return Err(Error::Failed(format!(
                "refused: {who} is a different object than the one backed up (uid {} now, {} in the backup): it was deleted and created again",
                style::sanitize(now),
                style::sanitize(was)
            ))
            .into());
        }
        let Some(patch) = adopt::undo_patch(&backup, &current) else {
            writeln!(out, "{who} already has the annotations and management policies of the backup; nothing to do")?;
            return Ok(Exit::Ok);
        };
        let mut preview = current.clone();
        adopt::apply_merge_patch(&mut preview, &patch);
        let changes = adopt::diff(&current, &preview);
        let mut text = format!("Restore {who} from {}:\n", args.backup_file.display());
        for c in &changes {
            text.push_str(&format!("  {}\n", change_line(c)));
        }
        if args.dry_run {
            write!(out, "{text}")?;
            writeln!(
                out,
                "  PATCH (application/merge-patch+json, dryRun=All)\n  {}",
                style::sanitize(&patch.to_string())
            )?;
            write::merge_patch(&conn, &target, &patch, true).await.map_err(|e| e.into_error(&conn))?;
            writeln!(out, "accepted by the API server (dryRun=All); nothing was changed")?;
            return Ok(Exit::Ok);
        }
        ui.say(text.trim_end());
        if !args.yes {
            if !ui.interactive {
                return Err(Error::Usage(format!(
                    "refusing to change {who} without confirmation: there is no terminal to ask on; pass --yes (or --dry-run to only see the patch)"
                ))
                .into());
            }
            if !ui
                .prompter
                .confirm(&format!("Restore {who}?"))
                .map_err(|e| Error::Failed(format!("{e}; nothing changed")))?
            {
                return Err(Error::Failed("cancelled; nothing changed".into()).into());
            }
        }
        match write::merge_patch(&conn, &target, &patch, false).await {
            Ok(_) => break,
            Err(WriteError::Conflict { .. }) => {
                let fresh = write::read(&conn, &target).await.map_err(|e| e.into_error(&conn))?;
                let changed = adopt::conflicting_changes(&current, &fresh);
                if changed.is_empty() {
                    ui.say("the object changed meanwhile (status only); retrying");
                    current = fresh;
                    continue;
                }
                ui.say(format!("{who} was changed by someone else meanwhile:"));
                for c in &changed {
                    ui.say(format!("  {}", change_line(c)));
                }
                if args.yes || !ui.interactive {
                    return Err(Error::Failed(format!(
                        "{who} changed since it was read; nothing was restored (re-run to see the new differences)"
                    ))
                    .into());
                }
                current = fresh;
            }
            Err(e) => return Err(e.into_error(&conn).into()),
        }
    }
    let obj = write::read(&conn, &target).await.map_err(|e| e.into_error(&conn))?;
    let mr = decode(&obj).context("reading the restored MR")?;
    ui.say(format!("restored {who} from {}", args.backup_file.display()));
    detail::write_detail(out, &mr, &diagnose(&mr), crate::commands::doctor::now())?;
    Ok(Exit::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_and_durations() {
        assert_eq!(split_target("vpc.ec2.aws.upbound.io/main").unwrap(), ("vpc.ec2.aws.upbound.io", "main"));
        assert!(split_target("main").is_err());
        for bad in ["vpc/a b", "vpc/A", "vpc/-a", "vpc/a%2f", "vpc/a\u{1b}"] {
            assert!(split_target(bad).is_err(), "{bad}");
        }
        assert!(check_name("team-a", "namespace").is_ok());
        assert!(check_name(&"a".repeat(254), "name").is_err());
        assert_eq!(humantime(Duration::from_secs(300)), "5m");
        assert_eq!(humantime(Duration::from_millis(1500)), "1.5s");
        assert_eq!(
            strip_rv(serde_json::json!({"metadata": {"resourceVersion": "1", "a": 1}})),
            serde_json::json!({"metadata": {"a": 1}})
        );
    }

    #[tokio::test]
    async fn interrupt_latch_wakes_waiters() {
        let i = Interrupt::default();
        let j = i.clone();
        let waiter = tokio::spawn(async move { j.wait().await });
        tokio::task::yield_now().await;
        assert!(!i.is_set());
        i.trigger();
        tokio::time::timeout(Duration::from_secs(5), waiter).await.unwrap().unwrap();
        assert!(i.is_set());
        i.wait().await;
    }
}
