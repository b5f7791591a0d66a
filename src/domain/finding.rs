//! Findings: the doctor's public contract (codes, severities, report shape).

use serde::Serialize;
use std::collections::BTreeMap;

/// How serious a finding is; ordered so that `>=` means "at least as serious".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Context worth knowing; nothing is broken.
    Info,
    /// Something is likely to go wrong or hides a problem.
    Warning,
    /// Tracking of a cloud object is broken or about to be.
    Error,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident => $sev:ident),+ $(,)?) => {
        /// A stable finding code. The names are a public contract: scripts match on them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum Code { $($(#[$doc])* $name),+ }

        impl Code {
            /// Every code, in the order the documentation lists them.
            pub const ALL: &'static [Code] = &[$(Code::$name),+];

            /// The severity a finding of this code carries.
            pub fn severity(self) -> Severity {
                match self { $(Code::$name => Severity::$sev),+ }
            }

            /// The code as it appears in output and on the command line.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$name => stringify!($name)),+ }
            }
        }
    };
}

codes! {
    /// `external-create-pending` is newer than succeeded/failed: the reconciler refuses to go on.
    CreateIncomplete => Error,
    /// The cloud object exists (or was created) but no external-name records it.
    ExternalNameMissing => Error,
    /// external-name and `status.atProvider.id` disagree.
    ExternalNameDrift => Warning,
    /// Create keeps failing because the cloud object already exists: tracking was lost.
    AlreadyExists => Error,
    /// The last create attempt failed.
    CreateFailed => Warning,
    /// `LastAsyncOperation` is False while Ready is True: Ready hides a failure that still holds
    /// (no-fork upjet clears it once the object is up to date; CLI mode once an apply succeeds).
    AsyncFailureMasked => Warning,
    /// An asynchronous operation is probably still running (within upjet's one-hour deadline);
    /// do not adopt now.
    AsyncInFlight => Info,
    /// The MR still shows an async operation running, but upjet's one-hour deadline for it has
    /// passed: nothing will finish it. Error; warning when an external-name is saved.
    AsyncDeadlinePassed => Error,
    /// Reconciliation is paused.
    Paused => Info,
    /// Observe-only MR whose cloud object does not exist.
    ObserveNotFound => Error,
    /// kstatus (Flux, Argo CD) reports a state that the MR's real state contradicts.
    KstatusMisleading => Warning,
    /// A crossplane.io annotation holds a value crossplane ignores or misreads.
    MalformedAnnotation => Warning,
    /// Synced still shows the create-incomplete gate after the marks were fixed by hand: the watch
    /// ignores those annotations, so nothing triggers a reconcile.
    ReconcileNotTriggered => Warning,
    /// Without LateInitialize an external-name learned after an async create is never saved.
    LateInitializeMissing => Warning,
    /// The MR is being deleted while paused: the finalizer will never be removed.
    DeletionBlockedByPause => Warning,
    /// `spec.managementPolicies` is a set the reconciler rejects (`Validate`): nothing runs.
    UnsupportedManagementPolicies => Error,
    /// The MR is being deleted, would delete its cloud object, and is stuck at the
    /// create-incomplete gate: the finalizer will never be removed.
    DeletionBlockedByCreateGate => Error,
    /// A provider log shows an ID created for this MR that is not its external-name.
    OrphanCandidate => Error,
    /// The provider container started after create-pending and before any result.
    ProviderRestartedDuringCreate => Warning,
    /// The async create callback failed to write status: the MR's status may be stale.
    CallbackLost => Warning,
    /// The provider log shows several objects created for one MR with no restart between them:
    /// upjet's async create raced the write-back of the first ID (upjet#632).
    AsyncCreateRace => Error,
    /// The provider log shows a create started after the provider rebuilt this MR's lost state,
    /// although the MR had been created before: a duplicate (upjet#561, upjet#722).
    CreateAfterStateRebuild => Error,
    /// The provider does not log at debug level, so IDs cannot be recovered from its logs.
    DebugLogsMissing => Info,
    /// An inventory export lists a cloud object tagged for this MR that it does not track.
    InventoryOrphan => Error,
    /// An inventory export lists several cloud objects tagged for this MR.
    InventoryDuplicate => Warning,
    /// An inventory export lists a cloud object tagged for an MR that does not exist.
    InventoryObjectWithoutMr => Warning,
    /// The audit log shows the external-name replaced or removed; the MR no longer tracks the
    /// old ID, whose cloud object is an orphan candidate.
    ExternalNameOverwritten => Error,
    /// The audit log shows an earlier object under this name (another UID) with an external-name
    /// the MR now lacks or does not match: the identity was lost on recreate or restore.
    IdentityLostOnRecreate => Error,
    /// (Velero backup) Restoring the MR creates its cloud object again: it is restored without
    /// an ID that upjet can rebuild its state from, although the backup shows it was created.
    RestoreCreatesDuplicate => Error,
    /// (Velero backup) The restored MR stops at the create-incomplete gate: its pending mark is
    /// restored too, and nothing reconciles it again.
    RestoreStopsAtCreateGate => Error,
    /// (Velero backup, `--source-context`) The source cluster still manages the cloud object the
    /// restored MR would track: two controllers would manage one object.
    RestoreIntoFight => Error,
    /// (Velero backup, `--target-context`) The MR's kind is an inactive ManagedResourceDefinition
    /// on the target: no CRD is served there, so the restore skips the MR entirely.
    RestoreKindInactive => Error,
    /// (Velero backup) Restoring the MR as it is creates nothing twice.
    RestoreSafe => Info,
    /// The cloud's audit record shows the provider creating one object for this MR that it does
    /// not track: the object it lost, or an orphan beside the one it tracks.
    CloudAuditOrphan => Error,
    /// The cloud's audit record shows the provider creating several objects for this MR: which
    /// one it tracks, which are duplicates, when and after which restart. Warning; error when it
    /// tracks none of them.
    CloudAuditDuplicate => Warning,
    /// The cloud's audit record shows the provider's create answered "already exists", and names
    /// the object it ran into when the record holds it.
    CloudAuditAlreadyExists => Error,
    /// The cloud's audit record shows someone other than the provider deleting the object this MR
    /// tracks.
    CloudAuditDeletedByOther => Error,
    /// The cloud's audit record holds creates naming this MR that cannot be tied to it (they name
    /// other MRs too, come from another account, or the provider's identity is unknown).
    CloudAuditAmbiguous => Warning,
    /// The provider's change log shows two successful creates for this MR that led to different
    /// external names: the second ran without the first one's ID, so a duplicate was made.
    ChangeLogDuplicate => Error,
    /// The provider's change log shows an external name recorded for this MR that it no longer
    /// has and that the provider never deleted: the object it lost, or an orphan beside the one
    /// it tracks.
    ChangeLogOrphan => Error,
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Code {
    type Err = String;
    fn from_str(s: &str) -> Result<Code, String> {
        Code::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(s)).ok_or_else(|| {
            let all: Vec<_> = Code::ALL.iter().map(|c| c.as_str()).collect();
            format!("unknown finding code {s:?}; known codes: {}", all.join(", "))
        })
    }
}

