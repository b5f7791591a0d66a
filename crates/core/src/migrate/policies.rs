//! Management policies across the move, by crossplane-runtime's `ManagementPoliciesResolver`
//! (`pkg/reconciler/managed/policies.go`, `ShouldDelete`): for a legacy MR, a non-default set
//! that contains `Delete` deletes the cloud object whatever `deletionPolicy` says, and
//! `deletionPolicy: Orphan` keeps it only when the set lacks `Delete` or is the default `["*"]`.
//! Namespaced MRs have no `deletionPolicy`: only the set decides.

use crate::policies::{ManagementPolicies, Policies, ResolverKind};

/// Every action but `Delete`: what `["*"]` with `deletionPolicy: Orphan` means on a namespaced MR.
const ALL_BUT_DELETE: [&str; 4] = ["Observe", "Create", "Update", "LateInitialize"];

fn without_delete(listed: &Option<Vec<String>>) -> Vec<String> {
    let list = listed.clone().unwrap_or_else(|| vec!["*".into()]);
    if list.iter().any(|p| p == "*") {
        return ALL_BUT_DELETE.iter().map(|s| s.to_string()).collect();
    }
    let rest: Vec<String> = list.into_iter().filter(|p| p != "Delete").collect();
    let resolver = ManagementPolicies::new(true, &Policies { listed: Some(rest) }, ResolverKind::Modern);
    resolver.nearest_supported().into_iter().map(str::to_owned).collect()
}

/// The namespaced MR's final policies: the legacy's own when deleting the legacy MR would have
/// deleted the cloud object, else the legacy's without `Delete` (so deleting the new MR keeps
/// the object, as `deletionPolicy: Orphan` did). `None` keeps the field absent (`["*"]`).
pub fn final_policies(listed: &Option<Vec<String>>, deletion_policy: &Option<String>) -> Option<Vec<String>> {
    let scope = ResolverKind::Legacy { deletion_policy: deletion_policy.clone().unwrap_or_else(|| "Delete".into()) };
    let legacy = ManagementPolicies::new(true, &Policies { listed: listed.clone() }, scope);
    if legacy.should_delete() { listed.clone() } else { Some(without_delete(listed)) }
}

/// The policies step a writes on the legacy MR beside `deletionPolicy: Orphan`, when Orphan alone
/// would not keep the cloud object (an explicit set with `Delete`); `None`: leave them as they are.
pub fn hold_policies(listed: &Option<Vec<String>>) -> Option<Vec<String>> {
    let orphan = ResolverKind::Legacy { deletion_policy: "Orphan".into() };
    let held = ManagementPolicies::new(true, &Policies { listed: listed.clone() }, orphan);
    held.should_delete().then(|| without_delete(listed))
}
