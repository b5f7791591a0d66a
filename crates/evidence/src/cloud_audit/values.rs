//! The parts of a record every cloud's decoder needs: request and response bodies flattened into
//! bounded scalars, the crossplane tags found in them, shared strings, and time stamps in any zone.

use serde_json::Value;
use upjet_core::cloud_audit::{CrossplaneTags, Interner, Param};
use upjet_core::gotime::GoTime;

/// At most this many scalars are kept of one request or response: creates carry a few dozen;
/// a bulk call's thousands would only cost memory.
const MAX_PARAMS: usize = 64;
/// Longer values (policy documents, certificates, user data) are no IDs or names.
const MAX_VALUE: usize = 512;
/// Deeper nesting is no field an MR maps.
const MAX_DEPTH: usize = 12;

/// Flattens a request or response body (JSON; a JSON string holding JSON, as Athena and Azure
/// store them, is read through) into `out`, recording the crossplane tags it sets.
pub(super) fn flatten(raw: &str, intern: &mut Interner, out: &mut Vec<Param>, tags: &mut CrossplaneTags) {
    let Ok(mut v) = serde_json::from_str::<Value>(raw) else { return };
    if let Value::String(s) = &v {
        match serde_json::from_str::<Value>(s) {
            Ok(inner) => v = inner,
            Err(_) => return,
        }
    }
    let mut path = String::new();
    walk(&v, &mut path, 0, intern, out, tags);
}

fn walk(
    v: &Value,
    path: &mut String,
    depth: usize,
    intern: &mut Interner,
    out: &mut Vec<Param>,
    tags: &mut CrossplaneTags,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(map) => {
            tag_pair(map, tags);
            for (k, child) in map {
                if k == "@type" {
                    continue;
                }
                if let (true, Value::String(s)) = (CrossplaneTags::is_crossplane_key(k), child) {
                    tags.set(k, s);
                }
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                walk(child, path, depth + 1, intern, out, tags);
                path.truncate(len);
            }
        }
        Value::Array(items) => {
            let len = path.len();
            path.push_str("[]");
            for item in items {
                walk(item, path, depth + 1, intern, out, tags);
            }
            path.truncate(len);
        }
        Value::String(s) => push(path, s, intern, out),
        Value::Number(n) => push(path, &n.to_string(), intern, out),
        Value::Bool(b) => push(path, if *b { "true" } else { "false" }, intern, out),
        Value::Null => {}
    }
}

fn push(path: &str, value: &str, intern: &mut Interner, out: &mut Vec<Param>) {
    if out.len() < MAX_PARAMS && !value.is_empty() && value.len() <= MAX_VALUE {
        out.push(Param { path: intern.get(path), value: intern.get(value) });
    }
}

/// A `{"key": …, "value": …}` pair (AWS `Tags`, `tagSpecificationSet`, any casing; KMS's
/// `TagKey`/`TagValue`) setting a crossplane tag.
fn tag_pair(map: &serde_json::Map<String, Value>, tags: &mut CrossplaneTags) {
    let field = |names: [&str; 2]| {
        map.iter().find(|(k, _)| names.iter().any(|n| k.eq_ignore_ascii_case(n))).and_then(|(_, v)| v.as_str())
    };
    if let (Some(k), Some(v)) = (field(["key", "tagKey"]), field(["value", "tagValue"]))
        && CrossplaneTags::is_crossplane_key(k)
    {
        tags.set(k, v);
    }
}

/// A time stamp in any zone (`2024-11-30T10:00:00Z`, `…-08:00`, nanoseconds), or as CloudTrail
/// Lake and Athena print it (`2024-11-30 10:00:00.000`, UTC without a zone), or epoch seconds
/// (`lookup-events` from AWS CLI v1: `1525106994.0`).
pub(super) fn parse_time(raw: &str) -> Option<GoTime> {
    let s = raw.trim().trim_matches('"');
    if let Some(t) = GoTime::parse_rfc3339(s) {
        return Some(t);
    }
    if let Ok(secs) = s.parse::<f64>() {
        return (secs.is_finite() && secs > 0.0 && secs < 1e11)
            .then(|| GoTime::from_unix(secs.trunc() as i64, (secs.fract() * 1e9) as u32));
    }
    let t = s.replacen(' ', "T", 1);
    GoTime::parse_rfc3339(&t).or_else(|| GoTime::parse_rfc3339(&format!("{t}Z")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_flatten_with_tags_in_every_shape() {
        let mut i = Interner::default();
        let (mut out, mut tags) = (Vec::new(), CrossplaneTags::default());
        let body = r#"{"cidrBlock":"10.0.0.0/16","tagSpecificationSet":{"items":[{"resourceType":"vpc","tags":[{"key":"crossplane-name","value":"core"},{"Key":"crossplane-kind","Value":"vpc.ec2.aws.upbound.io"}]}]},"labels":{"crossplane-namespace":"team-a"},"Tags":[{"TagKey":"crossplane-providerconfig","TagValue":"default"}],"n":3,"big":false,"@type":"x"}"#;
        flatten(body, &mut i, &mut out, &mut tags);
        let got: Vec<(String, String)> = out.iter().map(|p| (p.path.to_string(), p.value.to_string())).collect();
        assert!(got.contains(&("cidrBlock".into(), "10.0.0.0/16".into())));
        assert!(got.contains(&("tagSpecificationSet.items[].tags[].value".into(), "core".into())));
        assert!(got.contains(&("n".into(), "3".into())) && got.contains(&("big".into(), "false".into())));
        assert!(!got.iter().any(|(p, _)| p == "@type"));
        assert_eq!(
            (tags.name.as_deref(), tags.kind.as_deref(), tags.namespace.as_deref()),
            (Some("core"), Some("vpc.ec2.aws.upbound.io"), Some("team-a"))
        );
        assert_eq!(tags.provider_config.as_deref(), Some("default"), "KMS's TagKey/TagValue");
        let (mut out, mut tags) = (Vec::new(), CrossplaneTags::default());
        flatten(
            r#""{\"location\":\"westeurope\",\"tags\":{\"crossplane-name\":\"hub\"}}""#,
            &mut i,
            &mut out,
            &mut tags,
        );
        assert_eq!(tags.name.as_deref(), Some("hub"), "a JSON string holding JSON (Azure requestbody)");
        let (mut out, mut tags) = (Vec::new(), CrossplaneTags::default());
        flatten("not json", &mut i, &mut out, &mut tags);
        flatten("null", &mut i, &mut out, &mut tags);
        assert!(out.is_empty());
    }

    #[test]
    fn times_in_any_zone_and_form() {
        let utc = GoTime::parse_rfc3339("2021-11-18T17:41:02Z");
        for s in [
            "2021-11-18T09:41:02-08:00",
            "2021-11-18T17:41:02Z",
            "2021-11-18 17:41:02",
            "\"2021-11-18T19:41:02+02:00\"",
            "1637257262.0",
            "1637257262",
        ] {
            assert_eq!(parse_time(s), utc, "{s}");
        }
        assert_eq!(parse_time("2018-01-29T20:42:31.3810679Z").map(|t| t.unix_secs()), Some(1517258551));
        assert_eq!(parse_time("yesterday"), None);
        assert_eq!(parse_time("NaN"), None);
    }
}
