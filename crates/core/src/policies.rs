//! `spec.managementPolicies`, with crossplane-runtime's rules for what each set allows.
//!
//! [`Policies`] is the field as written; [`ManagementPolicies`] is crossplane-runtime's
//! `ManagementPoliciesResolver` (`pkg/reconciler/managed/policies.go`): the answers the managed
//! reconciler acts on, including whether it accepts the set at all and whether deleting the MR
//! deletes the cloud object.

use super::managed::ManagedResource;
use std::collections::BTreeSet;

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
    pub(crate) fn is_paused(&self) -> bool {
        matches!(&self.listed, Some(list) if list.is_empty())
    }

    /// `ShouldLateInitialize`: the only path by which upjet persists an external-name it learns
    /// after an asynchronous create.
    pub(crate) fn should_late_initialize(&self) -> bool {
        self.has("LateInitialize")
    }

    /// `ShouldCreate`.
    pub(crate) fn should_create(&self) -> bool {
        self.has("Create")
    }

    #[cfg(test)]
    /// `ShouldOnlyObserve`: true only for exactly `["Observe"]`.
    pub(crate) fn only_observe(&self) -> bool {
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

/// `xpv1.ManagementActionAll`.
pub const ALL: &str = "*";
/// The actions in the order this tool writes them (crossplane's own docs order); with [`ALL`]
/// the values the CRDs' enum admits.
pub(crate) const ACTIONS: [&str; 5] = ["Observe", "Create", "Update", "LateInitialize", "Delete"];

/// `defaultSupportedManagementPolicies`: the only sets the reconciler accepts when management
/// policies are enabled. Compared as sets, so order and duplicates in the MR do not matter. A
/// provider may replace this list (`WithReconcilerSupportedManagementPolicies`); upjet providers
/// keep it.
pub(crate) const SUPPORTED: [&[&str]; 15] = [
    &["*"],
    &["Observe", "Create", "Update", "LateInitialize", "Delete"],
    &["Observe"],
    &[],
    &["Observe", "Create", "Update", "Delete"],
    &["Observe", "Create", "Update", "LateInitialize"],
    &["Observe", "Create", "Update"],
    &["Observe", "Create", "Delete", "LateInitialize"],
    &["Observe", "Create", "LateInitialize"],
    &["Observe", "Create", "Delete"],
    &["Observe", "Create"],
    &["Observe", "Delete"],
    &["Observe", "Update"],
    &["Observe", "LateInitialize"],
    &["Observe", "Update", "LateInitialize"],
];

/// Which resolver crossplane-runtime builds for an MR, and what it weighs besides the policies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolverKind {
    /// A cluster-scoped MR (`resource.LegacyManaged`): `NewLegacyManagementPoliciesResolver`,
    /// which also weighs `spec.deletionPolicy`. An absent deletionPolicy is the CRD default,
    /// `Delete`, which the API server fills in on every write.
    Legacy {
        /// `spec.deletionPolicy`, `Delete` when absent.
        deletion_policy: String,
    },
    /// A namespaced v2 MR (`.m.` groups): `NewManagementPoliciesResolver`. These MRs have no
    /// deletionPolicy: the policies alone decide what deleting them does.
    Modern,
}

impl ResolverKind {
    /// The resolver the reconciler builds for this MR: namespaced MRs are the modern kind.
    pub fn of(mr: &ManagedResource) -> ResolverKind {
        match mr.namespace {
            Some(_) => ResolverKind::Modern,
            None => {
                ResolverKind::Legacy { deletion_policy: mr.deletion_policy.clone().unwrap_or_else(|| "Delete".into()) }
            }
        }
    }
}

/// Why the reconciler rejects a policy set (`ManagementPoliciesResolver.Validate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The reconciler's error text, which becomes the Synced=False/ReconcileError message.
    pub message: String,
}

/// crossplane-runtime's `ManagementPoliciesResolver`: the policies as a set, whether the
/// provider enables management policies (`EnableBetaManagementPolicies`), and which resolver
/// the MR gets ([`ResolverKind`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManagementPolicies {
    enabled: bool,
    /// The policies in first-listed order, duplicates removed (for messages).
    listed: Vec<String>,
    set: BTreeSet<String>,
    kind: ResolverKind,
}

impl ManagementPolicies {
    /// The resolver for `policies` (absent: the API default `["*"]`).
    pub fn new(enabled: bool, policies: &Policies, kind: ResolverKind) -> ManagementPolicies {
        let mut listed: Vec<String> = Vec::new();
        for p in policies.listed.clone().unwrap_or_else(|| vec![ALL.into()]) {
            if !listed.contains(&p) {
                listed.push(p);
            }
        }
        let set = listed.iter().cloned().collect();
        ManagementPolicies { enabled, listed, set, kind }
    }

