//! From one JSON document (a line, or an element of an export) to an [`AuditWrite`], or the
//! reason it was skipped.
//!
//! Exists so the three wrappers share one path: a CloudWatch event unwraps its `message`, a GKE
//! entry maps its `AuditLog` onto the Event's fields, and everything then passes the same checks
//! (stage `ResponseComplete`, a write verb, a named object of a wanted group).

use super::wire::{Entry, Obj, PatchOp, ProtoPayload};
use super::{Groups, Skip, Wrapper};
use serde_json::value::RawValue;
use std::borrow::Cow;
use upjet_core::audit::{
    AuditLevel, AuditTarget, AuditWrite, Body, DELETION_POLICY, MANAGEMENT_POLICIES, Patch, Snapshot,
};
use upjet_core::gotime::GoTime;

/// The verbs that change an object.
const WRITES: &[&str] = &["create", "update", "patch", "delete"];

/// The suffix CloudWatch Logs puts on an event it cut at its size limit.
const CLOUDWATCH_TRUNCATED: &str = "[Truncated...]";

/// Decodes one document: the write it records, or why it was skipped, and the wrapper it came in.
pub(super) fn decode(bytes: &[u8], source: &str, groups: &Groups) -> (Result<AuditWrite, Skip>, Option<Wrapper>) {
    let entry: Entry = match serde_json::from_slice(bytes) {
        Ok(e) => e,
        Err(_) => return (Err(Skip::Malformed), None),
    };
    if let Some(p) = &entry.proto_payload {
        return (gke(&entry, p, source, groups), Some(Wrapper::Gke));
    }
    if let Some(m) = &entry.message
        && entry.stage.is_none()
    {
        if m.ends_with(CLOUDWATCH_TRUNCATED) {
            return (Err(Skip::Truncated), Some(Wrapper::CloudWatch));
        }
        let (inner, w) = decode(m.as_bytes(), source, groups);
        return (inner, w.map(|_| Wrapper::CloudWatch));
    }
    if entry.audit_id.is_none() || entry.stage.is_none() {
        return (Err(Skip::NotAudit), None);
    }
    (plain(&entry, source, groups), Some(Wrapper::Plain))
}

fn s(c: &Option<Cow<str>>) -> Option<String> {
    c.as_deref().filter(|v| !v.is_empty()).map(str::to_owned)
}

/// An `audit.k8s.io/v1` Event.
fn plain(e: &Entry, source: &str, groups: &Groups) -> Result<AuditWrite, Skip> {
    if e.stage.as_deref() != Some("ResponseComplete") {
        return Err(Skip::OtherStage);
    }
    let verb = e.verb.as_deref().unwrap_or("");
    if !WRITES.contains(&verb) {
        return Err(Skip::NotWrite);
    }
    let Some(r) = &e.object_ref else { return Err(Skip::NotWrite) };
    let (Some(name), Some(resource)) = (s(&r.name), s(&r.resource)) else { return Err(Skip::NotWrite) };
    let group = r.api_group.as_deref().unwrap_or("");
    if !groups.wants(group) {
        return Err(Skip::OtherGroup);
    }
    let level = e.level.as_deref().and_then(AuditLevel::parse).ok_or(Skip::LevelNone)?;
    let time = e.stage_timestamp.as_deref().or(e.request_received_timestamp.as_deref());
    let request = e.request_object.and_then(|o| body(o, verb));
    let response = e.response_object.and_then(snapshot);
    let uid = s(&r.uid).or_else(|| response.as_ref().and_then(|x| x.uid.clone())).or_else(|| match &request {
        Some(Body::Object(o)) => o.uid.clone(),
        _ => None,
    });
    Ok(AuditWrite {
        at: time.and_then(GoTime::parse_rfc3339),
        time: time.map(str::to_owned),
        source: source.to_string(),
        audit_id: e.audit_id.as_deref().unwrap_or("").to_string(),
        verb: verb.to_string(),
        subresource: s(&r.subresource),
        user: e.user.as_ref().and_then(|u| s(&u.username)).unwrap_or_else(|| "<unknown>".into()),
        impersonated: e.impersonated_user.as_ref().and_then(|u| s(&u.username)),
        user_agent: s(&e.user_agent),
        source_ips: e.source_ips.iter().flatten().map(|i| i.to_string()).collect(),
        code: e.response_status.as_ref().and_then(|st| st.code).and_then(|c| u16::try_from(c).ok()),
        level,
        target: AuditTarget { group: group.to_string(), resource, namespace: s(&r.namespace), name },
        uid,
        request: unless_answered(request, &response),
        response,
        repeats: None,
    })
}

