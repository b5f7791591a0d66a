//! The byte checks that reject a record before any JSON is decoded: most of a cloud's record is
//! reads (`Describe*`, `List*`, `…get`), data events and other services' traffic, and an export
//! is gigabytes. A record passes only when it names a create or delete: CloudTrail's `eventName`
//! (or `lookup-events`' `EventName`) starting with a create or delete verb, a GCP `methodName`
//! whose last part is one, or an Azure `operationName` ending in `/write` or `/delete`. The checks
//! look through escapes, so they also see inside `lookup-events`' `CloudTrailEvent` string.

use memchr::memmem;

/// Which cloud's record a passing record looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Family {
    /// A CloudTrail record (bare, in `lookup-events`, or in an EventBridge envelope).
    Aws,
    /// A Cloud Logging entry with an audit log.
    Gcp,
    /// An Azure Activity Log event.
    Azure,
}

/// AWS verbs that make an object (`CreateVpc`, `RunInstances`, `AllocateAddress`,
/// `RequestCertificate`, `RegisterTargets`, `ImportKeyPair`, `IssueCertificate`) or remove one.
/// `Put*`, `Attach*` and `Update*` calls configure existing objects and are left out.
pub(super) const AWS_CREATE: &[&str] = &["Create", "Run", "Allocate", "Request", "Register", "Import", "Issue"];
/// See [`AWS_CREATE`].
pub(super) const AWS_DELETE: &[&str] = &["Delete", "Terminate", "Release", "Deregister", "ScheduleKeyDeletion"];

/// Whether `name` starts with one of `verbs`, ignoring the case of the first letter
/// (Route 53 Domains logs `updateDomainContact`).
pub(super) fn starts_with_verb(name: &[u8], verbs: &[&str]) -> bool {
    verbs.iter().any(|v| {
        let v = v.as_bytes();
        name.len() >= v.len() && name[0].eq_ignore_ascii_case(&v[0]) && name[1..v.len()] == v[1..]
    })
}

/// Whether a GCP method's last part (`insert`, `create`, `CreateAlertPolicy`, `delete`) makes
/// or removes an object.
pub(super) fn gcp_verb(method: &[u8]) -> Option<bool> {
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

/// The bytes of the value after the first occurrence of `key` (past quotes, backslashes, the
/// colon and blanks), up to its closing quote or 256 bytes.
fn value_after<'a>(b: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    let i = memmem::find(b, key)? + key.len();
    let skip = |r: &'a [u8]| {
        let n = r
            .iter()
            .take(32)
            .take_while(|c| matches!(c, b'"' | b'\\' | b':' | b'{') || c.is_ascii_whitespace())
            .count();
        &r[n..]
    };
    let mut rest = skip(&b[i..]);
    // Azure's `"operationName": {"value": "…"}`.
    if let Some(inner) = rest.strip_prefix(b"value") {
        rest = skip(inner);
    }
    let end = rest.iter().take(256).position(|&c| c == b'"' || c == b'\\').unwrap_or(rest.len().min(256));
    Some(&rest[..end])
}

/// The cheap check; `None` rejects the record unread.
pub(super) fn wanted(b: &[u8]) -> Option<Family> {
    // Every CloudTrail record names its `eventSource` (`EventSource` in `lookup-events`); an
    // Azure event has an `eventName` too (`BeginRequest`), so the source decides.
    let aws = memmem::find(b, b"ventSource").is_some();
    if let Some(name) = value_after(b, b"ventName\\\"").or_else(|| value_after(b, b"ventName\"")).filter(|_| aws) {
        let data = memmem::find(b, b"managementEvent\":false").is_some()
            || memmem::find(b, b"managementEvent\\\":false").is_some();
        let verb = starts_with_verb(name, AWS_CREATE) || starts_with_verb(name, AWS_DELETE);
        return (verb && !data).then_some(Family::Aws);
    }
    if let Some(method) = value_after(b, b"methodName\"") {
        return gcp_verb(method).map(|_| Family::Gcp);
    }
    // `"operationName":"…/write"` (the export), or an object whose `value` and `localizedValue`
    // (in either order) both name the operation.
    let i = memmem::find(b, b"operationName\"")?;
    let window = b[i..].iter().take(320).map(u8::to_ascii_lowercase).collect::<Vec<u8>>();
    let names = |end: &[u8]| memmem::find(&window, end).is_some();
    (names(b"/write\"") || names(b"/delete\"")).then_some(Family::Azure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_and_deletes_pass_reads_and_data_events_do_not() {
        for (record, want) in [
            (r#"{"eventName":"CreateVpc","eventSource":"ec2.amazonaws.com"}"#, Some(Family::Aws)),
            (r#"{"eventSource":"ec2.amazonaws.com","eventName": "TerminateInstances"}"#, Some(Family::Aws)),
            (r#"{"eventName":"DescribeVpcs","eventSource":"ec2.amazonaws.com"}"#, None),
            (r#"{"eventName":"PutObject","eventSource":"s3.amazonaws.com","managementEvent":false}"#, None),
            (r#"{"eventName":"DeleteObject","eventSource":"s3.amazonaws.com","managementEvent":false}"#, None),
            (
                r#"{"EventName":"CreateSecret","CloudTrailEvent":"{\"eventName\":\"CreateSecret\",\"eventSource\":\"s\"}"}"#,
                Some(Family::Aws),
            ),
            (r#"["{\"eventName\":\"RunInstances\",\"eventSource\":\"ec2\"}"]"#, Some(Family::Aws)),
            (
                r#"{"eventName":{"value":"EndRequest"},"operationName":{"value":"Microsoft.Network/networkSecurityGroups/write"}}"#,
                Some(Family::Azure),
            ),
            (r#"{"protoPayload":{"methodName":"v1.compute.networks.insert"}}"#, Some(Family::Gcp)),
            (
                r#"{"protoPayload":{"methodName":"google.monitoring.v3.AlertPolicyService.CreateAlertPolicy"}}"#,
                Some(Family::Gcp),
            ),
            (r#"{"protoPayload":{"methodName":"storage.buckets.get"}}"#, None),
            (r#"{"operationName":{"value":"Microsoft.Network/virtualNetworks/write"}}"#, Some(Family::Azure)),
            (r#"{"operationName": { "value": "Microsoft.Network/virtualNetworks/delete" }}"#, Some(Family::Azure)),
            (r#"{"operationName":"microsoft.support/supporttickets/write"}"#, Some(Family::Azure)),
            (r#"{"operationName":{"value":"Microsoft.Storage/storageAccounts/listKeys/action"}}"#, None),
            (
                r#"{"operationName":{"localizedValue":"Microsoft.Network/virtualNetworks/write","value":"x"}}"#,
                Some(Family::Azure),
            ),
            (r#"{"kind":"Event","verb":"create"}"#, None),
        ] {
            assert_eq!(wanted(record.as_bytes()), want, "{record}");
        }
    }
}
