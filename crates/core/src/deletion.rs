//! What deleting an MR does to its cloud object, walking the managed reconciler's gates in its
//! own order (crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile`): pause →
//! `Validate` of the policies → the orphan fast path (finalizer removed when `!ShouldDelete`) →
//! the create-incomplete gate → Observe and Delete. Whichever gate stops the reconciler first
//! decides; the later ones never run. Before all of them, a delete must be admitted: a
//! Crossplane Usage that names the MR makes Crossplane's webhook refuse it (crossplane
//! `internal/webhook/protection/usage/handler.go`: a DELETE of an object labelled
//! `crossplane.io/in-use` is denied with 409 Conflict while `FindUsageOf` finds a Usage, and the
//! attempt is recorded in `usage.crossplane.io/deletion-attempt-with-policy`).

use super::create_marks::CreateMarks;
use super::managed::{ManagedResource, keys};
use super::policies::ManagementPolicies;

/// The first gate a deleted MR meets, and so what happens to its cloud object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnDelete {
    /// Paused (annotation or empty policies): the reconciler stops before deletion handling,
    /// so the finalizer stays and nothing happens to the cloud object.
    Paused,
    /// The policy set fails `Validate`, which runs before deletion handling: the finalizer
    /// stays. Holds the reconciler's error text.
    Unsupported(String),
    /// `!ShouldDelete`: the finalizer is removed without calling the provider; the cloud
    /// object stays, untracked.
    Orphans,
    /// `ShouldDelete`, but `meta.ExternalCreateIncomplete`: the create-incomplete gate stops the
    /// reconciler before Observe and Delete, so the finalizer stays.
    BlockedByCreateGate,
    /// `ShouldDelete`: the provider deletes the cloud object, then removes the finalizer.
    Deletes,
}

/// What deleting an MR does, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deletion {
    /// The outcome.
    pub on_delete: OnDelete,
    /// Why the policies decide as they do (`ShouldDelete`), whatever gate stops first.
    pub policy_reason: String,
    /// A Crossplane Usage may name the MR (`crossplane.io/in-use`): its webhook refuses the
    /// delete itself while one does; with the propagation policy of a delete it already
    /// refused, when the MR records one.
    pub usage: Option<Usage>,
}

/// A Crossplane Usage in the way of a delete, as the MR shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Usage {
    /// `usage.crossplane.io/deletion-attempt-with-policy`: a delete was refused already, with
    /// this propagation policy.
    pub refused: Option<String>,
}

impl Usage {
    /// The Usage of `mr`, when it carries the in-use label.
    pub fn of(mr: &ManagedResource) -> Option<Usage> {
        mr.in_use.then(|| Usage { refused: mr.annotation(keys::USAGE_DELETION_ATTEMPT).map(str::to_owned) })
    }

    /// What the Usage does to a delete, before the reconciler's gates.
    pub fn describe(&self) -> String {
        let first = "refused while a Crossplane Usage names the MR (label crossplane.io/in-use: Crossplane's webhook answers 409 Conflict and nothing is deleted; delete the Usage, or point its spec.of elsewhere, to let a delete through)";
        match &self.refused {
            Some(policy) => format!(
                "{first}. One was refused already ({} {policy}): a Usage with spec.replayDeletion deletes the MR by itself once the Usage is gone",
                keys::USAGE_DELETION_ATTEMPT
            ),
            None => first.to_string(),
        }
    }
}

impl Deletion {
    /// Walks the reconciler's gates for `mr` as it is now (management policies enabled).
    pub fn of(mr: &ManagedResource) -> Deletion {
        let policies = ManagementPolicies::of(mr);
        let policy_reason = policies.delete_reason();
        let on_delete = if mr.annotation(keys::PAUSED) == Some("true") || policies.is_paused() {
            OnDelete::Paused
        } else if let Err(e) = policies.validate() {
            OnDelete::Unsupported(e.message)
        } else if !policies.should_delete() {
            OnDelete::Orphans
        } else if CreateMarks::of(mr).incomplete() {
            OnDelete::BlockedByCreateGate
        } else {
            OnDelete::Deletes
        };
        Deletion { on_delete, policy_reason, usage: Usage::of(mr) }
    }

    /// What deleting the MR does while a create it started may still be running (doctor's
    /// `CreateInFlight`, its result due by `due`): the gate is not reached until that reconcile
    /// has recorded its result, and then the deletion goes on as the policies say.
    pub fn describe_after_create(&self, due: &str) -> String {
        match self.on_delete {
            OnDelete::BlockedByCreateGate => format!(
                "nothing until the create in flight records its result (by {due}); then it deletes the cloud object ({})",
                self.policy_reason
            ),
            _ => self.describe(),
        }
    }

    /// Whether the finalizer stays: the MR would hang in Terminating.
    pub fn hangs(&self) -> bool {
        matches!(self.on_delete, OnDelete::Paused | OnDelete::Unsupported(_) | OnDelete::BlockedByCreateGate)
    }

