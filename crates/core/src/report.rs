//! The doctor's report: findings joined to their resource, filters, and the summary.
//! Its JSON/YAML shape (`upjet.doctor/v1`, kind `Report`) is a public contract for scripts.

use super::composition::{ClaimRef, CompositeRef, Composites, refs_of, root_of};
use super::finding::{Code, Finding, ResourceRef, Severity, SourceLocation};
use super::kind_removal::{CLOUD_OBJECT, DEFINITIONS, KEEP, KindGoing};
use super::managed::{ManagedResource, ProviderConfigKey, keys};
use serde::Serialize;
use std::collections::BTreeMap;

/// What one cluster contributed to a report of several.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterSummary {
    /// The kubeconfig context, or the snapshot's name.
    pub name: String,
    /// Whether this cluster was read in full.
    pub complete: bool,
    /// MR kinds listed successfully in it.
    pub kinds_scanned: usize,
    /// MRs decoded and diagnosed in it.
    pub resources_scanned: usize,
    /// Its findings shown, by severity.
    pub findings: BTreeMap<Severity, usize>,
    /// Why it could not be read at all (unreachable, rejected credentials, unknown context…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What the wide table and JSON show about the MR beside each finding.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceState {
    /// `crossplane.io/external-name`, when it names a cloud object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_name: Option<String>,
    /// The annotation's value when it is a provider's placeholder (`STUB123456`, …) rather than
    /// an ID: the MR tracks nothing, and scripts reading `externalName` see it absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_name_placeholder: Option<String>,
    /// `status.atProvider.id`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_provider_id: Option<String>,
    /// Raw `external-create-pending`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_pending: Option<String>,
    /// Raw `external-create-succeeded`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_succeeded: Option<String>,
    /// Raw `external-create-failed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub create_failed: Option<String>,
    /// The newest external ID a provider log recorded for this MR.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_logged_id: Option<LoggedIdRef>,
    /// `spec.providerConfigRef` (the fleet summary groups by it), written in words:
    /// `default`, `ClusterProviderConfig default`, `ProviderConfig team-a/default`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider_config: Option<ProviderConfigKey>,
    /// The XR that composes the MR (its controller), with the MR's resource name in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub composite: Option<CompositeRef>,
    /// The v1 claim the MR's XR is bound to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<ClaimRef>,
}

/// The last provider-logged external ID, as the report shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoggedIdRef {
    /// The ID.
    pub id: String,
    /// When it was logged (RFC3339), if the line had a time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// The log line, trimmed to the fields that matter.
    pub source: String,
}

impl ResourceState {
    /// The external-name as a human should read it: the ID, or the placeholder marked as one.
    pub fn external_name_shown(&self) -> Option<String> {
        self.external_name
            .clone()
            .or_else(|| self.external_name_placeholder.as_ref().map(|p| format!("{p} (placeholder)")))
    }

    /// The state of one MR.
    pub fn of(mr: &ManagedResource) -> ResourceState {
        let (composite, claim) = refs_of(mr);
        ResourceState {
            external_name: mr.external_name().map(str::to_owned),
            external_name_placeholder: mr.external_name_placeholder().map(|p| p.value.to_owned()),
            at_provider_id: mr.at_provider_id.clone(),
            create_pending: mr.annotation(keys::CREATE_PENDING).map(str::to_owned),
            create_succeeded: mr.annotation(keys::CREATE_SUCCEEDED).map(str::to_owned),
            create_failed: mr.annotation(keys::CREATE_FAILED).map(str::to_owned),
            last_logged_id: None,
            provider_config: mr.provider_config.clone(),
            composite,
            claim,
        }
    }
}

impl ResourceRef {
    /// The reference of one MR.
    pub fn of(mr: &ManagedResource) -> ResourceRef {
        ResourceRef {
            api_version: mr.api_version.clone(),
            kind: mr.kind.clone(),
            namespace: mr.namespace.clone(),
            name: mr.name.clone(),
            uid: mr.uid.clone(),
            cluster: None,
            source: None,
        }
    }
}

