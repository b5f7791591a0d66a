//! A managed kind going away, and its MRs with it. In Crossplane v2 a provider's CRD is controlled
//! by its ManagedResourceDefinition, which its ProviderRevision owns (crossplane
//! `internal/controller/apiextensions/managed/crd.go`, `CRDAsUnstructured`; some versions name the
//! revision on the CRD too), so the garbage collector deletes the CRD with either: deleting or
//! upgrading a Provider, or deleting the MRD, can delete the CRD (crossplane#7173, #4251). The API
//! server then deletes every object of the CRD (its `customresourcecleanup.apiextensions.k8s.io`
//! finalizer), so every MR of the kind is deleted, and one whose policies allow Delete deletes its
//! cloud object; the CRD stays Terminating while its MRs hold crossplane's finalizer. This is what the run knows of each kind's
//! CRD and MRD being deleted (their `deletionTimestamp`), and what the MRs of such kinds add up to.

use std::collections::HashMap;

/// The evidence key of a `KindBeingDeleted` finding that says whether the MR's deletion deletes
/// its cloud object (`deleted`) or leaves it (`kept`): what [`KindGoing`] counts.
pub(crate) const CLOUD_OBJECT: &str = "cloudObject";
/// The evidence key of a `KindBeingDeleted` finding naming the definitions being deleted.
pub(crate) const DEFINITIONS: &str = "definitions";

/// What is known of one kind's definitions being deleted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindRemoval {
    /// The definitions' name, `<plural>.<group>` (the CRD's, and the MRD's in Crossplane v2).
    pub name: String,
    /// The CRD's `deletionTimestamp`, when it is being deleted.
    pub crd_deleted_at: Option<String>,
    /// The MRD's `deletionTimestamp`, when it is being deleted.
    pub mrd_deleted_at: Option<String>,
}

impl KindRemoval {
    /// Whether either definition is being deleted.
    pub fn removing(&self) -> bool {
        self.crd_deleted_at.is_some() || self.mrd_deleted_at.is_some()
    }

    /// Which definition is being deleted, and since when, in one clause.
    pub fn describe(&self) -> String {
        let name = &self.name;
        match (&self.crd_deleted_at, &self.mrd_deleted_at) {
            (Some(c), Some(m)) => format!(
                "its CustomResourceDefinition {name} is being deleted (since {c}), and its ManagedResourceDefinition (since {m})"
            ),
            (Some(c), None) => format!("its CustomResourceDefinition {name} is being deleted (since {c})"),
            (None, Some(m)) => format!(
                "its ManagedResourceDefinition {name} is being deleted (since {m}), which owns its CustomResourceDefinition"
            ),
            (None, None) => format!("{name} is served"),
        }
    }
}

/// The kinds whose CRD or MRD is being deleted, by (API group, kind).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindRemovals {
    by_kind: HashMap<(String, String), KindRemoval>,
}

impl KindRemovals {
    /// Records a CRD of `group`/`kind` named `name`; only one being deleted is kept.
    pub fn crd(&mut self, (group, kind): (&str, &str), name: &str, deleted_at: Option<&str>) {
        if let Some(at) = deleted_at.filter(|a| !a.is_empty()) {
            self.entry(group, kind, name).crd_deleted_at = Some(at.to_string());
        }
    }

    /// Records an MRD of `group`/`kind` named `name`; only one being deleted is kept.
    pub fn mrd(&mut self, (group, kind): (&str, &str), name: &str, deleted_at: Option<&str>) {
        if let Some(at) = deleted_at.filter(|a| !a.is_empty()) {
            self.entry(group, kind, name).mrd_deleted_at = Some(at.to_string());
        }
    }

    fn entry(&mut self, group: &str, kind: &str, name: &str) -> &mut KindRemoval {
        self.by_kind
            .entry((group.to_string(), kind.to_string()))
            .or_insert_with(|| KindRemoval { name: name.to_string(), ..KindRemoval::default() })
    }

    /// Adds what `other` knows (a CRD read after the MRDs).
    pub fn merge(&mut self, other: KindRemovals) {
        for ((group, kind), r) in other.by_kind {
            let e = self.entry(&group, &kind, &r.name);
            e.crd_deleted_at = e.crd_deleted_at.take().or(r.crd_deleted_at);
            e.mrd_deleted_at = e.mrd_deleted_at.take().or(r.mrd_deleted_at);
        }
    }

