//! `guard`'s flags, resolved once: printing the policies (from a cluster or CRD files), writing
//! the lock, or removing one entry of it; and their refusals.

use super::Refusal;
use crate::cli::guard::{GuardAction, GuardArgs, GuardOutput, PrintArgs};
use crate::settings::Settings;
use std::path::PathBuf;
use upjet_cluster::kinds::KindSelection;
use upjet_cluster::scan::ScanOptions;
use upjet_core::guard::rule::Action;
use upjet_core::guard::settings::GuardSettings;
use upjet_core::identity::UserTemplate;
use upjet_output::guard::GuardFormat;

/// `kubectl upjet guard`, resolved: what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Guard {
    /// Print the policies.
    Print(GuardPrint),
    /// `guard lock`.
    Lock(GuardLock),
    /// `guard unlock KIND/NAME`.
    Unlock(GuardUnlock),
}

/// Where the kinds the policies cover come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KindSource {
    /// The managed kinds the cluster serves; its provider pods name the service accounts to
    /// exempt and its healthy MRs teach each kind's ID format.
    Cluster(ScanOptions),
    /// `--from`: the CRDs of a file or folder of the `managed` category; no cluster is asked.
    Files(PathBuf),
}

/// `guard` printing the policies, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardPrint {
    /// `--kind`, `--provider`.
    pub kinds: KindSelection,
    /// The cluster or `--from`.
    pub source: KindSource,
    /// Each rule's action (`--warn`, `--deny`, `--audit`), who is never refused (`--allow-user`,
    /// `--allow-group`; the providers' service accounts are added once found), `--mutate`,
    /// `--authorize-declarations`.
    pub settings: GuardSettings,
    /// `--id-template`.
    pub id_templates: Vec<UserTemplate>,
    /// `-o`.
    pub format: GuardFormat,
}

/// `guard lock`, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardLock {
    /// `--kind`, `--provider`.
    pub kinds: KindSelection,
    /// `--journal`.
    pub journal: Option<PathBuf>,
    /// The MRs' lists: `-n` (unless `-A`), `-l`, pages of 500, 16 at once.
    pub lists: ScanOptions,
}

/// `guard unlock`, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardUnlock {
    /// The kind as typed (kind, plural, short name, optionally `.group`).
    pub kind: String,
    /// The MR's name, as the lock holds it (not checked as a Kubernetes name: a journal's line
    /// may have recorded any).
    pub name: String,
    /// `-n`: the MR's namespace; none matches a cluster-scoped MR or the one namespace that
    /// holds NAME.
    pub namespace: Option<String>,
}

/// Lists as a scan reads them: `-n` (unless `-A`), `-l`, pages of 500, 16 at once.
fn lists(settings: &Settings) -> ScanOptions {
    ScanOptions {
        namespace: settings.namespace.clone(),
        label_selector: settings.selector.clone(),
        page_size: 500,
        concurrency: 16,
    }
}

impl Guard {
    /// Resolves guard's flags.
    pub fn resolve(args: &GuardArgs, settings: &Settings) -> Result<Guard, Refusal> {
        match &args.action {
            None => GuardPrint::resolve(&args.print, settings).map(Guard::Print),
            Some(GuardAction::Lock(a)) => Ok(Guard::Lock(GuardLock {
                kinds: super::shared::kinds(&a.select),
                journal: a.journal.dir.clone(),
                lists: lists(settings),
            })),
            Some(GuardAction::Unlock(a)) => match a.target.split_once('/') {
                Some((kind, name)) if !kind.is_empty() && !name.is_empty() => Ok(Guard::Unlock(GuardUnlock {
                    kind: kind.to_string(),
                    name: name.to_string(),
                    namespace: settings.namespace_flag.clone(),
                })),
                _ => Err(Refusal::NotKindName(a.target.clone())),
            },
        }
    }
}

impl GuardPrint {
    fn resolve(args: &PrintArgs, settings: &Settings) -> Result<GuardPrint, Refusal> {
        if let Some(rule) = args.warn.iter().find(|r| args.deny.contains(r)) {
            return Err(Refusal::RuleWarnAndDeny(*rule));
        }
        let actions = args.warn.iter().map(|r| (*r, Action::Warn)).chain(args.deny.iter().map(|r| (*r, Action::Deny)));
        let guard = GuardSettings {
            actions: actions.collect(),
            audit: args.audit,
            users: args.allow_users.iter().cloned().collect(),
            groups: args.allow_groups.iter().cloned().collect(),
            mutate: args.mutate,
            authorize_declarations: args.authorize_declarations,
        };
        let source = match &args.from {
            Some(path) => KindSource::Files(path.clone()),
            None => KindSource::Cluster(lists(settings)),
        };
        Ok(GuardPrint {
            kinds: super::shared::kinds(&args.select),
            source,
            settings: guard,
            id_templates: args.id_templates.templates.clone(),
            format: match args.output {
                GuardOutput::Yaml => GuardFormat::Yaml,
                GuardOutput::Json => GuardFormat::Json,
            },
        })
    }
}