/// One finding about one resource.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportFinding {
    /// The MR.
    pub resource: ResourceRef,
    /// The finding.
    #[serde(flatten)]
    pub finding: Finding,
    /// The MR's identity-related state.
    pub state: ResourceState,
}

/// A kind that could not be scanned, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SkippedKind {
    /// `plural.group`.
    pub resource: String,
    /// The reason, e.g. `forbidden (403)`.
    pub reason: String,
    /// The cluster it belongs to, in a report of several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
}

/// Counts that say how complete and how healthy the scan was.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Whether every selected kind was listed in full and every object decoded: `false` means the
    /// findings are a lower bound (see `kindsSkipped` and `unreadable`). Spelled out, rather than
    /// left for scripts to infer, so a partial result can never pass for a healthy fleet.
    pub complete: bool,
    /// MR kinds listed successfully.
    pub kinds_scanned: usize,
    /// MR kinds that could not be listed.
    pub kinds_skipped: Vec<SkippedKind>,
    /// MRs decoded and diagnosed.
    pub resources_scanned: usize,
    /// Objects that could not be decoded (wrong field types), by name where known.
    pub unreadable: Vec<String>,
    /// Input files cut short (an inventory export ending with a paging token): what they would
    /// have shown on their missing pages is unknown. Absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inputs_truncated: Vec<String>,
    /// Findings shown, by severity.
    pub findings: BTreeMap<Severity, usize>,
    /// Findings shown, by code.
    pub by_code: BTreeMap<Code, usize>,
    /// Other notes about the scan (log sources read, lines skipped, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// One block per cluster when the report covers several (see `domain::clusters`), so a
    /// script sees which cluster was read in full, which partly and which not at all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clusters: Vec<ClusterSummary>,
    /// MRs whose cloud object a provider restart would create again right now: created, but
    /// their ID lives only in the provider's memory or workspace (no external-name, or a
    /// placeholder, on a kind no initializer names); or re-applied without the external-name of
    /// an object the evidence shows they had (deleted with `deletionPolicy: Orphan`), which the
    /// next reconcile creates a second time. Absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub restart_duplicates: usize,
    /// The kinds going away (their CRD or MRD being deleted), once each: how many of their MRs
    /// the report shows deleted with them and how many delete their cloud object
    /// (`KindBeingDeleted`). Absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kinds_being_deleted: Vec<KindGoing>,
    /// The composition trees (a claim, else an XR) with at least one finding shown on an MR of
    /// theirs. Absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub trees_with_findings: usize,
    /// What a lint of manifests read and ran (`doctor --from` over desired state); absent
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lint: Option<LintSummary>,
}

/// What a lint read, what it skipped and which rules it ran.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LintSummary {
    /// Files read (stdin counts as one).
    pub files: usize,
    /// Managed resources judged.
    pub manifests: usize,
    /// Of those, objects read back from a cluster (status, uid or resourceVersion): judged as
    /// desired state only.
    pub live_objects: usize,
    /// Kubernetes objects of kinds that are not managed resources (no `spec.forProvider`).
    pub skipped_not_managed: usize,
    /// Documents that are not Kubernetes objects (no kind, apiVersion or name).
    pub skipped_not_objects: usize,
    /// Documents that are not valid YAML (each also in `unreadable` with its file and line).
    pub syntax_errors: usize,
    /// The codes whose rules ran, in rule order.
    pub rules_run: Vec<Code>,
    /// The codes whose rules need a cluster (status, events, logs, the cloud), in rule order.
    pub rules_need_cluster: Vec<Code>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    /// Whether part of the fleet could not be read, so a clean result would be a lie.
    pub fn incomplete(&self) -> bool {
        !self.kinds_skipped.is_empty()
            || !self.unreadable.is_empty()
            || !self.inputs_truncated.is_empty()
            || self.clusters.iter().any(|c| !c.complete)
    }
}

