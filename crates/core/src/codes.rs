//! The finding codes and everything each one means, in one table: one row per code declares its
//! severity, the evidence it comes from, what a suggested ID from it is worth, whether it wants an
//! ID to adopt, whether it says the MR lost its cloud object, what `history` highlights, whether a
//! lint of manifests runs it, and where it is documented. Every list of codes elsewhere (the
//! candidate ranking, the fleet summary's next commands, the timeline's highlights, the rules a
//! lint runs) is derived from these rows, so adding a code is one row here plus its rule file:
//! nothing can silently give a new code a default.
//!
//! Adding a finding code touches three files, plus its documentation:
//! 1. its row in `codes!` below: a doc comment saying what it means and every property
//!    (`severity`; `family`, the evidence its rule reads, which
//!    `each_code_row_declares_the_evidence_its_check_reads` holds to the rule's `Check`;
//!    `id_confidence`; `wants_id`; `lost`; `highlight`; `lint`; `docs`). A row that leaves one
//!    out does not compile; a `highlight: Create` code also needs its words in
//!    `upjet_evidence::timeline::finding_highlight`, a match that does not compile without them;
//! 2. its rule, `rules/<code_in_snake_case>.rs`, holding the check and its own table test (fires;
//!    does not fire on the healthy or busy case);
//! 3. its `mod` line and its entry in `rules::ALL` (`rules/mod.rs`; its place there is its place
//!    in every output; `every_code_has_exactly_one_rule` fails until it exists);
//!
//! and a row in `docs/PAGE` that starts `` | <a id="anchor"></a>`Code` | severity ``
//! (`every_code_is_documented_where_its_row_says_with_its_severity`). If the bundled examples
//! should show it, extend `scripts/gen-examples.py` and regenerate `examples/`.

use serde::Serialize;

pub use crate::code_properties::{Confidence, Family, Highlight, Lost, Properties, Severity};

/// One row per code: a doc comment (what the code means) and every property, none defaulted; a
/// row that leaves one out does not compile.
macro_rules! codes {
    ($(
        $(#[$doc:meta])+
        $name:ident {
            severity: $sev:ident, family: $fam:ident, id_confidence: $conf:ident, wants_id: $wants:literal,
            lost: $lost:ident, highlight: $hl:ident, lint: $lint:literal, docs: $docs:literal $(,)?
        }
    ),+ $(,)?) => {
        /// A stable finding code. The names are a public contract: scripts match on them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum Code { $($(#[$doc])+ $name),+ }

        impl Code {
            /// Every code, in the order the documentation lists them.
            pub const ALL: &'static [Code] = &[$(Code::$name),+];

            /// Everything the code's row declares.
            pub const fn properties(self) -> Properties {
                match self {
                    $(Code::$name => Properties {
                        severity: Severity::$sev,
                        family: Family::$fam,
                        id_confidence: Confidence::$conf,
                        wants_id: $wants,
                        lost: Lost::$lost,
                        highlight: Highlight::$hl,
                        lint: $lint,
                        docs: $docs,
                    }),+
                }
            }

            /// The code as it appears in output and on the command line.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$name => stringify!($name)),+ }
            }
        }

        create_highlights!(@rows [] $($hl $name)+);
    };
}

/// The codes whose row says `highlight: Create`, gathered row by row into an enum of their own:
/// `history` words each in a match over it (`evidence::timeline`), which does not compile until a
/// new one is worded.
macro_rules! create_highlights {
    (@rows [$($create:ident)*]) => {
        /// A code whose row says `highlight: Create`: `history` words it itself, first among its
        /// highlights.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum CreateHighlight { $($create),* }

        impl Code {
            /// The code as `history` words it, when its row says `highlight: Create`.
            pub const fn create_highlight(self) -> Option<CreateHighlight> {
                match self {
                    $(Code::$create => Some(CreateHighlight::$create),)*
                    _ => None,
                }
            }
        }
    };
    (@rows [$($create:ident)*] Create $name:ident $($rest:tt)*) => {
        create_highlights!(@rows [$($create)* $name] $($rest)*);
    };
    (@rows [$($create:ident)*] $other:ident $name:ident $($rest:tt)*) => {
        create_highlights!(@rows [$($create)*] $($rest)*);
    };
}

impl Code {
    /// The severity a finding of this code carries.
    pub const fn severity(self) -> Severity {
        self.properties().severity
    }

