//! Whether a repair written to an MR would last: when the composite reconciler owns one of the
//! MR's identity fields, its next compose puts the composition's value back.
//!
//! Crossplane applies every composed resource with server-side apply, `ForceOwnership`, as the
//! field manager `apiextensions.crossplane.io/composed/<sha256 of XR name + GroupKind>`
//! (crossplane `internal/controller/apiextensions/composite/composition_functions.go`,
//! `ComposedFieldOwnerName`, the apply around line 689). The API server records that manager's
//! `Apply` entry in `metadata.managedFields` with the fields the composition set (read with the
//! MR, [`crate::composed::IdentityOwners`]); a later merge-patch by adopt, restore or promote
//! takes the field over, and the next forced apply takes it back and writes the composition's
//! value. So the change belongs in the composition.

use crate::composed::IdentityField;
use crate::journal::{Record, Source, best_first};
use crate::managed::{ManagedResource, keys};
use serde_json::Value;

/// The composite that holds an MR's identity: which XR, and which identity fields its
/// composition sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompositeHold {
    /// The XR as `Kind/name` (its controller owner reference), or named by the
    /// `crossplane.io/composite` label when the reference is gone.
    pub xr: String,
    /// The identity fields the composition sets, in [`IdentityField::ALL`] order.
    pub fields: Vec<IdentityField>,
}

impl CompositeHold {
    /// The fields as one phrase: `metadata.annotations[crossplane.io/external-name] and spec.deletionPolicy`.
    pub fn fields_phrase(&self) -> String {
        let names: Vec<&str> = self.fields.iter().map(|f| f.path()).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    }

    /// Whether a merge patch writes a field the composition sets.
    pub fn touched_by(&self, patch: &Value) -> bool {
        let written = |f: &IdentityField| match f {
            IdentityField::ExternalName => patch.pointer("/metadata/annotations/crossplane.io~1external-name"),
            IdentityField::Paused => patch.pointer("/metadata/annotations/crossplane.io~1paused"),
            IdentityField::ManagementPolicies => patch.pointer("/spec/managementPolicies"),
            IdentityField::DeletionPolicy => patch.pointer("/spec/deletionPolicy"),
        };
        self.fields.iter().any(|f| written(f).is_some())
    }

    /// What the user does instead of the repair: change the composition, not the MR.
    pub fn advice(&self) -> String {
        format!(
            "the composition of {xr} sets {f}, so its next compose would put the composition's value back; make the \
             change in the composition instead: have it set the ID (patched onto the resource from {xr}), or stop \
             setting the field so that the next compose removes it and the repair can run",
            xr = self.xr,
            f = self.fields_phrase()
        )
    }
}

/// The composite's hold on an MR, when its field manager's `Apply` entry owns an identity field;
/// `None` otherwise, as for every MR nothing composes.
pub fn composite_hold(mr: &ManagedResource) -> Option<CompositeHold> {
    let composed = mr.composed.as_ref()?;
    let fields = composed.owners.composite_fields();
    if fields.is_empty() {
        return None;
    }
    let xr = match (&composed.controller, &mr.composite) {
        (Some(c), _) => format!("{}/{}", c.kind, c.name),
        (None, Some(label)) => format!("the XR {label}"),
        (None, None) => "the XR that composed it".to_string(),
    };
    Some(CompositeHold { xr, fields })
}

/// The hold on an MR given as JSON (restore and promote read objects, not decoded MRs); an object
/// that does not decode holds nothing here (the command's own checks refuse it).
pub fn composite_hold_of(obj: &Value) -> Option<CompositeHold> {
    ManagedResource::from_value(obj).ok().as_ref().and_then(composite_hold)
}

