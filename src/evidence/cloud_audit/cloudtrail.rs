//! AWS CloudTrail records: bare (S3 log files' `Records[]`, CloudTrail Lake and Athena JSON
//! lines, whose columns may be lower-case and whose bodies may be JSON strings), inside
//! `lookup-events` (`Events[].CloudTrailEvent`, a JSON string), or inside an EventBridge "AWS API
//! Call via CloudTrail" envelope (`detail`).
//!
//! The record carries who (`userIdentity`: an assumed role's `sessionContext.sessionIssuer.arn`
//! is the role, stable across the provider pod's sessions), where (`recipientAccountId`), what
//! (`eventSource`, `eventName`, `requestParameters`), the answer (`responseElements`, `errorCode`,
//! `errorMessage`) and `requestID`. It lacks the resource's final state, and many creates answer
//! with `responseElements: null` (S3 `CreateBucket`): there the request's name is the ID.

use super::prefilter::{AWS_CREATE, AWS_DELETE, starts_with_verb};
use super::values::{flatten, parse_time};
use super::{Decoded, Skip};
use crate::domain::cloud_audit::{Cloud, CloudCall, CrossplaneTags, Interner, Outcome, Param, Verb};
use crate::domain::rules::says_already_exists;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record<'a> {
    #[serde(borrow, alias = "eventsource")]
    event_source: Option<Cow<'a, str>>,
    #[serde(borrow, alias = "eventname")]
    event_name: Option<Cow<'a, str>>,
    #[serde(borrow, alias = "eventtime")]
    event_time: Option<&'a RawValue>,
    #[serde(borrow, alias = "useridentity")]
    user_identity: Option<&'a RawValue>,
    #[serde(borrow, alias = "requestparameters")]
    request_parameters: Option<&'a RawValue>,
    #[serde(borrow, alias = "responseelements")]
    response_elements: Option<&'a RawValue>,
    #[serde(borrow, alias = "errorcode")]
    error_code: Option<Cow<'a, str>>,
    #[serde(borrow, alias = "errormessage")]
    error_message: Option<Cow<'a, str>>,
    #[serde(borrow, rename = "requestID", alias = "requestid")]
    request_id: Option<Cow<'a, str>>,
    #[serde(borrow, rename = "eventID", alias = "eventid")]
    event_id: Option<Cow<'a, str>>,
    #[serde(borrow, alias = "recipientaccountid")]
    recipient_account_id: Option<Cow<'a, str>>,
    #[serde(borrow, alias = "useragent")]
    user_agent: Option<Cow<'a, str>>,
    #[serde(borrow)]
    resources: Option<Vec<Resource<'a>>>,
    #[serde(alias = "managementevent")]
    management_event: Option<serde_json::Value>,
    /// `lookup-events`: the record as a JSON string.
    #[serde(borrow, rename = "CloudTrailEvent")]
    cloud_trail_event: Option<Cow<'a, str>>,
    /// `lookup-events`: when (ISO 8601 with the local offset from AWS CLI v2, epoch seconds from v1).
    #[serde(borrow, rename = "EventTime")]
    lookup_time: Option<&'a RawValue>,
    /// EventBridge: the record.
    #[serde(borrow)]
    detail: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Resource<'a> {
    #[serde(borrow, rename = "ARN", alias = "arn")]
    arn: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Identity {
    arn: Option<String>,
    principal_id: Option<String>,
    account_id: Option<String>,
    #[serde(rename = "type")]
    type_: Option<String>,
    session_context: Option<SessionContext>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct SessionContext {
    session_issuer: Option<Issuer>,
}

#[derive(Deserialize, Default)]
struct Issuer {
    arn: Option<String>,
}

/// Decodes one AWS record (or a wrapper of one).
pub(super) fn decode(b: &[u8], file: &Arc<str>, line: u64, intern: &mut Interner) -> Decoded {
    let Ok(r) = serde_json::from_slice::<Record>(b) else { return Err(Skip::Malformed) };
    if r.event_name.is_none() {
        if let Some(inner) = &r.cloud_trail_event {
            let mut d = decode(inner.as_bytes(), file, line, intern);
            if let Ok(c) = &mut d
                && c.at.is_none()
            {
                c.at = r.lookup_time.and_then(|t| parse_time(t.get()));
            }
            return d;
        }
        if let Some(d) = r.detail {
            return decode(d.get().as_bytes(), file, line, intern);
        }
        return Err(Skip::NotAudit);
    }
    let name = r.event_name.as_deref().unwrap_or_default();
    let verb = if starts_with_verb(name.as_bytes(), AWS_CREATE) {
        Verb::Create
    } else if starts_with_verb(name.as_bytes(), AWS_DELETE) {
        Verb::Delete
    } else {
        return Err(Skip::NotWrite);
    };
    if r.management_event.as_ref().is_some_and(|m| m == false || m == "false") {
        return Err(Skip::NotWrite);
    }
    let id = identity(r.user_identity);
    let principal =
        id.session_context.and_then(|s| s.session_issuer).and_then(|i| i.arn).or(id.arn.clone()).or(id.principal_id);
    let session = id.arn.filter(|_| id.type_.as_deref() == Some("AssumedRole"));
    let (mut request, mut response, mut tags) = (Vec::new(), Vec::new(), CrossplaneTags::default());
    if let Some(p) = r.request_parameters {
        flatten(p.get(), intern, &mut request, &mut tags);
    }
    if let Some(p) = r.response_elements {
        flatten(p.get(), intern, &mut response, &mut CrossplaneTags::default());
    }
    for arn in r.resources.iter().flatten().filter_map(|x| x.arn.as_deref()) {
        response.push(Param { path: intern.get("resources[].ARN"), value: intern.get(arn) });
    }
    let outcome = match &r.error_code {
        Some(code) => {
            let message = r.error_message.as_deref().unwrap_or_default().to_string();
            let exists = says_already_exists(&format!("{code} {message}")) || code.contains("Duplicate");
            Outcome::Failed { code: code.to_string(), message, exists }
        }
        None => Outcome::Succeeded,
    };
    let account = r.recipient_account_id.as_deref().map(str::to_owned).or(id.account_id);
    Ok(CloudCall {
        cloud: Cloud::Aws,
        service: intern.get(r.event_source.as_deref().unwrap_or("")),
        action: intern.get(name),
        verb,
        at: r.event_time.and_then(|t| parse_time(t.get())),
        principal: principal.map(|p| intern.get(&p)),
        session: session.map(|s| intern.get(&s)),
        account: account.map(|a| intern.get(&a)),
        outcome,
        request_id: r.request_id.or(r.event_id).map(|s| s.as_ref().into()),
        operation: None,
        resource: None,
        request,
        response,
        tags,
        user_agent: r.user_agent.map(|u| intern.get(&u)),
        file: file.clone(),
        line,
    })
}

/// `userIdentity`, an object (or, from Athena, a JSON string).
fn identity(raw: Option<&RawValue>) -> Identity {
    let Some(raw) = raw else { return Identity::default() };
    serde_json::from_str::<Identity>(raw.get())
        .ok()
        .or_else(|| serde_json::from_str::<String>(raw.get()).ok().and_then(|s| serde_json::from_str(&s).ok()))
        .unwrap_or_default()
}
