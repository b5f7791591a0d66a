//! The compact view of a managed resource (MR) that every diagnosis works on.
//!
//! A fleet scan decodes tens of thousands of MRs whose `spec.forProvider`, `status.atProvider`
//! and `upjet.crossplane.io/provider-meta` annotation dwarf the few fields the diagnoses read. This
//! view keeps only those fields, decoded straight from the JSON of one list item, so memory stays
//! proportional to what is diagnosed rather than to what the API server sends.

use crate::composed::{self, ClaimLabels, Composed, Controller, IdentityOwners};
use crate::placeholder::{Placeholder, is_placeholder, placeholder};
pub(crate) use crate::provider_config::{PROVIDER_CONFIG, ProviderConfigKey};
use crate::shell::ShellCommand;
use crate::str_map::{self, StrMap};
use serde::Deserialize;

/// Annotation keys crossplane-runtime and upjet define (crossplane-runtime `pkg/meta/meta.go`).
pub mod keys {
    /// The cloud object's identifier; the only durable link between MR and cloud object.
    pub const EXTERNAL_NAME: &str = "crossplane.io/external-name";
    /// Written (RFC3339, second precision) just before the provider calls Create.
    pub const CREATE_PENDING: &str = "crossplane.io/external-create-pending";
    /// Written after Create returned without error (for upjet async: when the goroutine started).
    pub const CREATE_SUCCEEDED: &str = "crossplane.io/external-create-succeeded";
    /// Written after Create returned an error.
    pub(crate) const CREATE_FAILED: &str = "crossplane.io/external-create-failed";
    /// Only the exact value `"true"` pauses reconciliation.
    pub const PAUSED: &str = "crossplane.io/paused";
    /// Go duration, runtime v2.3+.
    pub(crate) const POLL_INTERVAL: &str = "crossplane.io/poll-interval";
    /// Opaque token; changing it enqueues the MR on runtime v2.3+.
    pub const RECONCILE_REQUESTED_AT: &str = "crossplane.io/reconcile-requested-at";
    /// Name of the resource inside its composition, for MRs created by a composite.
    pub(crate) const COMPOSITION_RESOURCE_NAME: &str = "crossplane.io/composition-resource-name";
    /// upjet v2.3.0 (`pkg/config/conversion/conversions.go` `AnnotationKey`): a JSON map of the
    /// field values one API version of the kind cannot hold, written by the conversion webhook
    /// and the controller, and merged back by the controller into the Terraform parameters
    /// (`pkg/controller/annotation_conversions.go`): the provider's bookkeeping.
    pub(crate) const FIELD_CONVERSIONS: &str = "internal.upjet.crossplane.io/field-conversions";
    /// upjet: Terraform's private state of the object (`AnnotationKeyPrivateRawAttribute`).
    pub(crate) const PROVIDER_META: &str = "upjet.crossplane.io/provider-meta";
    /// crossplane (`internal/protection` `AnnotationKeyDeletionAttempt`): the propagation policy
    /// of a delete the Usage webhook refused; a Usage with `spec.replayDeletion` deletes the
    /// object again once it is gone.
    pub(crate) const USAGE_DELETION_ATTEMPT: &str = "usage.crossplane.io/deletion-attempt-with-policy";
    /// The label crossplane's Usage controller puts on a resource a Usage names (`spec.of`);
    /// its webhook (`nousages.…crossplane.io`, failure policy Fail) intercepts every DELETE of
    /// an object carrying it and refuses it (409) while a Usage still names the object.
    pub const IN_USE_LABEL: &str = "crossplane.io/in-use";

