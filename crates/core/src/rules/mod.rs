//! The rule book: one file per finding code, each a pure function from [`Facts`] (one MR plus
//! whatever evidence was gathered for it) to findings, and [`ALL`], the one table that runs them.
//!
//! Each rule encodes one way crossplane-runtime or upjet loses track of a cloud object, as
//! described in `docs/findings.md`; the rule's comment names the upstream code path it mirrors.
//! The order of [`ALL`] is the order findings appear in every output.

mod already_exists;
mod async_create_race;
mod async_deadline_passed;
mod async_failure_masked;
mod async_in_flight;
#[cfg(test)]
mod audit_cases;
mod callback_lost;
#[cfg(test)]
mod cases;
mod change_log_duplicate;
mod change_log_lost_on_recreate;
mod change_log_orphan;
#[cfg(test)]
mod changelog_cases;
mod cloud_audit_already_exists;
mod cloud_audit_ambiguous;
#[cfg(test)]
mod cloud_audit_cases;
mod cloud_audit_deleted_by_other;
mod cloud_audit_duplicate;
mod cloud_audit_orphan;
mod composed_duplicate;
mod composed_garbage_collected;
mod composed_orphan;
mod composed_recreated;
#[cfg(test)]
mod composition_cases;
mod composition_owns_identity;
mod create_after_state_rebuild;
mod create_failed;
mod create_in_flight;
mod create_incomplete;
mod debug_logs_missing;
mod deletion_blocked_by_create_gate;
mod deletion_blocked_by_pause;
mod deletion_waits_for_finalizers;
mod external_name_drift;
mod external_name_missing;
mod external_name_off_format;
mod external_name_overwritten;
mod external_name_shared;
mod facts;
mod guard_lock_stale;
mod guard_missing;
mod guard_partial;
mod identity_lost_on_recreate;
#[cfg(test)]
mod inventory_cases;
mod inventory_duplicate;
mod inventory_object_gone;
mod inventory_object_without_mr;
mod inventory_orphan;
mod kind_being_deleted;
mod kstatus_misleading;
mod late_initialize_missing;
mod malformed_annotation;
mod migration_unfinished;
mod mr_evidence;
mod observe_not_found;
mod observe_only_without_external_name;
mod orphan_candidate;
mod paused;
#[cfg(test)]
mod placeholder_cases;
mod placeholder_external_name;
mod poll_interval_too_short;
mod provider_annotation_in_manifest;
mod provider_restarted_during_create;
mod reconcile_not_triggered;
mod reference_outside_manifests;
#[cfg(test)]
mod restore_cases;
mod restore_creates_duplicate;
mod restore_into_fight;
mod restore_kind_inactive;
mod restore_safe;
mod restore_stops_at_create_gate;
pub mod restore_verdict;
mod unexpected_identity_change;
mod unsupported_management_policies;

pub use already_exists::says_already_exists;
pub use facts::{ASYNC_TIMEOUT_SECS, Facts};
pub use mr_evidence::{CallbackFailure, DesiredFacts, LogSource, LoggedCreate, LoggedLine, MrEvidence, ProviderStarts};
pub(crate) use observe_not_found::ERR_OBSERVE_NOT_FOUND;
pub use restore_creates_duplicate::restore_plan;

use super::finding::{Code, Finding};
use super::guard::facts::GuardFacts;
use super::inventory::UnmatchedObject;
use super::managed::ManagedResource;
use super::reconcile_timeout::JudgedAt;
use super::report::ReportFinding;

/// The evidence key that says the MR's external-name is a provider's placeholder.
pub(crate) const PLACEHOLDER: &str = "placeholder";

/// What a rule looks at, and how many findings it may report.
pub enum Check {
    /// The MR object alone; at most one finding.
    Object(fn(&Facts) -> Option<Finding>),
    /// The MR and the evidence gathered for it (logs, provider starts); at most one finding.
    Evidence(fn(&Facts) -> Option<Finding>),
    /// The MR and the evidence gathered for it; one finding per suspicious logged ID.
    EvidenceEach(fn(&Facts) -> Vec<Finding>),
    /// The log sources read, as a whole: findings about a provider or a log file, not an MR.
    Sources(fn(&[LogSource]) -> Vec<ReportFinding>),
    /// The inventory objects no MR was found for: findings about a cloud object, not an MR.
    Objects(fn(&[UnmatchedObject]) -> Vec<ReportFinding>),
    /// A manifest (desired state) and what the other manifests of a lint show about it; run only
    /// by a lint ([`desired_findings`]): an MR read from a cluster says more than its manifest.
    Desired(fn(&Facts) -> Option<Finding>),
    /// The guard's admission policies and lock beside the served kinds and the MRs: a finding
    /// about the cluster, not an MR ([`guard_findings`]).
    Guard(fn(&GuardFacts) -> Option<ReportFinding>),
}

