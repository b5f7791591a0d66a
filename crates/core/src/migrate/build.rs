//! The plan builder: one legacy MR (as the API server or a snapshot holds it) and the namespaced
//! kinds' CRDs in, the namespaced MR to create and the writes around it out — or the reason it
//! is not migrated.

use super::refs::{self, Moves};
use super::schema::{TargetKind, drop_field};
use super::{HELD_FOR, Item, Legacy, MIGRATED_FROM, MigrationPlan, Refusal, Target, final_policies, hold_policies};
use crate::candidate::{self, Candidate};
use crate::managed::{ManagedResource, keys};
use crate::mrd::MrdStates;
use crate::patch::policies_of;
use crate::reconcile_timeout::JudgedAt;
use crate::rules;
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// Where each migrated MR goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NamespaceRule {
    /// `--to-namespace NS`: every MR to one namespace.
    To(String),
    /// `--namespace-from label=KEY`: the value of the MR's label.
    Label(String),
    /// `--namespace-from annotation=KEY`: the value of the MR's annotation.
    Annotation(String),
}

/// What the user chose.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where each MR goes.
    pub namespace: NamespaceRule,
    /// `--drop-field`: `forProvider`/`initProvider` paths (dotted, `spec.` optional) to leave
    /// out when the target kind lacks them.
    pub drop_fields: Vec<String>,
    /// `--provider-config-kind`: the kind of `providerConfigRef` (default: the CRD's default,
    /// else `ClusterProviderConfig`).
    pub provider_config_kind: Option<String>,
    /// When the MRs are judged (the ranked candidates of an MR that lost its external-name).
    pub at: JudgedAt,
    /// The cluster's ManagedResourceDefinitions, when read: a twin kind whose MRD is inactive
    /// serves no CRD, and its refusal says how to activate it.
    pub mrds: MrdStates,
}

/// Annotations that are the bookkeeping of Crossplane, upjet or kubectl about the legacy object
/// (or this tool's own marks), not the user's: they are not carried over.
const BOOKKEEPING_ANNOTATIONS: &[&str] = &[
    keys::EXTERNAL_NAME,
    keys::CREATE_PENDING,
    keys::CREATE_SUCCEEDED,
    keys::CREATE_FAILED,
    keys::PAUSED,
    keys::RECONCILE_REQUESTED_AT,
    keys::COMPOSITION_RESOURCE_NAME,
    keys::PROVIDER_META,
    // Values of the legacy kind's API versions, which its controller merges into the Terraform
    // parameters: on the twin they would override its spec with another kind's leftovers.
    keys::FIELD_CONVERSIONS,
    keys::USAGE_DELETION_ATTEMPT,
    "kubectl.kubernetes.io/last-applied-configuration",
];

/// Labels Crossplane sets on composed MRs, and the one its Usage controller sets on the
/// resource a Usage names (the Usage names the legacy MR, not its twin).
const BOOKKEEPING_LABELS: &[&str] =
    &["crossplane.io/composite", "crossplane.io/claim-name", "crossplane.io/claim-namespace", keys::IN_USE_LABEL];

/// The spec fields the builder maps; any other is refused, named.
const KNOWN_SPEC: &[&str] = &[
    "forProvider",
    "initProvider",
    "providerConfigRef",
    "writeConnectionSecretToRef",
    "publishConnectionDetailsTo",
    "deletionPolicy",
    "managementPolicies",
];

/// One legacy MR accepted by the first pass: decoded, its twin found, its namespace and ID known.
struct Accepted<'a> {
    obj: &'a Value,
    mr: ManagedResource,
    target: &'a TargetKind,
    namespace: String,
    id: Candidate,
    others: Vec<String>,
}

/// The plan for `legacy` (raw legacy MRs) against the namespaced kinds `targets`.
pub fn build_plan(legacy: &[Value], targets: &[TargetKind], opts: &Options) -> MigrationPlan {
    build_plan_with(legacy.len(), |i| Some(Cow::Borrowed(&legacy[i])), targets, opts)
}