    /// What deleting the MR does to the cloud object, and why: the Usage in the way first, when
    /// one may be.
    pub fn describe(&self) -> String {
        match &self.usage {
            Some(usage) => format!("{}; once a delete is admitted: {}", usage.describe(), self.describe_gates()),
            None => self.describe_gates(),
        }
    }

    /// One sentence: what a delete the API server admitted does to the cloud object, and why.
    fn describe_gates(&self) -> String {
        let why = &self.policy_reason;
        match &self.on_delete {
            OnDelete::Paused => "nothing: reconciliation is paused, so the finalizer is never removed and the MR hangs in deletion".to_string(),
            OnDelete::Unsupported(_) => "nothing: the reconciler rejects spec.managementPolicies before it handles deletion, so the finalizer is never removed".to_string(),
            OnDelete::Orphans => format!("leaves the cloud object in place, untracked (the finalizer is removed without calling the provider): {why}"),
            OnDelete::BlockedByCreateGate => format!("nothing yet: the create-incomplete gate stops the reconciler before it can delete, so the finalizer stays; once the gate is resolved it deletes the cloud object ({why})"),
            OnDelete::Deletes => format!("deletes the cloud object, then removes the finalizer: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Mr;

    /// crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile`: the pause gate,
    /// `policy.Validate`, `meta.WasDeleted && !policy.ShouldDelete` (orphan fast path), then
    /// `meta.ExternalCreateIncomplete`, in that order.
    const CASES: &[(&str, fn() -> Mr, OnDelete)] = &[
        ("default policies, Delete", || Mr::new("Vpc", "v"), OnDelete::Deletes),
        ("Orphan, default", || Mr::new("Vpc", "v").deletion_policy("Orphan"), OnDelete::Orphans),
        (
            "Orphan loses to non-default policies with Delete",
            || Mr::new("Vpc", "v").deletion_policy("Orphan").policies(&["Observe", "Create", "Update", "Delete"]),
            OnDelete::Deletes,
        ),
        ("namespaced, Observe only", || Mr::new("Vpc", "v").namespace("a").policies(&["Observe"]), OnDelete::Orphans),
        (
            "paused first",
            || Mr::new("Vpc", "v").annotation(keys::PAUSED, "true").policies(&["Delete"]),
            OnDelete::Paused,
        ),
        ("empty policies pause", || Mr::new("Vpc", "v").policies(&[]), OnDelete::Paused),
        (
            "create gate blocks a deleting MR",
            || {
                Mr::new("Vpc", "v")
                    .annotation(keys::CREATE_PENDING, "2024-11-30T10:53:07Z")
                    .annotation(keys::CREATE_SUCCEEDED, "2024-11-30T10:53:06Z")
            },
            OnDelete::BlockedByCreateGate,
        ),
        (
            "orphan fast path runs before the create gate",
            || Mr::new("Vpc", "v").deletion_policy("Orphan").annotation(keys::CREATE_PENDING, "2024-11-30T10:53:07Z"),
            OnDelete::Orphans,
        ),
    ];

    /// crossplane `internal/webhook/protection/usage/handler.go`: a DELETE of an object labelled
    /// `crossplane.io/in-use` is refused (409) while a Usage names it, and the refused attempt's
    /// propagation policy is recorded on the object.
    #[test]
    fn a_usage_refuses_the_delete_before_any_gate() {
        let plain = Deletion::of(&Mr::new("Vpc", "v").build());
        assert_eq!(plain.usage, None);
        assert!(plain.describe().starts_with("deletes the cloud object"), "{}", plain.describe());
        let used = Mr::new("Vpc", "v").label(keys::IN_USE_LABEL, "true").build();
        let d = Deletion::of(&used);
        assert_eq!(d.usage, Some(Usage { refused: None }));
        assert!(d.describe().starts_with("refused while a Crossplane Usage names the MR"), "{}", d.describe());
        assert!(d.describe().contains("; once a delete is admitted: deletes the cloud object"), "{}", d.describe());
        let refused = Mr::new("Vpc", "v")
            .label(keys::IN_USE_LABEL, "true")
            .annotation(keys::USAGE_DELETION_ATTEMPT, "Foreground")
            .build();
        let d = Deletion::of(&refused);
        assert_eq!(d.usage, Some(Usage { refused: Some("Foreground".into()) }));
        assert!(
            d.describe()
                .contains("One was refused already (usage.crossplane.io/deletion-attempt-with-policy Foreground)"),
            "{}",
            d.describe()
        );
        let not_in_use = Mr::new("Vpc", "v").label(keys::IN_USE_LABEL, "false").build();
        assert_eq!(Deletion::of(&not_in_use).usage, None, "only the value \"true\" is the controller's");
    }

    #[test]
    fn gates_in_reconciler_order() {
        for (name, mr, want) in CASES {
            let d = Deletion::of(&mr().build());
            assert_eq!(&d.on_delete, want, "{name}");
            assert!(!d.describe().is_empty());
        }
        let d = Deletion::of(&Mr::new("Vpc", "v").policies(&["Create", "Delete"]).build());
        assert!(matches!(&d.on_delete, OnDelete::Unsupported(m) if m.contains("not supported")), "{d:?}");
        assert!(d.hangs());
    }
}
