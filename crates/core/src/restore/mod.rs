//! What a Velero restore does to a managed resource, modelled on the code that runs after it.
//!
//! Velero creates each backed-up MR again with its metadata (annotations included) and spec, and
//! drops `uid`, `resourceVersion`, `generation`, `creationTimestamp` and `status`
//! (`pkg/restore/restore.go` `resetMetadataAndStatus`; status only comes back for resources named
//! in `--status-include-resources`). The provider then meets an MR it has no state for: upjet
//! rebuilds Terraform state from the external-name alone (`pkg/controller/external_tfpluginsdk.go`
//! `Connect`: `params["id"] = GetIDFn(externalName)`), so restoring `status.atProvider` or not
//! changes nothing; an MR whose cloud ID lived only in its status or in the provider's memory is
//! created again. A provider restart loses the same memory, which is why the same verdict answers
//! "what would a restart create twice".
//!
//! This module holds what restoring an MR depends on beyond the object ([`MrRestore`],
//! [`RestoreModel`]); the judgement itself is the rule book's (`rules::restore_verdict`), which
//! the rules `Restore*` report; `modifiers` stages a restore that creates nothing, and
//! `crate::promote` finishes it (a module of its own: it writes through adopt's pieces, and adopt
//! judges with the rule book, which reads what this module holds).

pub mod modifiers;

use crate::identity::{Identity, Peers};
use crate::managed::{ManagedResource, keys};
use crate::policies::ManagementPolicies;
use crate::shell::ShellCommand;
use std::collections::{BTreeMap, HashMap};

/// What restoring one MR depends on beyond its own object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MrRestore {
    /// Whether upjet's name initializer gives this kind's MRs their external-name
    /// (`managed.NewNameAsExternalName` unless the kind sets `DisableNameInitializer`): learned
    /// from the kind's healthy peers, `None` when they are too few to tell.
    pub name_initialized: Option<bool>,
    /// The MR in the source cluster that still tracks the same cloud object and can change it
    /// (`--source-context`).
    pub source_tracker: Option<SourceTracker>,
    /// The command that activates this MR's kind, when its ManagedResourceDefinition is inactive
    /// on the target cluster (`--target-context`): the restore skips the MR.
    pub inactive_kind: Option<String>,
}

/// An MR of the source cluster (`--source-context`) that tracks a cloud object: shown as
/// `context: kind.group/name [-n ns]`, and paused there by [`SourceTracker::pause`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceTracker {
    /// The kubeconfig context of the source cluster.
    pub context: String,
    /// `kind.group/name`.
    pub reference: String,
    /// Its namespace, when namespaced.
    pub namespace: Option<String>,
}

impl SourceTracker {
    /// `mr`, read from the cluster of `context`.
    pub fn of(context: &str, mr: &ManagedResource) -> SourceTracker {
        SourceTracker { context: context.to_string(), reference: mr.reference(), namespace: mr.namespace.clone() }
    }

    /// The command that pauses it in its own cluster, so that it stops changing the object.
    pub fn pause(&self) -> ShellCommand {
        ShellCommand::kubectl("annotate")
            .opt("--context", &self.context)
            .target(&self.reference, self.namespace.as_deref())
            .arg(format!("{}=true", keys::PAUSED))
    }
}

impl std::fmt::Display for SourceTracker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.context, self.reference)?;
        match &self.namespace {
            Some(ns) => write!(f, " -n {ns}"),
            None => Ok(()),
        }
    }
}

/// What the restore rules know about a whole backup: per kind whether names are initialized, and
/// the source cluster's MRs by the cloud object they track.
#[derive(Clone, Debug, Default)]
pub struct RestoreModel {
    name_initialized: BTreeMap<(String, String), Option<bool>>,
    /// (group, kind, external-name) → the source MR that tracks it.
    trackers: HashMap<(String, String, String), SourceTracker>,
    /// The target cluster's ManagedResourceDefinitions (`--target-context`), empty when not read.
    pub target: crate::mrd::MrdStates,
}

/// Whether a kind's learned identity is upjet's `NameAsIdentifier` as its initializer leaves it:
/// every healthy peer's external-name is its `metadata.name`. A provider-assigned or templated
/// identity is not (`IdentifierFromProvider` sets `DisableNameInitializer`).
pub(crate) fn name_initialized(identity: Option<&Identity>) -> Option<bool> {
    match identity? {
        Identity::TooFewPeers { .. } => None,
        Identity::ProviderAssigned { .. } => Some(false),
        Identity::Templates { agreed, .. } => Some(agreed.iter().any(|a| a.template.to_string() == "{name}")),
    }
}

impl RestoreModel {
    /// The model of a backup whose healthy peers have been learned.
    pub fn new(peers: &Peers, kinds: impl IntoIterator<Item = (String, String)>) -> RestoreModel {
        let name_initialized = kinds
            .into_iter()
            .map(|(group, kind)| {
                let learned = name_initialized(peers.identity(&group, &kind));
                ((group, kind), learned)
            })
            .collect();
        RestoreModel { name_initialized, trackers: HashMap::new(), target: Default::default() }
    }

    /// Records a source-cluster MR that tracks `mr`'s external-name and may still change its
    /// cloud object, read from the cluster of `context`.
    pub fn track(&mut self, mr: &ManagedResource, context: &str) {
        if let Some(ext) = mr.external_name() {
            let who = SourceTracker::of(context, mr);
            self.trackers.insert((mr.group().to_string(), mr.kind.clone(), ext.to_string()), who);
        }
    }

    /// What restoring `mr` depends on.
    pub fn for_mr(&self, mr: &ManagedResource) -> MrRestore {
        let kind = (mr.group().to_string(), mr.kind.clone());
        let source_tracker = mr
            .external_name()
            .and_then(|ext| self.trackers.get(&(kind.0.clone(), kind.1.clone(), ext.to_string())))
            .cloned();
        let inactive_kind = self.target.inactive(&kind.0, &kind.1).map(|m| m.activate_command());
        MrRestore {
            name_initialized: self.name_initialized.get(&kind).copied().flatten(),
            source_tracker,
            inactive_kind,
        }
    }
}

/// Whether a live source-cluster MR can still change the cloud object it tracks: not paused, not
/// being deleted, and its policies allow more than observing.
pub fn can_change_cloud(mr: &ManagedResource) -> bool {
    let m = ManagementPolicies::of(mr);
    let paused = mr.annotation(keys::PAUSED) == Some("true") || m.is_paused();
    !paused && mr.deletion_timestamp.is_none() && (m.should_create() || m.should_update() || m.should_delete())
}

#[cfg(test)]
mod tests;