impl Check {
    /// Runs a per-MR check; `Sources` checks report nothing here. Every finding about an MR whose
    /// external-name is a provider's placeholder says so: the rules read it as absent.
    fn on(&self, facts: &Facts) -> Vec<Finding> {
        let found = match self {
            Check::Object(check) | Check::Evidence(check) => check(facts).into_iter().collect(),
            Check::EvidenceEach(check) => check(facts),
            Check::Sources(_) | Check::Objects(_) | Check::Desired(_) | Check::Guard(_) => Vec::new(),
        };
        Self::mark_placeholder(facts, found)
    }

    /// Runs a check in a lint: the desired-state checks, and the others whose code's row says
    /// a lint runs them (`lint` in `domain::codes`).
    fn on_desired(&self, code: Code, facts: &Facts) -> Vec<Finding> {
        match self {
            Check::Desired(check) => Self::mark_placeholder(facts, check(facts).into_iter().collect()),
            _ if code.lint() => self.on(facts),
            _ => Vec::new(),
        }
    }

    fn mark_placeholder(facts: &Facts, found: Vec<Finding>) -> Vec<Finding> {
        match facts.mr.external_name_placeholder() {
            Some(stub) => found.into_iter().map(|f| f.with(PLACEHOLDER, stub.describe())).collect(),
            None => found,
        }
    }
}

/// One rule: the code it reports and how it checks.
pub struct Rule {
    /// The one finding code this rule reports.
    pub code: Code,
    /// The check.
    pub check: Check,
}

