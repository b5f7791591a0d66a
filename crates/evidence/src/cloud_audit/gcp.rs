//! GCP Cloud Audit Logs: Cloud Logging entries whose `protoPayload` is a
//! `type.googleapis.com/google.cloud.audit.AuditLog`, as `gcloud logging read --format=json`
//! prints them (one array) or a log sink writes them (one per line).
//!
//! The entry carries who (`authenticationInfo.principalEmail`), where (`resource.labels.project_id`),
//! what (`serviceName`, `methodName`, `resourceName`, `request`), the answer (`response`, and
//! `status` — empty on success, `{code, message}` on error) and, for long-running operations, an
//! `operation` whose first and last entries share its `id`: the first holds the request and the
//! operation (`targetId`, `targetLink`), the last how it ended. They are merged into one call.
//! It lacks a user agent for most service accounts' calls and, for Data Access logs, whatever the
//! project did not enable; a create's ID is usually its `resourceName` (the caller named it) or a
//! `response.name` the service assigned.

use super::dialect::{Claim, Decoded, Dialect, Skip, singular, strip_verb};
use super::prefilter::value_after;
use super::values::{flatten, parse_time};
use crate::format::head::Head;
use crate::format::{Format, Reader};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;
use upjet_core::cloud_audit::{Cloud, CloudCall, CrossplaneTags, Interner, Outcome, Verb};
use upjet_core::rules::says_already_exists;

/// GCP Cloud Audit Logs, as Cloud Logging exports them.
pub(super) struct GcpAudit;

/// The sniffer's entry: Cloud Logging entries with an audit payload of any service but GKE's
/// (whose entries are Kubernetes audit events, read by `--audit-log`).
static FORMATS: [Format; 1] = [Format {
    what: "a Google Cloud audit log (Cloud Logging AuditLog entries)",
    readers: &[Reader::CloudAudit],
    unread: "",
    test: |h| is_audit_entry(h) && !is_gke(h),
}];

/// A Cloud Logging entry whose payload is a Cloud Audit Log (GKE's included).
pub(crate) fn is_audit_entry(h: &Head) -> bool {
    h.str("protoPayload.@type").is_some_and(|t| t.ends_with("google.cloud.audit.AuditLog"))
}

/// The Kubernetes API of GKE wrote it (not another Google Cloud service).
pub(crate) fn is_gke(h: &Head) -> bool {
    h.str("protoPayload.serviceName") == Some("k8s.io") || h.str("resource.type") == Some("k8s_cluster")
}

/// Whether a GCP method's last part (`insert`, `create`, `CreateAlertPolicy`, `delete`) makes
/// (`Some(true)`) or removes (`Some(false)`) an object.
fn verb_of(method: &[u8]) -> Option<bool> {
    let last = method.rsplit(|&c| c == b'.').next().unwrap_or(method);
    let lower = last.to_ascii_lowercase();
    if lower.starts_with(b"insert") || lower.starts_with(b"create") {
        Some(true)
    } else if lower.starts_with(b"delete") {
        Some(false)
    } else {
        None
    }
}

/// `v1`, `v1beta1`, `beta`, `alpha`: the API-version prefix of a `methodName`.
fn is_api_version(s: &str) -> bool {
    s == "beta" || s == "alpha" || (s.starts_with('v') && s[1..].starts_with(|c: char| c.is_ascii_digit()))
}

impl Dialect for GcpAudit {
    fn cloud(&self) -> Cloud {
        Cloud::Gcp
    }

