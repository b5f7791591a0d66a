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

use super::dialect::{Claim, Decoded, Dialect, Skip, strip_verb};
use super::prefilter::value_after;
use super::values::{flatten, parse_time};
use crate::format::{Format, Reader};
use memchr::memmem;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::sync::Arc;
use upjet_core::cloud_audit::{Cloud, CloudCall, CrossplaneTags, Interner, Outcome, Param, Verb};
use upjet_core::rules::says_already_exists;

/// AWS CloudTrail, in every layout it is exported in.
pub(super) struct CloudTrail;

/// The sniffer's entries: CloudTrail Lake's `get-query-results` answer and a CSV of CloudTrail's
/// columns (each read by a reader entry of its own), then an S3 log file (`Records[]`) or a
/// `lookup-events` answer (`Events[]`).
static FORMATS: [Format; 3] = [
    Format {
        what: "a CloudTrail Lake query result (aws cloudtrail get-query-results)",
        readers: &[Reader::CloudAudit],
        unread: "",
        test: |h| super::lake::is_lake(&h.bytes),
    },
    Format {
        what: "a CSV of CloudTrail records (an Athena or CloudTrail Lake query result)",
        readers: &[Reader::CloudAudit],
        unread: "",
        test: |h| super::athena::is_athena(&h.bytes),
    },
    Format {
        what: "an AWS CloudTrail log",
        readers: &[Reader::CloudAudit],
        unread: "",
        test: |h| {
            h.is_object()
                && (h.has("Records[].eventSource")
                    || h.has("Events[].CloudTrailEvent")
                    || h.has("Events[].EventSource"))
        },
    },
];

/// AWS verbs that make an object (`CreateVpc`, `RunInstances`, `AllocateAddress`,
/// `RequestCertificate`, `RegisterTargets`, `ImportKeyPair`, `IssueCertificate`) or remove one.
/// `Put*`, `Attach*` and `Update*` calls configure existing objects and are left out.
const CREATE: &[&str] = &["Create", "Run", "Allocate", "Request", "Register", "Import", "Issue"];
/// See [`CREATE`].
const DELETE: &[&str] = &["Delete", "Terminate", "Release", "Deregister", "ScheduleKeyDeletion"];

/// Whether `name` starts with one of `verbs`, ignoring the case of the first letter
/// (Route 53 Domains logs `updateDomainContact`).
fn starts_with_verb(name: &[u8], verbs: &[&str]) -> bool {
    verbs.iter().any(|v| {
        let v = v.as_bytes();
        name.len() >= v.len() && name[0].eq_ignore_ascii_case(&v[0]) && name[1..v.len()] == v[1..]
    })
}

impl Dialect for CloudTrail {
    fn cloud(&self) -> Cloud {
        Cloud::Aws
    }

    fn label(&self) -> &'static str {
        "CloudTrail"
    }

    fn formats(&self) -> &'static [Format] {
        &FORMATS
    }

    fn marks(&self) -> &'static [&'static str] {
        &["eventSource", "ventName", "CloudTrailEvent"]
    }

    /// Every CloudTrail record names its `eventSource` (`EventSource` in `lookup-events`); an
    /// Azure event has an `eventName` too (`BeginRequest`), so the source decides. The event
    /// name must start with a create or delete verb, and data events (`managementEvent: false`)
    /// are rejected; both checks look through escapes, into `lookup-events`' `CloudTrailEvent`.
    fn claim(&self, b: &[u8]) -> Claim {
        if memmem::find(b, b"ventSource").is_none() {
            return Claim::NotMine;
        }
        let Some(name) = value_after(b, b"ventName\\\"").or_else(|| value_after(b, b"ventName\"")) else {
            return Claim::NotMine;
        };
        let data = memmem::find(b, b"managementEvent\":false").is_some()
            || memmem::find(b, b"managementEvent\\\":false").is_some();
        let verb = starts_with_verb(name, CREATE) || starts_with_verb(name, DELETE);
        if verb && !data { Claim::Wanted } else { Claim::Rejected }
    }

    fn decode(&self, b: &[u8], file: &Arc<str>, line: u64, intern: &mut Interner) -> Decoded {
        decode(b, file, line, intern)
    }

    fn action_key(&self, service: &str, action: &str) -> String {
        format!("{service}:{action}")
    }

    fn action_noun(&self, action: &str) -> String {
        strip_verb(action).to_ascii_lowercase()
    }
}

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
    /// The lower-case aliases: Athena's and CloudTrail Lake's struct text names the fields so.
    #[serde(alias = "principalid")]
    principal_id: Option<String>,
    #[serde(alias = "accountid")]
    account_id: Option<String>,
    #[serde(rename = "type")]
    type_: Option<String>,
    #[serde(alias = "sessioncontext")]
    session_context: Option<SessionContext>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct SessionContext {
    #[serde(alias = "sessionissuer")]
    session_issuer: Option<Issuer>,
}

#[derive(Deserialize, Default)]
struct Issuer {
    arn: Option<String>,
}

/// Decodes one AWS record (or a wrapper of one).
fn decode(b: &[u8], file: &Arc<str>, line: u64, intern: &mut Interner) -> Decoded {
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
    let verb = if starts_with_verb(name.as_bytes(), CREATE) {
        Verb::Create
    } else if starts_with_verb(name.as_bytes(), DELETE) {
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
        action_key: Arc::default(),
        action_noun: Arc::default(),
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

#[cfg(test)]
mod tests {
    use super::super::{DIALECTS, dialect};
    use super::*;

    #[test]
    fn creates_and_deletes_pass_reads_and_data_events_do_not() {
        for (record, want) in [
            (r#"{"eventName":"CreateVpc","eventSource":"ec2.amazonaws.com"}"#, Claim::Wanted),
            (r#"{"eventSource":"ec2.amazonaws.com","eventName": "TerminateInstances"}"#, Claim::Wanted),
            (r#"{"eventName":"DescribeVpcs","eventSource":"ec2.amazonaws.com"}"#, Claim::Rejected),
            (r#"{"eventName":"PutObject","eventSource":"s3.amazonaws.com","managementEvent":false}"#, Claim::Rejected),
            (
                r#"{"eventName":"DeleteObject","eventSource":"s3.amazonaws.com","managementEvent":false}"#,
                Claim::Rejected,
            ),
            (
                r#"{"EventName":"CreateSecret","CloudTrailEvent":"{\"eventName\":\"CreateSecret\",\"eventSource\":\"s\"}"}"#,
                Claim::Wanted,
            ),
            (r#"["{\"eventName\":\"RunInstances\",\"eventSource\":\"ec2\"}"]"#, Claim::Wanted),
        ] {
            let got = dialect::claim(DIALECTS, record.as_bytes()).map(|(i, c)| (DIALECTS[i].cloud(), c));
            assert_eq!(got, Some((Cloud::Aws, want)), "{record}");
        }
    }

    #[test]
    fn the_key_is_the_service_and_action_and_the_noun_what_it_makes() {
        assert_eq!(
            CloudTrail.action_key("route53.amazonaws.com", "CreateHostedZone"),
            "route53.amazonaws.com:CreateHostedZone"
        );
        assert_eq!(CloudTrail.action_noun("CreateHostedZone"), "hostedzone");
        assert_eq!(CloudTrail.action_noun("RunInstances"), "instances");
    }
}