/// Every rule, in the order their findings are reported. No rule hides another: each looks at
/// the facts alone, so the order only decides the output order.
pub const ALL: &[Rule] = &[
    Rule { code: Code::CreateIncomplete, check: Check::Object(create_incomplete::check) },
    Rule { code: Code::CreateInFlight, check: Check::Object(create_in_flight::check) },
    Rule { code: Code::ExternalNameMissing, check: Check::Object(external_name_missing::check) },
    Rule { code: Code::ExternalNameDrift, check: Check::Object(external_name_drift::check) },
    Rule { code: Code::AlreadyExists, check: Check::Object(already_exists::check) },
    Rule { code: Code::CreateFailed, check: Check::Object(create_failed::check) },
    Rule { code: Code::AsyncFailureMasked, check: Check::Object(async_failure_masked::check) },
    Rule { code: Code::AsyncInFlight, check: Check::Object(async_in_flight::check) },
    Rule { code: Code::AsyncDeadlinePassed, check: Check::Object(async_deadline_passed::check) },
    Rule { code: Code::Paused, check: Check::Object(paused::check) },
    Rule { code: Code::ObserveNotFound, check: Check::Object(observe_not_found::check) },
    Rule { code: Code::KstatusMisleading, check: Check::Object(kstatus_misleading::check) },
    Rule { code: Code::MalformedAnnotation, check: Check::Object(malformed_annotation::check) },
    Rule { code: Code::PollIntervalTooShort, check: Check::Object(poll_interval_too_short::check) },
    Rule { code: Code::ReconcileNotTriggered, check: Check::Object(reconcile_not_triggered::check) },
    Rule { code: Code::LateInitializeMissing, check: Check::Object(late_initialize_missing::check) },
    Rule { code: Code::DeletionBlockedByPause, check: Check::Object(deletion_blocked_by_pause::check) },
    Rule { code: Code::UnsupportedManagementPolicies, check: Check::Object(unsupported_management_policies::check) },
    Rule { code: Code::DeletionBlockedByCreateGate, check: Check::Object(deletion_blocked_by_create_gate::check) },
    Rule { code: Code::DeletionWaitsForFinalizers, check: Check::Object(deletion_waits_for_finalizers::check) },
    Rule { code: Code::UnexpectedIdentityChange, check: Check::Object(unexpected_identity_change::check) },
    Rule { code: Code::KindBeingDeleted, check: Check::Evidence(kind_being_deleted::check) },
    Rule { code: Code::OrphanCandidate, check: Check::EvidenceEach(orphan_candidate::check) },
    Rule { code: Code::CallbackLost, check: Check::Evidence(callback_lost::check) },
    Rule { code: Code::AsyncCreateRace, check: Check::Evidence(async_create_race::check) },
    Rule { code: Code::CreateAfterStateRebuild, check: Check::Evidence(create_after_state_rebuild::check) },
    Rule { code: Code::ProviderRestartedDuringCreate, check: Check::Evidence(provider_restarted_during_create::check) },
    Rule { code: Code::DebugLogsMissing, check: Check::Sources(debug_logs_missing::check) },
    Rule { code: Code::InventoryOrphan, check: Check::Evidence(inventory_orphan::check) },
    Rule { code: Code::InventoryDuplicate, check: Check::Evidence(inventory_duplicate::check) },
    Rule { code: Code::InventoryObjectWithoutMr, check: Check::Objects(inventory_object_without_mr::check) },
    Rule { code: Code::InventoryObjectGone, check: Check::Evidence(inventory_object_gone::check) },
    Rule { code: Code::ExternalNameOverwritten, check: Check::EvidenceEach(external_name_overwritten::check) },
    Rule { code: Code::IdentityLostOnRecreate, check: Check::Evidence(identity_lost_on_recreate::check) },
    Rule { code: Code::RestoreCreatesDuplicate, check: Check::Evidence(restore_creates_duplicate::check) },
    Rule { code: Code::RestoreStopsAtCreateGate, check: Check::Evidence(restore_stops_at_create_gate::check) },
    Rule { code: Code::RestoreIntoFight, check: Check::Evidence(restore_into_fight::check) },
    Rule { code: Code::RestoreKindInactive, check: Check::Evidence(restore_kind_inactive::check) },
    Rule { code: Code::RestoreSafe, check: Check::Evidence(restore_safe::check) },
    Rule { code: Code::CloudAuditOrphan, check: Check::Evidence(cloud_audit_orphan::check) },
    Rule { code: Code::CloudAuditDuplicate, check: Check::Evidence(cloud_audit_duplicate::check) },
    Rule { code: Code::CloudAuditAlreadyExists, check: Check::Evidence(cloud_audit_already_exists::check) },
    Rule { code: Code::CloudAuditDeletedByOther, check: Check::Evidence(cloud_audit_deleted_by_other::check) },
    Rule { code: Code::CloudAuditAmbiguous, check: Check::Evidence(cloud_audit_ambiguous::check) },
    Rule { code: Code::ChangeLogDuplicate, check: Check::Evidence(change_log_duplicate::check) },
    Rule { code: Code::ChangeLogOrphan, check: Check::Evidence(change_log_orphan::check) },
    Rule { code: Code::ChangeLogLostOnRecreate, check: Check::Evidence(change_log_lost_on_recreate::check) },
    Rule { code: Code::ExternalNameShared, check: Check::Evidence(external_name_shared::check) },
    Rule {
        code: Code::ObserveOnlyWithoutExternalName,
        check: Check::Desired(observe_only_without_external_name::check),
    },
    Rule { code: Code::PlaceholderExternalName, check: Check::Desired(placeholder_external_name::check) },
    Rule { code: Code::ExternalNameOffFormat, check: Check::Desired(external_name_off_format::check) },
    Rule { code: Code::ReferenceOutsideManifests, check: Check::Desired(reference_outside_manifests::check) },
    Rule { code: Code::ProviderAnnotationInManifest, check: Check::Desired(provider_annotation_in_manifest::check) },
    Rule { code: Code::MigrationUnfinished, check: Check::Evidence(migration_unfinished::check) },
    Rule { code: Code::GuardMissing, check: Check::Guard(guard_missing::check) },
    Rule { code: Code::GuardPartial, check: Check::Guard(guard_partial::check) },
    Rule { code: Code::GuardLockStale, check: Check::Guard(guard_lock_stale::check) },
    Rule { code: Code::ComposedGarbageCollected, check: Check::Evidence(composed_garbage_collected::check) },
    Rule { code: Code::ComposedRecreated, check: Check::Evidence(composed_recreated::check) },
    Rule { code: Code::ComposedDuplicate, check: Check::Evidence(composed_duplicate::check) },
    Rule { code: Code::ComposedOrphan, check: Check::Evidence(composed_orphan::check) },
    Rule { code: Code::CompositionOwnsIdentity, check: Check::Evidence(composition_owns_identity::check) },
];

/// The codes a lint runs (their rows say `lint: true`), in [`ALL`] order, and those that need a
/// cluster (or its evidence).
pub fn lint_codes() -> (Vec<Code>, Vec<Code>) {
    ALL.iter().map(|r| r.code).partition(|c| c.lint())
}

/// Every rule a lint runs over one manifest (its facts carry what the other manifests show, in
/// `MrEvidence::desired` and `shared_external_name`), in [`ALL`] order.
pub fn desired_findings(facts: &Facts) -> Vec<Finding> {
    ALL.iter().flat_map(|rule| rule.check.on_desired(rule.code, facts)).collect()
}

/// Every per-MR rule over one MR and its evidence, in [`ALL`] order.
/// The findings that want an ID and name none take the one the ID journal recorded for this MR.
pub fn findings(facts: &Facts) -> Vec<Finding> {
    let mut out: Vec<Finding> = ALL.iter().flat_map(|rule| rule.check.on(facts)).collect();
    if let Some(journaled) = facts.evidence.map(|e| e.journal.as_slice()).filter(|j| !j.is_empty()) {
        super::journal::suggest(&mut out, facts.mr, journaled);
    }
    out
}

