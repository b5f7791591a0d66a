//! Small self-contained helpers (time, base64, uids, JSON patches) so the crate
//! needs no extra dependencies.

use serde_json::{Map, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Serializes a JSON value through serde_json's own (optimized) `Display`
/// instantiation: ~10x faster than a generic `to_vec` compiled at opt-level 0.
pub(crate) fn to_json(v: &Value) -> Vec<u8> {
    v.to_string().into_bytes()
}

/// Parses JSON through serde_json's `FromStr` (optimized, see [`to_json`]).
pub(crate) fn parse_json(b: &[u8]) -> Result<Value, String> {
    std::str::from_utf8(b).map_err(|e| e.to_string())?.parse::<Value>().map_err(|e| e.to_string())
}

/// Seconds and nanoseconds since the Unix epoch.
pub(crate) fn now() -> (i64, u32) {
    let d = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    (d.as_secs() as i64, d.subsec_nanos())
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// RFC 3339 in UTC, seconds precision (`metav1.Time`), or nanoseconds (kubelet log lines).
pub(crate) fn format_rfc3339(secs: i64, nanos: Option<u32>) -> String {
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    let (y, mo, d) = civil_from_days(days);
    let (h, mi, s) = (rem / 3600, (rem % 3600) / 60, rem % 60);
    match nanos {
        None => format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
        Some(n) => format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{n:09}Z"),
    }
}

/// Current time as `metav1.Time`.
pub(crate) fn now_rfc3339() -> String {
    format_rfc3339(now().0, None)
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
pub(crate) fn parse_rfc3339(s: &str) -> Option<(i64, u32)> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || (b[10] != b'T' && b[10] != b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> { s.get(r)?.parse::<i64>().ok() };
    let (y, mo, d) = (num(0..4)?, num(5..7)? as u32, num(8..10)? as u32);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let mut i = 19;
    let mut nanos: u32 = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let frac = &s[start..i];
        if frac.is_empty() {
            return None;
        }
        let mut padded = frac.chars().take(9).collect::<String>();
        while padded.len() < 9 {
            padded.push('0');
        }
        nanos = padded.parse().ok()?;
    }
    let offset = match b.get(i)? {
        b'Z' | b'z' if i + 1 == b.len() => 0,
        b'+' | b'-' if b.len() == i + 6 && b[i + 3] == b':' => {
            let oh = s.get(i + 1..i + 3)?.parse::<i64>().ok()?;
            let om = s.get(i + 4..i + 6)?.parse::<i64>().ok()?;
            let o = oh * 3600 + om * 60;
            if b[i] == b'+' { o } else { -o }
        }
        _ => return None,
    };
    let secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - offset;
    Some((secs, nanos))
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64 RawURLEncoding, as the apiserver uses for continue tokens.
pub(crate) fn b64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = chunk.len();
        let v =
            (chunk[0] as u32) << 16 | (*chunk.get(1).unwrap_or(&0) as u32) << 8 | *chunk.get(2).unwrap_or(&0) as u32;
        for k in 0..=n {
            out.push(B64[((v >> (18 - 6 * k)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64 (URL or standard alphabet, padding optional).
pub(crate) fn b64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            b'=' => break,
            _ => return None,
        } as u32;
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

static RNG: AtomicU64 = AtomicU64::new(0);

/// splitmix64 seeded from the clock: unique enough for uids and generateName.
pub(crate) fn random_u64() -> u64 {
    if RNG.load(Ordering::Relaxed) == 0 {
        let (s, n) = now();
        let _ = RNG.compare_exchange(
            0,
            (s as u64) << 30 ^ n as u64 ^ std::process::id() as u64,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }
    let mut z = RNG.fetch_add(0x9E3779B97F4A7C15, Ordering::Relaxed).wrapping_add(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    z ^ (z >> 31)
}

/// A random UUID v4 string, like `metadata.uid`.
pub(crate) fn new_uid() -> String {
    let a = random_u64();
    let b = random_u64();
    let bytes: Vec<u8> = a.to_be_bytes().into_iter().chain(b.to_be_bytes()).collect();
    let mut h = String::with_capacity(36);
    for (i, byte) in bytes.iter().enumerate() {
        let byte = match i {
            6 => (byte & 0x0f) | 0x40,
            8 => (byte & 0x3f) | 0x80,
            _ => *byte,
        };
        if matches!(i, 4 | 6 | 8 | 10) {
            h.push('-');
        }
        h.push_str(&format!("{byte:02x}"));
    }
    h
}

/// Five random lowercase alphanumerics, as the apiserver appends for `generateName`.
pub(crate) fn random_suffix() -> String {
    const ALPHA: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut r = random_u64();
    (0..5)
        .map(|_| {
            let c = ALPHA[(r % ALPHA.len() as u64) as usize] as char;
            r /= ALPHA.len() as u64;
            c
        })
        .collect()
}

/// RFC 7386 JSON merge patch.
pub(crate) fn merge_patch(target: &mut Value, patch: &Value) {
    if let Value::Object(p) = patch {
        if !target.is_object() {
            *target = Value::Object(Map::new());
        }
        let t = target.as_object_mut().expect("object");
        for (k, v) in p {
            if v.is_null() {
                t.remove(k);
            } else {
                merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
    } else {
        *target = patch.clone();
    }
}

/// Why a JSON patch could not be applied.
#[derive(Debug)]
pub(crate) enum PatchError {
    /// The patch document itself is malformed (400 BadRequest).
    Malformed(String),
    /// The patch could not be applied to the object, including failed `test` ops (422).
    Apply(String),
}

fn unescape(tok: &str) -> String {
    tok.replace("~1", "/").replace("~0", "~")
}

fn split_pointer(path: &str) -> Result<Vec<String>, PatchError> {
    if path.is_empty() {
        return Ok(vec![]);
    }
    if !path.starts_with('/') {
        return Err(PatchError::Malformed(format!("invalid JSON pointer: {path:?}")));
    }
    Ok(path[1..].split('/').map(unescape).collect())
}

fn resolve<'a>(doc: &'a mut Value, toks: &[String], path: &str, op: &str) -> Result<&'a mut Value, PatchError> {
    let mut cur = doc;
    for t in toks {
        cur = match cur {
            Value::Object(m) => m.get_mut(t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(move |i| a.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| {
            PatchError::Apply(format!("{op} operation does not apply: doc is missing path: \"{path}\": missing value"))
        })?;
    }
    Ok(cur)
}

fn get_at(doc: &mut Value, path: &str, op: &str) -> Result<Value, PatchError> {
    let toks = split_pointer(path)?;
    Ok(resolve(doc, &toks, path, op)?.clone())
}

fn remove_at(doc: &mut Value, path: &str, op: &str) -> Result<Value, PatchError> {
    let toks = split_pointer(path)?;
    let Some((last, parent)) = toks.split_last() else {
        return Ok(std::mem::take(doc));
    };
    let missing =
        || PatchError::Apply(format!("{op} operation does not apply: doc is missing key: {path}: missing value"));
    match resolve(doc, parent, path, op)? {
        Value::Object(m) => m.remove(last).ok_or_else(missing),
        Value::Array(a) => {
            let i = last.parse::<usize>().map_err(|_| missing())?;
            if i >= a.len() {
                return Err(missing());
            }
            Ok(a.remove(i))
        }
        _ => Err(missing()),
    }
}

fn add_at(doc: &mut Value, path: &str, val: Value, replace: bool) -> Result<(), PatchError> {
    let op = if replace { "replace" } else { "add" };
    let toks = split_pointer(path)?;
    let Some((last, parent)) = toks.split_last() else {
        *doc = val;
        return Ok(());
    };
    let missing =
        || PatchError::Apply(format!("{op} operation does not apply: doc is missing path: \"{path}\": missing value"));
    match resolve(doc, parent, path, op)? {
        Value::Object(m) => {
            if replace && !m.contains_key(last) {
                return Err(PatchError::Apply(format!(
                    "replace operation does not apply: doc is missing key: {path}: missing value"
                )));
            }
            m.insert(last.clone(), val);
        }
        Value::Array(a) => {
            if last == "-" && !replace {
                a.push(val);
            } else {
                let i = last.parse::<usize>().map_err(|_| missing())?;
                if replace {
                    *a.get_mut(i).ok_or_else(missing)? = val;
                } else if i <= a.len() {
                    a.insert(i, val);
                } else {
                    return Err(PatchError::Apply(format!(
                        "add operation does not apply: doc is missing path: \"{path}\": invalid index: {i}"
                    )));
                }
            }
        }
        _ => return Err(missing()),
    }
    Ok(())
}

/// RFC 6902 JSON patch (add, remove, replace, move, copy, test).
pub(crate) fn json_patch(doc: &mut Value, patch: &Value) -> Result<(), PatchError> {
    let ops = patch.as_array().ok_or_else(|| {
        PatchError::Malformed("json: cannot unmarshal object into Go value of type jsonpatch.Patch".into())
    })?;
    for op in ops {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("");
        let path = op.get("path").and_then(Value::as_str).ok_or_else(|| {
            PatchError::Apply(format!("{kind} operation does not apply: doc is missing path: \"\": missing value"))
        })?;
        let value = || {
            op.get("value")
                .cloned()
                .ok_or_else(|| PatchError::Apply(format!("{kind} operation does not apply: missing value")))
        };
        let from = || {
            op.get("from")
                .and_then(Value::as_str)
                .ok_or_else(|| PatchError::Apply(format!("{kind} operation does not apply: missing from")))
        };
        match kind {
            "add" => add_at(doc, path, value()?, false)?,
            "replace" => add_at(doc, path, value()?, true)?,
            "remove" => {
                remove_at(doc, path, "remove")?;
            }
            "move" => {
                let v = remove_at(doc, from()?, "move")?;
                add_at(doc, path, v, false)?;
            }
            "copy" => {
                let v = get_at(doc, from()?, "copy")?;
                add_at(doc, path, v, false)?;
            }
            "test" => {
                let want = value()?;
                let toks = split_pointer(path)?;
                let got = resolve(doc, &toks, path, "test").ok().cloned();
                if got.as_ref() != Some(&want) && !(got.is_none() && want.is_null()) {
                    return Err(PatchError::Apply(format!("testing value {path} failed: test failed")));
                }
            }
            other => return Err(PatchError::Malformed(format!("Unexpected kind: {other}"))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn time_roundtrip() {
        let s = format_rfc3339(1_700_000_000, None);
        assert_eq!(s, "2023-11-14T22:13:20Z");
        assert_eq!(parse_rfc3339(&s), Some((1_700_000_000, 0)));
        assert_eq!(parse_rfc3339("2023-11-14T23:13:20.5+01:00"), Some((1_700_000_000, 500_000_000)));
        assert_eq!(format_rfc3339(0, Some(5)), "1970-01-01T00:00:00.000000005Z");
    }

    #[test]
    fn base64_roundtrip() {
        for s in ["", "a", "ab", "abc", "abcd", "{\"rv\":12,\"start\":\"x\\u0000\"}"] {
            assert_eq!(b64_decode(&b64_encode(s.as_bytes())).unwrap(), s.as_bytes());
        }
    }

    #[test]
    fn uid_shape() {
        let u = new_uid();
        assert_eq!(u.len(), 36);
        assert_ne!(u, new_uid());
    }

    #[test]
    fn patches() {
        let mut d = json!({"a": {"b": 1, "c": [1, 2]}});
        merge_patch(&mut d, &json!({"a": {"b": null, "d": "x"}}));
        assert_eq!(d, json!({"a": {"c": [1, 2], "d": "x"}}));
        json_patch(&mut d, &json!([{"op": "add", "path": "/a/c/-", "value": 3}, {"op": "test", "path": "/a/d", "value": "x"}, {"op": "move", "from": "/a/d", "path": "/e"}])).unwrap();
        assert_eq!(d, json!({"a": {"c": [1, 2, 3]}, "e": "x"}));
        assert!(matches!(
            json_patch(&mut d, &json!([{"op": "test", "path": "/e", "value": "y"}])),
            Err(PatchError::Apply(_))
        ));
        assert!(matches!(
            json_patch(&mut d, &json!([{"op": "replace", "path": "/zz", "value": 1}])),
            Err(PatchError::Apply(_))
        ));
    }
}
