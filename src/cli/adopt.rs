//! Flags of `kubectl upjet adopt` and `kubectl upjet restore`.

use clap::Args;
use std::path::PathBuf;

/// `kubectl upjet adopt`.
#[derive(Debug, Clone, Args)]
#[command(
    after_help = ADOPT_EXAMPLES,
    mut_arg("dry_run", |a| a.help(ADOPT_DRY_RUN)),
    mut_arg("id_templates", |a| a.help(ADOPT_ID_TEMPLATE).conflicts_with("filename"))
)]
pub struct AdoptArgs {
    /// The MR to adopt into: KIND/NAME or KIND.GROUP/NAME (use -n for namespaced MRs).
    /// Not needed with -f.
    #[arg(value_name = "KIND/NAME", required_unless_present = "filename", conflicts_with = "filename")]
    pub target: Option<String>,
    /// The cloud object's ID, in the provider's external-name format (usually the Terraform ID).
    /// Without it, on a terminal, adopt shows the candidate IDs it found and asks.
    #[arg(long, value_name = "ID", conflicts_with = "filename")]
    pub id: Option<String>,
    /// Apply a plan file (`doctor --plan` writes one): a JSON list of {"resource", "namespace"?,
    /// "id"}. Items already adopted are skipped, so an interrupted run can simply be repeated.
    #[arg(short = 'f', long = "filename", value_name = "PLAN")]
    pub filename: Option<PathBuf>,
    /// Verify first: observe the ID with managementPolicies ["Observe"] (no create, update or
    /// delete possible), and only restore the original policies once the provider found it.
    /// If it does not exist, the MR is put back exactly as it was. Recommended for orphans.
    #[arg(long)]
    pub import: bool,
    /// Adopt even while an operation may still be running (an asynchronous one, or a create
    /// within the reconcile timeout), or over an unfinished adoption of another ID.
    #[arg(long)]
    pub force: bool,
    /// The providers' reconcile timeout: a create still within it is not adopted without --force.
    #[command(flatten)]
    pub reconciler: super::shared::ReconcilerArgs,
    /// `-y/--yes`.
    #[command(flatten)]
    pub yes: super::shared::YesArgs,
    /// `--dry-run`.
    #[command(flatten)]
    pub dry_run: super::shared::DryRunArgs,
    /// Add LateInitialize to spec.managementPolicies when it is missing, so upjet persists an
    /// external-name it learns later.
    #[arg(long)]
    pub add_late_initialize: bool,
    /// When the MR's composition sets its external-name (or policies), pause its XR
    /// (crossplane.io/paused) for the adoption, backed up first, and put its pause back after;
    /// says what the composition must carry so that the next compose keeps the ID.
    #[arg(long, conflicts_with = "filename")]
    pub pause_composite: bool,
    /// `--backup-dir`.
    #[command(flatten)]
    pub backup_dir: super::shared::BackupDirArgs,
    /// `--timeout`.
    #[command(flatten)]
    pub wait: super::shared::WaitArgs,
    /// `--id-template`.
    #[command(flatten)]
    pub id_templates: super::shared::IdTemplateArgs,
    /// With -f: how many MRs are being changed at the same time (1-64), each under its own
    /// backup, conditional writes and verification; an MR whose adoption is written is verified
    /// without holding a slot.
    #[arg(long, visible_alias = "parallel", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub concurrency: u16,
    /// With -f and --import: try each item's candidate IDs in rank order (its "id", then its
    /// "candidates") and keep the first the provider finds; after each miss the MR is put back
    /// exactly as it was before the next candidate is tried. Without it only the first is used.
    #[arg(long, requires_all = ["filename", "import"])]
    pub probe: bool,
    /// The cloud's own audit record: without --id, a create it ties to the MR is offered first
    /// on a terminal, and used otherwise when it names exactly one object (not with -f: give the
    /// record to `doctor --plan`).
    #[command(flatten)]
    pub cloud: super::shared::CloudAuditArgs,
    /// The ID journal: without --id, an ID it recorded for the MR is offered first on a terminal,
    /// and used otherwise.
    #[command(flatten)]
    pub journal: super::shared::JournalArgs,
}

/// How adopt words the flags it shares (clap drops a doc comment's last period; these have none).
const ADOPT_DRY_RUN: &str = "Print the plan and every patch, and send the patches with server-side dryRun=All: nothing is changed and no backup is written";
const ADOPT_ID_TEMPLATE: &str = "The kind's cloud ID format (repeatable, KIND=TEMPLATE, see docs/id-templates.md): without --id, the ID it gives for the MR is offered among the candidates on a terminal, and used otherwise (add --import to have the provider confirm it first)";

