//! A fluent builder of MR JSON for table tests: each case reads like the object it describes, and
//! goes through the real decoder, so the tests exercise decoding too.

use super::managed::ManagedResource;
use serde_json::{Value, json};

/// Builds one MR object.
#[derive(Clone)]
pub struct Mr(Value);

impl Mr {
    /// A cluster-scoped MR of `kind` in `dns.gcp.upbound.io/v1beta1` with a fixed UID.
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
        self.annotation(super::managed::keys::EXTERNAL_NAME, v)
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
