//! The Azure Activity Log: `az monitor activity-log list -o json` (the REST `EventData`:
//! `operationName.value`, `status.value`, `eventTimestamp`, `caller`, `subscriptionId`) and the
//! export a diagnostic setting writes to storage or Event Hubs (`{"records":[…]}` or JSON lines:
//! `operationName` as a string, `resultType`, `time`, `identity.claims`).
//!
//! One ARM operation is several events sharing an `operationId` (and `correlationId`): Started
//! (`BeginRequest`, whose `properties.requestbody` holds the PUT body), then Accepted and/or
//! Succeeded, or Failed. They are merged into one call. The log carries who (`caller`: a user's
//! UPN or a service principal's object ID), where (`subscriptionId`), what (`resourceId`,
//! `operationName`) and how it ended; it lacks a user agent, and `responseBody` is often empty,
//! so a create's ID is its `resourceId` (in ARM the caller names the object).

use super::dialect::{Claim, Decoded, Dialect, Skip, singular};
use super::values::{flatten, parse_time};
use crate::format::{Format, Reader};
use memchr::memmem;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use upjet_core::cloud_audit::{Cloud, CloudCall, CrossplaneTags, Interner, Outcome, Verb};
use upjet_core::rules::says_already_exists;

/// The Azure Activity Log, as the CLI lists it or a diagnostic setting exports it.
pub(super) struct AzureActivity;

/// The sniffer's entry: `az monitor activity-log list` (an array of the REST `EventData`).
static FORMATS: [Format; 1] = [Format {
    what: "an Azure activity log (az monitor activity-log list)",
    readers: &[Reader::CloudAudit],
    unread: "",
    test: |h| h.is_array() && h.has("eventTimestamp") && h.has("operationName"),
}];

impl Dialect for AzureActivity {
    fn cloud(&self) -> Cloud {
        Cloud::Azure
    }

