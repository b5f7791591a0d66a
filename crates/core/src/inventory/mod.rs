//! The cloud inventory cross-check, in domain terms: cloud objects as a user exported them (AWS
//! tagging API, GCP Cloud Asset Inventory, Azure resource lists), reduced to the tags
//! crossplane-runtime's `GetExternalTags` stamps on every object an upjet provider creates, then
//! matched to the MRs they name. Healthy tagged MRs show how a cloud ID maps to an external-name
//! per kind ([`id_form`]); [`matching::cross_check`] applies that to the MRs that lost track.
//! Pure: the evidence layer parses the files, the commands hand in the MRs.

pub(crate) mod arn_template;
pub mod gone;
pub(crate) mod id_form;
pub mod matching;

pub(crate) use id_form::IdForm;
pub use matching::{
    CrossCheck, MrInventory, ScanCoverage, ServedKind, TaggedObject, Tracking, Unmatched, UnmatchedObject, cross_check,
    name_by_identity,
};

use crate::managed::{ManagedResource, PROVIDER_CONFIG, ProviderConfigKey};

/// `crossplane-kind`: lower-case `kind.group` (crossplane-runtime `ExternalResourceTagKeyKind`).
pub(crate) const TAG_KIND: &str = "crossplane-kind";
/// `crossplane-name`: the MR's `metadata.name`.
pub(crate) const TAG_NAME: &str = "crossplane-name";
/// `crossplane-namespace`: the MR's namespace (Crossplane v2 namespaced MRs only).
pub(crate) const TAG_NAMESPACE: &str = "crossplane-namespace";
/// `crossplane-providerconfig`: the name of the MR's provider config.
pub(crate) const TAG_PROVIDER_CONFIG: &str = "crossplane-providerconfig";
/// `crossplane-providerconfig-kind`: `ProviderConfig` or `ClusterProviderConfig` (v2 only).
pub(crate) const TAG_PROVIDER_CONFIG_KIND: &str = "crossplane-providerconfig-kind";

/// The cloud an object was exported from, which decides how its ID reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cloud {
    /// An ARN from `aws resourcegroupstaggingapi get-resources`.
    Aws,
    /// A Cloud Asset name, `//service.googleapis.com/…`.
    Gcp,
    /// An Azure resource ID, `/subscriptions/…` (case-insensitive).
    Azure,
}

impl Cloud {
    /// An ID as this cloud compares it: two IDs name one object when their keys are equal. Azure
    /// resource IDs ignore case (ARM answers `resourceGroups` and `resourcegroups` alike, and both
    /// occur in exports and activity logs), so theirs is lower-cased; the other clouds' IDs are
    /// compared as written. Every comparison, lookup and merge of cloud IDs goes through here.
    pub fn id_key(self, id: &str) -> std::borrow::Cow<'_, str> {
        match self {
            Cloud::Azure if id.bytes().any(|b| b.is_ascii_uppercase()) => id.to_ascii_lowercase().into(),
            _ => id.into(),
        }
    }
}

/// The crossplane tags of one cloud object; empty values count as absent, since a provider
/// never writes an empty one and an empty tag matches nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrossplaneTags {
    /// `crossplane-kind`, as written (dots, or underscores/dashes on GCP labels).
    pub kind: Option<String>,
    /// `crossplane-name`.
    pub name: Option<String>,
    /// `crossplane-namespace`.
    pub namespace: Option<String>,
    /// `crossplane-providerconfig`.
    pub provider_config: Option<String>,
    /// `crossplane-providerconfig-kind`.
    pub provider_config_kind: Option<String>,
}

impl CrossplaneTags {
    /// Whether a tag key is one of crossplane's (parsers keep only those, so a record with
    /// hundreds of other tags costs nothing).
    pub fn is_crossplane_key(key: &str) -> bool {
        key.starts_with("crossplane-")
    }

    /// Records one tag; keys other than crossplane's are ignored. The key is matched exactly:
    /// crossplane-runtime writes these lower-case and tag keys are case-sensitive on AWS.
    pub fn set(&mut self, key: &str, value: &str) {
        let value = value.trim();
        let slot = match key {
            TAG_KIND => &mut self.kind,
            TAG_NAME => &mut self.name,
            TAG_NAMESPACE => &mut self.namespace,
            TAG_PROVIDER_CONFIG => &mut self.provider_config,
            TAG_PROVIDER_CONFIG_KIND => &mut self.provider_config_kind,
            _ => return,
        };
        *slot = (!value.is_empty()).then(|| value.to_string());
    }

