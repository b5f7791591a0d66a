//! Flags of `kubectl upjet guard`: the admission policies the API server enforces so that an
//! MR's identity cannot be dropped, changed or forgotten by one write, and the lock they read.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;
use upjet_core::guard::rule::GuardRule;

const GUARD_EXAMPLES: &str = "Examples:
  # Trial: every rule only audited
  kubectl upjet guard --audit | kubectl apply -f -
  kubectl wait --for condition=established crd/identitylocks.guard.kubectl-upjet.io

  # Record every MR's ID in the lock, then enforce each rule's default action
  kubectl upjet guard lock
  kubectl upjet guard | kubectl apply -f -

  # A break-glass group is never refused; placeholders are refused rather than warned about
  kubectl upjet guard --allow-group platform:break-glass --deny placeholder

  # Only a user bound to kubectl-upjet-guard-declare may declare an identity change (a repair)
  kubectl upjet guard --authorize-declarations | kubectl apply -f -

  # Offline, for a GitOps repository: the policies for the CRDs under a folder
  kubectl upjet guard --from crds/ > guard.yaml

Rules: identity-kept, identity-locked, external-name-format, management-policies, late-initialize,
pending-resolved, placeholder. Needs Kubernetes v1.30+ (--mutate: v1.36+). See docs/guard.md.";

const LOCK_EXAMPLES: &str = "Examples:
  # Every MR's ID, and the IDs the journal of `kubectl upjet watch` holds for MRs gone since
  kubectl upjet guard lock

  # Keep it current as MRs come and go
  kubectl upjet watch --guard-lock

Two runs at once lose no entry: every write carries a precondition, and a refused one is merged
again from a fresh read.";

const UNLOCK_EXAMPLES: &str = "Examples:
  # The VPC's cloud object is really gone: let an MR of that name be created without its old ID
  kubectl upjet guard unlock vpc.ec2.aws.upbound.io/main
  kubectl upjet guard unlock securitygroup.ec2.aws.m.upbound.io/web -n team-a

Exit 2 (nothing changed) when the lock holds no entry for KIND/NAME.";

/// `kubectl upjet guard`.
#[derive(Debug, Clone, Args)]
#[command(after_help = GUARD_EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct GuardArgs {
    /// `lock` or `unlock`; none prints the policies.
    #[command(subcommand)]
    pub action: Option<GuardAction>,
    /// What the printed policies cover and do.
    #[command(flatten)]
    pub print: PrintArgs,
}

/// `guard`'s subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum GuardAction {
    /// Write the lock: every MR's current ID (and the IDs the ID journal holds for MRs gone
    /// since), so that an MR created again without its ID is refused.
    #[command(after_help = LOCK_EXAMPLES)]
    Lock(LockArgs),
    /// Remove one MR's entry from the lock, once its cloud object is really gone.
    #[command(after_help = UNLOCK_EXAMPLES)]
    Unlock(UnlockArgs),
}

/// A rule name as `--warn`/`--deny` take it, completed from the rules' names.
fn rule() -> impl TypedValueParser<Value = GuardRule> {
    PossibleValuesParser::new(GuardRule::ALL.map(GuardRule::name)).try_map(|s| s.parse::<GuardRule>())
}

/// `kubectl upjet guard` (printing the policies).
#[derive(Debug, Clone, Args)]
#[command(mut_arg("id_templates", |a| a.help(ID_TEMPLATE)))]
pub struct PrintArgs {
    /// `--kind`, `--provider`.
    #[command(flatten)]
    pub select: super::shared::KindArgs,
    /// Only warn when this rule is broken (repeatable).
    #[arg(long = "warn", value_name = "RULE", value_parser = rule())]
    pub warn: Vec<GuardRule>,
    /// Refuse the writes that break this rule (repeatable).
    #[arg(long = "deny", value_name = "RULE", value_parser = rule())]
    pub deny: Vec<GuardRule>,
    /// Put every rule in Audit, whatever --warn and --deny say: nothing is refused or warned
    /// about, each write that breaks a rule is recorded in the API server's audit log.
    #[arg(long)]
    pub audit: bool,
    /// Also print a MutatingAdmissionPolicy that puts the locked ID back on a create that lacks
    /// it (Kubernetes v1.36+).
    #[arg(long)]
    pub mutate: bool,
    /// A repair's declaration of an identity change (kubectl-upjet.io/identity-change) counts
    /// only for a user the API server's authorizer allows `declare` on
    /// identitychanges.guard.kubectl-upjet.io (the ClusterRole kubectl-upjet-guard-declare);
    /// without it, anyone who may update an MR may declare.
    #[arg(long)]
    pub authorize_declarations: bool,
    /// Never judge this user's writes (repeatable); the providers' own service accounts are
    /// exempt already.
    #[arg(long = "allow-user", value_name = "USER")]
    pub allow_users: Vec<String>,
    /// Never judge the writes of this group's members (repeatable), e.g. a break-glass group.
    #[arg(long = "allow-group", value_name = "GROUP")]
    pub allow_groups: Vec<String>,
    /// Read the managed kinds from CRD files (a file or a folder, YAML or JSON) instead of a
    /// cluster: for a GitOps repository; no cluster is asked anything.
    #[arg(long, value_name = "CRDS_DIR", help_heading = super::INPUTS)]
    pub from: Option<PathBuf>,
    /// `--id-template`.
    #[command(flatten)]
    pub id_templates: super::shared::IdTemplateArgs,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = GuardOutput::Yaml, help_heading = super::OUTPUT)]
    pub output: GuardOutput,
}

/// `guard -o`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GuardOutput {
    /// A YAML `List`, for `kubectl apply -f -`.
    Yaml,
    /// A JSON `List`.
    Json,
}

/// How guard words `--id-template` (clap drops a doc comment's last period; this has none).
const ID_TEMPLATE: &str = "A kind's cloud ID format for the external-name-format rule (repeatable): KIND=TEMPLATE, as doctor takes it; wins over the format learned from healthy peers. See docs/id-templates.md";

/// `kubectl upjet guard lock`.
#[derive(Debug, Clone, Args)]
#[command(mut_arg("journal", |a| a.help(LOCK_JOURNAL)))]
pub struct LockArgs {
    /// `--kind`, `--provider`.
    #[command(flatten)]
    pub select: super::shared::KindArgs,
    /// `--journal`.
    #[command(flatten)]
    pub journal: super::shared::JournalArgs,
}

/// How guard lock words `--journal`: what it locks from the journal.
const LOCK_JOURNAL: &str = "Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): for each MR it recorded that no live MR answers for, the newest external-name is locked too";

/// `kubectl upjet guard unlock`.
#[derive(Debug, Clone, Args)]
pub struct UnlockArgs {
    /// The MR whose entry goes: KIND/NAME or KIND.GROUP/NAME (use -n for namespaced MRs).
    #[arg(value_name = "KIND/NAME")]
    pub target: String,
}
