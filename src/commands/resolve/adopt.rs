//! adopt's and restore's flags, resolved once (ripgrep's `HiArgs`): the resolved [`Adopt`] keeps
//! its fields to itself and builds what the flow runs with. [`Adopt::open`] reads, before the
//! cluster is asked anything, what adopt reads besides it — the plan file, or, for one MR
//! without `--id`, the cloud's record and the ID journal — and hands the flow an [`Adoption`]:
//! the MR named or the plan's items, the ID sources read, how each adoption is carried out
//! ([`Carry`]) and the cluster to reach ([`Reach`]).

use super::Refusal;
use super::shared::{cloud_files, judged_at};
use crate::cli::adopt::{AdoptArgs, RestoreArgs};
use crate::commands::cloud_audit::CloudAuditFiles;
use crate::commands::inputs::explain;
use crate::commands::journal::{self, JournalAt};
use crate::settings::Settings;
use std::path::PathBuf;
use std::time::Duration;
use upjet_cluster::connect::{self, ConnectOptions, Connection};
use upjet_cluster::target::TargetSpec;
use upjet_core::adopt::{self, Options};
use upjet_core::error::Error;
use upjet_core::identity::UserTemplate;
use upjet_core::journal::JournalIndex;
use upjet_core::plan::{PlanItem, parse_plan};
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_evidence::cloud_audit::CloudRecord;
use upjet_evidence::format::Reader;
use upjet_local::backup::BackupDir;

/// `kubectl upjet adopt`, resolved. Its fields are the resolvers' (`pub(super)`, for their
/// table tests); the flow gets what [`Adopt::open`] builds from them.
#[derive(Debug, Clone)]
pub struct Adopt {
    /// One MR, or a plan file.
    pub(super) what: AdoptWhat,
    /// `--id`: the cloud object's ID (one MR only).
    pub(super) id: Option<String>,
    /// `--pause-composite` (one MR only).
    pub(super) pause_composite: bool,
    /// How each adoption is carried out.
    pub(super) carry: Carry,
    /// `--concurrency`, `--probe`: how a plan's items are run.
    pub(super) parallel: Parallel,
    /// `--id-template`.
    pub(super) id_templates: Vec<UserTemplate>,
    /// `--cloud-audit`, `--cloud-principal`: the cloud's record, for an ID without `--id`.
    pub(super) cloud: CloudAuditFiles,
    /// `--journal`: the ID journal's folder, when named.
    pub(super) journal: Option<PathBuf>,
    /// The home folder, under which the ID journal's default folder is.
    pub(super) home: Option<PathBuf>,
    /// The cluster: the connection flags and `-n`.
    pub(super) reach: Reach,
}

/// What adopt works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdoptWhat {
    /// KIND/NAME as typed.
    One(String),
    /// `-f`: a plan file.
    Plan(PathBuf),
}

/// How every adoption of a run is carried out, one MR or each item of a plan: the core's
/// options, whether to ask, how long to wait, where the backups go.
#[derive(Debug, Clone)]
pub struct Carry {
    /// `--import`: observe the ID first, restore the policies once the provider found it.
    import: bool,
    /// `--force`: adopt even while an operation may still be running.
    force: bool,
    /// `--add-late-initialize`.
    add_late_initialize: bool,
    /// `--dry-run`: every patch sent with dryRun=All; nothing changes.
    dry_run: bool,
    /// `--yes`: no confirmation asked.
    yes: bool,
    /// `--timeout`: how long each wait for the provider may take.
    timeout: Duration,
    /// `--backup-dir`, else the default folder under the home folder, else why there is none.
    backups: Result<BackupDir, String>,
    /// What the MR is judged against: now, and `--create-timeout`.
    at: JudgedAt,
}

impl Carry {
    /// The core's options for an adoption starting `now` (an RFC 3339 time, the marker's).
    pub fn options(&self, now: String) -> Options {
        Options {
            import: self.import,
            force: self.force,
            add_late_initialize: self.add_late_initialize,
            dry_run: self.dry_run,
            now,
            judged_at: Some(self.at),
        }
    }

