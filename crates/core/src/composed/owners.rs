//! Who owns an MR's identity fields, read from `metadata.managedFields` while the MR is decoded.
//!
//! The API server records, per field manager and operation (`Apply` for server-side apply,
//! `Update` for everything else), the set of fields it last wrote (`fieldsV1`:
//! `{"f:metadata":{"f:annotations":{"f:crossplane.io/external-name":{}}}}`). The composite
//! reconciler applies every composed resource with `ForceOwnership` as
//! `apiextensions.crossplane.io/composed/<digest>` (crossplane
//! `internal/controller/apiextensions/composite/composition_functions.go`
//! `ComposedFieldOwnerName`), so a field it owns is put back at its next compose, whatever a repair
//! wrote, and a field it stops setting is removed.
//!
//! A fleet of large MRs carries large `managedFields` (one entry per writer, each a tree of every
//! field it wrote): this reader walks only the four paths it needs and skips every other subtree
//! unread, and keeps one small entry per manager that owns one of them.

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The field-manager prefix of the composite reconciler's applies to composed resources.
pub const COMPOSED_MANAGER_PREFIX: &str = "apiextensions.crossplane.io/composed/";

/// An identity field of an MR: what adopt, restore and promote write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IdentityField {
    /// `metadata.annotations["crossplane.io/external-name"]`.
    ExternalName,
    /// `spec.managementPolicies`.
    ManagementPolicies,
    /// `spec.deletionPolicy`.
    DeletionPolicy,
    /// `metadata.annotations["crossplane.io/paused"]`.
    Paused,
}

impl IdentityField {
    /// Every field, in the order findings name them.
    pub const ALL: [IdentityField; 4] = [
        IdentityField::ExternalName,
        IdentityField::ManagementPolicies,
        IdentityField::DeletionPolicy,
        IdentityField::Paused,
    ];

    const fn bit(self) -> u8 {
        match self {
            IdentityField::ExternalName => 1,
            IdentityField::ManagementPolicies => 2,
            IdentityField::DeletionPolicy => 4,
            IdentityField::Paused => 8,
        }
    }

    /// The field as a path, the way `kubectl explain` and the docs name it.
    pub fn path(self) -> &'static str {
        match self {
            IdentityField::ExternalName => "metadata.annotations[crossplane.io/external-name]",
            IdentityField::ManagementPolicies => "spec.managementPolicies",
            IdentityField::DeletionPolicy => "spec.deletionPolicy",
            IdentityField::Paused => "metadata.annotations[crossplane.io/paused]",
        }
    }
}

/// How a manager last wrote its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// Server-side apply: the manager keeps the field, and a conflicting write by another manager
    /// is refused unless forced (the composite reconciler forces its own).
    Apply,
    /// Any other write (create, update, patch): the manager is recorded, and the next writer of
    /// the field takes it over.
    Update,
}

/// One manager that owns one or more identity fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldOwner {
    /// `manager`, e.g. `apiextensions.crossplane.io/composed/1f0b…`, `kubectl-client-side-apply`.
    pub manager: String,
    /// `operation`.
    pub operation: Operation,
    /// Which identity fields, as [`IdentityField::bit`]s.
    fields: u8,
}

impl FieldOwner {
    /// Whether this manager owns `field`.
    pub fn owns(&self, field: IdentityField) -> bool {
        self.fields & field.bit() != 0
    }

    /// Whether it is the composite reconciler's server-side apply of a composed resource.
    pub(crate) fn is_composite(&self) -> bool {
        self.operation == Operation::Apply && self.manager.starts_with(COMPOSED_MANAGER_PREFIX)
    }

    /// The fields it owns, in [`IdentityField::ALL`] order.
    pub fn fields(&self) -> impl Iterator<Item = IdentityField> + '_ {
        IdentityField::ALL.into_iter().filter(|f| self.owns(*f))
    }
}

/// The owners of an MR's identity fields. Empty for nearly every MR outside a composition but its
/// provider's own update, so a fleet pays a few strings per MR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdentityOwners(Vec<FieldOwner>);

