//! ManagedResourceDefinitions (Crossplane v2, `apiextensions.crossplane.io/v1alpha1`): a
//! provider's kinds are MRDs, and an inactive one serves no CRD and runs no controller until
//! `spec.state` becomes `Active` (one way: the CRD's validation refuses going back), by hand or by
//! a ManagedResourceActivationPolicy (crossplane `apis/apiextensions/v1alpha1`
//! `ManagedResourceDefinitionSpec.State`, default `Inactive`). An MR of an inactive kind cannot be
//! created, so a restore skips it entirely.

use std::collections::HashMap;

/// The API group of MRDs and activation policies.
pub const GROUP: &str = "apiextensions.crossplane.io";

/// One MRD, reduced to the kind it defines and whether it is active.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mrd {
    /// Its name (`<plural>.<group>`, as the CRD it creates).
    pub name: String,
    /// The API group of the kind it defines.
    pub group: String,
    /// The kind it defines.
    pub kind: String,
    /// Whether `spec.state` is `Active`.
    pub active: bool,
    /// `metadata.deletionTimestamp`: the MRD is being deleted, and the CRD it owns with it.
    pub deleted_at: Option<String>,
}

impl Mrd {
    /// The command that activates it (the same field an activation policy sets).
    pub(crate) fn activate_command(&self) -> String {
        crate::shell::ShellCommand::kubectl("patch")
            .word("managedresourcedefinition")
            .arg(&self.name)
            .word("--type")
            .word("merge")
            .opt("-p", r#"{"spec":{"state":"Active"}}"#)
            .to_string()
    }
}

/// Whether an object of this `apiVersion` is one of Crossplane's own API objects (MRDs,
/// activation policies, XRDs, compositions, packages), never a managed resource.
pub fn is_crossplane_api(api_version: &str) -> bool {
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    [GROUP, "pkg.crossplane.io", "ops.crossplane.io", "protection.crossplane.io"].contains(&group)
}

/// The MRDs of one cluster, by the kind each defines.
#[derive(Clone, Debug, Default)]
pub struct MrdStates {
    by_kind: HashMap<(String, String), Mrd>,
}

impl MrdStates {
    /// Indexes MRDs by (group, kind).
    pub fn new(mrds: impl IntoIterator<Item = Mrd>) -> MrdStates {
        MrdStates { by_kind: mrds.into_iter().map(|m| ((m.group.clone(), m.kind.clone()), m)).collect() }
    }

    /// How many MRDs there are, and how many are inactive.
    pub fn counts(&self) -> (usize, usize) {
        (self.by_kind.len(), self.by_kind.values().filter(|m| !m.active).count())
    }

    /// The inactive MRD of a kind, when the kind has one.
    pub fn inactive(&self, group: &str, kind: &str) -> Option<&Mrd> {
        self.by_kind.get(&(group.to_string(), kind.to_string())).filter(|m| !m.active)
    }

    /// The kinds whose MRD is being deleted (`domain::kind_removal`).
    pub fn removals(&self) -> crate::kind_removal::KindRemovals {
        let mut out = crate::kind_removal::KindRemovals::default();
        for m in self.by_kind.values() {
            out.mrd((m.group.as_str(), m.kind.as_str()), &m.name, m.deleted_at.as_deref());
        }
        out
    }

    /// The line doctor's scan prints: `2 of 310 ManagedResourceDefinitions are inactive …`.
    pub fn scan_note(&self) -> Option<String> {
        let (all, inactive) = self.counts();
        (all > 0).then(|| {
            format!(
                "{inactive} of {all} ManagedResourceDefinitions are inactive: no CRD is served for their kinds until activated (spec.state Active, or a ManagedResourceActivationPolicy)"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mrd(kind: &str, active: bool) -> Mrd {
        Mrd {
            name: format!("{}s.s3.aws.m.upbound.io", kind.to_lowercase()),
            group: "s3.aws.m.upbound.io".into(),
            kind: kind.into(),
            active,
            deleted_at: None,
        }
    }

    #[test]
    fn inactive_kinds_are_found_counted_and_activated_by_name() {
        let s = MrdStates::new([mrd("Bucket", false), mrd("BucketPolicy", true)]);
        assert_eq!(s.counts(), (2, 1));
        assert!(s.inactive("s3.aws.m.upbound.io", "BucketPolicy").is_none());
        let b = s.inactive("s3.aws.m.upbound.io", "Bucket").unwrap();
        assert_eq!(
            b.activate_command(),
            r#"kubectl patch managedresourcedefinition buckets.s3.aws.m.upbound.io --type merge -p '{"spec":{"state":"Active"}}'"#
        );
        assert!(s.scan_note().unwrap().starts_with("1 of 2 ManagedResourceDefinitions are inactive"));
        assert_eq!(MrdStates::default().scan_note(), None);
        assert!(s.removals().is_empty(), "none is being deleted");
        let going = Mrd { deleted_at: Some("2024-11-30T11:00:00Z".into()), ..mrd("Bucket", true) };
        let removals = MrdStates::new([going]).removals();
        assert!(removals.of("s3.aws.m.upbound.io", "Bucket").is_some_and(|r| r.mrd_deleted_at.is_some()));
    }

    #[test]
    fn crossplane_s_own_objects_are_not_managed_resources() {
        for (av, want) in [
            ("apiextensions.crossplane.io/v1alpha1", true),
            ("pkg.crossplane.io/v1", true),
            ("s3.aws.m.upbound.io/v1beta1", false),
            ("v1", false),
        ] {
            assert_eq!(is_crossplane_api(av), want, "{av}");
        }
    }
}
