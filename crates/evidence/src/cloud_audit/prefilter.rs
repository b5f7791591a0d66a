//! The byte checks that reject a record before any JSON is decoded: most of a cloud's record is
//! reads (`Describe*`, `List*`, `…get`), data events and other services' traffic, and an export
//! is gigabytes. Each cloud's file says when a record is its own and whether it names a create
//! or delete (`Dialect::claim`: CloudTrail's `eventName`, a GCP `methodName`, an Azure
//! `operationName`); this is the one byte helper they share, which looks through escapes so that
//! it also sees inside `lookup-events`' `CloudTrailEvent` string.

use memchr::memmem;

/// The bytes of the value after the first occurrence of `key` (past quotes, backslashes, the
/// colon and blanks), up to its closing quote or 256 bytes.
pub(super) fn value_after<'a>(b: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_value_after_a_key_is_read_through_quotes_escapes_and_objects() {
        for (record, key, want) in [
            (r#"{"eventName":"CreateVpc"}"#, &b"ventName\""[..], Some("CreateVpc")),
            (r#"{"eventName": "RunInstances","x":1}"#, b"ventName\"", Some("RunInstances")),
            (r#"{"CloudTrailEvent":"{\"eventName\":\"CreateSecret\"}"}"#, b"ventName\\\"", Some("CreateSecret")),
            (r#"{"operationName": { "value": "a/write" }}"#, b"operationName\"", Some("a/write")),
            (r#"{"kind":"Event","verb":"create"}"#, b"ventName\"", None),
        ] {
            let got = value_after(record.as_bytes(), key).map(|v| String::from_utf8_lossy(v).into_owned());
            assert_eq!(got.as_deref(), want, "{record}");
        }
    }

    #[test]
    fn no_cloud_claims_a_kubernetes_event() {
        let event = br#"{"kind":"Event","verb":"create"}"#;
        assert!(crate::cloud_audit::dialect::claim(super::super::DIALECTS, event).is_none());
    }
}