    /// The resolver the reconciler of an upjet provider builds for this MR. upjet providers
    /// enable management policies by default, so this assumes the flag is on.
    pub fn of(mr: &ManagedResource) -> ManagementPolicies {
        ManagementPolicies::new(true, &Policies::of(mr), ResolverKind::of(mr))
    }

    /// The kind of resolver it is (legacy or modern).
    pub fn kind(&self) -> &ResolverKind {
        &self.kind
    }

    fn has(&self, action: &str) -> bool {
        self.set.contains(action)
    }

    fn has_any(&self, action: &str) -> bool {
        self.has(action) || self.has(ALL)
    }

    /// Whether the set is exactly `{*}`, the default.
    pub fn is_default(&self) -> bool {
        self.set.len() == 1 && self.has(ALL)
    }

    /// The policies as Go's `%s` prints `UnsortedList()`: `[Observe Create]` (Go's order is
    /// random; this keeps the order written).
    pub(crate) fn go_list(&self) -> String {
        format!("[{}]", self.listed.join(" "))
    }

    /// `Validate`: with the flag on, the set must equal one of [`SUPPORTED`]; with it off, only
    /// `["*"]` or `[]` pass.
    pub fn validate(&self) -> Result<(), Unsupported> {
        if !self.enabled {
            if self.is_default() || self.set.is_empty() {
                return Ok(());
            }
            return Err(Unsupported {
                message: format!(
                    "`spec.managementPolicies` is set to a non-default value but the feature is not enabled: {}",
                    self.go_list()
                ),
            });
        }
        if SUPPORTED.iter().any(|s| is_set(s, &self.set)) {
            return Ok(());
        }
        Err(Unsupported {
            message: format!(
                "`spec.managementPolicies` is set to a value({}) which is not supported. Check docs for supported policies",
                self.go_list()
            ),
        })
    }

    /// `IsPaused`: an empty set pauses (only with the flag on).
    pub(crate) fn is_paused(&self) -> bool {
        self.enabled && self.set.is_empty()
    }

    /// `ShouldCreate`.
    pub(crate) fn should_create(&self) -> bool {
        !self.enabled || self.has_any("Create")
    }

    /// `ShouldUpdate`.
    pub(crate) fn should_update(&self) -> bool {
        !self.enabled || self.has_any("Update")
    }

    #[cfg(test)]
    /// `ShouldLateInitialize`.
    pub(crate) fn should_late_initialize(&self) -> bool {
        !self.enabled || self.has_any("LateInitialize")
    }

    /// `ShouldOnlyObserve`: the set is exactly `{Observe}`.
    pub(crate) fn should_only_observe(&self) -> bool {
        self.enabled && self.set.len() == 1 && self.has("Observe")
    }

    /// `ShouldDelete`: whether deleting the MR deletes the cloud object. Legacy MRs delete when
    /// deletionPolicy is `Delete` and the set has `Delete` or `*`, or when the set is not the
    /// default and has `Delete` (which then overrides `deletionPolicy: Orphan`). Modern MRs
    /// delete when the set has `Delete` or `*`. With the flag off, only a legacy
    /// `deletionPolicy: Orphan` keeps the cloud object.
    pub(crate) fn should_delete(&self) -> bool {
        match (&self.kind, self.enabled) {
            (ResolverKind::Legacy { deletion_policy }, false) => deletion_policy != "Orphan",
            (ResolverKind::Modern, false) => true,
            (ResolverKind::Legacy { deletion_policy }, true) => {
                (deletion_policy == "Delete" && self.has_any("Delete")) || (!self.is_default() && self.has("Delete"))
            }
            (ResolverKind::Modern, true) => self.has_any("Delete"),
        }
    }

