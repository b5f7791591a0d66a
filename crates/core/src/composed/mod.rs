//! What an MR itself says about the composition that made it: its controller (the XR, through
//! the owner reference the composite reconciler sets), the labels and annotation every composed
//! resource carries, and who owns its identity fields. Decoded with the MR (`managed.rs`), kept
//! only for MRs that show one of these signs, so an MR outside any composition pays one pointer.
//!
//! Upstream (crossplane `internal/controller/apiextensions/composite`): each composed resource
//! is labelled `crossplane.io/composite` (the top-level XR's name, the prefix of its generated
//! name) and, under a v1 claim, `crossplane.io/claim-name` / `crossplane.io/claim-namespace`;
//! annotated `crossplane.io/composition-resource-name`; and made a dependent of its XR with a
//! controller owner reference (`RenderComposedResourceMetadata`). The XR finds it again only
//! through its resource references and that controller reference.

pub mod digest;
pub mod owners;

pub use owners::{COMPOSED_MANAGER_PREFIX, FieldOwner, IdentityField, IdentityOwners, Operation};

/// Label and annotation keys of composed resources.
pub mod keys {
    /// The top-level XR's name (the composite reconciler's `generateName` prefix).
    pub const COMPOSITE: &str = "crossplane.io/composite";
    /// The resource's name inside its composition (the key of the functions' desired state).
    pub const RESOURCE_NAME: &str = "crossplane.io/composition-resource-name";
}

/// The owner reference that controls an object (`controller: true`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Controller {
    /// `apiVersion` of the owner.
    pub api_version: String,
    /// Its kind.
    pub kind: String,
    /// Its name (an owner is in the dependent's namespace, or cluster-scoped).
    pub name: String,
    /// Its UID: an owner of the same name with another UID is another object, absent to the
    /// garbage collector and to the composite reconciler alike.
    pub uid: String,
}

impl Controller {
    /// The owner's API group.
    pub fn group(&self) -> &str {
        self.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("")
    }
}

/// A v1 claim as its labels name it on a composed resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClaimLabels {
    /// `crossplane.io/claim-namespace`.
    pub namespace: String,
    /// `crossplane.io/claim-name`.
    pub name: String,
}

/// The composition signs of one MR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Composed {
    /// Its controller owner reference, when it has one.
    pub controller: Option<Controller>,
    /// The v1 claim its labels name.
    pub claim: Option<ClaimLabels>,
    /// Who owns its identity fields (`metadata.managedFields`).
    pub owners: IdentityOwners,
}

impl Composed {
    /// The signs, when the MR shows any: a controller, claim labels, the composite label or
    /// resource name (`signed`), or an identity field the composite's manager owns. `None`
    /// otherwise: an MR nothing composes keeps no owners.
    pub fn of(
        controller: Option<Controller>,
        claim: Option<ClaimLabels>,
        owners: IdentityOwners,
        signed: bool,
    ) -> Option<Box<Composed>> {
        let any = signed || controller.is_some() || claim.is_some() || owners.composite().is_some();
        any.then(|| Box::new(Composed { controller, claim, owners }))
    }
}

/// The composite reconciler's field manager for the resources an XR composes:
/// `apiextensions.crossplane.io/composed/` plus the hex SHA-256 of the XR's name followed by its
/// GroupKind as Go prints it (`Kind.group`; crossplane `ComposedFieldOwnerName`). Neither UID nor
/// version enters it, so an XR deleted and created again under its name keeps its manager.
pub(crate) fn composed_field_owner(xr_name: &str, xr_kind: &str, xr_group: &str) -> String {
    let group_kind = if xr_group.is_empty() { xr_kind.to_string() } else { format!("{xr_kind}.{xr_group}") };
    format!("{COMPOSED_MANAGER_PREFIX}{}", digest::hex(format!("{xr_name}{group_kind}").as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The manager is the prefix and 64 hex digits (Go's `%x` of the whole digest), well within the
    /// API server's 128 characters, and depends on the name and GroupKind alone.
    #[test]
    fn the_composed_field_owner_is_the_digest_of_name_and_group_kind() {
        // `printf my-dbXPostgreSQLInstance.database.example.org | sha256sum`
        let owner = composed_field_owner("my-db", "XPostgreSQLInstance", "database.example.org");
        assert_eq!(
            owner,
            "apiextensions.crossplane.io/composed/4fd8165ffc8193171fd75760b7393df43a0044362ee68d2772e996612f366f8d"
        );
        assert_eq!(owner.len(), COMPOSED_MANAGER_PREFIX.len() + 64);
        assert_ne!(owner, composed_field_owner("my-db", "XPostgreSQLInstance", "other.example.org"));
        assert_ne!(owner, composed_field_owner("db", "XCache", "platform.example.org"));
    }

    #[test]
    fn an_mr_without_signs_keeps_nothing() {
        assert!(Composed::of(None, None, IdentityOwners::default(), false).is_none());
        assert!(Composed::of(None, None, IdentityOwners::default(), true).is_some());
    }
}