    fn label(&self) -> &'static str {
        "GCP audit"
    }

    fn formats(&self) -> &'static [Format] {
        &FORMATS
    }

    fn marks(&self) -> &'static [&'static str] {
        &["protoPayload"]
    }

    /// A `methodName` is this cloud's; its last part decides.
    fn claim(&self, b: &[u8]) -> Claim {
        match value_after(b, b"methodName\"") {
            None => Claim::NotMine,
            Some(method) if verb_of(method).is_some() => Claim::Wanted,
            Some(_) => Claim::Rejected,
        }
    }

    fn decode(&self, b: &[u8], file: &Arc<str>, line: u64, intern: &mut Interner) -> Decoded {
        decode(b, file, line, intern)
    }

    /// The method without its API version (`v1.`, `beta.`).
    fn action_key(&self, _service: &str, action: &str) -> String {
        match action.split_once('.') {
            Some((v, rest)) if is_api_version(v) => rest.to_string(),
            _ => action.to_string(),
        }
    }

    /// `google.monitoring.v3.AlertPolicyService.CreateAlertPolicy` → `alertpolicy`,
    /// `v1.compute.networks.insert` → `network`.
    fn action_noun(&self, action: &str) -> String {
        let parts: Vec<&str> = action.split('.').collect();
        match parts.as_slice() {
            [.., last] if last.starts_with(|c: char| c.is_ascii_uppercase()) => strip_verb(last).to_ascii_lowercase(),
            [.., collection, _] => singular(&collection.to_ascii_lowercase()),
            _ => String::new(),
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry<'a> {
    #[serde(borrow)]
    insert_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    log_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    resource: Option<MonitoredResource<'a>>,
    #[serde(borrow)]
    operation: Option<Operation<'a>>,
    #[serde(borrow)]
    proto_payload: Option<Payload<'a>>,
}

#[derive(Deserialize)]
struct MonitoredResource<'a> {
    #[serde(borrow)]
    labels: Option<BTreeMap<Cow<'a, str>, Cow<'a, str>>>,
}

