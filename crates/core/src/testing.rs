//! The one builder of MR JSON, for the unit tables of every crate and the black-box tests (their
//! `support` re-exports it): each case reads like the object it describes, and goes through the
//! real decoder (or a test API server), so the tests exercise decoding too.
//!
//! Two starting points, each with its defaults written out below:
//! - [`Mr::new`] is a bare MR as a unit table wants it: `dns.gcp.upbound.io/v1beta1`, cluster-scoped,
//!   `uid-<name>`, generation and resourceVersion `1`, created at 2024-11-30T10:00:00Z, no
//!   annotation, an empty `forProvider`, no condition. A case adds what it is about.
//! - [`Mr::provisioned`] is an MR as a provider leaves it after a create that went well, to store
//!   in a test cluster: external-name and `status.atProvider.id` equal to its name, crossplane's
//!   finalizer, `forProvider.region: eu-west-1`, `managementPolicies: ["*"]`, Ready and Synced
//!   True since 10:00, and none of the fields an API server stamps (uid, creationTimestamp,
//!   generation, resourceVersion). A case takes away what it is about (`without_annotation`,
//!   `create_incomplete`, …).
//!
//! Both are the same type with the same methods; "now" in the tests is 2024-11-30T12:00:00Z.

use super::managed::{FINALIZER, ManagedResource, keys};
use serde_json::{Value, json};

/// Builds one MR object.
#[derive(Clone)]
pub struct Mr(Value);