    /// The removal of the kind `group`/`kind`, when one of its definitions is being deleted.
    pub fn of(&self, group: &str, kind: &str) -> Option<&KindRemoval> {
        if self.by_kind.is_empty() {
            return None;
        }
        self.by_kind.get(&(group.to_string(), kind.to_string())).filter(|r| r.removing())
    }

    /// Whether no kind is being removed.
    pub fn is_empty(&self) -> bool {
        self.by_kind.is_empty()
    }
}

/// One kind going away, as the report's summary says it once: how many of its MRs the run saw
/// deleted with it, how many of those delete their cloud object, and how to keep them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KindGoing {
    /// `kind.group` in lower case, as every command of this tool accepts it.
    pub kind: String,
    /// The cluster, in a report of several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// Which definition is being deleted, and since when.
    pub definitions: String,
    /// The MRs of the kind the report shows deleted with it.
    pub managed_resources: usize,
    /// Of those, the ones whose deletion deletes their cloud object.
    pub delete_cloud_objects: usize,
    /// How to keep the cloud objects.
    pub keep: String,
}

/// How to keep a kind's cloud objects when it goes away, in one sentence.
pub(crate) const KEEP: &str = "patch each MR before the provider deletes it: spec.deletionPolicy: Orphan on a cluster-scoped MR with the default managementPolicies, otherwise managementPolicies without Delete (a namespaced v2 MR has no deletionPolicy)";

impl KindGoing {
    /// The line doctor prints once per kind.
    pub fn line(&self) -> String {
        let cluster = self.cluster.as_deref().map(|c| format!("{c}: ")).unwrap_or_default();
        let keep = match self.delete_cloud_objects {
            0 => String::new(),
            _ => format!("; to keep them, {}", self.keep),
        };
        format!(
            "{cluster}{} is going away: {}; MRs deleted with it: {}, deleting their cloud object: {}{keep}",
            self.kind, self.definitions, self.managed_resources, self.delete_cloud_objects
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VPC: (&str, &str) = ("ec2.aws.upbound.io", "VPC");

    #[test]
    fn only_definitions_being_deleted_are_kept_and_merged() {
        let mut r = KindRemovals::default();
        r.crd(VPC, "vpcs.ec2.aws.upbound.io", None);
        r.mrd(("s3.aws.m.upbound.io", "Bucket"), "buckets.s3.aws.m.upbound.io", Some(""));
        assert!(r.is_empty() && r.of(VPC.0, VPC.1).is_none());
        r.mrd(VPC, "vpcs.ec2.aws.upbound.io", Some("2024-11-30T11:00:00Z"));
        let mut crds = KindRemovals::default();
        crds.crd(VPC, "vpcs.ec2.aws.upbound.io", Some("2024-11-30T11:00:05Z"));
        r.merge(crds);
        let vpc = r.of(VPC.0, VPC.1).unwrap();
        assert_eq!(vpc.crd_deleted_at.as_deref(), Some("2024-11-30T11:00:05Z"));
        assert_eq!(
            vpc.describe(),
            "its CustomResourceDefinition vpcs.ec2.aws.upbound.io is being deleted (since 2024-11-30T11:00:05Z), and its ManagedResourceDefinition (since 2024-11-30T11:00:00Z)"
        );
        assert!(r.of("ec2.aws.upbound.io", "Subnet").is_none());
    }

    #[test]
    fn the_line_per_kind_counts_and_says_how_to_keep() {
        let going = KindGoing {
            kind: "vpc.ec2.aws.upbound.io".into(),
            cluster: Some("prod".into()),
            definitions: "its CustomResourceDefinition vpcs.ec2.aws.upbound.io is being deleted (since T)".into(),
            managed_resources: 2,
            delete_cloud_objects: 1,
            keep: KEEP.into(),
        };
        assert_eq!(
            going.line(),
            format!(
                "prod: vpc.ec2.aws.upbound.io is going away: its CustomResourceDefinition vpcs.ec2.aws.upbound.io is being deleted (since T); MRs deleted with it: 2, deleting their cloud object: 1; to keep them, {KEEP}"
            )
        );
        let none = KindGoing { delete_cloud_objects: 0, cluster: None, ..going };
        assert!(none.line().ends_with("deleting their cloud object: 0"), "{}", none.line());
    }
}
