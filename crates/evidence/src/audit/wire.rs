//! The on-disk shapes, as borrowed serde structs: an `audit.k8s.io/v1` `Event`
//! (k8s.io/apiserver `pkg/apis/audit/v1/types.go`), a Cloud Logging `LogEntry` whose
//! `protoPayload` is a `google.cloud.audit.AuditLog` (GKE), and a CloudWatch Logs event whose
//! `message` is an Event as a string (EKS). Unknown fields are skipped unread into memory.
//!
//! Exists so that decoding allocates only for the few events that pass the byte prefilter, and
//! then only for the strings it keeps (`Cow` borrows unless a string holds escapes).

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Any line or document element: an audit Event, a GKE log entry, or a CloudWatch event.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Entry<'a> {
    #[serde(borrow)]
    pub level: Option<Cow<'a, str>>,
    #[serde(borrow, rename = "auditID")]
    pub audit_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub stage: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub verb: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub user: Option<User<'a>>,
    #[serde(borrow)]
    pub impersonated_user: Option<User<'a>>,
    #[serde(borrow, rename = "sourceIPs")]
    pub source_ips: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow)]
    pub user_agent: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub object_ref: Option<ObjectRef<'a>>,
    pub response_status: Option<Status>,
    #[serde(borrow)]
    pub request_object: Option<&'a RawValue>,
    #[serde(borrow)]
    pub response_object: Option<&'a RawValue>,
    #[serde(borrow)]
    pub request_received_timestamp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub stage_timestamp: Option<Cow<'a, str>>,
    /// Cloud Logging: the audit record of a GKE request.
    #[serde(borrow)]
    pub proto_payload: Option<ProtoPayload<'a>>,
    /// Cloud Logging: an RFC3339 string; CloudWatch: epoch milliseconds.
    #[serde(borrow)]
    pub timestamp: Option<&'a RawValue>,
    /// Cloud Logging entry ID (GKE's stand-in for an audit ID).
    #[serde(borrow)]
    pub insert_id: Option<Cow<'a, str>>,
    /// CloudWatch Logs: the audit Event as a JSON string.
    #[serde(borrow)]
    pub message: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(super) struct User<'a> {
    #[serde(borrow)]
    pub username: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ObjectRef<'a> {
    #[serde(borrow)]
    pub resource: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub namespace: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub uid: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub api_group: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub subresource: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
pub(super) struct Status {
    pub code: Option<i64>,
}

/// `google.cloud.audit.AuditLog` as GKE fills it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProtoPayload<'a> {
    #[serde(borrow, rename = "@type")]
    pub type_: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub method_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub resource_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub authentication_info: Option<AuthInfo<'a>>,
    #[serde(borrow)]
    pub request_metadata: Option<RequestMetadata<'a>>,
    #[serde(borrow)]
    pub request: Option<&'a RawValue>,
    #[serde(borrow)]
    pub response: Option<&'a RawValue>,
    /// A `google.rpc.Status`: code 0 (or absent) is OK.
    pub status: Option<Status>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct AuthInfo<'a> {
    #[serde(borrow)]
    pub principal_email: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct RequestMetadata<'a> {
    #[serde(borrow)]
    pub caller_ip: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub caller_supplied_user_agent: Option<Cow<'a, str>>,
}

/// A request or response object, or a merge patch: only the identity fields.
#[derive(Deserialize)]
pub(super) struct Obj<'a> {
    #[serde(borrow)]
    pub kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub metadata: Option<Meta<'a>>,
    #[serde(borrow)]
    pub spec: Option<Spec<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Meta<'a> {
    #[serde(borrow)]
    pub uid: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub annotations: Option<BTreeMap<Cow<'a, str>, Option<Cow<'a, str>>>>,
    #[serde(borrow)]
    pub deletion_timestamp: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Spec<'a> {
    /// Absent: untouched; `Some(None)`: `null` (removed by a merge patch).
    #[serde(borrow, default, deserialize_with = "present")]
    pub management_policies: Option<Option<Vec<Cow<'a, str>>>>,
    #[serde(borrow, default, deserialize_with = "present")]
    pub deletion_policy: Option<Option<Cow<'a, str>>>,
}

/// One operation of a JSON patch (RFC 6902).
#[derive(Deserialize)]
pub(super) struct PatchOp<'a> {
    #[serde(borrow)]
    pub op: Cow<'a, str>,
    #[serde(borrow)]
    pub path: Cow<'a, str>,
    #[serde(borrow)]
    pub value: Option<&'a RawValue>,
}

/// A field that is present, even as `null`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}
