//! `ComposedGarbageCollected`: the MR's own XR is deleting it, and with it its cloud object.

use super::facts::Facts;
use crate::composition::XrLink;
use crate::deletion::{Deletion, OnDelete};
use crate::finding::{Code, Finding};

/// The composite reconciler deletes every observed composed resource its functions no longer
/// desire — a function dropped it, or its `crossplane.io/composition-resource-name` changed —
/// before it records its references anew (crossplane `composition_functions.go`
/// `GarbageCollectComposedResources`, called ahead of `UpdateResourceRefs`; crossplane#6915,
/// #6209). The MR is then deleted as any MR is: with `deletionPolicy: Delete` or policies holding
/// Delete its provider deletes the cloud object. Told from a cascade (the claim or XR deleted on
/// purpose) by the XR: alive and not being deleted, while the MR has lost its composed labels
/// or left the XR's references. Said only while crossplane's finalizer still holds the MR: the
/// provider has yet to delete the object, and a patch of the policies keeps it.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let c = facts.evidence?.composition.as_ref()?;
    let mr = facts.mr;
    let since = mr.deletion_timestamp.as_deref()?;
    let resource = c.resource.as_deref()?;
    if !mr.own_finalizer || Deletion::of(mr).on_delete != OnDelete::Deletes {
        return None;
    }
    let labels_gone = c.label.is_none();
    let (by, why) = match (c.link, c.xr.as_ref()) {
        (Some(XrLink::Live), Some(xr)) if xr.deleting.is_none() && (labels_gone || c.listed == Some(false)) => {
            (xr.key.display(), if labels_gone { "its composed labels are gone" } else { "the XR no longer lists it" })
        }
        (Some(XrLink::Unknown | XrLink::Uncontrolled), None) if labels_gone => {
            ("its XR".to_string(), "its composed labels are gone")
        }
        _ => return None,
    };
    let object = match mr.external_name() {
        Some(id) => format!("its cloud object {}", crate::shell::quoted(id)),
        None => "its cloud object".to_string(),
    };
    let message = format!(
        "garbage-collected by {by}: resource {resource} is no longer in its desired state ({why}), and the deletion under way since {since} deletes {object}"
    );
    let next = match facts.management.keep_cloud_object_patch() {
        Some(patch) => facts.kubectl("patch").word("--type").word("merge").opt("-p", patch),
        None => facts.upjet("history"),
    };
    Some(
        Finding::new(Code::ComposedGarbageCollected, message, next.to_string())
            .with("composite", by)
            .with("resource", resource)
            .with("why", why)
            .with("deletionTimestamp", since)
            .with("keep", facts.management.keep_cloud_object_fix().unwrap_or_default()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::composition_cases::*;
    use crate::finding::Code;

    #[test]
    fn table() {
        let db = || composed("orders-a1b2c", "xr-1", "db").external_name("orders-db");
        let unlabelled = || {
            let mut m = db().deleting().json();
            m["metadata"]["labels"].as_object_mut().unwrap().remove("crossplane.io/composite");
            crate::testing::Mr::from_json(m)
        };
        for (case, mr, xrs, fires) in [
            ("labels stripped, XR alive", unlabelled(), Some(vec![xr("xr-1", &["orders-a1b2c"])]), true),
            ("out of the references", db().deleting(), Some(vec![xr("xr-1", &[])]), true),
            ("labels stripped, XR kind not read", unlabelled(), None, true),
            ("labels stripped, XR gone: a cascade", unlabelled(), Some(vec![]), false),
            ("listed and labelled: deleted by hand", db().deleting(), Some(vec![xr("xr-1", &["orders-a1b2c"])]), false),
            ("the XR is being deleted: a cascade", db().deleting(), Some(vec![xr_deleting("xr-1", &[])]), false),
            ("Orphan keeps the object", db().deleting().deletion_policy("Orphan"), Some(vec![xr("xr-1", &[])]), false),
            ("the provider let it go already", db().deleting().finalizers(&[]), Some(vec![xr("xr-1", &[])]), false),
            ("not being deleted", db(), Some(vec![xr("xr-1", &[])]), false),
        ] {
            let tree = match xrs {
                Some(xrs) => tree(xrs, &[], &[]),
                None => crate::composition::Composition::default(),
            };
            let found = judge(Code::ComposedGarbageCollected, &mr, &tree);
            assert_eq!(found.is_some(), fires, "{case}: {found:?}");
            if let Some(f) = found {
                assert!(f.next.contains("deletionPolicy") && f.next.contains("Orphan"), "{case}: {}", f.next);
            }
        }
    }
}