/// Which object a finding is about, in the shape `kubectl` users and scripts recognise.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRef {
    /// `group/version`.
    pub api_version: String,
    /// Kind.
    pub kind: String,
    /// Namespace, absent for cluster-scoped MRs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
    /// UID.
    pub uid: String,
    /// The cluster (kubeconfig context, or snapshot name) the MR lives in; only set when one
    /// report covers several clusters, so single-cluster reports read as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
}

/// One inconsistency found on one MR.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable code.
    pub code: Code,
    /// Severity (the code's default).
    pub severity: Severity,
    /// One line saying what is wrong.
    pub message: String,
    /// What was seen, by name (annotation values, condition messages, log lines).
    pub evidence: BTreeMap<String, String>,
    /// The next command to run.
    pub next: String,
    /// The cloud ID an adoption would use, when the evidence points at one.
    #[serde(rename = "suggestedId", skip_serializing_if = "Option::is_none")]
    pub suggested_id: Option<String>,
}

impl Finding {
    /// A finding with the code's default severity and no evidence yet.
    pub fn new(code: Code, message: impl Into<String>, next: impl Into<String>) -> Finding {
        Finding {
            code,
            severity: code.severity(),
            message: message.into(),
            evidence: BTreeMap::new(),
            next: next.into(),
            suggested_id: None,
        }
    }

    /// Adds one piece of evidence.
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Finding {
        self.evidence.insert(key.to_string(), value.into());
        self
    }

    /// Adds evidence only when there is a value.
    pub fn with_opt(self, key: &str, value: Option<impl Into<String>>) -> Finding {
        match value {
            Some(v) => self.with(key, v),
            None => self,
        }
    }

    /// Records the ID an adoption would use; a provider's placeholder is never one.
    pub fn suggest(mut self, id: Option<&str>) -> Finding {
        self.suggested_id = id.filter(|id| !crate::domain::placeholder::is_placeholder(id)).map(str::to_owned);
        self
    }
}