#[derive(Deserialize)]
struct Operation<'a> {
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default)]
    first: bool,
    #[serde(default)]
    last: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Payload<'a> {
    #[serde(borrow, rename = "@type")]
    type_: Option<Cow<'a, str>>,
    #[serde(borrow)]
    service_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    method_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    resource_name: Option<Cow<'a, str>>,
    authentication_info: Option<AuthInfo>,
    request_metadata: Option<RequestMetadata>,
    #[serde(borrow)]
    request: Option<&'a RawValue>,
    #[serde(borrow)]
    response: Option<&'a RawValue>,
    status: Option<Status>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AuthInfo {
    principal_email: Option<String>,
    principal_subject: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RequestMetadata {
    caller_supplied_user_agent: Option<String>,
}

#[derive(Deserialize)]
struct Status {
    code: Option<i64>,
    message: Option<String>,
}

/// google.rpc.Code names, for evidence.
fn code_name(code: i64) -> String {
    let name = match code {
        3 => "INVALID_ARGUMENT",
        5 => "NOT_FOUND",
        6 => "ALREADY_EXISTS",
        7 => "PERMISSION_DENIED",
        8 => "RESOURCE_EXHAUSTED",
        9 => "FAILED_PRECONDITION",
        10 => "ABORTED",
        13 => "INTERNAL",
        14 => "UNAVAILABLE",
        _ => return format!("code {code}"),
    };
    format!("{name} ({code})")
}

/// Decodes one Cloud Logging entry; the merge key is its operation's ID.
fn decode(b: &[u8], file: &Arc<str>, line: u64, intern: &mut Interner) -> Decoded {
    let Ok(e) = serde_json::from_slice::<Entry>(b) else { return Err(Skip::Malformed) };
    let Some(p) = e.proto_payload.filter(|p| p.type_.as_deref().is_some_and(|t| t.ends_with("AuditLog"))) else {
        return Err(Skip::NotAudit);
    };
    let method = p.method_name.as_deref().unwrap_or_default();
    let verb = match verb_of(method.as_bytes()) {
        Some(true) => Verb::Create,
        Some(false) => Verb::Delete,
        None => return Err(Skip::NotWrite),
    };
    let op = e.operation.as_ref();
    let outcome = match p.status.as_ref().and_then(|s| s.code.filter(|c| *c != 0).map(|c| (c, s))) {
        Some((code, s)) => {
            let message = s.message.clone().unwrap_or_default();
            Outcome::Failed { code: code_name(code), exists: code == 6 || says_already_exists(&message), message }
        }
        None if op.is_some_and(|o| o.first && !o.last) => Outcome::Accepted,
        None => Outcome::Succeeded,
    };
    let (mut request, mut response, mut tags) = (Vec::new(), Vec::new(), CrossplaneTags::default());
    if let Some(r) = p.request {
        flatten(r.get(), intern, &mut request, &mut tags);
    }
    if let Some(r) = p.response {
        flatten(r.get(), intern, &mut response, &mut CrossplaneTags::default());
    }
    let labels = e.resource.and_then(|r| r.labels).unwrap_or_default();
    let project = labels
        .get("project_id")
        .map(|p| p.to_string())
        .or_else(|| project_of(e.log_name.as_deref()))
        .or_else(|| project_of(p.resource_name.as_deref()));
    let principal = p.authentication_info.and_then(|a| a.principal_email.or(a.principal_subject));
    let key = op.and_then(|o| o.id.as_deref()).map(|id| format!("gcp:{id}"));
    let call = CloudCall {
        cloud: Cloud::Gcp,
        service: intern.get(p.service_name.as_deref().unwrap_or_default()),
        action: intern.get(method),
        action_key: Arc::default(),
        action_noun: Arc::default(),
        verb,
        at: e.timestamp.as_deref().and_then(parse_time),
        principal: principal.map(|p| intern.get(&p)),
        session: None,
        account: project.map(|p| intern.get(&p)),
        outcome,
        request_id: op.and_then(|o| o.id.clone()).or(e.insert_id).map(|s| s.as_ref().into()),
        operation: key.map(Into::into),
        resource: p.resource_name.map(|r| r.as_ref().into()),
        request,
        response,
        tags,
        user_agent: p.request_metadata.and_then(|m| m.caller_supplied_user_agent).map(|u| intern.get(&u)),
        file: file.clone(),
        line,
    };
    Ok(call)
}

/// `projects/P/…` → `P`.
fn project_of(path: Option<&str>) -> Option<String> {
    let rest = path?.strip_prefix("projects/")?;
    let p = rest.split('/').next()?;
    (!p.is_empty() && p != "_").then(|| p.to_string())
}

#[cfg(test)]
mod tests {
    use super::super::{DIALECTS, dialect};
    use super::*;

    #[test]
    fn inserts_creates_and_deletes_pass_gets_do_not() {
        for (record, want) in [
            (r#"{"protoPayload":{"methodName":"v1.compute.networks.insert"}}"#, Claim::Wanted),
            (
                r#"{"protoPayload":{"methodName":"google.monitoring.v3.AlertPolicyService.CreateAlertPolicy"}}"#,
                Claim::Wanted,
            ),
            (r#"{"protoPayload":{"methodName":"storage.buckets.delete"}}"#, Claim::Wanted),
            (r#"{"protoPayload":{"methodName":"storage.buckets.get"}}"#, Claim::Rejected),
        ] {
            let got = dialect::claim(DIALECTS, record.as_bytes()).map(|(i, c)| (DIALECTS[i].cloud(), c));
            assert_eq!(got, Some((Cloud::Gcp, want)), "{record}");
        }
    }

    #[test]
    fn the_key_drops_the_api_version_and_the_noun_is_what_it_makes() {
        assert_eq!(
            GcpAudit.action_key("compute.googleapis.com", "v1.compute.networks.insert"),
            "compute.networks.insert"
        );
        assert_eq!(
            GcpAudit.action_key("compute.googleapis.com", "beta.compute.networks.insert"),
            "compute.networks.insert"
        );
        assert_eq!(GcpAudit.action_key("storage.googleapis.com", "storage.buckets.create"), "storage.buckets.create");
        assert_eq!(GcpAudit.action_noun("v1.compute.networks.insert"), "network");
        assert_eq!(GcpAudit.action_noun("google.monitoring.v3.AlertPolicyService.CreateAlertPolicy"), "alertpolicy");
        assert_eq!(GcpAudit.action_noun("x.policies.create"), "policy");
    }
}