    /// The evidence its rule reads.
    pub const fn family(self) -> Family {
        self.properties().family
    }

    /// What a `suggestedId` from a finding of this code is worth.
    pub(crate) const fn id_confidence(self) -> Confidence {
        self.properties().id_confidence
    }

    /// Whether a finding of this code without an ID takes one observed or predicted elsewhere.
    pub(crate) const fn wants_id(self) -> bool {
        self.properties().wants_id
    }

    /// What the code says about the MR's hold on its cloud object.
    pub const fn lost(self) -> Lost {
        self.properties().lost
    }

    /// How `history` highlights it.
    pub const fn highlight(self) -> Highlight {
        self.properties().highlight
    }

    /// Whether a lint of manifests runs its rule.
    pub const fn lint(self) -> bool {
        self.properties().lint
    }

    /// The codes of a property, in code order (`Code::with(|p| p.family == Family::Backup)`).
    pub fn with(matches: impl Fn(&Properties) -> bool) -> impl Iterator<Item = Code> {
        Code::ALL.iter().copied().filter(move |c| matches(&c.properties()))
    }
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

codes! {
    /// `external-create-pending` is newer than succeeded/failed: the reconciler refuses to go on.
    CreateIncomplete {
        severity: Error, family: Object, id_confidence: Medium, wants_id: true,
        lost: No, highlight: Create, lint: false, docs: "findings.md#createincomplete",
    },
    /// `external-create-pending` is newer than any result, but the reconcile that wrote it may
    /// still be inside Create: within the providers' reconcile timeout plus its grace period.
    CreateInFlight {
        severity: Info, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: Create, lint: false, docs: "findings.md#createinflight",
    },
    /// The cloud object exists (or was created) but no external-name records it.
    ExternalNameMissing {
        severity: Error, family: Object, id_confidence: High, wants_id: true,
        lost: Search, highlight: No, lint: false, docs: "findings.md#externalnamemissing",
    },
    /// external-name and `status.atProvider.id` disagree.
    ExternalNameDrift {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#externalnamedrift",
    },
    /// Create keeps failing because the cloud object already exists: tracking was lost.
    AlreadyExists {
        severity: Error, family: Object, id_confidence: Medium, wants_id: true,
        lost: Search, highlight: No, lint: false, docs: "findings.md#alreadyexists",
    },
    /// The last create attempt failed.
    CreateFailed {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#createfailed",
    },
    /// `LastAsyncOperation` is False while Ready is True: Ready hides a failure that still holds
    /// (no-fork upjet clears it once the object is up to date; CLI mode once an apply succeeds).
    AsyncFailureMasked {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#asyncfailuremasked",
    },
    /// An asynchronous operation is probably still running (within upjet's one-hour deadline);
    /// do not adopt now.
    AsyncInFlight {
        severity: Info, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#asyncinflight",
    },
    /// The MR still shows an async operation running, but upjet's one-hour deadline for it has
    /// passed: nothing will finish it. Error; warning when an external-name is saved.
    AsyncDeadlinePassed {
        severity: Error, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#asyncdeadlinepassed",
    },
    /// Reconciliation is paused.
    Paused {
        severity: Info, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "findings.md#paused",
    },
    /// Observe-only MR whose cloud object does not exist.
    ObserveNotFound {
        severity: Error, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#observenotfound",
    },
    /// kstatus (Flux, Argo CD) reports a state that the MR's real state contradicts.
    KstatusMisleading {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#kstatusmisleading",
    },
    /// A crossplane.io annotation holds a value crossplane ignores or misreads.
    MalformedAnnotation {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "findings.md#malformedannotation",
    },
    /// `crossplane.io/poll-interval` is under one second: crossplane-runtime v2.3+ polls that often.
    PollIntervalTooShort {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "findings.md#pollintervaltooshort",
    },
    /// Synced still shows the create-incomplete gate after the marks were fixed by hand: the watch
    /// ignores those annotations, so nothing triggers a reconcile.
    ReconcileNotTriggered {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#reconcilenottriggered",
    },
    /// Without LateInitialize an external-name learned after an async create is never saved.
    LateInitializeMissing {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "findings.md#lateinitializemissing",
    },
    /// The MR is being deleted while paused: the finalizer will never be removed.
    DeletionBlockedByPause {
        severity: Warning, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#deletionblockedbypause",
    },
    /// `spec.managementPolicies` is a set the reconciler rejects (`Validate`): nothing runs.
    UnsupportedManagementPolicies {
        severity: Error, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "findings.md#unsupportedmanagementpolicies",
    },
    /// The MR is being deleted, would delete its cloud object, and is stuck at the
    /// create-incomplete gate: the finalizer will never be removed.
    DeletionBlockedByCreateGate {
        severity: Error, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#deletionblockedbycreategate",
    },
    /// A deleted MR holds another's finalizer besides crossplane's: crossplane-runtime v2 does not
    /// delete the cloud object until it is removed, and says nothing while it waits.
    DeletionWaitsForFinalizers {
        severity: Info, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#deletionwaitsforfinalizers",
    },
    /// Every Observe fails with Terraform's "Unexpected Identity Change" after a failed create:
    /// upjet keeps a partial identity in memory until the provider restarts.
    UnexpectedIdentityChange {
        severity: Error, family: Object, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#unexpectedidentitychange",
    },
    /// The MR's kind is going away: its CRD or MRD is being deleted, which deletes every MR of it
    /// and, where the policies allow Delete, their cloud objects (crossplane#7173). Error; warning
    /// when this MR's cloud object is left in place.
    KindBeingDeleted {
        severity: Error, family: Definitions, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#kindbeingdeleted",
    },
    /// A provider log shows an ID created for this MR that is not its external-name.
    OrphanCandidate {
        severity: Error, family: ProviderLog, id_confidence: High, wants_id: false,
        lost: Search, highlight: No, lint: false, docs: "findings.md#orphancandidate",
    },
    /// The provider container started after create-pending and before any result.
    ProviderRestartedDuringCreate {
        severity: Warning, family: ProviderLog, id_confidence: Medium, wants_id: false,
        lost: No, highlight: Create, lint: false, docs: "findings.md#providerrestartedduringcreate",
    },
    /// The async create callback failed to write status: the MR's status may be stale.
    CallbackLost {
        severity: Warning, family: ProviderLog, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#callbacklost",
    },
    /// The provider log shows several objects created for one MR with no restart between them:
    /// upjet's async create raced the write-back of the first ID (upjet#632).
    AsyncCreateRace {
        severity: Error, family: ProviderLog, id_confidence: Medium, wants_id: false,
        lost: No, highlight: Create, lint: false, docs: "findings.md#asynccreaterace",
    },
    /// The provider log shows a create started after the provider rebuilt this MR's lost state,
    /// although the MR had been created before: a duplicate (upjet#561, upjet#722).
    CreateAfterStateRebuild {
        severity: Error, family: ProviderLog, id_confidence: Medium, wants_id: false,
        lost: No, highlight: Create, lint: false, docs: "findings.md#createafterstaterebuild",
    },
    /// The provider does not log at debug level, so IDs cannot be recovered from its logs.
    DebugLogsMissing {
        severity: Info, family: ProviderLog, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#debuglogsmissing",
    },
    /// An inventory export lists a cloud object tagged for this MR that it does not track.
    InventoryOrphan {
        severity: Error, family: Inventory, id_confidence: High, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "inventory.md#inventoryorphan",
    },
    /// An inventory export lists several cloud objects tagged for this MR.
    InventoryDuplicate {
        severity: Warning, family: Inventory, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "inventory.md#inventoryduplicate",
    },
    /// An inventory export lists a cloud object tagged for an MR that does not exist.
    InventoryObjectWithoutMr {
        severity: Warning, family: Inventory, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "inventory.md#inventoryobjectwithoutmr",
    },
    /// A complete inventory export that covers this MR's kind, account and region does not list
    /// the object it tracks: deleted outside Crossplane; the provider will create it again.
    InventoryObjectGone {
        severity: Warning, family: Inventory, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "inventory.md#inventoryobjectgone",
    },
    /// The audit log shows the external-name replaced or removed; the MR no longer tracks the
    /// old ID, whose cloud object is an orphan candidate.
    ExternalNameOverwritten {
        severity: Error, family: AuditLog, id_confidence: High, wants_id: false,
        lost: Recorded, highlight: No, lint: false, docs: "findings.md#externalnameoverwritten",
    },
    /// The audit log shows an earlier object under this name (another UID) with an external-name
    /// the MR now lacks or does not match: the identity was lost on recreate or restore.
    IdentityLostOnRecreate {
        severity: Error, family: AuditLog, id_confidence: High, wants_id: false,
        lost: Recorded, highlight: No, lint: false, docs: "findings.md#identitylostonrecreate",
    },
    /// (Velero backup) Restoring the MR creates its cloud object again: it is restored without
    /// an ID that upjet can rebuild its state from, although the backup shows it was created.
    RestoreCreatesDuplicate {
        severity: Error, family: Backup, id_confidence: High, wants_id: true,
        lost: No, highlight: No, lint: false, docs: "findings.md#restorecreatesduplicate",
    },
    /// (Velero backup) The restored MR stops at the create-incomplete gate: its pending mark is
    /// restored too, and nothing reconciles it again.
    RestoreStopsAtCreateGate {
        severity: Error, family: Backup, id_confidence: High, wants_id: true,
        lost: No, highlight: No, lint: false, docs: "findings.md#restorestopsatcreategate",
    },
    /// (Velero backup, `--source-context`) The source cluster still manages the cloud object the
    /// restored MR would track: two controllers would manage one object.
    RestoreIntoFight {
        severity: Error, family: Backup, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#restoreintofight",
    },
    /// (Velero backup, `--target-context`) The MR's kind is an inactive ManagedResourceDefinition
    /// on the target: no CRD is served there, so the restore skips the MR entirely.
    RestoreKindInactive {
        severity: Error, family: TargetActivation, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#restorekindinactive",
    },
    /// (Velero backup) Restoring the MR as it is creates nothing twice.
    RestoreSafe {
        severity: Info, family: Backup, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#restoresafe",
    },
    /// The cloud's audit record shows the provider creating one object for this MR that it does
    /// not track: the object it lost, or an orphan beside the one it tracks.
    CloudAuditOrphan {
        severity: Error, family: CloudAudit, id_confidence: High, wants_id: false,
        lost: WhenNamed, highlight: Message, lint: false, docs: "findings.md#cloudauditorphan",
    },
    /// The cloud's audit record shows the provider creating several objects for this MR: which
    /// one it tracks, which are duplicates, when and after which restart. Warning; error when it
    /// tracks none of them.
    CloudAuditDuplicate {
        severity: Warning, family: CloudAudit, id_confidence: High, wants_id: false,
        lost: WhenNamed, highlight: Message, lint: false, docs: "findings.md#cloudauditduplicate",
    },
    /// The cloud's audit record shows the provider's create answered "already exists", and names
    /// the object it ran into when the record holds it.
    CloudAuditAlreadyExists {
        severity: Error, family: CloudAudit, id_confidence: High, wants_id: false,
        lost: WhenNamed, highlight: Message, lint: false, docs: "findings.md#cloudauditalreadyexists",
    },
    /// The cloud's audit record shows someone other than the provider deleting the object this MR
    /// tracks.
    CloudAuditDeletedByOther {
        severity: Error, family: CloudAudit, id_confidence: Medium, wants_id: false,
        lost: WhenNamed, highlight: Message, lint: false, docs: "findings.md#cloudauditdeletedbyother",
    },
    /// The cloud's audit record holds creates naming this MR that cannot be tied to it (they name
    /// other MRs too, come from another account, or the provider's identity is unknown).
    CloudAuditAmbiguous {
        severity: Warning, family: CloudAudit, id_confidence: Medium, wants_id: false,
        lost: WhenNamed, highlight: Message, lint: false, docs: "findings.md#cloudauditambiguous",
    },
    /// The provider's change log shows two successful creates for this MR that led to different
    /// external names: the second ran without the first one's ID, so a duplicate was made.
    ChangeLogDuplicate {
        severity: Error, family: ProviderLog, id_confidence: High, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#changelogduplicate",
    },
    /// The provider's change log shows an external name recorded for this MR that it no longer
    /// has and that the provider never deleted: the object it lost, or an orphan beside the one
    /// it tracks.
    ChangeLogOrphan {
        severity: Error, family: ProviderLog, id_confidence: High, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#changelogorphan",
    },
    /// The provider's change log shows an earlier MR under this one's name (another UID: deleted
    /// and applied again) holding an external name the provider never deleted (a delete with
    /// `deletionPolicy: Orphan` logs none), which this MR does not track: the object it had.
    ChangeLogLostOnRecreate {
        severity: Error, family: ProviderLog, id_confidence: High, wants_id: false,
        lost: WhenNamed, highlight: Message, lint: false, docs: "findings.md#changeloglostonrecreate",
    },
    /// Another acting MR of the same kind (a legacy kind and its `.m.` twin as one) holds the
    /// same external-name: both manage one cloud object, and deleting either deletes it under
    /// the other (crossplane#6238; a hand migration to the namespaced kinds that left both
    /// unpaused).
    ExternalNameShared {
        severity: Error, family: Fleet, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "findings.md#externalnameshared",
    },
    /// (Lint) A manifest that only observes or imports sets no external-name: it names no cloud
    /// object, or only its metadata.name by chance.
    ObserveOnlyWithoutExternalName {
        severity: Error, family: Manifest, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "lint.md#observeonlywithoutexternalname",
    },
    /// (Lint) A manifest's external-name is a provider's placeholder, which names no cloud object.
    PlaceholderExternalName {
        severity: Error, family: Manifest, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "lint.md#placeholderexternalname",
    },
    /// (Lint) A manifest's external-name breaks the format the kind's other manifests agree on.
    ExternalNameOffFormat {
        severity: Warning, family: Manifest, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "lint.md#externalnameoffformat",
    },
    /// (Lint) A manifest's reference names an MR no manifest of the lint defines: a migration
    /// refuses it and a restore of these manifests leaves it unresolved.
    ReferenceOutsideManifests {
        severity: Warning, family: Manifest, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "lint.md#referenceoutsidemanifests",
    },
    /// (Lint) A manifest carries an annotation its provider writes (upjet's field-conversions
    /// record, Terraform's private state): applied again at every sync over the provider's own.
    ProviderAnnotationInManifest {
        severity: Warning, family: Manifest, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: true, docs: "lint.md#providerannotationinmanifest",
    },
    /// A legacy MR paused and unable to delete, whose namespaced `.m.` twin tracks the same
    /// external-name and is healthy: a migration to Crossplane v2's namespaced kinds that was
    /// not finished (two MRs for one object, the legacy one doing nothing until someone unpauses
    /// it).
    MigrationUnfinished {
        severity: Warning, family: Fleet, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#migrationunfinished",
    },
    /// (Live cluster) The guard's admission policies are not installed (none bound): the API
    /// server lets a write drop or change an MR's external-name. Info: many clusters run
    /// without it.
    GuardMissing {
        severity: Info, family: Guard, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#guardmissing",
    },
    /// (Live cluster) The guard runs, but a served managed kind is not judged by every identity
    /// rule (a provider installed after it was printed, a rule's policy or binding missing).
    GuardPartial {
        severity: Warning, family: Guard, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#guardpartial",
    },
    /// (Live cluster) The guard's identity-locked rule is bound, but its lock lacks an MR's
    /// identity or holds another ID under its key (or its CRD is not installed).
    GuardLockStale {
        severity: Warning, family: Guard, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#guardlockstale",
    },
    /// A composed MR its XR is deleting (garbage-collected: no longer desired, its composed labels
    /// gone or out of the XR's references) whose deletion deletes its cloud object: said while
    /// the provider has yet to delete it.
    ComposedGarbageCollected {
        severity: Error, family: Composition, id_confidence: Medium, wants_id: false,
        lost: No, highlight: Message, lint: false, docs: "findings.md#composedgarbagecollected",
    },
    /// An XR composes an MR without an external-name for a resource name an earlier MR (an
    /// earlier XR of the same name, found live, in the ID journal or in the lock) held an ID
    /// for: a second cloud object at its next reconcile.
    ComposedRecreated {
        severity: Error, family: Composition, id_confidence: High, wants_id: false,
        lost: Recorded, highlight: Message, lint: false, docs: "findings.md#composedrecreated",
    },
    /// Two live MRs fill one resource name of one XR.
    ComposedDuplicate {
        severity: Error, family: Composition, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#composedduplicate",
    },
    /// A composed MR whose XR is gone, was created again, or no longer lists it: nothing composes
    /// it now. Error when Kubernetes' garbage collector will delete it with its cloud object.
    ComposedOrphan {
        severity: Warning, family: Composition, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#composedorphan",
    },
    /// The composite's field manager owns the MR's external-name (or, on an MR that lost its ID,
    /// its policies): a repair written to the MR is reverted at the XR's next compose.
    CompositionOwnsIdentity {
        severity: Info, family: Composition, id_confidence: Medium, wants_id: false,
        lost: No, highlight: No, lint: false, docs: "findings.md#compositionownsidentity",
    },
}

#[cfg(test)]
#[path = "codes_tests.rs"]
mod tests;