/// [`build_plan`] over legacy MRs kept as JSON text (a snapshot's objects): each is decoded
/// when a pass reaches it and dropped after, so that a large fleet is never held decoded — the
/// decoded objects cost ten times their text.
pub fn build_plan_from_json(legacy: &[String], targets: &[TargetKind], opts: &Options) -> MigrationPlan {
    build_plan_with(legacy.len(), |i| serde_json::from_str(&legacy[i]).ok().map(Cow::Owned), targets, opts)
}

/// The two passes over `n` legacy MRs, each read with `object(i)` (twice: where each goes and
/// with which ID, then each item with its references resolved against the whole plan).
fn build_plan_with<'v>(
    n: usize,
    object: impl Fn(usize) -> Option<Cow<'v, Value>>,
    targets: &[TargetKind],
    opts: &Options,
) -> MigrationPlan {
    let mut refused = Vec::new();
    let mut moves = Moves::default();
    let mut accepted = Vec::new();
    for i in 0..n {
        let Some(obj) = object(i) else { continue };
        match accept(&obj, targets, opts) {
            Ok(a) => {
                moves.add(&a.mr.name, &a.namespace, Some(&a.id.id));
                accepted.push(i);
            }
            Err(r) => refused.push(r),
        }
    }
    let mut items = Vec::with_capacity(accepted.len());
    for i in accepted {
        let Some(obj) = object(i) else { continue };
        let Ok(a) = accept(&obj, targets, opts) else { continue };
        match item(&a, &moves, opts) {
            Ok(i) => items.push(i),
            Err(reason) => refused.push(Refusal { resource: a.mr.reference(), reason }),
        }
    }
    MigrationPlan { api_version: "upjet.doctor/v1".into(), kind: "MigrationPlan".into(), items, refused }
}

/// Why a twin kind has no CRD, and what to do: activate its inactive MRD, or install a provider
/// that serves it.
pub fn not_served(kind: &str, group: &str, mrds: &MrdStates) -> String {
    match mrds.inactive(group, kind) {
        Some(mrd) => format!(
            "the namespaced kind {kind}.{group} is not served: its ManagedResourceDefinition {} is inactive; activate it ({}, or with a ManagedResourceActivationPolicy)",
            mrd.name,
            mrd.activate_command()
        ),
        None => format!(
            "the namespaced kind {kind}.{group} is not installed: upgrade the provider to one that serves it, or activate its ManagedResourceDefinition (spec.state: Active, e.g. with a ManagedResourceActivationPolicy)"
        ),
    }
}

/// The group a legacy group's twin is expected in (`ec2.aws.upbound.io` →
/// `ec2.aws.m.upbound.io`).
pub fn expected_group(group: &str) -> String {
    let labels: Vec<&str> = group.split('.').collect();
    let at = labels.len().saturating_sub(2);
    let (head, tail) = labels.split_at(at);
    [head, &["m"], tail].concat().join(".")
}

fn accept<'a>(obj: &'a Value, targets: &'a [TargetKind], opts: &Options) -> Result<Accepted<'a>, Refusal> {
    let mr = ManagedResource::from_value(obj)
        .map_err(|e| Refusal { resource: describe(obj), reason: format!("not a managed resource: {e}") })?;
    let refuse = |reason: String| Refusal { resource: mr.reference(), reason };
    if mr.namespace.is_some() {
        return Err(refuse("already namespaced: only cluster-scoped (legacy) MRs are migrated".into()));
    }
    let owned = obj.pointer("/metadata/ownerReferences").and_then(Value::as_array).is_some_and(|o| !o.is_empty());
    if let Some(owner) = mr.composite.clone().or_else(|| owned.then(|| "its owner".to_string())) {
        return Err(refuse(format!(
            "composed by {owner}: its composition would create it again; migrate the composition (and its XR or claim) first"
        )));
    }
    let target = targets
        .iter()
        .find(|t| t.is_twin_of(mr.group(), &mr.kind))
        .ok_or_else(|| refuse(not_served(&mr.kind, &expected_group(mr.group()), &opts.mrds)))?;
    let namespace = namespace_of(obj, &opts.namespace).map_err(refuse)?;
    let (id, others) = identity(&mr, opts.at).map_err(refuse)?;
    Ok(Accepted { obj, mr, target, namespace, id, others })
}