impl IdentityOwners {
    /// Owners from their parts: `(manager, operation, fields)`, for tests and snapshots built by hand.
    pub fn of(owners: impl IntoIterator<Item = (String, Operation, Vec<IdentityField>)>) -> IdentityOwners {
        IdentityOwners(
            owners
                .into_iter()
                .map(|(manager, operation, fields)| FieldOwner {
                    manager,
                    operation,
                    fields: fields.iter().fold(0, |bits, f| bits | f.bit()),
                })
                .collect(),
        )
    }

    /// Every owner, in `managedFields` order.
    pub fn iter(&self) -> impl Iterator<Item = &FieldOwner> {
        self.0.iter()
    }

    /// Whether no manager owns an identity field.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The owners of `field`.
    pub(crate) fn of_field(&self, field: IdentityField) -> impl Iterator<Item = &FieldOwner> {
        self.0.iter().filter(move |o| o.owns(field))
    }

    /// The composite reconciler's manager, when it owns at least one identity field.
    pub fn composite(&self) -> Option<&FieldOwner> {
        self.0.iter().find(|o| o.is_composite())
    }

    /// The identity fields the composite reconciler owns, in [`IdentityField::ALL`] order.
    pub(crate) fn composite_fields(&self) -> Vec<IdentityField> {
        IdentityField::ALL.into_iter().filter(|f| self.of_field(*f).any(FieldOwner::is_composite)).collect()
    }
}

/// Reads `metadata.managedFields` into [`IdentityOwners`] (null or absent: none).
pub(crate) fn managed_fields<'de, D: de::Deserializer<'de>>(d: D) -> Result<IdentityOwners, D::Error> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = IdentityOwners;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of managed fields entries")
        }
        fn visit_unit<E>(self) -> Result<IdentityOwners, E> {
            Ok(IdentityOwners::default())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IdentityOwners, A::Error> {
            let mut owners = Vec::new();
            while let Some(entry) = seq.next_element::<Entry>()? {
                let operation = match entry.operation.as_str() {
                    "Apply" => Operation::Apply,
                    _ => Operation::Update,
                };
                if entry.fields.0 != 0 && entry.subresource.is_none() {
                    owners.push(FieldOwner { manager: entry.manager, operation, fields: entry.fields.0 });
                }
            }
            owners.shrink_to_fit();
            Ok(IdentityOwners(owners))
        }
    }
    d.deserialize_any(Entries)
}

/// One `managedFields` entry, reduced to its manager, operation and identity fields.
#[derive(Deserialize)]
struct Entry {
    #[serde(default)]
    manager: String,
    #[serde(default)]
    operation: String,
    /// A write to a subresource (`status`) owns no spec or metadata field.
    #[serde(default)]
    subresource: Option<String>,
    #[serde(default, rename = "fieldsV1")]
    fields: Top,
}

/// Walks a map, reading the value of each key `pick` names with `T` and skipping the rest;
/// returns the bits of the values read.
fn walk<'de, A: MapAccess<'de>>(mut map: A, pick: impl Fn(&str) -> Pick) -> Result<u8, A::Error> {
    let mut bits = 0;
    while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
        bits |= match pick(&key) {
            Pick::Metadata => map.next_value::<Metadata>()?.0,
            Pick::Annotations => map.next_value::<Annotations>()?.0,
            Pick::Spec => map.next_value::<Spec>()?.0,
            Pick::Field(field) => {
                map.next_value::<IgnoredAny>()?;
                field.bit()
            }
            Pick::Skip => {
                map.next_value::<IgnoredAny>()?;
                0
            }
        };
    }
    Ok(bits)
}

/// What [`walk`] does with one key's value.
enum Pick {
    Metadata,
    Annotations,
    Spec,
    Field(IdentityField),
    Skip,
}

/// A `fieldsV1` map level: its visitor reads a map with [`walk`] and the level's `pick`.
macro_rules! level {
    ($name:ident, $what:literal, $pick:expr) => {
        /// The identity fields of one `fieldsV1` level, as bits.
        #[derive(Default)]
        struct $name(u8);
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = u8;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<u8, A::Error> {
                        walk(map, $pick)
                    }
                    fn visit_unit<E>(self) -> Result<u8, E> {
                        Ok(0)
                    }
                }
                d.deserialize_any(V).map($name)
            }
        }
    };
}