/// `kubectl upjet restore`.
#[derive(Debug, Clone, Args)]
#[command(after_help = RESTORE_EXAMPLES, mut_arg("dry_run", |a| a.help(RESTORE_DRY_RUN)))]
pub struct RestoreArgs {
    /// A backup file written by adopt (its path is printed when adopt starts).
    #[arg(value_name = "BACKUP_FILE")]
    pub backup_file: PathBuf,
    /// `-y/--yes`.
    #[command(flatten)]
    pub yes: super::shared::YesArgs,
    /// `--dry-run`.
    #[command(flatten)]
    pub dry_run: super::shared::DryRunArgs,
}

/// How restore words `--dry-run`.
const RESTORE_DRY_RUN: &str = "Print the patch and send it with server-side dryRun=All; nothing is changed";

const ADOPT_EXAMPLES: &str = "Examples:
  # Verify that the cloud object exists (Observe-only), then hand the MR back its policies
  kubectl upjet adopt key.kms.aws.upbound.io/signing --id mrk-0123abcd --import

  # Interactive: shows the candidate IDs and their evidence, asks, shows the changes, confirms
  kubectl upjet adopt recordset.dns.gcp.m.upbound.io/www -n team-a

  # See every patch without changing anything (server-side dry run)
  kubectl upjet adopt vpc.ec2.aws.upbound.io/main --id vpc-0a1b2c --dry-run

  # Scripts: no prompts; keep the external-name persisted from now on
  kubectl upjet adopt vpc.ec2.aws.upbound.io/main --id vpc-0a1b2c --import --yes --add-late-initialize

  # The ID the cloud's record shows the provider creating (CloudTrail, GCP audit logs, Azure activity log)
  kubectl upjet adopt zone.route53.aws.upbound.io/corp --cloud-audit trail.json.gz --import --yes

  # Many MRs from a plan (`kubectl upjet doctor --plan plan.json` writes one); re-run to resume
  kubectl upjet adopt -f plan.json --import --yes

  # Thousands at once, trying each item's ranked candidate IDs until the provider finds one
  kubectl upjet adopt -f plan.json --import --yes --parallel 32 --probe

  # Undo: put annotations and management policies back from the backup adopt printed
  kubectl upjet restore ~/.kube/upjet/backups/vpc.ec2.aws.upbound.io_main_20241130T120000.000Z.json";

const RESTORE_EXAMPLES: &str = "Examples:
  # Show what would change, then confirm
  kubectl upjet restore ~/.kube/upjet/backups/vpc.ec2.aws.upbound.io_main_20241130T120000.000Z.json

  # Server-side dry run, or no prompt for scripts
  kubectl upjet restore backup.json --dry-run
  kubectl upjet restore backup.json --yes";

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[derive(Debug, clap::Parser)]
    struct T {
        #[command(subcommand)]
        c: C,
    }
    #[derive(Debug, clap::Subcommand)]
    enum C {
        Adopt(Box<AdoptArgs>),
        Restore(RestoreArgs),
    }

    fn parse(args: &[&str]) -> Result<C, clap::Error> {
        use clap::Parser;
        T::try_parse_from(std::iter::once("t").chain(args.iter().copied())).map(|t| t.c)
    }

    #[test]
    fn flags() {
        let C::Adopt(a) = parse(&["adopt", "vpc/main", "--id", "vpc-1", "--import", "-y", "--timeout", "90"]).unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (a.target.as_deref(), a.id.as_deref(), a.import, a.yes.given),
            (Some("vpc/main"), Some("vpc-1"), true, true)
        );
        assert_eq!(a.wait.timeout, Duration::from_secs(90));
        assert_eq!(a.concurrency, 4);
        let C::Adopt(a) = parse(&["adopt", "-f", "plan.json", "--concurrency", "8", "--timeout", "2m"]).unwrap() else {
            panic!()
        };
        assert_eq!(a.filename.as_deref(), Some(std::path::Path::new("plan.json")));
        assert_eq!(a.wait.timeout, Duration::from_secs(120));
        assert!(parse(&["adopt"]).is_err(), "a target or -f is required");
        assert!(parse(&["adopt", "vpc/main", "-f", "plan.json"]).is_err());
        assert!(parse(&["adopt", "vpc/main", "--timeout", "0"]).is_err());
        assert!(parse(&["adopt", "vpc/main", "--timeout", "soon"]).is_err());
        assert!(parse(&["adopt", "-f", "p", "--concurrency", "0"]).is_err());
        let C::Adopt(a) = parse(&["adopt", "-f", "p", "--import", "--parallel", "32", "--probe"]).unwrap() else {
            panic!()
        };
        assert_eq!((a.concurrency, a.probe), (32, true));
        assert!(parse(&["adopt", "-f", "p", "--parallel", "65"]).is_err());
        assert!(parse(&["adopt", "-f", "p", "--probe"]).is_err(), "--probe verifies through --import");
        let C::Restore(r) = parse(&["restore", "b.json", "--dry-run"]).unwrap() else { panic!() };
        assert!(r.dry_run.given && !r.yes.given);
        assert!(parse(&["restore"]).is_err());
    }
}