/// The doctor's whole answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Always `upjet.doctor/v1`.
    pub api_version: &'static str,
    /// Always `Report`.
    pub kind: &'static str,
    /// Findings, most severe first, then by resource.
    pub findings: Vec<ReportFinding>,
    /// Counts.
    pub summary: Summary,
}

/// Which findings the user asked to see.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Minimum severity shown.
    pub min_severity: Option<Severity>,
    /// Only these codes (empty = all).
    pub only: Vec<Code>,
    /// Never these codes.
    pub ignore: Vec<Code>,
}

impl Filter {
    /// Whether a finding passes.
    pub fn keeps(&self, f: &Finding) -> bool {
        self.min_severity.is_none_or(|s| f.severity >= s)
            && (self.only.is_empty() || self.only.contains(&f.code))
            && !self.ignore.contains(&f.code)
    }
}

/// Accumulates findings MR by MR while a scan streams pages, keeping only what the report needs.
#[derive(Debug, Default)]
pub struct ReportBuilder {
    findings: Vec<ReportFinding>,
    summary: Summary,
    filter: Filter,
}

impl ReportBuilder {
    /// A builder applying `filter`.
    pub fn new(filter: Filter) -> Self {
        ReportBuilder { filter, ..Default::default() }
    }

    /// Counts MRs that were decoded and diagnosed (whether or not they had findings).
    pub fn scanned(&mut self, n: usize) {
        self.summary.resources_scanned += n;
    }

    /// Records the findings of one diagnosed MR.
    pub fn add(&mut self, mr: &ManagedResource, findings: Vec<Finding>, state: impl FnOnce() -> ResourceState) {
        let kept: Vec<Finding> = findings.into_iter().filter(|f| self.filter.keeps(f)).collect();
        if kept.is_empty() {
            return;
        }
        let (resource, state) = (ResourceRef::of(mr), state());
        for finding in kept {
            self.findings.push(ReportFinding { resource: resource.clone(), finding, state: state.clone() });
        }
    }

    /// Records the findings of one linted manifest, with where its file holds it.
    pub fn add_at(&mut self, mr: &ManagedResource, findings: Vec<Finding>, source: SourceLocation) {
        let before = self.findings.len();
        self.add(mr, findings, || ResourceState::of(mr));
        for f in &mut self.findings[before..] {
            f.resource.source = Some(source.clone());
        }
    }

    /// Records what a lint read and ran.
    pub fn lint(&mut self, summary: LintSummary) {
        self.summary.lint = Some(summary);
    }

    /// Records an object that could not be decoded.
    pub fn unreadable(&mut self, what: String) {
        self.summary.unreadable.push(what);
    }

    /// Records an input file cut short: the report is partial.
    pub fn input_truncated(&mut self, what: String) {
        self.summary.inputs_truncated.push(what);
    }

    /// Records a kind listed successfully.
    pub fn kind_scanned(&mut self) {
        self.summary.kinds_scanned += 1;
    }

    /// Records a kind that could not be listed.
    pub fn kind_skipped(&mut self, resource: String, reason: String) {
        self.summary.kinds_skipped.push(SkippedKind { resource, reason, cluster: None });
    }

    /// Records how many MRs a provider restart would create again (see
    /// [`Summary::restart_duplicates`]).
    pub fn restart_duplicates(&mut self, n: usize) {
        // Each counted MR is a `RestoreCreatesDuplicate` a restart would make: counted only when
        // `--only`, `--ignore` and `--severity` would show that finding.
        if self.filter.keeps(&Finding::new(Code::RestoreCreatesDuplicate, String::new(), String::new())) {
            self.summary.restart_duplicates += n;
        }
    }

    /// Adds a note about the scan.
    pub fn note(&mut self, note: String) {
        self.summary.notes.push(note);
    }

