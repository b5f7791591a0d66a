//! Per-MR evidence: what one log line (or run of identical lines) says about an MR's cloud ID.
//!
//! Exists as the one output type of the log reader: the doctor's log findings, the history
//! timeline and the adopt proposal are all built from [`Evidence`] items and nothing else.

use chrono::{DateTime, Utc};

/// What a piece of [`Evidence`] says. Exists so the doctor can build a timeline and
/// know which lines carry IDs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvidenceKind {
    /// no-fork `Async create starting...` (`tfID` is normally empty).
    AsyncCreateStarting,
    /// no-fork `Async create ended.`: `tfID` is the Terraform ID just created
    /// (also a partial ID on failure); absent in the plugin-framework variant.
    AsyncCreateEnded,
    /// `Async create callback failed` (no-fork) or `callback failed` (CLI): the
    /// status update after an async create failed (upjet#632 symptom).
    CallbackFailed,
    /// `Instance state not found in cache, reconstructing...`: fresh tracker
    /// (new MR or provider restart).
    StateReconstructing,
    /// plugin-framework `recovered external name from last failed async operation`.
    RecoveredExternalName,
    /// plugin-framework `TF ReadResource returned Missing Resource Identity diagnostic, treating
    /// as resource not found` (upjet v2.3+ resource identity): a read answered Terraform's
    /// "Missing Resource Identity After Read", which upjet counts as the object not existing, so
    /// the reconcile that logged it goes on to create.
    MissingIdentityNotFound,
    /// Any other managed-reconciler line (carries the external-name read at Get time).
    Reconciler,
    /// `Successfully requested creation of external resource`.
    CreateRequested,
    /// `cannot determine creation result - remove the crossplane.io/external-create-pending annotation ...`.
    CreateIncomplete,
    /// `Cannot determine creation result, but proceeding due to deterministic external name`:
    /// a reconciler built with `WithDeterministicExternalName(true)` went past the gate
    /// (crossplane-runtime v2 `pkg/reconciler/managed/reconciler.go`).
    CreateGateBypassed,
    /// `Cannot create external resource`.
    CreateFailed,
    /// `Successfully requested deletion of external resource`.
    DeleteRequested,
    /// `Successfully deleted managed resource`.
    Deleted,
    /// CLI mode `Critical annotations have been updated.` (external-name was written).
    CriticalAnnotationsUpdated,
    /// CLI workspace `apply async ended` / `apply ended`.
    CliApply,
    /// CLI workspace `refresh ended`.
    CliRefresh,
    /// CLI workspace `import ended`.
    CliImport,
    /// CLI workspace `destroy async ended` / `destroy ended`.
    CliDestroy,
    /// CLI workspace `Running terraform` (its `args`): upjet runs this MR in its Terraform CLI
    /// mode (`pkg/terraform/workspace.go`, `runTF`), which its in-process clients never log.
    CliRun,
    /// A Kubernetes Event found in a Cloud Logging export; its
    /// `metadata.annotations["external-name"]` is a weak, recorder-level source.
    KubeEvent,
    /// controller-runtime's `Starting EventSource`, `Starting Controller` or `Starting workers`
    /// for an MR kind's managed controller (`pkg/internal/controller/controller.go`, `Start`):
    /// a provider process started. It names no MR, only the controller (in [`MrRef::controller`]);
    /// the lines of one start are merged into one piece of evidence.
    ProcessStarted,
}

impl EvidenceKind {
    /// Every kind, in declaration order. Exists so code that must cover all kinds (name
    /// tables, uniqueness checks) iterates this list instead of typing the variants again.
    pub const ALL: [EvidenceKind; 21] = [
        EvidenceKind::AsyncCreateStarting,
        EvidenceKind::AsyncCreateEnded,
        EvidenceKind::CallbackFailed,
        EvidenceKind::StateReconstructing,
        EvidenceKind::RecoveredExternalName,
        EvidenceKind::MissingIdentityNotFound,
        EvidenceKind::Reconciler,
        EvidenceKind::CreateRequested,
        EvidenceKind::CreateIncomplete,
        EvidenceKind::CreateGateBypassed,
        EvidenceKind::CreateFailed,
        EvidenceKind::DeleteRequested,
        EvidenceKind::Deleted,
        EvidenceKind::CriticalAnnotationsUpdated,
        EvidenceKind::CliApply,
        EvidenceKind::CliRefresh,
        EvidenceKind::CliImport,
        EvidenceKind::CliDestroy,
        EvidenceKind::CliRun,
        EvidenceKind::KubeEvent,
        EvidenceKind::ProcessStarted,
    ];

