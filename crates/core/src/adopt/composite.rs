//! Whether a repair written to an MR would last: when the composite reconciler owns one of the
//! MR's identity fields, its next compose puts the composition's value back.
//!
//! Crossplane applies every composed resource with server-side apply, `ForceOwnership`, as the
//! field manager `apiextensions.crossplane.io/composed/<sha256 of XR name + GroupKind>`
//! (crossplane `internal/controller/apiextensions/composite/composition_functions.go`,
//! `ComposedFieldOwnerName`, the apply around line 689). The API server records that manager's
//! `Apply` entry in `metadata.managedFields` with the fields the composition set; a later
//! merge-patch by adopt, restore or promote takes the field over, and the next forced apply takes
//! it back and writes the composition's value. So the repair must happen in the composition (or
//! while the XR is paused, with the composition changed before it is unpaused).

use serde_json::Value;

/// The field-manager prefix of the composite reconciler's applies to composed resources.
const COMPOSED_MANAGER_PREFIX: &str = "apiextensions.crossplane.io/composed/";

/// How messages name the external-name annotation.
pub const EXTERNAL_NAME: &str = "the external-name annotation";
/// How messages name `spec.managementPolicies`.
pub const MANAGEMENT_POLICIES: &str = "spec.managementPolicies";
/// How messages name `spec.deletionPolicy`.
pub const DELETION_POLICY: &str = "spec.deletionPolicy";

/// The identity fields a repair writes, as `fieldsV1` paths, and how messages name them.
const IDENTITY_FIELDS: [(&[&str], &str); 3] = [
    (&["f:metadata", "f:annotations", "f:crossplane.io/external-name"], EXTERNAL_NAME),
    (&["f:spec", "f:managementPolicies"], MANAGEMENT_POLICIES),
    (&["f:spec", "f:deletionPolicy"], DELETION_POLICY),
];

/// The composite that holds an MR's identity: which XR, and which identity fields its
/// composition sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompositeHold {
    /// The XR as `Kind/name` (its controller owner reference), or the `crossplane.io/composite`
    /// label's name when the reference is gone.
    pub xr: String,
    /// The XR's API version, when the owner reference gives it.
    pub xr_api_version: Option<String>,
    /// The identity fields the composition sets, as messages name them.
    pub fields: Vec<&'static str>,
}

impl CompositeHold {
    /// The fields as one phrase: `the external-name annotation and spec.deletionPolicy`.
    pub fn fields_phrase(&self) -> String {
        match self.fields.as_slice() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    }

    /// Whether the composition sets one of `fields` (named as [`EXTERNAL_NAME`] and the others).
    pub fn holds_any(&self, fields: &[&str]) -> bool {
        self.fields.iter().any(|f| fields.contains(f))
    }

    /// Whether a merge patch writes a field the composition sets.
    pub fn touched_by(&self, patch: &Value) -> bool {
        let ext = patch.pointer("/metadata/annotations").and_then(Value::as_object);
        let spec = patch.get("spec").and_then(Value::as_object);
        (ext.is_some_and(|a| a.contains_key("crossplane.io/external-name")) && self.holds_any(&[EXTERNAL_NAME]))
            || (spec.is_some_and(|s| s.contains_key("managementPolicies")) && self.holds_any(&[MANAGEMENT_POLICIES]))
            || (spec.is_some_and(|s| s.contains_key("deletionPolicy")) && self.holds_any(&[DELETION_POLICY]))
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

/// The composite's hold on `obj` (an MR's JSON), when its field manager's `Apply` entry owns an
/// identity field; `None` otherwise, as for every MR nothing composes.
pub fn composite_hold(obj: &Value) -> Option<CompositeHold> {
    let entries = obj.pointer("/metadata/managedFields")?.as_array()?;
    let mut fields: Vec<&'static str> = Vec::new();
    for e in entries.iter().filter(|e| is_composite_apply(e)) {
        let Some(set) = e.get("fieldsV1") else { continue };
        for (path, name) in IDENTITY_FIELDS {
            let owned = path.iter().try_fold(set, |v, k| v.get(*k)).is_some();
            if owned && !fields.contains(&name) {
                fields.push(name);
            }
        }
    }
    if fields.is_empty() {
        return None;
    }
    fields.sort_by_key(|f| IDENTITY_FIELDS.iter().position(|(_, n)| n == f));
    let (xr, xr_api_version) = controller(obj).unwrap_or_else(|| {
        let label = obj.pointer("/metadata/labels/crossplane.io~1composite").and_then(Value::as_str);
        (format!("the XR {}", label.unwrap_or("that composed it")), None)
    });
    Some(CompositeHold { xr, xr_api_version, fields })
}

fn is_composite_apply(e: &Value) -> bool {
    let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default();
    s("operation") == "Apply" && s("manager").starts_with(COMPOSED_MANAGER_PREFIX) && s("subresource").is_empty()
}

/// `Kind/name` and apiVersion of the controller owner reference.
fn controller(obj: &Value) -> Option<(String, Option<String>)> {
    let refs = obj.pointer("/metadata/ownerReferences")?.as_array()?;
    let c = refs.iter().find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))?;
    let kind = c.get("kind")?.as_str()?;
    let name = c.get("name")?.as_str()?;
    Some((format!("{kind}/{name}"), c.get("apiVersion").and_then(Value::as_str).map(String::from)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mr(managed_fields: Value) -> Value {
        json!({"metadata": {"name": "b", "managedFields": managed_fields,
            "labels": {"crossplane.io/composite": "bucket-x7k2p"},
            "ownerReferences": [{"apiVersion": "example.org/v1", "kind": "XBucket", "name": "bucket-x7k2p",
                "uid": "u", "controller": true, "blockOwnerDeletion": true}]}})
    }

    fn entry(manager: &str, operation: &str, fields: Value) -> Value {
        json!({"manager": manager, "operation": operation, "apiVersion": "s3.aws.upbound.io/v1beta1",
            "fieldsType": "FieldsV1", "fieldsV1": fields})
    }

    /// (case, managedFields, expected fields held, by whom)
    #[test]
    fn only_the_composites_apply_of_an_identity_field_holds_it() {
        let composed = "apiextensions.crossplane.io/composed/4fd8165ffc81";
        let ext = json!({"f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {}}}});
        let cases: Vec<(&str, Value, Option<Vec<&str>>)> = vec![
            (
                "the composition sets the external-name",
                json!([entry(composed, "Apply", ext.clone())]),
                Some(vec!["the external-name annotation"]),
            ),
            (
                "policies and deletion policy too",
                json!([entry(
                    composed,
                    "Apply",
                    json!({"f:spec": {"f:deletionPolicy": {}, "f:managementPolicies": {}},
                "f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {}}}})
                )]),
                Some(vec!["the external-name annotation", "spec.managementPolicies", "spec.deletionPolicy"]),
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
            let got = composite_hold(&mr(fields));
            assert_eq!(got.as_ref().map(|h| h.fields.clone()), want, "{case}");
            if let Some(h) = got {
                assert_eq!(h.xr, "XBucket/bucket-x7k2p", "{case}");
            }
        }
    }

    #[test]
    fn without_an_owner_reference_the_composite_label_names_the_xr() {
        let composed = "apiextensions.crossplane.io/composed/4fd8";
        let mut obj = mr(json!([entry(composed, "Apply", json!({"f:spec": {"f:deletionPolicy": {}}}))]));
        obj["metadata"].as_object_mut().unwrap().remove("ownerReferences");
        let hold = composite_hold(&obj).unwrap();
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