    /// `--import`.
    pub fn import(&self) -> bool {
        self.import
    }

    /// `--dry-run`: nothing is written, no backup either.
    pub fn dry_run(&self) -> bool {
        self.dry_run
    }

    /// `--yes`: the user confirmed on the command line.
    pub fn confirmed(&self) -> bool {
        self.yes
    }

    /// How long each wait for the provider may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Where the backups go, or why there is nowhere (no `--backup-dir`, no home folder).
    pub fn backups(&self) -> Result<&BackupDir, String> {
        self.backups.as_ref().map_err(Clone::clone)
    }

    /// What the MR is judged against.
    pub fn at(&self) -> JudgedAt {
        self.at
    }
}

/// How a plan's items are run (`--concurrency`, `--probe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parallel {
    /// MRs changed at the same time.
    pub slots: usize,
    /// A plan item's next candidate after each miss.
    pub probe: bool,
}

/// The cluster a command about one cluster acts on: kubectl's connection flags, and `-n` as
/// typed (the namespace of the MR it names, or of a plan item without one).
#[derive(Debug, Clone)]
pub struct Reach {
    connect: ConnectOptions,
    namespace: Option<String>,
}

impl Reach {
    /// The cluster of `settings` (the one `--context`, or the current one).
    pub fn of(settings: &Settings) -> Reach {
        Reach { connect: settings.connect.clone(), namespace: settings.namespace_flag.clone() }
    }

    /// Connects (exit 3 when the cluster cannot be reached).
    pub async fn connect(&self) -> Result<Connection, Error> {
        connect::connect(&self.connect).await
    }

    /// `-n`.
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    /// The kubeconfig context the connection uses, as the ID journal's default folder is named.
    fn context(&self) -> Option<String> {
        connect::current_context(&self.connect).ok().flatten()
    }
}

/// adopt's run, opened: what it reads besides the cluster has been read.
pub enum Adoption {
    /// One MR named on the command line.
    One(Box<AdoptOne>),
    /// Every item of a plan file.
    Plan(Box<AdoptPlan>),
}

/// One MR to adopt.
pub struct AdoptOne {
    /// KIND/NAME, parsed.
    pub target: TargetSpec,
    /// `--id`, checked; `None`: the ID is looked for in `ids`.
    pub id: Option<String>,
    /// Where an ID is looked for without `--id`, read.
    pub ids: IdSources,
    /// `--pause-composite`: pause the MR's XR for the adoption when its composition sets the ID.
    pub pause_composite: bool,
    /// How the adoption is carried out.
    pub carry: Carry,
    /// The cluster.
    pub reach: Reach,
}

/// What a missing `--id` is looked for in, read up front: the user's templates, the cloud's
/// record (tied to the MR once it and its peers are read) and what the ID journal recorded.
#[derive(Default)]
pub struct IdSources {
    /// `--id-template`.
    pub templates: Vec<UserTemplate>,
    /// `--cloud-audit`, read, with `--cloud-principal`; `None` without files.
    pub record: Option<(CloudRecord, CloudAuditFiles)>,
    /// The ID journal, indexed by MR uid, and the notes on its lines skipped.
    pub journal: (JournalIndex, Vec<String>),
}

/// Every item of a plan file to adopt.
pub struct AdoptPlan {
    /// The plan file, as the messages name it.
    pub path: PathBuf,
    /// Its items, parsed.
    pub items: Vec<PlanItem>,
    /// How each adoption is carried out.
    pub carry: Carry,
    /// How the items are run.
    pub parallel: Parallel,
    /// The cluster.
    pub reach: Reach,
}