/// A GKE Cloud Logging entry: `methodName` `io.k8s.core.v1.pods.create` (the group reversed)
/// ends with the verb; `resourceName` `GROUP/VERSION/[namespaces/NS/]RESOURCE/NAME[/SUB]` names
/// the object; `status.code` is a gRPC code (0 = OK).
fn gke(e: &Entry, p: &ProtoPayload, source: &str, groups: &Groups) -> Result<AuditWrite, Skip> {
    if !p.type_.as_deref().unwrap_or("").ends_with("AuditLog") {
        return Err(Skip::NotAudit);
    }
    let verb = p.method_name.as_deref().and_then(|m| m.rsplit('.').next()).unwrap_or("");
    if !WRITES.contains(&verb) {
        return Err(Skip::NotWrite);
    }
    let rn = p.resource_name.as_deref().unwrap_or("");
    let parts: Vec<&str> = rn.split('/').collect();
    let (group, ns, rest) = match parts.as_slice() {
        [g, _v, "namespaces", ns, rest @ ..] if rest.len() >= 2 => (*g, Some(*ns), rest),
        [g, _v, rest @ ..] if rest.len() >= 2 => (*g, None, rest),
        _ => return Err(Skip::NotWrite),
    };
    if !groups.wants(group) {
        return Err(Skip::OtherGroup);
    }
    let level = match (p.request.is_some(), p.response.is_some()) {
        (_, true) => AuditLevel::RequestResponse,
        (true, false) => AuditLevel::Request,
        _ => AuditLevel::Metadata,
    };
    let time = e.timestamp.map(|t| t.get().trim_matches('"').to_string());
    let request = p.request.and_then(|o| body(o, verb));
    let response = p.response.and_then(snapshot);
    let rpc = p.status.as_ref().and_then(|st| st.code).unwrap_or(0);
    let addr = p.request_metadata.as_ref();
    Ok(AuditWrite {
        at: time.as_deref().and_then(GoTime::parse_rfc3339),
        time,
        source: source.to_string(),
        audit_id: e.insert_id.as_deref().unwrap_or("").to_string(),
        verb: verb.to_string(),
        subresource: rest.get(2).map(|s| s.to_string()),
        user: p.authentication_info.as_ref().and_then(|a| s(&a.principal_email)).unwrap_or_else(|| "<unknown>".into()),
        impersonated: None,
        user_agent: addr.and_then(|a| s(&a.caller_supplied_user_agent)),
        source_ips: addr.and_then(|a| s(&a.caller_ip)).into_iter().collect(),
        code: Some(grpc_to_http(rpc)),
        level,
        target: AuditTarget {
            group: if group == "core" { String::new() } else { group.to_string() },
            resource: rest[0].to_string(),
            namespace: ns.map(str::to_owned),
            name: rest[1].to_string(),
        },
        uid: response.as_ref().and_then(|r| r.uid.clone()),
        request: unless_answered(request, &response),
        response,
        repeats: None,
    })
}

/// The HTTP status a gRPC status code stands for (google.rpc.Code's documented mapping).
fn grpc_to_http(code: i64) -> u16 {
    match code {
        0 => 200,
        3 | 9 | 11 => 400,
        16 => 401,
        7 => 403,
        5 => 404,
        6 | 10 => 409,
        8 => 429,
        1 => 499,
        12 => 501,
        14 => 503,
        4 => 504,
        _ => 500,
    }
}

