//! The part of a namespaced kind's CRD a migration needs: its group, kind, storage version and
//! the shape of `spec.forProvider` and `spec.initProvider`, so every field a legacy MR carries
//! over is checked against what the target kind accepts before anything is created.

use crate::managed::legacy_group;
use serde_json::Value;
use std::collections::BTreeMap;

/// One node of an OpenAPI v3 schema, reduced to the shape: the properties of an object, the
/// items of an array, and whether unknown fields are accepted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// `properties` of an object node.
    pub properties: BTreeMap<String, Node>,
    /// `items` of an array node.
    pub items: Option<Box<Node>>,
    /// `x-kubernetes-preserve-unknown-fields` or `additionalProperties`: any key is accepted.
    pub open: bool,
    /// `type`, as written (`object`, `array`, `string`, …; empty when absent).
    pub kind: String,
}

impl Node {
    /// Reads a schema node; anything it does not understand is an open node, so an unusual
    /// schema never makes a field look missing.
    pub fn parse(schema: &Value) -> Node {
        let properties: BTreeMap<String, Node> = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.iter().map(|(k, v)| (k.clone(), Node::parse(v))).collect())
            .unwrap_or_default();
        let kind = schema.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
        let open = schema.get("x-kubernetes-preserve-unknown-fields").and_then(Value::as_bool) == Some(true)
            || schema.get("additionalProperties").is_some_and(|a| a != &Value::Bool(false))
            || (kind == "object" && schema.get("properties").is_none())
            || kind.is_empty() && properties.is_empty();
        let items = schema.get("items").map(|i| Box::new(Node::parse(i)));
        Node { properties, items, open, kind }
    }

    /// The paths (dotted, without indexes, below `prefix`) of the fields of `value` this node
    /// does not accept: unknown keys, or an object where a list is expected and back.
    pub(crate) fn unknown_fields(&self, value: &Value, prefix: &str, out: &mut Vec<String>) {
        match value {
            Value::Object(_) if self.open => {}
            Value::Object(map) => {
                if self.kind == "array" {
                    out.push(format!("{prefix} (an object where the target expects a list)"));
                    return;
                }
                for (k, v) in map {
                    let path = format!("{prefix}.{k}");
                    match self.properties.get(k) {
                        Some(node) => node.unknown_fields(v, &path, out),
                        None => out.push(path),
                    }
                }
            }
            Value::Array(list) => {
                if self.kind == "object" {
                    out.push(format!("{prefix} (a list where the target expects an object)"));
                    return;
                }
                if let Some(items) = &self.items {
                    let mut seen = Vec::new();
                    for v in list {
                        items.unknown_fields(v, prefix, &mut seen);
                    }
                    for p in seen {
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Removes the field at the dotted `path` (below the value's root, no indexes) from `value`,
/// in every element of the lists along the way. Returns whether anything was removed.
pub(crate) fn drop_field(value: &mut Value, path: &[&str]) -> bool {
    let Some((first, rest)) = path.split_first() else { return false };
    match value {
        Value::Object(map) if rest.is_empty() => map.remove(*first).is_some(),
        Value::Object(map) => map.get_mut(*first).is_some_and(|v| drop_field(v, rest)),
        Value::Array(list) => {
            // Every element, not only up to the first that had the field.
            let dropped: Vec<bool> = list.iter_mut().map(|v| drop_field(v, path)).collect();
            dropped.contains(&true)
        }
        _ => false,
    }
}

/// A namespaced managed kind as its CRD defines it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetKind {
    /// `spec.group` (`ec2.aws.m.upbound.io`).
    pub group: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.names.plural`.
    pub plural: String,
    /// The storage version: what the new MR is written as.
    pub version: String,
    /// `spec.forProvider`'s schema.
    pub for_provider: Node,
    /// `spec.initProvider`'s schema (`None`: the kind has none).
    pub init_provider: Option<Node>,
    /// `spec.providerConfigRef`'s default kind, when the CRD names one.
    pub default_provider_config_kind: Option<String>,
}

/// Why a CRD does not define a namespaced managed kind a migration can target.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {problem}")]
pub struct NotATarget {
    /// The CRD's name.
    pub name: String,
    /// What is missing.
    pub problem: String,
}

impl TargetKind {
    /// The `apiVersion` a new MR of this kind is written with.
    pub fn api_version(&self) -> String {
        format!("{}/{}", self.group, self.version)
    }

    /// Reads a CustomResourceDefinition (as JSON): namespaced, managed, with a storage version
    /// whose schema has `spec.forProvider`.
    pub fn from_crd(crd: &Value) -> Result<TargetKind, NotATarget> {
        let name = crd.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("?").to_string();
        let fail = |problem: &str| NotATarget { name: name.clone(), problem: problem.to_string() };
        let text = |p: &str| crd.pointer(p).and_then(Value::as_str).unwrap_or_default().to_string();
        if text("/spec/scope") != "Namespaced" {
            return Err(fail("not a namespaced kind"));
        }
        let versions = crd.pointer("/spec/versions").and_then(Value::as_array).ok_or_else(|| fail("no versions"))?;
        let storage = versions
            .iter()
            .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
            .ok_or_else(|| fail("no storage version"))?;
        let spec = storage
            .pointer("/schema/openAPIV3Schema/properties/spec/properties")
            .ok_or_else(|| fail("the storage version has no spec schema"))?;
        let for_provider = spec.get("forProvider").ok_or_else(|| fail("no spec.forProvider: not a managed kind"))?;
        Ok(TargetKind {
            group: text("/spec/group"),
            kind: text("/spec/names/kind"),
            plural: text("/spec/names/plural"),
            version: storage.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
            for_provider: Node::parse(for_provider),
            init_provider: spec.get("initProvider").map(Node::parse),
            default_provider_config_kind: spec
                .pointer("/providerConfigRef/default/kind")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }

    /// Whether this is the namespaced twin of the legacy `group`/`kind`: the same kind, in the
    /// legacy group with one `m` label added (`ec2.aws.upbound.io` → `ec2.aws.m.upbound.io`).
    pub(crate) fn is_twin_of(&self, group: &str, kind: &str) -> bool {
        self.kind == kind && legacy_group(&self.group).is_some_and(|g| g == group)
    }
}
