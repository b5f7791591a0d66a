//! What one row of the finding-code table (`codes.rs`) declares about its code: its severity,
//! the evidence its rule reads, what a suggested ID from it is worth, whether it says the MR lost
//! its object and how `history` highlights it. Apart from the table, so that the table is rows.

use serde::Serialize;

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

/// How much a source's word is worth before the provider has confirmed the ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// A guess worth trying (a template only a supermajority of peers agrees on).
    Low,
    /// Derived, not observed: a template every healthy peer agrees on, a user template, an event.
    Medium,
    /// Observed for this very MR: a logged create, `status.atProvider.id`, an inventory tag match.
    High,
}

impl std::fmt::Display for Confidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        })
    }
}

/// The evidence a code's rule reads: which input has to be given for the code to appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// The MR object alone (a live cluster or a snapshot).
    Object,
    /// The other MRs of the run: the index of the external-names several MRs hold
    /// (`domain::shared_names`), which doctor over a whole cluster or snapshot, the watch and a
    /// lint build; a command about one MR (`doctor KIND/NAME`, `history`, `adopt`) sees none.
    Fleet,
    /// Provider logs and provider restarts.
    ProviderLog,
    /// A cloud inventory export (`--inventory`).
    Inventory,
    /// A Kubernetes audit log (`--audit-log`).
    AuditLog,
    /// A Velero backup (`--from BACKUP`): what restoring the MR would do.
    Backup,
    /// The cloud's own audit record (`--cloud-audit`).
    CloudAudit,
    /// The kind's CustomResourceDefinition and ManagedResourceDefinition, read beside its MRs
    /// (metadata only, live, or from a snapshot holding them): whether they are being deleted.
    Definitions,
    /// The target cluster's ManagedResourceDefinitions (`--target-context`): whether a backed-up
    /// MR's kind is served there at all. Not a restore verdict, so it puts no MR in the plan.
    TargetActivation,
    /// GitOps manifests (`doctor --from` over desired state, no status): what the manifest and
    /// the other manifests of the lint show before anything is applied.
    Manifest,
    /// The cluster's admission policies and the guard's lock, read live (doctor over a cluster,
    /// the watch) beside the served kinds and the MRs: what `kubectl upjet guard` installed.
    /// Snapshots and backups hold none, so no offline flow reports these codes.
    Guard,
    /// The composition tree: the XRDs, XRs and claims read beside the MRs (live, a snapshot
    /// holding them, `crossplane resource trace -o json`) and the fleet's other composed MRs
    /// (`domain::composition`).
    Composition,
}

/// What a code says about the MR's hold on its cloud object. The variants differ in what a
/// finding *without* a suggested ID means, which is what the fleet summary and `history` act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lost {
    /// Nothing about losing the cloud object.
    No,
    /// The MR lost track of its object; when no ID is known, one must be searched for (an
    /// inventory export, an ID template), so the summary's next command is that search.
    Search,
    /// The MR lost track of an ID an audit log recorded; the rule names it whenever adopting it
    /// is due, so a finding without one has nothing to adopt (the summary repeats its own next).
    Recorded,
    /// The MR lost its object only when the finding names an ID to adopt: the cloud's record of a
    /// duplicate beside the object the MR tracks is no loss.
    WhenNamed,
}

/// How `history` highlights a finding of the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Highlight {
    /// Not highlighted (the timeline shows the evidence itself).
    No,
    /// First, in the history's own wording of the create (code order).
    Create,
    /// Its message as it is, after the audit log's highlights.
    Message,
}

/// Everything one row of the table declares about a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Properties {
    /// The severity a finding of this code carries by default.
    pub severity: Severity,
    /// The evidence its rule reads.
    pub family: Family,
    /// What a `suggestedId` from a finding of this code is worth in the ranked candidate list.
    pub id_confidence: Confidence,
    /// The object exists but nothing tracks it: a finding without an ID takes the best observed
    /// ID another finding of the MR made, or a predicted one.
    pub wants_id: bool,
    /// Whether (and how) it says the MR lost its cloud object.
    pub lost: Lost,
    /// How `history` highlights it.
    pub highlight: Highlight,
    /// Whether a lint of GitOps manifests (`doctor --from` over desired state) runs its rule:
    /// every `Manifest` code, and the live rules that judge desired state just as well (the
    /// policy set, the annotations' values, a pause committed to the repository, an external-name
    /// two manifests share). Every other rule reads status, events, logs or the cloud, and a lint
    /// says it needs a cluster.
    pub lint: bool,
    /// Where it is documented: a page under `docs/` and the anchor of the code's entry.
    pub docs: &'static str,
}