/// Only the rules that need evidence beyond the object, in [`ALL`] order: what provider logs and
/// restarts add to an MR's [`diagnose`].
pub fn evidence_findings(facts: &Facts) -> Vec<Finding> {
    ALL.iter()
        .filter(|rule| matches!(rule.check, Check::Evidence(_) | Check::EvidenceEach(_)))
        .flat_map(|rule| rule.check.on(facts))
        .collect()
}

/// Every per-MR rule over one MR and the evidence gathered for it (`None`: nothing gathered),
/// judged at `at` (`Settings::now` and the providers' reconcile timeout).
pub fn findings_with(mr: &ManagedResource, evidence: Option<&MrEvidence>, at: JudgedAt) -> Vec<Finding> {
    findings(&Facts::with_evidence(mr, evidence, at))
}

/// The rules that need the MR object alone, in [`ALL`] order, judged at `at`: what `adopt`
/// reports.
pub fn diagnose(mr: &ManagedResource, at: JudgedAt) -> Vec<Finding> {
    let facts = Facts::of(mr, at);
    ALL.iter().filter(|rule| matches!(rule.check, Check::Object(_))).flat_map(|rule| rule.check.on(&facts)).collect()
}

/// Every rule over the log sources read as a whole, in [`ALL`] order.
pub fn source_findings(sources: &[LogSource]) -> Vec<ReportFinding> {
    ALL.iter()
        .flat_map(|rule| match rule.check {
            Check::Sources(check) => check(sources),
            _ => Vec::new(),
        })
        .collect()
}

/// Every rule over the inventory objects no MR was found for, in [`ALL`] order.
pub fn object_findings(objects: &[UnmatchedObject]) -> Vec<ReportFinding> {
    ALL.iter()
        .flat_map(|rule| match rule.check {
            Check::Objects(check) => check(objects),
            _ => Vec::new(),
        })
        .collect()
}

/// Every rule over the guard's admission policies and lock, in [`ALL`] order: findings about the
/// cluster (doctor over a live cluster, the watch).
pub fn guard_findings(facts: &GuardFacts) -> Vec<ReportFinding> {
    ALL.iter()
        .filter_map(|rule| match rule.check {
            Check::Guard(check) => check(facts),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::cases::{T0, at, base, check_cases};
    use super::*;
    use crate::managed::keys;

    #[test]
    fn every_code_has_exactly_one_rule() {
        for code in Code::ALL {
            let rules = ALL.iter().filter(|r| r.code == *code).count();
            assert_eq!(rules, 1, "{code} has {rules} rules");
        }
        assert_eq!(ALL.len(), Code::ALL.len(), "every rule reports a known code");
    }

    /// The family a code's row declares is the evidence its check reads: an object rule is
    /// `Object`, a lint's own rule `Manifest`, a rule over the log sources `ProviderLog`, over the
    /// inventory's unmatched objects `Inventory`, and a rule that reads an MR's evidence anything
    /// but `Object` or `Manifest` (a rule that needs the shared-names index is `Fleet`).
    #[test]
    fn each_code_row_declares_the_evidence_its_check_reads() {
        use crate::codes::Family;
        for rule in ALL {
            let family = rule.code.family();
            let (reads, agrees) = match rule.check {
                Check::Object(_) => ("the object alone", family == Family::Object),
                Check::Desired(_) => ("a manifest", family == Family::Manifest),
                Check::Sources(_) => ("the log sources", family == Family::ProviderLog),
                Check::Objects(_) => ("the inventory's objects", family == Family::Inventory),
                Check::Guard(_) => ("the guard's objects", family == Family::Guard),
                Check::Evidence(_) | Check::EvidenceEach(_) => {
                    ("the MR's evidence", !matches!(family, Family::Object | Family::Manifest | Family::Guard))
                }
            };
            assert!(agrees, "{}: its row says family {family:?}, its check reads {reads}", rule.code);
            let desired = matches!(rule.check, Check::Desired(_));
            assert!(!desired || rule.code.lint(), "{}: a lint's own rule must say lint: true", rule.code);
        }
    }

    #[test]
    fn healthy_mrs_have_no_findings() {
        check_cases(&[
            (
                "healthy",
                || base().healthy().annotation(keys::CREATE_PENDING, T0).annotation(keys::CREATE_SUCCEEDED, T0),
                &[],
            ),
            ("healthy, no marks, default policies", || base().healthy(), &[]),
        ]);
    }

    #[test]
    fn log_rules_need_evidence() {
        let mr = base().build();
        let facts = Facts::of(&mr, at());
        assert!(orphan_candidate::check(&facts).is_empty());
        assert!(callback_lost::check(&facts).is_none());
        assert!(provider_restarted_during_create::check(&facts).is_none());
    }
}