    /// Stable short name for reports and JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::AsyncCreateStarting => "AsyncCreateStarting",
            EvidenceKind::AsyncCreateEnded => "AsyncCreateEnded",
            EvidenceKind::CallbackFailed => "CallbackFailed",
            EvidenceKind::StateReconstructing => "StateReconstructing",
            EvidenceKind::RecoveredExternalName => "RecoveredExternalName",
            EvidenceKind::MissingIdentityNotFound => "MissingIdentityNotFound",
            EvidenceKind::Reconciler => "Reconciler",
            EvidenceKind::CreateRequested => "CreateRequested",
            EvidenceKind::CreateIncomplete => "CreateIncomplete",
            EvidenceKind::CreateGateBypassed => "CreateGateBypassed",
            EvidenceKind::CreateFailed => "CreateFailed",
            EvidenceKind::DeleteRequested => "DeleteRequested",
            EvidenceKind::Deleted => "Deleted",
            EvidenceKind::CriticalAnnotationsUpdated => "CriticalAnnotationsUpdated",
            EvidenceKind::CliApply => "CliApply",
            EvidenceKind::CliRefresh => "CliRefresh",
            EvidenceKind::CliImport => "CliImport",
            EvidenceKind::CliDestroy => "CliDestroy",
            EvidenceKind::CliRun => "CliRun",
            EvidenceKind::KubeEvent => "KubeEvent",
            EvidenceKind::ProcessStarted => "ProcessStarted",
        }
    }

    /// Lines that repeat on every reconcile and do not break a run of repeats.
    pub(crate) fn routine(self) -> bool {
        matches!(
            self,
            EvidenceKind::Reconciler | EvidenceKind::CliRefresh | EvidenceKind::CliRun | EvidenceKind::KubeEvent
        )
    }

    /// Whether an `id` of this kind counts for [`last_logged_ids`](super::last_logged_ids):
    /// the `tfID` of `Async create ended.`, the `external-name` of managed-reconciler lines, the
    /// `hook.id_value` of CLI workspace output, and the plugin-framework recovered external-name.
    pub(crate) fn carries_logged_id(self) -> bool {
        !matches!(
            self,
            EvidenceKind::AsyncCreateStarting
                | EvidenceKind::CallbackFailed
                | EvidenceKind::StateReconstructing
                | EvidenceKind::MissingIdentityNotFound
                | EvidenceKind::CriticalAnnotationsUpdated
                | EvidenceKind::KubeEvent
                | EvidenceKind::ProcessStarted
                | EvidenceKind::CliRun
        )
    }
}

/// Identity of the MR a line is about, as far as the line tells. Exists so the caller
/// can match evidence by name when a line has no UID (e.g. a callback error text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MrRef {
    /// `metadata.name` (`request.name`, `name`, `resourceName`, or Terraform resource name).
    pub name: Option<String>,
    /// `metadata.namespace` for namespaced (v2) MRs.
    pub namespace: Option<String>,
    /// `gvk` value (`ec2.aws.upbound.io/v1beta1, Kind=NetworkACLRule`).
    pub gvk: Option<String>,
    /// managed reconciler `controller` value (`managed/<group>/<version>, kind=<kind>`).
    pub controller: Option<String>,
}

/// Where a piece of evidence was read, so a report can point the user at the line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Origin {
    /// The `source` label given to [`scan`](super::scan()) (file name, pod name...).
    pub stream: String,
    /// 1-based physical line number in that stream (start of the JSON document for arrays).
    pub line: u64,
}

