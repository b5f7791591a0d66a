//! The evidence beyond the MR object that the log rules need, in domain terms: the evidence layer
//! reduces provider logs and pods to these records so that the rules stay pure and testable.

use crate::audit::MrAudit;
use crate::changelog::MrChangeLog;
use crate::cloud_audit::MrCloudAudit;
use crate::gotime::GoTime;
use crate::inventory::MrInventory;
use crate::restore::MrRestore;

/// What the provider logs and pods say about one MR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MrEvidence {
    /// IDs a provider logged as created for this MR, in order of first sighting.
    pub created: Vec<LoggedCreate>,
    /// The newest failed async-create callback logged for this MR.
    pub callback_failure: Option<CallbackFailure>,
    /// When the provider serving this MR's kind (re)started, when its pods were read.
    pub provider_starts: Option<ProviderStarts>,
    /// The cloud objects an inventory export lists as tagged for this MR (`doctor --inventory`).
    pub inventory: Option<MrInventory>,
    /// What the audit log says about the writes to this MR's name (`--audit-log`).
    pub audit: Option<MrAudit>,
    /// Every `Async create starting...` logged for this MR, oldest first.
    pub creates_started: Vec<LoggedLine>,
    /// Every `Instance state not found in cache, reconstructing...` logged for this MR, oldest
    /// first: upjet's `Connect` found no state in its tracker (a restart, or its first sight of
    /// the MR) and rebuilt it from the external-name and `status.atProvider`.
    pub state_rebuilt: Vec<LoggedLine>,
    /// Every start of the provider process serving this MR's kind its log shows, oldest first:
    /// controller-runtime logs `Starting EventSource`, `Starting Controller` and `Starting workers`
    /// for each controller a new process starts (`pkg/internal/controller/controller.go`), the one
    /// restart marker upjet's Terraform CLI mode leaves (it logs no "Instance state not found").
    pub process_starts: Vec<LoggedLine>,
    /// The newest line of the provider's log about this MR that only one of upjet's clients logs
    /// (`Running terraform`: the Terraform CLI's; the async tracker's: the in-process ones').
    pub client_logged: Option<crate::upjet_client::LoggedClient>,
    /// The newest "Cannot determine creation result, but proceeding due to deterministic external
    /// name": this provider's reconciler was built with `WithDeterministicExternalName(true)`, so
    /// the create-incomplete gate does not stop it.
    pub gate_bypassed: Option<LoggedLine>,
    /// Whether the kind's CRD declares `status.lastHandledReconcileAt` (crossplane-runtime ≥ v2.3
    /// acknowledges `crossplane.io/reconcile-requested-at` there); `None` when the CRD was not read.
    pub acknowledges_requests: Option<bool>,
    /// When the MR was read from a Velero backup: what restoring it depends on beyond the object.
    pub restore: Option<MrRestore>,
    /// What the cloud's own audit record says about this MR's creates and its object's deletes
    /// (`--cloud-audit`).
    pub cloud_audit: Option<MrCloudAudit>,
    /// The provider's change-log entries about this MR (its changelogs sidecar, `--log-file`).
    pub changelog: Option<MrChangeLog>,
    /// The other acting MRs of the same kind (a legacy kind and its `.m.` twin as one) that hold
    /// the same external-name, as `kind.group/name`, when this one acts too
    /// (`domain::shared_names`, over the whole fleet: the watch's index, doctor's second pass).
    pub shared_external_name: Vec<String>,
    /// What the ID journal (`kubectl upjet watch`) recorded for this very MR (its uid), best ID
    /// first (`domain::journal::best_first`): the findings that want an ID take it.
    pub journal: Vec<crate::journal::Record>,
    /// When this legacy MR is parked (paused, unable to delete): its healthy namespaced twin,
    /// which tracks the same external-name (`domain::shared_names`).
    pub migration_twin: Option<crate::shared_names::MrKey>,
    /// What the other manifests of a lint (`doctor --from` over desired state) say about this
    /// one; absent outside a lint.
    pub desired: Option<DesiredFacts>,
    /// The MR's kind going away: its CRD or MRD being deleted, when the run read them
    /// (`domain::kind_removal`).
    pub kind_removal: Option<crate::kind_removal::KindRemoval>,
    /// What the composition tree says of it, when it is composed and the run read the tree
    /// (`domain::composition`).
    pub composition: Option<crate::composition::MrComposition>,
}

impl MrEvidence {
    /// Every time the provider serving this MR is known to have (re)started: its pods' container
    /// starts (when pods were read) and the process starts its log shows, in no particular order.
    /// Each rule asks only whether one came after a time of its own.
    pub fn provider_started(&self) -> Vec<GoTime> {
        let pods = self.provider_starts.iter().flat_map(|s| s.starts.iter().copied());
        pods.chain(self.process_starts.iter().filter_map(|l| l.time)).collect()
    }
}

/// What a manifest's peers in the same lint show about it (`domain::lint` computes it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DesiredFacts {
    /// Its external-name does not follow the format the kind's other manifests agree on: the
    /// template, and what it gives for this manifest.
    pub off_format: Option<(String, String)>,
    /// Its references (`spec.forProvider.*Ref`, `*Refs`, and `initProvider`'s) that name no
    /// manifest of the lint: `field → name`.
    pub dangling_refs: Vec<String>,
    /// The annotations it carries that a provider writes (`managed::keys::WRITTEN_BY_PROVIDER`).
    pub provider_annotations: Vec<String>,
}

/// One provider log line about the MR: when, and the line itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedLine {
    /// When it was logged, when the line had a time.
    pub time: Option<GoTime>,
    /// Excerpt of the line.
    pub source: String,
}

/// One ID a provider logged as created (`Async create ended.` `tfID`, or the plugin-framework
/// recovered external-name), at its earliest sighting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedCreate {
    /// The ID. CLI-mode IDs may hold `REDACTED` where ProviderConfig values were.
    pub id: String,
    /// When it was first logged.
    pub time: Option<GoTime>,
    /// Excerpt of the line that logged it.
    pub source: String,
}

/// A logged failure of the status update after an async create (upjet's callback).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallbackFailure {
    /// The logged error, if any.
    pub error: Option<String>,
    /// Excerpt of the line.
    pub source: String,
}

/// When the provider's container (re)started: container starts, and pod starts of replaced pods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderStarts {
    /// Provider name.
    pub provider: String,
    /// Start times, any order.
    pub starts: Vec<GoTime>,
    /// The package image its pods run, when one image is all they run (during a rollout two
    /// revisions' pods run two, and neither says which reconciles an MR).
    pub package: Option<String>,
}

/// One log source (pod container, file, stdin) as the debug-level rule sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogSource {
    /// `namespace/pod/container (previous)` or a file path.
    pub name: String,
    /// The provider it belongs to, when known (live pods).
    pub provider: Option<String>,
    /// Lines read.
    pub lines: u64,
    /// Whether any DEBUG line was seen: without debug logging upjet logs no IDs.
    pub saw_debug: bool,
}