    /// Why [`should_delete`](Self::should_delete) answers as it does, in one clause.
    pub(crate) fn delete_reason(&self) -> String {
        let p = self.go_list();
        match (&self.kind, self.enabled) {
            (ResolverKind::Legacy { deletion_policy }, false) => {
                format!("management policies are disabled, so deletionPolicy {deletion_policy} alone decides")
            }
            (ResolverKind::Modern, false) => {
                "management policies are disabled and namespaced MRs have no deletionPolicy".to_string()
            }
            (ResolverKind::Legacy { deletion_policy }, true) => {
                if !self.is_default() && self.has("Delete") {
                    format!(
                        "managementPolicies {p} are not the default [*] and include Delete, which wins over deletionPolicy {deletion_policy}"
                    )
                } else if self.has_any("Delete") {
                    format!("deletionPolicy is {deletion_policy} and managementPolicies {p} allow Delete")
                } else {
                    format!(
                        "managementPolicies {p} lack Delete and *, which wins over deletionPolicy {deletion_policy}"
                    )
                }
            }
            (ResolverKind::Modern, true) => {
                let verb = if self.has_any("Delete") { "allow" } else { "lack" };
                format!("namespaced MRs have no deletionPolicy, and managementPolicies {p} {verb} Delete")
            }
        }
    }

    /// The smallest edit after which deleting the MR leaves the cloud object in place, when it
    /// would delete it now. Setting `deletionPolicy: Orphan` helps only with the default `["*"]`:
    /// a non-default set that contains Delete deletes regardless.
    pub(crate) fn keep_cloud_object_fix(&self) -> Option<String> {
        if !self.should_delete() {
            return None;
        }
        Some(match &self.kind {
            ResolverKind::Legacy { .. } if self.is_default() => "set spec.deletionPolicy: Orphan".to_string(),
            _ if self.has(ALL) => format!(
                "replace spec.managementPolicies {} with [\"Observe\",\"Create\",\"Update\",\"LateInitialize\"] (no Delete)",
                self.go_list()
            ),
            _ => format!("remove Delete from spec.managementPolicies {}", self.go_list()),
        })
    }

