//! `spec.managementPolicies`, with crossplane-runtime's rules for what each set allows.

use super::managed::ManagedResource;

/// The management policies of an MR as the reconciler interprets them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policies {
    /// The listed actions; `None` means the field is absent and the API default `["*"]` applies.
    pub listed: Option<Vec<String>>,
}

impl Policies {
    /// Reads the policies of an MR.
    pub fn of(mr: &ManagedResource) -> Policies {
        Policies { listed: mr.management_policies.clone() }
    }

    fn has(&self, action: &str) -> bool {
        match &self.listed {
            None => true,
            Some(list) => list.iter().any(|p| p == "*" || p == action),
        }
    }

    /// An explicitly empty list pauses reconciliation (`ManagementPoliciesResolver.IsPaused`).
    pub fn is_paused(&self) -> bool {
        matches!(&self.listed, Some(list) if list.is_empty())
    }

    /// `ShouldLateInitialize`: the only path by which upjet persists an external-name it learns
    /// after an asynchronous create.
    pub fn should_late_initialize(&self) -> bool {
        self.has("LateInitialize")
    }

    /// `ShouldCreate`.
    pub fn should_create(&self) -> bool {
        self.has("Create")
    }

    /// `ShouldDelete`: deleting the MR deletes the cloud object (for namespaced MRs, which have no
    /// `deletionPolicy`, this alone decides).
    pub fn should_delete(&self) -> bool {
        self.has("Delete")
    }

    /// `ShouldOnlyObserve`: true only for exactly `["Observe"]`.
    pub fn only_observe(&self) -> bool {
        matches!(&self.listed, Some(list) if !list.is_empty() && list.iter().all(|p| p == "Observe"))
    }

    /// A short rendering for evidence: `["Observe","Create"]`, or `(default ["*"])`.
    pub fn describe(&self) -> String {
        match &self.listed {
            None => "(default [\"*\"])".to_string(),
            Some(list) => serde_json::to_string(list).unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(list: Option<&[&str]>) -> Policies {
        Policies { listed: list.map(|l| l.iter().map(|s| s.to_string()).collect()) }
    }

    #[test]
    fn rules() {
        // (policies, paused, late-init, create, delete, only-observe)
        let cases: &[(Option<&[&str]>, bool, bool, bool, bool, bool)] = &[
            (None, false, true, true, true, false),
            (Some(&["*"]), false, true, true, true, false),
            (Some(&[]), true, false, false, false, false),
            (Some(&["Observe"]), false, false, false, false, true),
            (Some(&["Observe", "Observe"]), false, false, false, false, true),
            (Some(&["Observe", "Create", "Update", "Delete"]), false, false, true, true, false),
            (Some(&["Observe", "Create", "Update", "LateInitialize"]), false, true, true, false, false),
        ];
        for (list, paused, li, create, delete, observe) in cases {
            let pol = p(*list);
            assert_eq!(
                (
                    pol.is_paused(),
                    pol.should_late_initialize(),
                    pol.should_create(),
                    pol.should_delete(),
                    pol.only_observe()
                ),
                (*paused, *li, *create, *delete, *observe),
                "{list:?}"
            );
        }
    }
}
