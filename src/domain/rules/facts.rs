//! What a rule may look at for one MR, computed once so that no rule re-derives it.

use super::mr_evidence::MrEvidence;
use crate::domain::create_marks::CreateMarks;
use crate::domain::finding::Finding;
use crate::domain::managed::{ManagedResource, keys};
use crate::domain::policies::{ManagementPolicies, Policies};

/// Everything a rule may look at, computed once per MR: the object's own state plus whatever
/// evidence (provider logs, provider restarts) was gathered for it.
pub struct Facts<'a> {
    /// The MR.
    pub mr: &'a ManagedResource,
    /// Its create annotations, parsed like crossplane-runtime.
    pub marks: CreateMarks,
    /// Its management policies.
    pub policies: Policies,
    /// What the reconciler makes of them (`ManagementPoliciesResolver`, management policies on).
    pub management: ManagementPolicies,
    /// Paused by annotation (exactly "true") or by an empty policy list.
    pub paused: bool,
    /// Ready=False/Creating with Synced=True, or AsyncOperation Ongoing: upjet is working on it.
    pub in_flight: bool,
    /// Evidence beyond the object, when any was gathered (logs read or provider starts known).
    pub evidence: Option<&'a MrEvidence>,
}

impl<'a> Facts<'a> {
    /// Derives the facts of one MR from the object alone.
    pub fn of(mr: &'a ManagedResource) -> Facts<'a> {
        let policies = Policies::of(mr);
        let paused = mr.annotation(keys::PAUSED) == Some("true") || policies.is_paused();
        let creating = mr.condition("Ready").is_some_and(|c| c.status == "False" && c.reason == "Creating");
        let in_flight =
            (creating && mr.is_true("Synced")) || mr.condition("AsyncOperation").is_some_and(|c| c.reason == "Ongoing");
        let management = ManagementPolicies::of(mr);
        Facts { mr, marks: CreateMarks::of(mr), policies, management, paused, in_flight, evidence: None }
    }

    /// Derives the facts of one MR and attaches the evidence gathered for it.
    pub fn with_evidence(mr: &'a ManagedResource, evidence: Option<&'a MrEvidence>) -> Facts<'a> {
        Facts { evidence, ..Facts::of(mr) }
    }

    /// The Synced condition's message when Synced is False.
    pub(super) fn synced_message(&self) -> Option<&str> {
        self.mr.condition("Synced").filter(|c| c.status == "False").map(|c| c.message.as_str())
    }

    /// The MR as a `kubectl upjet` argument (`kind.group/name [-n ns]`).
    pub(super) fn arg(&self) -> String {
        self.mr.command_arg()
    }

    /// The MR as a plain `kubectl` target (`kind.group name [-n ns]`).
    pub(super) fn kubectl_target(&self) -> String {
        let r = self.mr.reference().replacen('/', " ", 1);
        match &self.mr.namespace {
            Some(ns) => format!("{r} -n {ns}"),
            None => r,
        }
    }

    /// Adds the three create annotations, as written, to a finding's evidence.
    pub(super) fn with_marks(&self, f: Finding) -> Finding {
        let m = &self.marks;
        f.with_opt(keys::CREATE_PENDING, m.pending.raw.clone())
            .with_opt(keys::CREATE_SUCCEEDED, m.succeeded.raw.clone())
            .with_opt(keys::CREATE_FAILED, m.failed.raw.clone())
    }
}