level!(Top, "a fieldsV1 map", |k| match k {
    "f:metadata" => Pick::Metadata,
    "f:spec" => Pick::Spec,
    _ => Pick::Skip,
});
level!(Metadata, "the fieldsV1 of metadata", |k| match k {
    "f:annotations" => Pick::Annotations,
    _ => Pick::Skip,
});
level!(Annotations, "the fieldsV1 of annotations", |k| match k {
    "f:crossplane.io/external-name" => Pick::Field(IdentityField::ExternalName),
    "f:crossplane.io/paused" => Pick::Field(IdentityField::Paused),
    _ => Pick::Skip,
});
level!(Spec, "the fieldsV1 of spec", |k| match k {
    "f:managementPolicies" => Pick::Field(IdentityField::ManagementPolicies),
    "f:deletionPolicy" => Pick::Field(IdentityField::DeletionPolicy),
    _ => Pick::Skip,
});

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Meta {
        #[serde(default, rename = "managedFields", deserialize_with = "managed_fields")]
        owners: IdentityOwners,
    }

    fn owners(managed_fields: serde_json::Value) -> IdentityOwners {
        let meta = serde_json::json!({ "managedFields": managed_fields });
        serde_json::from_value::<Meta>(meta).expect("decodes").owners
    }

    /// Entries as kube-apiserver writes them: the composite's apply owns the external-name and the
    /// deletion policy, the provider's update the other annotations, a status write nothing.
    #[test]
    fn reads_only_the_identity_fields_and_their_managers() {
        let composed = format!("{COMPOSED_MANAGER_PREFIX}6f1d");
        let read = owners(serde_json::json!([
            {"manager": composed, "operation": "Apply", "apiVersion": "s3.aws.upbound.io/v1beta1",
             "time": "2024-11-30T10:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:annotations": {"f:crossplane.io/composition-resource-name": {},
                 "f:crossplane.io/external-name": {}}, "f:labels": {"f:crossplane.io/composite": {}},
                 "f:ownerReferences": {"k:{\"uid\":\"u\"}": {}}},
              "f:spec": {"f:deletionPolicy": {}, "f:forProvider": {"f:region": {}, "f:tags": {"f:a\"b": {}}}}}},
            {"manager": "provider-aws-s3", "operation": "Update", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:annotations": {".": {}, "f:crossplane.io/external-create-pending": {}}}}},
            {"manager": "provider-aws-s3", "operation": "Update", "subresource": "status", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:status": {"f:atProvider": {}}}},
            {"manager": "kubectl-edit", "operation": "Update", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:annotations": {"f:crossplane.io/paused": {}}}, "f:spec": {"f:managementPolicies": {}}}},
        ]));
        let all: Vec<&FieldOwner> = read.iter().collect();
        assert_eq!(all.len(), 2, "{read:?}");
        assert!(all[0].is_composite());
        assert_eq!(all[0].fields().collect::<Vec<_>>(), [IdentityField::ExternalName, IdentityField::DeletionPolicy]);
        assert_eq!(all[1].manager, "kubectl-edit");
        assert_eq!(all[1].fields().collect::<Vec<_>>(), [IdentityField::ManagementPolicies, IdentityField::Paused]);
        assert_eq!(read.composite_fields(), [IdentityField::ExternalName, IdentityField::DeletionPolicy]);
    }

    /// An update by a manager named like the composite's is no apply: it keeps nothing.
    #[test]
    fn only_an_apply_by_the_composite_manager_is_the_composite() {
        let read = owners(serde_json::json!([{"manager": format!("{COMPOSED_MANAGER_PREFIX}x"), "operation": "Update",
            "fieldsV1": {"f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {}}}}}]));
        assert!(read.composite().is_none() && read.composite_fields().is_empty());
        assert!(owners(serde_json::Value::Null).is_empty());
        assert!(owners(serde_json::json!([{"manager": "m", "fieldsV1": null}])).is_empty());
    }
}
