//! `CompositionOwnsIdentity`: the composition, not the MR, decides its identity fields.

use super::facts::Facts;
use crate::composed::IdentityField;
use crate::finding::{Code, Finding};

/// The composite reconciler applies each composed resource with server-side apply, `ForceOwnership`
/// and its own field manager (crossplane `composition_functions.go`, `ComposedFieldOwnerName`):
/// a field it sets — an external-name patched from the XR, the management or deletion policy —
/// is its own, and its next compose puts its value back over whatever adopt, restore or promote
/// wrote to the MR (and removes a field it stops setting). The external-name is said whenever the
/// composition owns it; the policies and the pause only on an MR that lost its ID, where a
/// repair would write them.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let c = facts.evidence?.composition.as_ref()?;
    let mr = facts.mr;
    let owns_name = c.composite_fields.contains(&IdentityField::ExternalName);
    let created = facts.marks.succeeded.is_set() || mr.at_provider_id.is_some() || mr.is_true("Ready");
    let lost = mr.external_name().is_none() && created;
    if c.composite_fields.is_empty() || !(owns_name || lost) || mr.deletion_timestamp.is_some() {
        return None;
    }
    let fields: Vec<&str> = c.composite_fields.iter().map(|f| f.path()).collect();
    let owner = c.manager_xr.as_ref().or(c.xr_key.as_ref());
    let xr = owner.map(|k| k.display()).unwrap_or_else(|| "its XR".into());
    let paused = c.xr.as_ref().is_some_and(|x| x.paused);
    let when = match paused {
        true => "once the XR is unpaused (it is paused now), its next compose",
        false => "its next compose",
    };
    let message = format!(
        "the composition owns {} of this MR (server-side apply by {xr}'s field manager): a repair written to the MR is reverted at {when}; change it through the XR or its composition",
        fields.join(", ")
    );
    let manager = mr.composed.as_deref().and_then(|m| m.owners.composite()).map(|o| o.manager.clone());
    let next = match owner {
        Some(key) => key.upjet_command("doctor"),
        None => facts.upjet("history"),
    };
    Some(
        Finding::new(Code::CompositionOwnsIdentity, message, next.to_string())
            .with("composite", xr)
            .with("fields", fields.join(", "))
            .with_opt("fieldManager", manager)
            .with("xrPaused", paused.to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::composition_cases::*;
    use crate::composed::composed_field_owner;
    use crate::finding::Code;

    #[test]
    fn table() {
        let manager = composed_field_owner("orders", "XDatabase", "platform.example.org");
        let db = || composed("orders-a1b2c", "xr-1", "db").external_name("orders-db");
        let applied = |paths: &[&str]| db().managed_by(&manager, "Apply", paths);
        let name = "metadata.annotations.crossplane.io/external-name";
        let lost = || {
            composed("orders-a1b2c", "xr-1", "db")
                .managed_by(&manager, "Apply", &["spec.deletionPolicy"])
                .at_provider_id("x")
        };
        for (case, mr, fires) in [
            ("the composition sets the external-name", applied(&[name, "spec.deletionPolicy"]), true),
            ("it sets the deletion policy of an MR that lost its ID", lost(), true),
            ("it sets only the deletion policy of a healthy MR", applied(&["spec.deletionPolicy"]), false),
            ("an update by that manager keeps nothing", db().managed_by(&manager, "Update", &[name]), false),
            ("kubectl owns the external-name", db().managed_by("kubectl-client-side-apply", "Update", &[name]), false),
        ] {
            let found = judge(Code::CompositionOwnsIdentity, &mr, &tree(vec![xr("xr-1", &["orders-a1b2c"])], &[], &[]));
            assert_eq!(found.is_some(), fires, "{case}: {found:?}");
            if let Some(f) = found {
                assert_eq!(
                    f.evidence["composite"], "xdatabase.platform.example.org/orders",
                    "{case}: the manager's XR"
                );
            }
        }
    }
}