impl Mr {
    /// A bare cluster-scoped MR of `kind` in `dns.gcp.upbound.io/v1beta1` (the defaults are in the
    /// module's doc).
    pub fn new(kind: &str, name: &str) -> Mr {
        Mr(json!({
            "apiVersion": "dns.gcp.upbound.io/v1beta1",
            "kind": kind,
            "metadata": {"name": name, "uid": format!("uid-{name}"), "generation": 1, "resourceVersion": "1",
                         "creationTimestamp": "2024-11-30T10:00:00Z", "annotations": {}},
            "spec": {"forProvider": {}},
            "status": {"conditions": []}
        }))
    }
    /// An MR of `apiVersion`/`kind` named `name` as its provider leaves it after a create that
    /// went well, without the fields an API server stamps (the defaults are in the module's doc).
    pub fn provisioned(api_version: &str, kind: &str, name: &str) -> Mr {
        let mut mr = Mr::new(kind, name)
            .api_version(api_version)
            .external_name(name)
            .finalizers(&[FINALIZER])
            .param("region", "eu-west-1")
            .policies(&["*"])
            .at_provider_id(name)
            .conditions(json!([
                {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T10:00:00Z"},
                {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T10:00:00Z"}]));
        let meta = mr.0["metadata"].as_object_mut().expect("metadata is an object");
        for stamped in ["uid", "creationTimestamp", "generation", "resourceVersion"] {
            meta.remove(stamped);
        }
        mr
    }
    /// An MR from its object as JSON (one edited by hand after [`Mr::json`]).
    pub fn from_json(obj: Value) -> Mr {
        Mr(obj)
    }
    /// Sets `metadata.creationTimestamp`.
    pub fn created(mut self, at: &str) -> Mr {
        self.0["metadata"]["creationTimestamp"] = json!(at);
        self
    }
    /// Sets apiVersion.
    pub fn api_version(mut self, v: &str) -> Mr {
        self.0["apiVersion"] = json!(v);
        self
    }
    /// Makes it namespaced.
    pub fn namespace(mut self, ns: &str) -> Mr {
        self.0["metadata"]["namespace"] = json!(ns);
        self
    }
    /// Adds an annotation.
    pub fn annotation(mut self, k: &str, v: &str) -> Mr {
        self.0["metadata"]["annotations"][k] = json!(v);
        self
    }
    /// Removes an annotation (e.g. the external-name of a [`provisioned`](Mr::provisioned) MR).
    pub fn without_annotation(mut self, k: &str) -> Mr {
        if let Some(annotations) = self.0["metadata"]["annotations"].as_object_mut() {
            annotations.remove(k);
        }
        self
    }
    /// Adds a label.
    pub fn label(mut self, k: &str, v: &str) -> Mr {
        self.0["metadata"]["labels"][k] = json!(v);
        self
    }
    /// Adds a controller owner reference (an XR composing it).
    pub fn owner(mut self, api_version: &str, kind: &str, name: &str, uid: &str) -> Mr {
        let reference = json!({"apiVersion": api_version, "kind": kind, "name": name, "uid": uid,
            "controller": true, "blockOwnerDeletion": true});
        match self.0["metadata"]["ownerReferences"].as_array_mut() {
            Some(refs) => refs.push(reference),
            None => self.0["metadata"]["ownerReferences"] = json!([reference]),
        }
        self
    }
    /// Adds a `managedFields` entry: `manager` (`operation`) owning these fieldsV1 paths
    /// (`metadata.annotations.crossplane.io/external-name`, `spec.deletionPolicy`, …), written
    /// as the API server writes them.
    pub fn managed_by(mut self, manager: &str, operation: &str, paths: &[&str]) -> Mr {
        let mut fields = json!({});
        for path in paths {
            let (head, leaf): (Vec<String>, String) = match path.strip_prefix("metadata.annotations.") {
                Some(key) => (vec!["f:metadata".into(), "f:annotations".into()], format!("f:{key}")),
                None => {
                    let mut parts: Vec<String> = path.split('.').map(|p| format!("f:{p}")).collect();
                    let leaf = parts.pop().unwrap_or_default();
                    (parts, leaf)
                }
            };
            let mut at = &mut fields;
            for h in &head {
                at = &mut at[h.as_str()];
            }
            at[leaf.as_str()] = json!({});
        }
        let entry = json!({"manager": manager, "operation": operation, "apiVersion": self.0["apiVersion"].clone(),
            "time": "2024-11-30T10:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": fields});
        match self.0["metadata"]["managedFields"].as_array_mut() {
            Some(all) => all.push(entry),
            None => self.0["metadata"]["managedFields"] = json!([entry]),
        }
        self
    }
    /// Sets external-name.
    pub fn external_name(self, v: &str) -> Mr {
        self.annotation(keys::EXTERNAL_NAME, v)
    }
    /// Adds a condition.
    pub fn cond(mut self, t: &str, s: &str, reason: &str, message: &str) -> Mr {
        self.0["status"]["conditions"].as_array_mut().unwrap().push(json!({
            "type": t, "status": s, "reason": reason, "message": message,
            "lastTransitionTime": "2024-11-30T10:00:00Z"}));
        self
    }
    /// Adds a condition whose last transition was at `ltt`.
    pub fn cond_at(mut self, t: &str, s: &str, reason: &str, message: &str, ltt: &str) -> Mr {
        self.0["status"]["conditions"].as_array_mut().unwrap().push(json!({
            "type": t, "status": s, "reason": reason, "message": message, "lastTransitionTime": ltt}));
        self
    }
    /// Adds a condition with an observedGeneration.
    pub fn cond_gen(mut self, t: &str, s: &str, reason: &str, g: i64) -> Mr {
        self.0["status"]["conditions"].as_array_mut().unwrap().push(json!({
            "type": t, "status": s, "reason": reason, "observedGeneration": g,
            "lastTransitionTime": "2024-11-30T10:00:00Z"}));
        self
    }
    /// Replaces every condition.
    pub fn conditions(mut self, c: Value) -> Mr {
        self.0["status"]["conditions"] = c;
        self
    }
    /// Blocked at the create-incomplete gate, as the managed reconciler leaves it: both create
    /// marks (pending after succeeded), Ready=False/Creating and Synced=False with the gate's
    /// error, since 11:00:05 (the other conditions are replaced).
    pub fn create_incomplete(self) -> Mr {
        self.annotation(keys::CREATE_PENDING, "2024-11-30T11:00:05Z")
            .annotation(keys::CREATE_SUCCEEDED, "2024-11-30T11:00:00Z")
            .conditions(json!([
                {"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": "2024-11-30T11:00:05Z"},
                {"type": "Synced", "status": "False", "reason": "ReconcileError", "lastTransitionTime": "2024-11-30T11:00:05Z",
                 "message": "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed"}]))
    }
    /// Ready=True/Available + Synced=True/ReconcileSuccess.
    pub fn healthy(self) -> Mr {
        self.cond("Ready", "True", "Available", "").cond("Synced", "True", "ReconcileSuccess", "")
    }
    /// Sets one top-level `spec.forProvider` value.
    pub fn param(mut self, k: &str, v: impl Into<Value>) -> Mr {
        self.0["spec"]["forProvider"][k] = v.into();
        self
    }
    /// Sets `spec.managementPolicies`.
    pub fn policies(mut self, p: &[&str]) -> Mr {
        self.0["spec"]["managementPolicies"] = json!(p);
        self
    }
    /// Sets `spec.deletionPolicy`.
    pub fn deletion_policy(mut self, p: &str) -> Mr {
        self.0["spec"]["deletionPolicy"] = json!(p);
        self
    }
    /// Sets `status.atProvider.id`.
    pub fn at_provider_id(mut self, id: &str) -> Mr {
        self.0["status"]["atProvider"]["id"] = json!(id);
        self
    }
    /// Sets `status.atProvider.arn`.
    pub fn at_provider_arn(mut self, arn: &str) -> Mr {
        self.0["status"]["atProvider"]["arn"] = json!(arn);
        self
    }
    /// Sets `spec.providerConfigRef`: `{kind, name}` (v2) or `{name}` (legacy, `kind` `None`).
    pub fn provider_config(mut self, kind: Option<&str>, name: &str) -> Mr {
        self.0["spec"]["providerConfigRef"] = match kind {
            Some(kind) => json!({"kind": kind, "name": name}),
            None => json!({"name": name}),
        };
        self
    }
    /// Sets `status.lastHandledReconcileAt` (crossplane-runtime ≥ v2.3).
    pub fn last_handled(mut self, token: &str) -> Mr {
        self.0["status"]["lastHandledReconcileAt"] = json!(token);
        self
    }
    /// Sets `metadata.generation`.
    pub fn generation(mut self, g: i64) -> Mr {
        self.0["metadata"]["generation"] = json!(g);
        self
    }
    /// Sets `status.observedGeneration`.
    pub fn status_observed_generation(mut self, g: i64) -> Mr {
        self.0["status"]["observedGeneration"] = json!(g);
        self
    }
    /// Removes `status` entirely (a freshly created MR).
    pub fn no_status(mut self) -> Mr {
        self.0.as_object_mut().unwrap().remove("status");
        self
    }
    /// Sets `metadata.finalizers`.
    pub fn finalizers(mut self, f: &[&str]) -> Mr {
        self.0["metadata"]["finalizers"] = json!(f);
        self
    }
    /// Sets a deletion timestamp.
    pub fn deleting(mut self) -> Mr {
        self.0["metadata"]["deletionTimestamp"] = json!("2024-11-30T11:00:00Z");
        self
    }
    /// Decodes it through the real decoder.
    pub fn build(&self) -> ManagedResource {
        ManagedResource::from_json(&self.0.to_string()).expect("test MR decodes")
    }
    /// The object as JSON (what a backup or the API server holds).
    pub fn json(self) -> Value {
        self.0
    }
    /// Its manifest (no status), with these references (`field`, name) to other MRs.
    pub fn manifest(self, refs: &[(&str, &str)]) -> crate::lint::Manifest {
        let refs = refs
            .iter()
            .map(|(f, n)| crate::lint::Reference { field: f.to_string(), name: n.to_string(), namespace: None })
            .collect();
        let keys = self.0["metadata"]["annotations"].as_object().map(|a| a.keys().cloned().collect::<Vec<_>>());
        let provider_annotations = crate::lint::provider_annotations(keys.iter().flatten().map(String::as_str));
        crate::lint::Manifest { mr: self.no_status().build(), refs, provider_annotations }
    }
}

/// A lint's set of ten Zone manifests: nine agree on `{forProvider.region}/{name}` (a
/// supermajority), the tenth (`j`) is off it and references `a` and `zz`, which no manifest is.
pub fn zones_one_off_format() -> Vec<crate::lint::Manifest> {
    let zone = |name: &str, id: &str| Mr::new("Zone", name).param("region", "eu").external_name(id).policies(&["*"]);
    let mut set: Vec<_> = "abcdefghi".chars().map(|c| zone(&c.to_string(), &format!("eu/{c}")).manifest(&[])).collect();
    set.push(zone("j", "us/typo").manifest(&[("spec.forProvider.parentRef", "a"), ("spec.forProvider.peerRef", "zz")]));
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults the module's doc promises, checked on the objects themselves.
    #[test]
    fn the_two_starting_points_hold_their_documented_defaults() {
        let bare = Mr::new("Zone", "a").json();
        assert_eq!(bare["apiVersion"], "dns.gcp.upbound.io/v1beta1");
        assert_eq!(bare["metadata"]["uid"], "uid-a");
        assert_eq!((&bare["metadata"]["generation"], &bare["metadata"]["resourceVersion"]), (&json!(1), &json!("1")));
        assert_eq!(bare["metadata"]["annotations"], json!({}));
        assert_eq!((&bare["spec"], &bare["status"]), (&json!({"forProvider": {}}), &json!({"conditions": []})));

        let mr = Mr::provisioned("ec2.aws.upbound.io/v1beta1", "VPC", "main");
        let obj = mr.clone().json();
        for stamped in ["uid", "creationTimestamp", "generation", "resourceVersion"] {
            assert!(obj["metadata"].get(stamped).is_none(), "{stamped} is left to the API server");
        }
        let built = mr.build();
        assert_eq!((built.external_name(), built.at_provider_id.as_deref()), (Some("main"), Some("main")));
        assert_eq!(obj["spec"], json!({"forProvider": {"region": "eu-west-1"}, "managementPolicies": ["*"]}));
        assert_eq!(obj["metadata"]["finalizers"], json!([FINALIZER]));
        let conditions: Vec<_> =
            obj["status"]["conditions"].as_array().unwrap().iter().map(|c| (&c["type"], &c["status"])).collect();
        assert_eq!(conditions, [(&json!("Ready"), &json!("True")), (&json!("Synced"), &json!("True"))]);
    }
}