    fn label(&self) -> &'static str {
        "Azure activity"
    }

    fn formats(&self) -> &'static [Format] {
        &FORMATS
    }

    fn marks(&self) -> &'static [&'static str] {
        &["operationName"]
    }

    /// An `operationName` is this cloud's: `"…/write"` (the export), or an object whose `value`
    /// and `localizedValue` (in either order) both name the operation; a write or delete passes.
    fn claim(&self, b: &[u8]) -> Claim {
        let Some(i) = memmem::find(b, b"operationName\"") else { return Claim::NotMine };
        let window = b[i..].iter().take(320).map(u8::to_ascii_lowercase).collect::<Vec<u8>>();
        let names = |end: &[u8]| memmem::find(&window, end).is_some();
        if names(b"/write\"") || names(b"/delete\"") { Claim::Wanted } else { Claim::Rejected }
    }

    fn decode(&self, b: &[u8], file: &Arc<str>, line: u64, intern: &mut Interner) -> Decoded {
        decode(b, file, line, intern)
    }

    /// ARM operation names are case-insensitive.
    fn action_key(&self, _service: &str, action: &str) -> String {
        action.to_ascii_lowercase()
    }

    /// `Microsoft.Network/virtualNetworks/write` → `virtualnetwork`.
    fn action_noun(&self, action: &str) -> String {
        let parts: Vec<&str> = action.split('/').collect();
        parts.len().checked_sub(2).map(|i| singular(&parts[i].to_ascii_lowercase())).unwrap_or_default()
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Event {
    operation_name: Option<Value>,
    resource_id: Option<String>,
    caller: Option<String>,
    correlation_id: Option<String>,
    operation_id: Option<String>,
    event_timestamp: Option<String>,
    time: Option<String>,
    status: Option<Value>,
    result_type: Option<String>,
    subscription_id: Option<String>,
    claims: Option<BTreeMap<String, Value>>,
    identity: Option<IdentityBlock>,
    properties: Option<Properties>,
}

#[derive(Deserialize)]
struct IdentityBlock {
    claims: Option<BTreeMap<String, Value>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Properties {
    status_code: Option<String>,
    status_message: Option<Value>,
    response_body: Option<Value>,
    #[serde(alias = "requestBody")]
    requestbody: Option<Value>,
}

/// `{"value": "x"}` or `"x"`.
fn text(v: &Option<Value>) -> Option<&str> {
    match v.as_ref()? {
        Value::String(s) => Some(s),
        Value::Object(m) => m.get("value")?.as_str(),
        _ => None,
    }
}

/// The claims that name a caller when `caller` is absent (the storage export): the UPN of a
/// user, else the object ID of a service principal, else its app ID.
const CALLER_CLAIMS: &[&str] = &[
    "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn",
    "http://schemas.microsoft.com/identity/claims/objectidentifier",
    "appid",
];

/// Decodes one event; the merge key is its operation (or correlation) ID with the resource.
fn decode(b: &[u8], file: &Arc<str>, line: u64, intern: &mut Interner) -> Decoded {
    let Ok(e) = serde_json::from_slice::<Event>(b) else { return Err(Skip::Malformed) };
    let Some(op) = text(&e.operation_name) else { return Err(Skip::NotAudit) };
    let lower = op.to_ascii_lowercase();
    let verb = if lower.ends_with("/write") {
        Verb::Create
    } else if lower.ends_with("/delete") {
        Verb::Delete
    } else {
        return Err(Skip::NotWrite);
    };
    let props = e.properties;
    let status = text(&e.status).or(e.result_type.as_deref()).unwrap_or_default().to_ascii_lowercase();
    let outcome = match status.as_str() {
        "succeeded" | "success" => Outcome::Succeeded,
        "failed" | "failure" => {
            let code = props.as_ref().and_then(|p| p.status_code.clone()).unwrap_or_else(|| "Failed".into());
            let message = props
                .as_ref()
                .and_then(|p| p.status_message.as_ref().or(p.response_body.as_ref()))
                .map(body_text)
                .unwrap_or_default();
            Outcome::Failed { exists: says_already_exists(&message), code, message }
        }
        _ => Outcome::Accepted,
    };
    let (mut request, mut response, mut tags) = (Vec::new(), Vec::new(), CrossplaneTags::default());
    if let Some(p) = &props {
        if let Some(body) = p.requestbody.as_ref().map(body_text).filter(|s| !s.is_empty()) {
            flatten(&body, intern, &mut request, &mut tags);
        }
        if let Some(body) = p.response_body.as_ref().map(body_text).filter(|s| !s.is_empty()) {
            flatten(&body, intern, &mut response, &mut CrossplaneTags::default());
        }
    }
    let claims = e.claims.or(e.identity.and_then(|i| i.claims)).unwrap_or_default();
    let caller =
        e.caller.or_else(|| CALLER_CLAIMS.iter().find_map(|c| claims.get(*c)?.as_str().map(|s| s.trim().to_string())));
    let resource = e.resource_id.clone();
    let subscription = e.subscription_id.filter(|s| !s.is_empty()).or_else(|| subscription_of(resource.as_deref()));
    let op_id = e.operation_id.or(e.correlation_id.clone());
    let key =
        op_id.map(|id| format!("azure:{id}:{}:{lower}", Cloud::Azure.id_key(resource.as_deref().unwrap_or_default())));
    let provider = op.split('/').next().unwrap_or_default();
    let call = CloudCall {
        cloud: Cloud::Azure,
        service: intern.get(provider),
        action: intern.get(op),
        action_key: Arc::default(),
        action_noun: Arc::default(),
        verb,
        at: e.event_timestamp.or(e.time).as_deref().and_then(parse_time),
        principal: caller.map(|c| intern.get(&c)),
        session: None,
        account: subscription.map(|s| intern.get(&s)),
        outcome,
        request_id: e.correlation_id.map(|c| c.into()),
        operation: key.map(Into::into),
        resource: resource.map(|r| r.into()),
        request,
        response,
        tags,
        user_agent: None,
        file: file.clone(),
        line,
    };
    Ok(call)
}

/// A body or message: a JSON string (usually holding JSON) or an object.
fn body_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// `/subscriptions/S/…` → `S` (the segment found as ARM IDs compare, `S` as written).
fn subscription_of(id: Option<&str>) -> Option<String> {
    let id = id?;
    let start = Cloud::Azure.id_key(id).find("/subscriptions/")? + "/subscriptions/".len();
    id[start..].split('/').next().filter(|s| !s.is_empty()).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::super::{DIALECTS, dialect};
    use super::*;

    #[test]
    fn writes_and_deletes_pass_actions_do_not() {
        for (record, want) in [
            (
                r#"{"eventName":{"value":"EndRequest"},"operationName":{"value":"Microsoft.Network/networkSecurityGroups/write"}}"#,
                Claim::Wanted,
            ),
            (r#"{"operationName":{"value":"Microsoft.Network/virtualNetworks/write"}}"#, Claim::Wanted),
            (r#"{"operationName": { "value": "Microsoft.Network/virtualNetworks/delete" }}"#, Claim::Wanted),
            (r#"{"operationName":"microsoft.support/supporttickets/write"}"#, Claim::Wanted),
            (r#"{"operationName":{"value":"Microsoft.Storage/storageAccounts/listKeys/action"}}"#, Claim::Rejected),
            (
                r#"{"operationName":{"localizedValue":"Microsoft.Network/virtualNetworks/write","value":"x"}}"#,
                Claim::Wanted,
            ),
        ] {
            let got = dialect::claim(DIALECTS, record.as_bytes()).map(|(i, c)| (DIALECTS[i].cloud(), c));
            assert_eq!(got, Some((Cloud::Azure, want)), "{record}");
        }
    }

    #[test]
    fn the_key_ignores_case_and_the_noun_is_the_resource_type() {
        let action = "Microsoft.Network/virtualNetworks/write";
        assert_eq!(AzureActivity.action_key("Microsoft.Network", action), "microsoft.network/virtualnetworks/write");
        assert_eq!(AzureActivity.action_noun(action), "virtualnetwork");
        assert_eq!(AzureActivity.action_noun("write"), "");
    }
}