    /// Annotations a provider writes about the object it manages, which a manifest should not
    /// carry: copied from `kubectl get -o yaml` into Git, they are applied again at every sync over
    /// what the provider wrote since (and a GitOps tool that corrects drift puts them back each time
    /// the provider changes them). Each with what it holds.
    pub const WRITTEN_BY_PROVIDER: &[(&str, &str)] = &[
        (
            FIELD_CONVERSIONS,
            "upjet's record of the field values one API version of the kind cannot hold (upjet v2.3.0 pkg/config/conversion), which its controller merges into the Terraform parameters ahead of spec.forProvider when they differ: a copy in Git overrides the manifest's own values with old ones",
        ),
        (
            PROVIDER_META,
            "upjet's copy of Terraform's private state of the object (timeouts, schema version): a copy in Git puts an old one back",
        ),
    ];
}

/// The finalizer the managed reconciler puts on every MR it creates an object for, and removes
/// once the cloud object is deleted or orphaned (crossplane-runtime `managed.FinalizerName`).
pub(crate) const FINALIZER: &str = "finalizer.managedresource.crossplane.io";

/// Why a condition matters: crossplane-runtime and upjet communicate state only through these.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// `Ready`, `Synced`, `LastAsyncOperation`, `AsyncOperation`, …
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    #[serde(default)]
    pub status: String,
    /// Machine-readable reason such as `Creating` or `ReconcileError`.
    #[serde(default)]
    pub reason: String,
    /// Human-readable detail; for Synced=False it holds the reconciler's error text.
    #[serde(default)]
    pub message: String,
    /// When the status last changed.
    #[serde(default)]
    pub last_transition_time: Option<String>,
    /// Generation the controller observed when it set this condition (runtime ≥ v1.20).
    #[serde(default)]
    pub observed_generation: Option<i64>,
}