/// One log line (or run of identical lines) that says something about an MR's
/// cloud identity. The doctor's log findings are built only from these.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// MR `metadata.uid` the line is about; empty when the line only names the MR
    /// (then [`Evidence::mr`] has the name).
    pub uid: String,
    /// Time of the line (earliest time of a merged run).
    pub time: Option<DateTime<Utc>>,
    /// Latest time of a merged run (equals `time` when `repeats == 0`).
    pub last_time: Option<DateTime<Utc>>,
    /// How many further lines saying the same thing (same UID, kind, message, ID, error) were
    /// merged into this one; see `time` / `last_time` for the span.
    pub repeats: u32,
    /// What the line says.
    pub kind: EvidenceKind,
    /// The cloud/Terraform ID the line carries: `tfID`, `external-name`, hook
    /// `id_value`, ... `Some("")` when the key was logged empty, `None` when absent.
    pub id: Option<String>,
    /// IDs this line reports as just *created* (non-empty `tfID` of
    /// `Async create ended.`, CLI `apply_complete` with action `create`).
    pub created: Vec<String>,
    /// Error text carried by the line (credentials masked).
    pub error: Option<String>,
    /// The log message.
    pub msg: String,
    /// MR identity as named by the line.
    pub mr: MrRef,
    /// The log line cut to the fields that matter (≤ [`MAX_SOURCE_CHARS`](super::MAX_SOURCE_CHARS),
    /// credentials masked).
    pub source: String,
    /// Where it was read.
    pub origin: Origin,
    /// Order of appearance of the (first) line across all scans into one [`LogScan`](super::LogScan).
    pub seq: u64,
    /// Order of appearance of the last merged line.
    pub last_seq: u64,
}

impl Evidence {
    /// Whether this evidence is about the given MR: by UID when the line has one,
    /// otherwise by name (and namespace when both sides know it).
    pub fn is_about(&self, uid: &str, name: &str, namespace: Option<&str>) -> bool {
        if !self.uid.is_empty() {
            return self.uid == uid;
        }
        match self.mr.name.as_deref() {
            Some(n) if n == name => match (namespace, self.mr.namespace.as_deref()) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            },
            _ => false,
        }
    }

    /// The managed kind whose controller a [`EvidenceKind::ProcessStarted`] line started, as
    /// `kind.group` in lower case (how [`started_kind_of`] names an MR's kind).
    pub(crate) fn started_kind(&self) -> Option<String> {
        (self.kind == EvidenceKind::ProcessStarted).then_some(())?;
        managed_controller_kind(self.mr.controller.as_deref()?)
    }

    /// Sort key for "newest": last time seen, then order of appearance.
    pub(super) fn newest_key(&self) -> (Option<DateTime<Utc>>, u64) {
        (self.last_time.or(self.time), self.last_seq)
    }
}

/// The kind a managed reconciler's controller name stands for, as `kind.group` in lower case:
/// crossplane-runtime names it `managed/` + the lower-cased GVK string (`ControllerName`; upjet's
/// generated controllers: `managed/sqs.aws.upbound.io/v1beta1, kind=queue`), older providers
/// `managed/` + `kind.group` (`managed/rdsinstance.database.aws.crossplane.io`). `None` for any
/// other controller (provider configs, usages).
pub fn managed_controller_kind(controller: &str) -> Option<String> {
    let rest = controller.trim().strip_prefix("managed/")?;
    let key = match rest.split_once(", kind=") {
        Some((group_version, kind)) => {
            let group = group_version.rsplit_once('/').map_or(group_version, |(g, _)| g);
            format!("{kind}.{group}")
        }
        None => rest.to_string(),
    };
    (key.contains('.') && !key.starts_with('.') && !key.ends_with('.')).then(|| key.to_ascii_lowercase())
}

/// An MR's kind as [`managed_controller_kind`] names it.
pub fn started_kind_of(kind: &str, group: &str) -> String {
    format!("{kind}.{group}").to_ascii_lowercase()
}