fn describe(obj: &Value) -> String {
    let s = |p: &str| obj.pointer(p).and_then(Value::as_str).unwrap_or("?").to_string();
    format!("{}/{}", s("/kind").to_lowercase(), s("/metadata/name"))
}

fn namespace_of(obj: &Value, rule: &NamespaceRule) -> Result<String, String> {
    let (what, key) = match rule {
        NamespaceRule::To(ns) => return Ok(ns.clone()),
        NamespaceRule::Label(k) => ("label", k),
        NamespaceRule::Annotation(k) => ("annotation", k),
    };
    let map = if what == "label" { "labels" } else { "annotations" };
    obj.pointer(&format!("/metadata/{map}"))
        .and_then(|m| m.get(key.as_str()))
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| format!("no {what} {key:?} to take its namespace from (--namespace-from {what}={key})"))
}

/// The ID the namespaced MR is created with: the legacy's external-name, or else the best of
/// the one ranked candidate list the rules suggest for it. Never a placeholder; none → refused.
fn identity(mr: &ManagedResource, at: JudgedAt) -> Result<(Candidate, Vec<String>), String> {
    if let Some(id) = mr.external_name().filter(|id| candidate::usable(id)) {
        let c = Candidate::new(id, keys::EXTERNAL_NAME, candidate::Confidence::High, "the legacy MR's own");
        return Ok((c, vec![]));
    }
    let findings = rules::diagnose(mr, at);
    let mut ranked = candidate::from_findings(&findings).into_iter();
    let best = ranked.next().ok_or_else(|| {
        "no ID: it has no usable external-name and nothing suggests one; find it (kubectl upjet history) and set crossplane.io/external-name, then plan again".to_string()
    })?;
    Ok((best, ranked.map(|c| c.id).collect()))
}

fn item(a: &Accepted, moves: &Moves, opts: &Options) -> Result<Item, String> {
    let spec = a.obj.get("spec").and_then(Value::as_object).cloned().unwrap_or_default();
    if let Some(k) = spec.keys().find(|k| !KNOWN_SPEC.contains(&k.as_str())) {
        return Err(format!("spec.{k} has no counterpart this tool knows on {}", a.target.kind));
    }
    if spec.contains_key("publishConnectionDetailsTo") {
        return Err("spec.publishConnectionDetailsTo: namespaced MRs cannot publish to external secret stores (Crossplane v2 removed them); move its consumers to writeConnectionSecretToRef, remove the field, then plan again".into());
    }
    let mut new_spec = Map::new();
    let mut dropped = Vec::new();
    provider_fields(a, &spec, moves, opts, &mut new_spec, &mut dropped)?;
    connection_fields(a, &spec, opts, &mut new_spec)?;
    new_spec.insert("managementPolicies".into(), json!(["Observe"]));
    let listed = policies_of(a.obj);
    let deletion = a.mr.deletion_policy.clone();
    let name = &a.mr.name;
    let mut hold = json!({
        "metadata": {"annotations": {keys::PAUSED: "true", HELD_FOR: format!("{}/{name}", a.namespace)}},
        "spec": {"deletionPolicy": "Orphan"}
    });
    if let Some(p) = hold_policies(&listed) {
        hold["spec"]["managementPolicies"] = json!(p);
    }
    let target_resource = format!("{}.{}/{name}", a.target.kind.to_lowercase(), a.target.group);
    Ok(Item {
        legacy: Legacy {
            resource: a.mr.reference(),
            generation: a.mr.generation,
            external_name: a.mr.annotation(keys::EXTERNAL_NAME).map(str::to_owned),
            paused: a.mr.annotation(keys::PAUSED).map(str::to_owned),
            deletion_policy: deletion.clone(),
            management_policies: listed.clone(),
        },
        target: Target { resource: target_resource, namespace: a.namespace.clone() },
        external_name: a.id.id.clone(),
        id_source: a.id.source.clone(),
        candidates: a.others.clone(),
        twin_exists: false,
        in_use: a.mr.in_use,
        hold,
        manifest: json!({
            "apiVersion": a.target.api_version(),
            "kind": a.target.kind,
            "metadata": metadata(a),
            "spec": new_spec,
        }),
        final_policies: final_policies(&listed, &deletion),
        dropped,
    })
}