    /// The provider config the tags name, keyed as an MR's reference is: with
    /// `crossplane-providerconfig-kind` (Crossplane v2) a `ProviderConfig` lives in the
    /// `crossplane-namespace`; without it (older runtimes) it is the cluster-scoped one.
    pub(crate) fn provider_config_key(&self) -> Option<ProviderConfigKey> {
        let name = self.provider_config.clone()?;
        Some(match &self.provider_config_kind {
            None => ProviderConfigKey::cluster_scoped(&name),
            Some(kind) => ProviderConfigKey {
                kind: kind.clone(),
                namespace: self.namespace.clone().filter(|_| kind == PROVIDER_CONFIG),
                name,
            },
        })
    }

    /// Whether the object names an MR at all: both kind and name are needed.
    pub fn names_an_mr(&self) -> bool {
        self.kind.is_some() && self.name.is_some()
    }
}

/// One cloud object from an inventory export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InventoryObject {
    /// The cloud's own ID: ARN, Cloud Asset name or Azure resource ID, trimmed.
    pub id: String,
    /// Which cloud, from the export's format.
    pub cloud: Cloud,
    /// Its crossplane tags.
    pub tags: CrossplaneTags,
    /// The file it was read from.
    pub source: std::sync::Arc<str>,
}

/// The form both an MR's `kind.group` and a `crossplane-kind` value are compared in: lower-case,
/// with `.`, `_` and `-` all read as one separator. GCP label values may not contain dots, so a
/// provider writing labels must replace them (the classic provider-gcp wrote underscores,
/// `cloudsqlinstance_database_gcp_crossplane_io`); kinds never contain `_` or `-`, so only two
/// API groups differing just by `.` versus `-` could collide, which no provider ships.
pub(crate) fn normalize_kind(kind: &str) -> String {
    kind.trim().chars().map(|c| if matches!(c, '.' | '_' | '-') { '.' } else { c.to_ascii_lowercase() }).collect()
}

/// A healthy peer: Ready and Synced, not being deleted, with an external-name.
pub(crate) fn healthy(mr: &ManagedResource) -> Option<&str> {
    let ok = mr.is_true("Ready") && mr.is_true("Synced") && mr.deletion_timestamp.is_none();
    mr.external_name().filter(|_| ok)
}

/// An MR's normalised `kind.group`, the key kind rules are kept under.
pub(crate) fn kind_of(mr: &ManagedResource) -> String {
    normalize_kind(&format!("{}.{}", mr.kind, mr.group()))
}

/// A tag value fit for a message: control characters escaped and at most 200 characters, so an
/// odd or hostile tag cannot garble a terminal or flood a report.
pub fn shown(value: &str) -> String {
    let mut out = String::new();
    for c in value.chars().take(200) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if value.chars().count() > 200 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_compare_in_every_form_providers_write() {
        for (tag, mr, same) in [
            ("secret.secretsmanager.aws.upbound.io", "Secret.secretsmanager.aws.upbound.io", true),
            ("recordset_dns_gcp_upbound_io", "RecordSet.dns.gcp.upbound.io", true),
            ("recordset-dns-gcp-upbound-io", "RecordSet.dns.gcp.upbound.io", true),
            ("RecordSet.dns.gcp.upbound.io", "recordset.dns.gcp.upbound.io", true),
            ("vpc.ec2.aws.upbound.io", "vpc.ec2.aws.m.upbound.io", false),
            ("instance.ec2.aws.crossplane.io", "instance.ec2.aws.upbound.io", false),
        ] {
            assert_eq!(normalize_kind(tag) == normalize_kind(mr), same, "{tag} vs {mr}");
        }
    }

    #[test]
    fn tags_keep_crossplane_keys_and_drop_empty_values() {
        let mut t = CrossplaneTags::default();
        for (k, v) in [
            ("crossplane-kind", " vpc.ec2.aws.upbound.io "),
            ("crossplane-name", ""),
            ("Crossplane-Name", "x"),
            ("team", "a"),
        ] {
            t.set(k, v);
        }
        assert_eq!(t.kind.as_deref(), Some("vpc.ec2.aws.upbound.io"));
        assert_eq!(t.name, None);
        assert!(!t.names_an_mr());
        assert!(
            CrossplaneTags::is_crossplane_key("crossplane-namespace") && !CrossplaneTags::is_crossplane_key("team")
        );
    }

    #[test]
    fn shown_values_are_escaped_and_bounded() {
        assert_eq!(shown("a\u{1b}[31mb\n"), "a\\u{1b}[31mb\\n");
        assert_eq!(shown("zoné"), "zoné");
        let long = "x".repeat(300);
        assert_eq!(shown(&long).chars().count(), 201);
    }
}