impl Adopt {
    /// Resolves adopt's flags; a plan with `--cloud-audit`, or neither an MR nor a plan, is
    /// refused. Reads nothing.
    pub fn resolve(args: &AdoptArgs, settings: &Settings) -> Result<Adopt, Refusal> {
        let what = match (&args.filename, &args.target) {
            (Some(_), _) if !args.cloud.cloud_audit.is_empty() => return Err(Refusal::CloudAuditWithPlan),
            (Some(path), _) => AdoptWhat::Plan(path.clone()),
            (None, Some(target)) => AdoptWhat::One(target.clone()),
            (None, None) => return Err(Refusal::NothingToAdopt),
        };
        let backups = match &args.backup_dir.dir {
            Some(dir) => Ok(BackupDir::chosen(dir)),
            None => BackupDir::default_under(settings.home.as_deref()).map_err(|e| e.to_string()),
        };
        Ok(Adopt {
            what,
            id: args.id.clone(),
            pause_composite: args.pause_composite,
            carry: Carry {
                import: args.import,
                force: args.force,
                add_late_initialize: args.add_late_initialize,
                dry_run: args.dry_run.given,
                yes: args.yes.given,
                timeout: args.wait.timeout,
                backups,
                at: judged_at(settings.now, Some(&args.reconciler)),
            },
            parallel: Parallel { slots: usize::from(args.concurrency), probe: args.probe },
            id_templates: args.id_templates.templates.clone(),
            cloud: cloud_files(&args.cloud),
            journal: args.journal.dir.clone(),
            home: settings.home.clone(),
            reach: Reach::of(settings),
        })
    }

    /// Reads what the run reads besides the cluster, before the cluster is asked anything: the
    /// plan file (a usage error naming it when it cannot be read or parsed); for one MR, `--id`
    /// checked and KIND/NAME parsed, and without `--id` the cloud's record and the ID journal.
    pub async fn open(self) -> anyhow::Result<Adoption> {
        let Adopt { what, id, pause_composite, carry, parallel, id_templates, cloud, journal, home, reach } = self;
        match what {
            AdoptWhat::Plan(path) => {
                let items = read_plan(&path)?;
                Ok(Adoption::Plan(Box::new(AdoptPlan { path, items, carry, parallel, reach })))
            }
            AdoptWhat::One(spec) => {
                // A bad `--id` is the user's mistake, as the adoption's own check says it.
                if let Some(id) = &id {
                    adopt::validate_id(id).map_err(|r| Error::usage(r.to_string()))?;
                }
                let target = TargetSpec::parse(&spec)?;
                let ids = match id {
                    Some(_) => IdSources::default(),
                    None => {
                        let record = crate::commands::cloud_audit::read(&cloud)
                            .await
                            .map_err(|e| Error::usage(format!("{e:#}")))?
                            .map(|r| (r, cloud));
                        let at = JournalAt::resolve(journal.as_deref(), home.as_deref(), reach.context().as_deref());
                        IdSources { templates: id_templates, record, journal: journal::read(at.as_ref())? }
                    }
                };
                Ok(Adoption::One(Box::new(AdoptOne { target, id, ids, pause_composite, carry, reach })))
            }
        }
    }
}

/// The plan file's items; a file that cannot be read or is no plan is a usage error naming it
/// (and what it seems to be instead).
fn read_plan(path: &std::path::Path) -> Result<Vec<PlanItem>, Error> {
    let not_a_plan = |own: Error| explain(path, Reader::Plan, own);
    let text = std::fs::read_to_string(path)
        .map_err(|e| not_a_plan(Error::usage(format!("cannot read the plan {}: {e}", path.display()))))?;
    parse_plan(&text).map_err(|e| not_a_plan(Error::usage(format!("{}: {e}", path.display()))))
}

/// `kubectl upjet restore`, resolved.
#[derive(Debug, Clone)]
pub struct Restore {
    /// The backup adopt wrote.
    pub backup_file: PathBuf,
    /// `--yes`.
    pub yes: bool,
    /// `--dry-run`.
    pub dry_run: bool,
    /// What the restored MR is judged against: now, and upjet's reconcile timeout.
    pub at: JudgedAt,
    /// The cluster.
    pub reach: Reach,
}

impl Restore {
    /// Resolves restore's flags.
    pub fn resolve(args: &RestoreArgs, settings: &Settings) -> Restore {
        Restore {
            backup_file: args.backup_file.clone(),
            yes: args.yes.given,
            dry_run: args.dry_run.given,
            at: judged_at(settings.now, None),
            reach: Reach::of(settings),
        }
    }
}