    /// Adds a finding not tied to one MR's own rules (e.g. from log evidence).
    pub fn push(&mut self, rf: ReportFinding) {
        if self.filter.keeps(&rf.finding) {
            self.findings.push(rf);
        }
    }

    /// Sorts and counts.
    pub fn finish(mut self) -> Report {
        sort_findings(&mut self.findings);
        for rf in &self.findings {
            *self.summary.findings.entry(rf.finding.severity).or_default() += 1;
            *self.summary.by_code.entry(rf.finding.code).or_default() += 1;
        }
        self.summary.kinds_skipped.sort_by(|a, b| a.resource.cmp(&b.resource));
        self.summary.kinds_being_deleted = kinds_going(&self.findings);
        self.summary.trees_with_findings = trees_with_findings(&self.findings);
        self.summary.unreadable.sort();
        self.summary.complete = !self.summary.incomplete();
        Report { api_version: "upjet.doctor/v1", kind: "Report", findings: self.findings, summary: self.summary }
    }
}

/// The kinds going away, once each (per cluster in a report of several), from the report's
/// `KindBeingDeleted` findings: how many MRs and how many of them delete their cloud object.
pub(crate) fn kinds_going(findings: &[ReportFinding]) -> Vec<KindGoing> {
    let mut by: BTreeMap<(Option<String>, String), KindGoing> = BTreeMap::new();
    for f in findings.iter().filter(|f| f.finding.code == Code::KindBeingDeleted) {
        let r = &f.resource;
        let kind = match r.api_version.rsplit_once('/') {
            Some((group, _)) if !group.is_empty() => format!("{}.{group}", r.kind.to_lowercase()),
            _ => r.kind.to_lowercase(),
        };
        let going = by.entry((r.cluster.clone(), kind.clone())).or_insert_with(|| KindGoing {
            kind,
            cluster: r.cluster.clone(),
            definitions: f.finding.evidence.get(DEFINITIONS).cloned().unwrap_or_default(),
            managed_resources: 0,
            delete_cloud_objects: 0,
            keep: KEEP.to_string(),
        });
        going.managed_resources += 1;
        if f.finding.evidence.get(CLOUD_OBJECT).map(String::as_str) == Some("deleted") {
            going.delete_cloud_objects += 1;
        }
    }
    by.into_values().collect()
}

/// How many composition trees (per cluster) the findings touch: each finding's claim, else XR.
pub(crate) fn trees_with_findings(findings: &[ReportFinding]) -> usize {
    let roots: std::collections::BTreeSet<(Option<&String>, String)> = findings
        .iter()
        .filter_map(|f| {
            root_of(f.state.composite.as_ref(), f.state.claim.as_ref()).map(|r| (f.resource.cluster.as_ref(), r))
        })
        .collect();
    roots.len()
}

/// The report's order: most severe first, then cluster, namespace, kind, name and code.
pub(crate) fn sort_findings(findings: &mut [ReportFinding]) {
    findings.sort_by(|a, b| {
        b.finding
            .severity
            .cmp(&a.finding.severity)
            .then_with(|| a.resource.cluster.cmp(&b.resource.cluster))
            .then_with(|| a.resource.namespace.cmp(&b.resource.namespace))
            .then_with(|| a.resource.kind.cmp(&b.resource.kind))
            .then_with(|| a.resource.name.cmp(&b.resource.name))
            .then_with(|| a.finding.code.cmp(&b.finding.code))
    });
}

impl Report {
    /// Completes every finding's XR and claim with what the run read of the tree (the claim's
    /// kind, the XR's namespace).
    pub fn complete_trees(&mut self, index: &Composites) {
        for f in &mut self.findings {
            super::composition::complete(&mut f.state.composite, &mut f.state.claim, index);
        }
    }

    /// The most severe finding shown, if any.
    pub fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.finding.severity).max()
    }
}