/// The IDs the MR's predecessors held in its slot, best first: the external-names the ID journal
/// recorded for other MRs (other UIDs) of the same kind and namespace that the same XR composed
/// for the same resource name. An XR created again (a GitOps re-apply, a restore) composes a new
/// MR under a new name with no external-name; the ID its predecessor held is the one to adopt
/// (`ComposedRecreated`).
pub fn predecessor_ids<'a>(records: impl Iterator<Item = &'a Record>, mr: &ManagedResource) -> Vec<Record> {
    let resource = mr.annotation(keys::COMPOSITION_RESOURCE_NAME).filter(|r| !r.is_empty());
    let controller = mr.composed.as_deref().and_then(|c| c.controller.as_ref()).map(|c| c.name.as_str());
    let (Some(resource), Some(composite)) = (resource, controller.or(mr.composite.as_deref())) else {
        return Vec::new();
    };
    let same_slot: Vec<Record> = records
        .filter(|r| r.source == Source::ExternalName && r.uid != mr.uid)
        .filter(|r| r.group == mr.group() && r.kind == mr.kind && r.namespace == mr.namespace)
        .filter(|r| r.composite.as_deref() == Some(composite) && r.resource.as_deref() == Some(resource))
        .cloned()
        .collect();
    best_first(&same_slot).into_iter().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mr(managed_fields: Value) -> Value {
        json!({"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket",
            "metadata": {"name": "b", "uid": "u-b", "managedFields": managed_fields,
            "labels": {"crossplane.io/composite": "bucket-x7k2p"},
            "ownerReferences": [{"apiVersion": "example.org/v1", "kind": "XBucket", "name": "bucket-x7k2p",
                "uid": "u", "controller": true, "blockOwnerDeletion": true}]},
            "spec": {"forProvider": {}}})
    }

    fn entry(manager: &str, operation: &str, fields: Value) -> Value {
        json!({"manager": manager, "operation": operation, "apiVersion": "s3.aws.upbound.io/v1beta1",
            "fieldsType": "FieldsV1", "fieldsV1": fields})
    }

    /// (case, managedFields, expected fields held)
    #[test]
    fn only_the_composites_apply_of_an_identity_field_holds_it() {
        use IdentityField::*;
        let composed = "apiextensions.crossplane.io/composed/4fd8165ffc81";
        let ext = json!({"f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {}}}});
        let all = json!({"f:spec": {"f:deletionPolicy": {}, "f:managementPolicies": {}},
            "f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {}}}});
        let cases: Vec<(&str, Value, Option<Vec<IdentityField>>)> = vec![
            (
                "the composition sets the external-name",
                json!([entry(composed, "Apply", ext.clone())]),
                Some(vec![ExternalName]),
            ),
            (
                "policies and deletion policy too",
                json!([entry(composed, "Apply", all)]),
                Some(vec![ExternalName, ManagementPolicies, DeletionPolicy]),
            ),
            ("a repair took the field over (an Update)", json!([entry("kubectl-upjet", "Update", ext.clone())]), None),
            ("an update named like the composite is no apply", json!([entry(composed, "Update", ext.clone())]), None),
            (
                "the composition sets other fields only",
                json!([entry(composed, "Apply", json!({"f:spec": {"f:forProvider": {"f:region": {}}}}))]),
                None,
            ),
            ("no managed fields", Value::Null, None),
        ];
        for (case, fields, want) in cases {
            let got = composite_hold_of(&mr(fields));
            assert_eq!(got.as_ref().map(|h| h.fields.clone()), want, "{case}");
            if let Some(h) = got {
                assert_eq!(h.xr, "XBucket/bucket-x7k2p", "{case}");
            }
        }
    }

    #[test]
    fn a_recreated_xrs_new_mr_is_offered_the_id_its_predecessor_held_in_the_same_slot() {
        let new = json!({"apiVersion": "s3.aws.upbound.io/v1beta1", "kind": "Bucket",
            "metadata": {"name": "bucket-x7k2p-9f3a1", "uid": "u-new",
                "annotations": {"crossplane.io/composition-resource-name": "bucket"},
                "labels": {"crossplane.io/composite": "bucket-x7k2p"},
                "ownerReferences": [{"apiVersion": "example.org/v1", "kind": "XBucket", "name": "bucket-x7k2p",
                    "uid": "xr-2", "controller": true}]},
            "spec": {"forProvider": {}}});
        let new = ManagedResource::from_value(&new).unwrap();
        let record = |uid: &str, resource: &str, id: &str, time: &str| Record {
            time: time.into(),
            uid: uid.into(),
            group: "s3.aws.upbound.io".into(),
            kind: "Bucket".into(),
            namespace: None,
            name: format!("bucket-x7k2p-{uid}"),
            source: Source::ExternalName,
            id: id.into(),
            composite: Some("bucket-x7k2p".into()),
            resource: Some(resource.into()),
        };
        let records = [
            record("u-old", "bucket", "orders-a", "2024-11-30T10:00:00Z"),
            record("u-old", "bucket", "orders-b", "2024-11-30T11:00:00Z"),
            record("u-logs", "logs", "logs-a", "2024-11-30T11:00:00Z"),
            record("u-new", "bucket", "ignored", "2024-11-30T12:00:00Z"),
        ];
        let ids: Vec<String> = predecessor_ids(records.iter(), &new).into_iter().map(|r| r.id).collect();
        assert_eq!(ids, ["orders-b", "orders-a"], "the same slot's, newest first; not its own, not another slot's");
    }

    #[test]
    fn a_patch_touches_only_the_fields_it_writes_and_the_label_names_an_unreferenced_xr() {
        let composed = "apiextensions.crossplane.io/composed/4fd8";
        let mut obj = mr(json!([entry(composed, "Apply", json!({"f:spec": {"f:deletionPolicy": {}}}))]));
        obj["metadata"].as_object_mut().unwrap().remove("ownerReferences");
        let hold = composite_hold_of(&obj).unwrap();
        assert_eq!(hold.xr, "the XR bucket-x7k2p");
        assert!(hold.touched_by(&json!({"spec": {"deletionPolicy": "Orphan"}})));
        assert!(!hold.touched_by(&json!({"metadata": {"annotations": {"crossplane.io/external-name": "x"}}})));
        assert!(
            hold.advice().starts_with("the composition of the XR bucket-x7k2p sets spec.deletionPolicy"),
            "{}",
            hold.advice()
        );
    }
}