/// The fields of one MR that the diagnoses need, and nothing else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ManagedResource {
    /// `group/version` of the object as listed.
    pub api_version: String,
    /// The MR kind, e.g. `RecordSet`.
    pub kind: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`; `None` for legacy cluster-scoped MRs.
    pub namespace: Option<String>,
    /// `metadata.uid`, the key provider logs and workspaces use.
    pub uid: String,
    /// `metadata.generation`.
    pub generation: Option<i64>,
    /// `metadata.resourceVersion`, needed for conditional writes.
    pub resource_version: String,
    /// `metadata.creationTimestamp`.
    pub creation_timestamp: Option<String>,
    /// `metadata.deletionTimestamp`.
    pub deletion_timestamp: Option<String>,
    /// Whether `metadata.finalizers` holds crossplane's own ([`FINALIZER`]).
    pub own_finalizer: bool,
    /// The other finalizers of `metadata.finalizers`, in order: another controller's (a backup
    /// before delete, `foregroundDeletion`), which a deletion waits for. Empty for nearly every
    /// MR, so it costs nothing in a fleet.
    pub other_finalizers: Vec<String>,
    /// Only the `crossplane.io/*` annotations (everything the reconciler reads).
    pub annotations: StrMap,
    /// `spec.managementPolicies`; `None` when the field is absent (API default `["*"]`).
    pub management_policies: Option<Vec<String>>,
    /// `spec.deletionPolicy` (legacy cluster-scoped MRs only).
    pub deletion_policy: Option<String>,
    /// `status.conditions`.
    pub conditions: Vec<Condition>,
    /// `status.observedGeneration` — its mere presence changes kstatus's verdict.
    pub status_observed_generation: Option<i64>,
    /// `status.atProvider.id`: the Terraform ID the provider last observed (a provider's
    /// placeholder, kept from a failed create's partial state, is no ID and reads as absent).
    pub at_provider_id: Option<String>,
    /// `crossplane.io/composite` label: the composite that owns this MR, if any.
    pub composite: Option<String>,
    /// The `crossplane.io/in-use: "true"` label: a Crossplane Usage names this MR, and
    /// Crossplane's webhook refuses to delete it while one does ([`keys::IN_USE_LABEL`]).
    pub in_use: bool,
    /// The top-level scalar values of `spec.forProvider` (strings, numbers, booleans, as text):
    /// what a provider's external-name templates are made of (see `domain::identity`). Objects
    /// and lists, and strings longer than 512 bytes (policy documents), are skipped while
    /// decoding, so this stays small.
    pub for_provider: StrMap,
    /// `spec.providerConfigRef`: which credentials and account the MR's cloud object lives
    /// under, so a fleet view can group thousands of findings by it (`None` when the object has
    /// no reference; see [`ManagedResource::provider_config_or_default`]).
    pub provider_config: Option<ProviderConfigKey>,
    /// `status.atProvider.arn`: the ARN an AWS provider observed. Kinds whose external-name is not
    /// ARN-shaped (an SQS queue's is its URL) are tied to an inventory's ARN through it.
    pub at_provider_arn: Option<String>,
    /// `status.lastHandledReconcileAt` (crossplane-runtime ≥ v2.3): the last
    /// `crossplane.io/reconcile-requested-at` token a reconcile acknowledged. Its presence alone
    /// shows the provider's runtime records requests at all.
    pub last_handled_reconcile_at: Option<String>,
    /// What composed it, when anything did: its controller, claim labels and the owners of its
    /// identity fields (`domain::composed`). `None` for an MR outside any composition.
    pub composed: Option<Box<Composed>>,
}

/// Why a list item could not become a [`ManagedResource`].
#[derive(Debug, thiserror::Error)]
#[error("unreadable object{}: {source}", name.as_deref().map(|n| format!(" {n:?}")).unwrap_or_default())]
pub struct DecodeError {
    /// The object's name, when at least that much could be read.
    pub name: Option<String>,
    /// The JSON error that made it unreadable.
    #[source]
    pub source: serde_json::Error,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Wire {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    metadata: WireMeta,
    #[serde(default)]
    spec: Option<WireSpec>,
    #[serde(default)]
    status: Option<WireStatus>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireMeta {
    name: String,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    uid: String,
    #[serde(default)]
    generation: Option<i64>,
    #[serde(default)]
    resource_version: String,
    #[serde(default)]
    creation_timestamp: Option<String>,
    #[serde(default)]
    deletion_timestamp: Option<String>,
    #[serde(default)]
    finalizers: Option<Vec<String>>,
    #[serde(default, deserialize_with = "crossplane_annotations")]
    annotations: StrMap,
    #[serde(default)]
    labels: Option<WireLabels>,
    #[serde(default, rename = "ownerReferences")]
    owner_references: Option<Vec<WireOwner>>,
    #[serde(default, rename = "managedFields", deserialize_with = "composed::owners::managed_fields")]
    managed_fields: IdentityOwners,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireOwner {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    uid: String,
    #[serde(default)]
    controller: Option<bool>,
}

#[derive(Deserialize)]
struct WireLabels {
    #[serde(rename = "crossplane.io/composite", default)]
    composite: Option<String>,
    #[serde(rename = "crossplane.io/in-use", default)]
    in_use: Option<String>,
    #[serde(rename = "crossplane.io/claim-name", default)]
    claim_name: Option<String>,
    #[serde(rename = "crossplane.io/claim-namespace", default)]
    claim_namespace: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireSpec {
    #[serde(default)]
    management_policies: Option<Vec<String>>,
    #[serde(default)]
    deletion_policy: Option<String>,
    #[serde(default, deserialize_with = "scalars")]
    for_provider: StrMap,
    #[serde(default)]
    provider_config_ref: Option<WireRef>,
}

#[derive(Deserialize)]
struct WireRef {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    kind: Option<String>,
}

/// Keeps only the top-level scalars of an object while streaming it; nested objects and lists
/// (tags, rrdatas, policies) are skipped, not stored.
fn scalars<'de, D: serde::Deserializer<'de>>(d: D) -> Result<StrMap, D::Error> {
    str_map::deserialize_kept::<D, Scalar>(d, "an object", |_| true)
}

/// The longest `spec.forProvider` string kept. The scalars are read for what IDs are made of
/// (names, regions, parent IDs: an Azure resource ID or a GCP self-link is a few hundred bytes at
/// most); a longer one is a policy document, a script or a certificate, and a fleet of them would
/// be held for nothing.
const MAX_SCALAR: usize = 512;

/// One value of `spec.forProvider`: a scalar as text, or anything else (ignored).
enum Scalar {
    Text(String),
    Other,
}

impl From<Scalar> for Option<String> {
    fn from(s: Scalar) -> Option<String> {
        match s {
            Scalar::Text(v) => Some(v),
            Scalar::Other => None,
        }
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                Ok(if v.len() <= MAX_SCALAR { Scalar::Text(v.to_owned()) } else { Scalar::Other })
            }
            fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::Other)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                while map.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other)
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireStatus {
    #[serde(default)]
    conditions: Option<Vec<Condition>>,
    #[serde(default)]
    observed_generation: Option<i64>,
    #[serde(default)]
    at_provider: Option<WireAtProvider>,
    #[serde(default)]
    last_handled_reconcile_at: Option<String>,
}

#[derive(Deserialize)]
struct WireAtProvider {
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(default)]
    arn: Option<serde_json::Value>,
}

/// Keeps only `crossplane.io/*` annotations (and the Usage webhook's record of a refused delete)
/// while streaming the map, so a 1 MB `upjet.crossplane.io/provider-meta` or
/// `last-applied-configuration` value is skipped, not stored.
fn crossplane_annotations<'de, D: serde::Deserializer<'de>>(d: D) -> Result<StrMap, D::Error> {
    str_map::deserialize_kept::<D, String>(d, "a map of string annotations", |key| {
        key.starts_with("crossplane.io/") || key == keys::USAGE_DELETION_ATTEMPT
    })
}

impl ManagedResource {
    /// Decodes one MR from its JSON, as found in a list's `items` or a `kubectl get -o json` file.
    pub fn from_json(raw: &str) -> Result<ManagedResource, DecodeError> {
        match serde_json::from_str::<Wire>(raw) {
            Ok(w) => Ok(w.into()),
            Err(source) => {
                #[derive(Deserialize)]
                struct NameOnly {
                    metadata: NameMeta,
                }
                #[derive(Deserialize)]
                struct NameMeta {
                    name: String,
                }
                let name = serde_json::from_str::<NameOnly>(raw).ok().map(|n| n.metadata.name);
                Err(DecodeError { name, source })
            }
        }
    }

    /// Decodes one MR from an already parsed object (an API answer), so that a caller polling
    /// an object does not serialise it to text just to parse it again.
    pub fn from_value(obj: &serde_json::Value) -> Result<ManagedResource, DecodeError> {
        Wire::deserialize(obj).map(ManagedResource::from).map_err(|source| DecodeError {
            name: obj.pointer("/metadata/name").and_then(serde_json::Value::as_str).map(str::to_owned),
            source,
        })
    }

    /// Whether `--kind SPEC` selects this MR where there is no discovery (a snapshot, a lint):
    /// `Kind`, `kind.group`, or a plural that is the kind with an `s`/`es` suffix.
    pub fn matches_kind_spec(&self, spec: &str) -> bool {
        let (name, group) = spec.split_once('.').map(|(n, g)| (n, Some(g))).unwrap_or((spec, None));
        let kind = self.kind.to_lowercase();
        let name = name.to_lowercase();
        let name_ok = name == kind || name == format!("{kind}s") || name == format!("{kind}es");
        name_ok && group.is_none_or(|g| g.eq_ignore_ascii_case(self.group()))
    }

    /// The API group, e.g. `route53.aws.upbound.io`.
    pub fn group(&self) -> &str {
        self.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("")
    }

    /// The value of a `crossplane.io/*` annotation.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.annotations.get(key).map(String::as_str)
    }

    /// The external-name, treating an empty value as absent (the reconciler does the same) and a
    /// provider's placeholder as absent too: a stub names no cloud object, so an MR that holds
    /// one tracks nothing ([`placeholder`](crate::placeholder)).
    pub fn external_name(&self) -> Option<&str> {
        self.annotation(keys::EXTERNAL_NAME).filter(|v| !v.is_empty() && !is_placeholder(v))
    }

    /// The placeholder the external-name holds, when it holds one: the evidence that the MR
    /// tracks nothing although the annotation is set.
    pub fn external_name_placeholder(&self) -> Option<&'static Placeholder> {
        self.annotation(keys::EXTERNAL_NAME).and_then(placeholder)
    }

    /// How many finalizers the MR holds, crossplane's own included: what the managed reconciler
    /// counts (`len(managed.GetFinalizers())`).
    pub(crate) fn finalizer_count(&self) -> usize {
        usize::from(self.own_finalizer) + self.other_finalizers.len()
    }

    /// The first condition of a type, as crossplane's `GetCondition` finds it.
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        self.conditions.iter().find(|c| c.type_ == type_)
    }

    /// Whether a condition of this type exists with status `True`.
    pub(crate) fn is_true(&self, type_: &str) -> bool {
        self.condition(type_).is_some_and(|c| c.status == "True")
    }

    /// Whether a condition of this type exists with status `False`.
    pub(crate) fn is_false(&self, type_: &str) -> bool {
        self.condition(type_).is_some_and(|c| c.status == "False")
    }

    /// `kind.group/name`, the argument form every command of this tool accepts.
    pub fn reference(&self) -> String {
        let group = self.group();
        if group.is_empty() {
            format!("{}/{}", self.kind.to_lowercase(), self.name)
        } else {
            format!("{}.{}/{}", self.kind.to_lowercase(), group, self.name)
        }
    }

    /// The provider config the MR uses, with the API server's default when it names none.
    pub(crate) fn provider_config_or_default(&self) -> ProviderConfigKey {
        self.provider_config.clone().unwrap_or_else(|| ProviderConfigKey::default_for(self.namespace.is_some()))
    }

    /// The `reference()` plus `-n <ns>` when namespaced, as a sentence names the MR; a command
    /// takes it from [`ManagedResource::upjet_command`].
    pub fn command_arg(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} -n {}", self.reference(), ns),
            None => self.reference(),
        }
    }

    /// `kubectl upjet SUBCOMMAND kind.group/name [-n ns]`, the start of every command this tool
    /// suggests about one MR (a name read from a file is quoted like any other argument).
    pub fn upjet_command(&self, subcommand: &'static str) -> ShellCommand {
        ShellCommand::upjet(subcommand).target(self.reference(), self.namespace.as_deref())
    }

    /// `kubectl VERB kind.group name [-n ns]`, the MR as plain kubectl takes it.
    pub(crate) fn kubectl_command(&self, verb: &'static str) -> ShellCommand {
        let reference = self.reference();
        let (kind, name) = reference.split_once('/').unwrap_or((reference.as_str(), ""));
        ShellCommand::kubectl(verb).arg(kind).target(name, self.namespace.as_deref())
    }
}

impl From<Wire> for ManagedResource {
    fn from(w: Wire) -> Self {
        let spec = w.spec.unwrap_or(WireSpec {
            management_policies: None,
            deletion_policy: None,
            for_provider: StrMap::new(),
            provider_config_ref: None,
        });
        let status = w.status.unwrap_or(WireStatus {
            conditions: None,
            observed_generation: None,
            at_provider: None,
            last_handled_reconcile_at: None,
        });
        let (id, arn) = status.at_provider.map_or((None, None), |a| (a.id, a.arn));
        let at_provider_id = id.and_then(|v| match v {
            serde_json::Value::String(s) if !s.is_empty() && !is_placeholder(&s) => Some(s),
            serde_json::Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
        let at_provider_arn = arn.and_then(|v| match v {
            serde_json::Value::String(s) if s.starts_with("arn:") => Some(s),
            _ => None,
        });
        let namespace = w.metadata.namespace.filter(|n| !n.is_empty());
        let provider_config =
            spec.provider_config_ref.and_then(|r| ProviderConfigKey::of_ref(r.name, r.kind, namespace.as_deref()));
        let mut finalizers = w.metadata.finalizers.unwrap_or_default();
        let own_finalizer = finalizers.iter().any(|f| f == FINALIZER);
        finalizers.retain(|f| f != FINALIZER);
        if finalizers.is_empty() {
            // No heap kept for the common case (crossplane's finalizer alone).
            finalizers = Vec::new();
        }
        let labels = w.metadata.labels;
        let composed = composed_of(
            &w.metadata.annotations,
            labels.as_ref(),
            w.metadata.owner_references,
            w.metadata.managed_fields,
        );
        ManagedResource {
            api_version: w.api_version,
            kind: w.kind,
            name: w.metadata.name,
            namespace,
            uid: w.metadata.uid,
            generation: w.metadata.generation,
            resource_version: w.metadata.resource_version,
            creation_timestamp: w.metadata.creation_timestamp,
            deletion_timestamp: w.metadata.deletion_timestamp.filter(|d| !d.is_empty()),
            own_finalizer,
            other_finalizers: finalizers,
            annotations: w.metadata.annotations,
            // Lists decoded from JSON grow by doubling: trimmed, since a fleet-wide run (the
            // inventory or cloud record tied to every MR) keeps every MR at once.
            management_policies: spec.management_policies.map(|mut p| {
                p.shrink_to_fit();
                p
            }),
            deletion_policy: spec.deletion_policy,
            conditions: status
                .conditions
                .map(|mut c| {
                    c.shrink_to_fit();
                    c
                })
                .unwrap_or_default(),
            status_observed_generation: status.observed_generation,
            at_provider_id,
            in_use: labels.as_ref().and_then(|l| l.in_use.as_deref()) == Some("true"),
            composite: labels.and_then(|l| l.composite),
            for_provider: spec.for_provider,
            provider_config,
            at_provider_arn,
            last_handled_reconcile_at: status.last_handled_reconcile_at,
            composed,
        }
    }
}

/// The composition signs of a decoded MR (`domain::composed`): its controller owner reference,
/// its claim labels, the owners of its identity fields; `None` when it shows none.
fn composed_of(
    annotations: &StrMap,
    labels: Option<&WireLabels>,
    owners: Option<Vec<WireOwner>>,
    fields: IdentityOwners,
) -> Option<Box<Composed>> {
    let controller = owners.into_iter().flatten().find(|o| o.controller == Some(true)).map(|o| Controller {
        api_version: o.api_version,
        kind: o.kind,
        name: o.name,
        uid: o.uid,
    });
    let claim = labels.and_then(|l| match (&l.claim_namespace, &l.claim_name) {
        (Some(namespace), Some(name)) if !name.is_empty() => {
            Some(ClaimLabels { namespace: namespace.clone(), name: name.clone() })
        }
        _ => None,
    });
    let signed =
        annotations.contains_key(composed::keys::RESOURCE_NAME) || labels.is_some_and(|l| l.composite.is_some());
    Composed::of(controller, claim, fields, signed)
}

/// The legacy group of a namespaced group (Crossplane v2's `.m.` twin of a v1 kind): the group with its one `m` label removed
/// (`ec2.aws.m.upbound.io` → `ec2.aws.upbound.io`); `None` without exactly one.
pub fn legacy_group(group: &str) -> Option<String> {
    let labels: Vec<&str> = group.split('.').collect();
    if labels.iter().filter(|l| **l == "m").count() != 1 {
        return None;
    }
    Some(labels.into_iter().filter(|l| *l != "m").collect::<Vec<_>>().join("."))
}

#[cfg(test)]
#[path = "managed_tests.rs"]
mod tests;