    /// [`keep_cloud_object_fix`](Self::keep_cloud_object_fix) as the JSON merge patch of
    /// `spec` that makes it: `deletionPolicy: Orphan` for a legacy MR with the default set, else
    /// the policies without Delete (`*` spelled out without it; a set the reconciler would reject
    /// once Delete is gone becomes `["Observe"]`, which also keeps the object).
    pub(crate) fn keep_cloud_object_patch(&self) -> Option<String> {
        if !self.should_delete() {
            return None;
        }
        if matches!(self.kind, ResolverKind::Legacy { .. }) && self.is_default() {
            return Some(r#"{"spec":{"deletionPolicy":"Orphan"}}"#.to_string());
        }
        let kept: Vec<&str> = if self.has(ALL) {
            ACTIONS.iter().copied().filter(|a| *a != "Delete").collect()
        } else {
            self.listed.iter().map(String::as_str).filter(|a| *a != "Delete").collect()
        };
        let set: BTreeSet<String> = kept.iter().map(|a| a.to_string()).collect();
        let kept = if SUPPORTED.iter().any(|s| is_set(s, &set)) { kept } else { vec!["Observe"] };
        let list: Vec<String> = kept.iter().map(|a| format!("{a:?}")).collect();
        Some(format!(r#"{{"spec":{{"managementPolicies":[{}]}}}}"#, list.join(",")))
    }

    /// The nearest set the reconciler accepts, for an unsupported one: `["*"]` when `*` is mixed
    /// with other actions; otherwise the known actions plus Observe, dropping Delete when no
    /// supported set allows it without Create (dropping it never deletes anything).
    pub(crate) fn nearest_supported(&self) -> Vec<&'static str> {
        if self.has(ALL) {
            return vec![ALL];
        }
        let mut with: Vec<&'static str> = ACTIONS.iter().copied().filter(|a| *a == "Observe" || self.has(a)).collect();
        if !SUPPORTED.iter().any(|s| same(s, &with)) {
            with.retain(|a| *a != "Delete");
        }
        if SUPPORTED.iter().any(|s| same(s, &with)) { with } else { vec!["Observe"] }
    }
}

fn is_set(supported: &[&str], set: &BTreeSet<String>) -> bool {
    supported.len() == set.len() && supported.iter().all(|a| set.contains(*a))
}

fn same(a: &[&str], b: &[&str]) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.contains(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The patch that keeps the cloud object, as `keep_cloud_object_fix` words it: Orphan only
    /// where it wins (a legacy MR with the default set), else the policies without Delete.
    #[test]
    fn the_keep_patch_is_the_fix_as_json() {
        let legacy = |dp: &str| ResolverKind::Legacy { deletion_policy: dp.into() };
        let resolver = |scope: ResolverKind, list: Option<&[&str]>| {
            let policies = Policies { listed: list.map(|l| l.iter().map(|a| a.to_string()).collect()) };
            ManagementPolicies::new(true, &policies, scope)
        };
        for (scope, list, want) in [
            (legacy("Delete"), None, Some(r#"{"spec":{"deletionPolicy":"Orphan"}}"#)),
            (legacy("Orphan"), None, None),
            (
                legacy("Orphan"),
                Some(&["Observe", "Create", "Update", "Delete"][..]),
                Some(r#"{"spec":{"managementPolicies":["Observe","Create","Update"]}}"#),
            ),
            (
                ResolverKind::Modern,
                Some(&["*"][..]),
                Some(r#"{"spec":{"managementPolicies":["Observe","Create","Update","LateInitialize"]}}"#),
            ),
            (
                ResolverKind::Modern,
                Some(&["Observe", "Delete"][..]),
                Some(r#"{"spec":{"managementPolicies":["Observe"]}}"#),
            ),
            (ResolverKind::Modern, Some(&["Observe"][..]), None),
        ] {
            let r = resolver(scope.clone(), list);
            assert_eq!(r.keep_cloud_object_patch().as_deref(), want, "{scope:?} {list:?}");
            assert_eq!(r.keep_cloud_object_patch().is_some(), r.keep_cloud_object_fix().is_some());
        }
    }

    fn p(list: Option<&[&str]>) -> Policies {
        Policies { listed: list.map(|l| l.iter().map(|s| s.to_string()).collect()) }
    }

    fn legacy(dp: &str) -> ResolverKind {
        ResolverKind::Legacy { deletion_policy: dp.into() }
    }

    #[test]
    fn rules() {
        // (policies, paused, late-init, create, only-observe)
        let cases: &[(Option<&[&str]>, bool, bool, bool, bool)] = &[
            (None, false, true, true, false),
            (Some(&["*"]), false, true, true, false),
            (Some(&[]), true, false, false, false),
            (Some(&["Observe"]), false, false, false, true),
            (Some(&["Observe", "Observe"]), false, false, false, true),
            (Some(&["Observe", "Create", "Update", "Delete"]), false, false, true, false),
            (Some(&["Observe", "Create", "Update", "LateInitialize"]), false, true, true, false),
        ];
        for (list, paused, li, create, observe) in cases {
            let pol = p(*list);
            assert_eq!(
                (pol.is_paused(), pol.should_late_initialize(), pol.should_create(), pol.only_observe()),
                (*paused, *li, *create, *observe),
                "{list:?}"
            );
            // The raw view and the resolver (flag on) agree on every valid set.
            let r = ManagementPolicies::new(true, &pol, ResolverKind::Modern);
            assert_eq!(
                (r.is_paused(), r.should_late_initialize(), r.should_create(), r.should_only_observe()),
                (*paused, *li, *create, *observe),
                "{list:?}"
            );
        }
    }

    /// crossplane-runtime `pkg/reconciler/managed/policies.go` `Validate` and
    /// `defaultSupportedManagementPolicies`; the v2 tests `TestManagementPoliciesResolverValidate`.
    #[test]
    fn validate() {
        const NOT: &str = "which is not supported. Check docs for supported policies";
        let cases: &[(bool, Option<&[&str]>, Option<&str>)] = &[
            (true, None, None),
            (true, Some(&["*"]), None),
            (true, Some(&["*", "*"]), None),
            (true, Some(&[]), None),
            (true, Some(&["Delete", "Update", "Create", "Observe"]), None),
            (true, Some(&["Observe", "Observe", "LateInitialize"]), None),
            (true, Some(&["Observe", "Update", "LateInitialize"]), None),
            (true, Some(&["Delete"]), Some("is set to a value([Delete]) which is not supported")),
            (true, Some(&["Create", "Update", "Delete"]), Some(NOT)),
            (true, Some(&["Observe", "Update", "Delete"]), Some(NOT)),
            (true, Some(&["Observe", "LateInitialize", "Delete"]), Some(NOT)),
            (true, Some(&["*", "Delete"]), Some(NOT)),
            (false, Some(&["*"]), None),
            (false, Some(&[]), None),
            (false, Some(&["Create"]), Some("non-default value but the feature is not enabled: [Create]")),
        ];
        for (enabled, list, want) in cases {
            let got =
                ManagementPolicies::new(*enabled, &p(*list), ResolverKind::Modern).validate().err().map(|e| e.message);
            match (want, &got) {
                (None, None) => {}
                (Some(w), Some(g)) if g.contains(w) => assert!(g.starts_with("`spec.managementPolicies` is set to")),
                _ => panic!("{enabled} {list:?}: want {want:?}, got {got:?}"),
            }
        }
        let r = ManagementPolicies::new(true, &p(Some(&[])), ResolverKind::Modern);
        assert!(r.is_paused());
        assert!(!ManagementPolicies::new(false, &p(Some(&[])), ResolverKind::Modern).is_paused());
        assert!(ManagementPolicies::new(false, &p(Some(&["Observe"])), ResolverKind::Modern).should_create());
        assert!(!ManagementPolicies::new(false, &p(Some(&["Observe"])), ResolverKind::Modern).should_only_observe());
        assert!(!ManagementPolicies::new(true, &p(Some(&["Observe", "Create"])), ResolverKind::Modern).should_update());
    }

    /// crossplane-runtime `pkg/reconciler/managed/policies.go` `ShouldDelete` (legacy:
    /// `TestLegacyShouldDelete`; modern: `TestShouldDelete` in `reconciler_modern_test.go`).
    #[test]
    fn should_delete() {
        let ocud: &[&str] = &["Observe", "Create", "Update", "Delete"];
        let cases: &[(bool, ResolverKind, Option<&[&str]>, bool)] = &[
            (true, legacy("Delete"), None, true),
            (true, legacy("Delete"), Some(&["*"]), true),
            (true, legacy("Orphan"), Some(&["*"]), false),
            (true, legacy("Orphan"), Some(ocud), true),
            (true, legacy("Orphan"), Some(&["Observe", "Delete"]), true),
            (true, legacy("Delete"), Some(ocud), true),
            (true, legacy("Delete"), Some(&["Observe", "Create"]), false),
            (true, legacy("Delete"), Some(&["Observe"]), false),
            (true, legacy("Orphan"), Some(&["*", "Delete"]), true),
            (false, legacy("Orphan"), Some(ocud), false),
            (false, legacy("Delete"), Some(&["Observe"]), true),
            (true, ResolverKind::Modern, Some(&["*"]), true),
            (true, ResolverKind::Modern, Some(&["Delete"]), true),
            (true, ResolverKind::Modern, Some(&["Observe"]), false),
            (false, ResolverKind::Modern, Some(&["Observe"]), true),
        ];
        for (enabled, scope, list, want) in cases {
            let r = ManagementPolicies::new(*enabled, &p(*list), scope.clone());
            assert_eq!(r.should_delete(), *want, "{enabled} {scope:?} {list:?}");
            assert_eq!(r.keep_cloud_object_fix().is_some(), *want, "{enabled} {scope:?} {list:?}");
        }
    }

    #[test]
    fn reasons_and_fixes() {
        let orphan_ocud =
            ManagementPolicies::new(true, &p(Some(&["Observe", "Create", "Update", "Delete"])), legacy("Orphan"));
        assert!(
            orphan_ocud.delete_reason().contains("wins over deletionPolicy Orphan"),
            "{}",
            orphan_ocud.delete_reason()
        );
        assert_eq!(
            orphan_ocud.keep_cloud_object_fix().unwrap(),
            "remove Delete from spec.managementPolicies [Observe Create Update Delete]"
        );
        let default = ManagementPolicies::new(true, &p(None), legacy("Delete"));
        assert_eq!(default.keep_cloud_object_fix().unwrap(), "set spec.deletionPolicy: Orphan");
        let modern = ManagementPolicies::new(true, &p(Some(&["*"])), ResolverKind::Modern);
        assert!(modern.keep_cloud_object_fix().unwrap().starts_with("replace spec.managementPolicies [*] with"));
        let kept = ManagementPolicies::new(true, &p(Some(&["Observe"])), ResolverKind::Modern);
        assert!(kept.delete_reason().contains("lack Delete"));
    }

    #[test]
    fn nearest_supported() {
        let cases: &[(&[&str], &[&str])] = &[
            (&["Create", "Update", "Delete"], &["Observe", "Create", "Update", "Delete"]),
            (&["Observe", "Update", "Delete"], &["Observe", "Update"]),
            (&["LateInitialize", "Delete"], &["Observe", "LateInitialize"]),
            (&["*", "Delete"], &["*"]),
            (&["Delete"], &["Observe", "Delete"]),
            (&["Obsrve"], &["Observe"]),
        ];
        for (list, want) in cases {
            let r = ManagementPolicies::new(true, &p(Some(list)), ResolverKind::Modern);
            assert_eq!(r.nearest_supported(), *want, "{list:?}");
        }
        for s in SUPPORTED {
            assert!(ManagementPolicies::new(true, &p(Some(s)), ResolverKind::Modern).validate().is_ok(), "{s:?}");
        }
    }
}