/// `forProvider` and `initProvider`: `--drop-field`s removed, references pointed at the
/// migrated MRs, then every field checked against the target schema.
fn provider_fields(
    a: &Accepted,
    spec: &Map<String, Value>,
    moves: &Moves,
    opts: &Options,
    out: &mut Map<String, Value>,
    dropped: &mut Vec<String>,
) -> Result<(), String> {
    let mut unknown = Vec::new();
    let mut dangling = Vec::new();
    for (field, node) in
        [("forProvider", Some(&a.target.for_provider)), ("initProvider", a.target.init_provider.as_ref())]
    {
        let Some(mut value) = spec.get(field).cloned() else { continue };
        for path in &opts.drop_fields {
            let path = path.strip_prefix("spec.").unwrap_or(path);
            if let Some(rest) = path.strip_prefix(field).and_then(|r| r.strip_prefix('.')) {
                let parts: Vec<&str> = rest.split('.').collect();
                if drop_field(&mut value, &parts) {
                    dropped.push(format!("spec.{path}"));
                }
            }
        }
        refs::rewrite(&mut value, &format!("spec.{field}"), &a.namespace, moves, &mut dangling);
        match node {
            Some(node) => node.unknown_fields(&value, &format!("spec.{field}"), &mut unknown),
            None => unknown.push(format!("spec.{field}")),
        }
        out.insert(field.into(), value);
    }
    if !dangling.is_empty() {
        return Err(dangling.join("; "));
    }
    if !unknown.is_empty() {
        return Err(format!(
            "{} {} not in {} {}; leave {} out with --drop-field PATH",
            unknown.join(", "),
            if unknown.len() == 1 { "is" } else { "are" },
            a.target.kind,
            a.target.api_version(),
            if unknown.len() == 1 { "it" } else { "them" }
        ));
    }
    Ok(())
}

/// `providerConfigRef` becomes `{kind, name}`; `writeConnectionSecretToRef` loses its namespace,
/// which must be the target namespace.
fn connection_fields(
    a: &Accepted,
    spec: &Map<String, Value>,
    opts: &Options,
    out: &mut Map<String, Value>,
) -> Result<(), String> {
    if let Some(name) = spec.get("providerConfigRef").and_then(|r| r.get("name")).and_then(Value::as_str) {
        let kind = opts
            .provider_config_kind
            .clone()
            .or_else(|| a.target.default_provider_config_kind.clone())
            .unwrap_or_else(|| "ClusterProviderConfig".into());
        out.insert("providerConfigRef".into(), json!({"kind": kind, "name": name}));
    }
    if let Some(r) = spec.get("writeConnectionSecretToRef").filter(|r| r.is_object()) {
        let name = r.get("name").and_then(Value::as_str).unwrap_or_default();
        let ns = r.get("namespace").and_then(Value::as_str).unwrap_or_default();
        if ns != a.namespace {
            return Err(format!(
                "spec.writeConnectionSecretToRef names a secret in namespace {ns:?}, and a namespaced MR writes its secret in its own ({:?}); move it there (or choose that namespace), then plan again",
                a.namespace
            ));
        }
        out.insert("writeConnectionSecretToRef".into(), json!({"name": name}));
    }
    Ok(())
}

fn metadata(a: &Accepted) -> Value {
    let keep = |map: &str, drop: &[&str]| -> Map<String, Value> {
        a.obj
            .pointer(&format!("/metadata/{map}"))
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| !drop.contains(&k.as_str()) && !k.starts_with("kubectl-upjet.io/"))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut annotations = keep("annotations", BOOKKEEPING_ANNOTATIONS);
    annotations.insert(keys::EXTERNAL_NAME.into(), json!(a.id.id));
    annotations.insert(MIGRATED_FROM.into(), json!(a.mr.reference()));
    let mut meta = json!({"name": a.mr.name, "namespace": a.namespace, "annotations": annotations});
    let labels = keep("labels", BOOKKEEPING_LABELS);
    if !labels.is_empty() {
        meta["labels"] = json!(labels);
    }
    meta
}