/// A whole object's identity fields; `None` for a `Status` (a delete's response) or non-object.
pub(super) fn snapshot(raw: &RawValue) -> Option<Snapshot> {
    let o: Obj = serde_json::from_str(raw.get()).ok()?;
    if o.kind.as_deref() == Some("Status") {
        return None;
    }
    let meta = o.metadata?;
    let annotations =
        crossplane_annotations(meta.annotations.iter().flatten()).filter_map(|(k, v)| Some((k, v?))).collect();
    let spec = o.spec.as_ref();
    Some(Snapshot {
        uid: meta.uid.as_deref().map(str::to_owned),
        annotations,
        management_policies: spec.and_then(|s| s.management_policies.clone().flatten()).map(|p| policies(&p)),
        deletion_policy: spec.and_then(|s| s.deletion_policy.clone().flatten()).map(|p| p.into_owned()),
        deleting: meta.deletion_timestamp.is_some(),
    })
}

fn policies(p: &[Cow<str>]) -> String {
    serde_json::to_string(p).unwrap_or_default()
}

fn crossplane_annotations<'a, 'b: 'a>(
    it: impl Iterator<Item = (&'a Cow<'b, str>, &'a Option<Cow<'b, str>>)>,
) -> impl Iterator<Item = (String, Option<String>)> {
    it.filter(|(k, _)| k.starts_with("crossplane.io/")).map(|(k, v)| (k.to_string(), v.as_deref().map(str::to_owned)))
}

/// A request body: a whole object for create and update, a patch for patch.
fn body(raw: &RawValue, verb: &str) -> Option<Body> {
    match verb {
        "create" | "update" => snapshot(raw).map(Body::Object),
        "patch" => patch(raw).map(Body::Patch),
        _ => None,
    }
}

/// A merge patch (object) or a JSON patch (array of operations), reduced to the identity fields.
fn patch(raw: &RawValue) -> Option<Patch> {
    let text = raw.get().trim_start();
    let mut fields = std::collections::BTreeMap::new();
    if text.starts_with('[') {
        let ops: Vec<PatchOp> = serde_json::from_str(text).ok()?;
        for op in ops {
            json_patch_op(&op, &mut fields);
        }
        return Some(Patch { fields });
    }
    let o: Obj = serde_json::from_str(text).ok()?;
    if let Some(m) = &o.metadata {
        fields.extend(crossplane_annotations(m.annotations.iter().flatten()));
    }
    if let Some(spec) = &o.spec {
        if let Some(p) = &spec.management_policies {
            fields.insert(MANAGEMENT_POLICIES.to_string(), p.as_deref().map(policies));
        }
        if let Some(p) = &spec.deletion_policy {
            fields.insert(DELETION_POLICY.to_string(), p.as_deref().map(str::to_owned));
        }
    }
    Some(Patch { fields })
}

/// One JSON-patch operation on an identity field (`~1` is `/` in a path segment).
fn json_patch_op(op: &PatchOp, fields: &mut std::collections::BTreeMap<String, Option<String>>) {
    let value = |v: Option<&RawValue>| -> Option<String> {
        let v = v?;
        match serde_json::from_str::<String>(v.get()) {
            Ok(s) => Some(s),
            Err(_) => {
                serde_json::from_str::<Vec<String>>(v.get()).ok().map(|p| serde_json::to_string(&p).unwrap_or_default())
            }
        }
    };
    let field = if let Some(key) = op.path.strip_prefix("/metadata/annotations/") {
        key.replace("~1", "/").replace("~0", "~")
    } else if op.path == "/spec/managementPolicies" {
        MANAGEMENT_POLICIES.to_string()
    } else if op.path == "/spec/deletionPolicy" {
        DELETION_POLICY.to_string()
    } else {
        return;
    };
    if !field.starts_with("crossplane.io/") && !field.starts_with("spec.") {
        return;
    }
    match op.op.as_ref() {
        "remove" => {
            fields.insert(field, None);
        }
        "add" | "replace" => {
            fields.insert(field, value(op.value));
        }
        _ => {}
    }
}

/// The request body, unless the response recorded the object as stored: the history reads the
/// state after a write from the response first, so keeping both would double the memory of every
/// write kept at RequestResponse level for nothing. (A delete's response is a Status, not the
/// object: there the request stays.)
fn unless_answered(request: Option<Body>, response: &Option<Snapshot>) -> Option<Body> {
    match response {
        Some(r) if r.uid.is_some() || !r.annotations.is_empty() => None,
        _ => request,
    }
}
