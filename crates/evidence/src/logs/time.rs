//! Timestamp parsing for provider log lines.
//!
//! Hand-written because it runs on every log line (the scanner keeps the
//! earliest/latest time of the whole stream) and must stay far below the cost
//! of a JSON parse. Accepts exactly the encodings controller-runtime/zap and
//! the usual log shippers emit: RFC3339 / ISO8601 (`Z`, `+02:00`, `+0200`),
//! and epoch seconds as a float (`1.6673298543378181e+09`, controller-runtime
//! < v0.14) or integer/float milliseconds and nanoseconds where a shipper uses them.
//!
//! Annotation timestamps go through `domain/gotime.rs` instead, because crossplane-runtime
//! reads them with Go's strict `time.Parse(time.RFC3339, ...)` and a diagnosis must agree with it.

use chrono::{DateTime, NaiveDate, TimeDelta, Utc};

/// Epoch seconds of 2000-01-01T00:00:00Z: anything earlier is not a log timestamp.
const MIN_EPOCH: f64 = 946_684_800.0;
/// Epoch seconds of 2100-01-01T00:00:00Z.
const MAX_EPOCH: f64 = 4_102_444_800.0;

#[inline]
fn d2(b: &[u8], i: usize) -> Option<u32> {
    let a = b.get(i)?.wrapping_sub(b'0');
    let c = b.get(i + 1)?.wrapping_sub(b'0');
    if a > 9 || c > 9 {
        return None;
    }
    Some(a as u32 * 10 + c as u32)
}

/// Parses a complete RFC3339-like token (`2023-10-11T14:05:47Z`,
/// `2024-01-02T03:04:05.123456789Z`, `2024-09-04T11:34:01+02:00`,
/// `2023-10-11T14:05:47.123+0200`). A time without zone is rejected: we never
/// guess a local zone.
pub(crate) fn parse_rfc3339(b: &[u8]) -> Option<DateTime<Utc>> {
    if b.len() < 20 {
        return None;
    }
    let y = d2(b, 0)? * 100 + d2(b, 2)?;
    if b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let mo = d2(b, 5)?;
    let d = d2(b, 8)?;
    let h = d2(b, 11)?;
    let mi = d2(b, 14)?;
    let mut s = d2(b, 17)?;
    let mut i = 19;
    let mut nanos: u32 = 0;
    if i < b.len() && (b[i] == b'.' || b[i] == b',') {
        i += 1;
        let start = i;
        let mut scale = 100_000_000u32;
        while i < b.len() && b[i].is_ascii_digit() {
            if scale > 0 {
                nanos += (b[i] - b'0') as u32 * scale;
                scale /= 10;
            }
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i >= b.len() {
        return None;
    }
    let offset_secs: i64 = match b[i] {
        b'Z' | b'z' => {
            i += 1;
            0
        }
        sign @ (b'+' | b'-') => {
            i += 1;
            let oh = d2(b, i)? as i64;
            i += 2;
            if i < b.len() && b[i] == b':' {
                i += 1;
            }
            let om = if i < b.len() {
                let m = d2(b, i)? as i64;
                i += 2;
                m
            } else {
                0
            };
            if oh > 23 || om > 59 {
                return None;
            }
            let off = oh * 3600 + om * 60;
            if sign == b'+' { off } else { -off }
        }
        _ => return None,
    };
    if i != b.len() {
        return None;
    }
    if s == 60 {
        // Leap second: clamp, Kubernetes components never really emit these.
        s = 59;
        nanos = 999_999_999;
    }
    let naive = NaiveDate::from_ymd_opt(y as i32, mo, d)?.and_hms_nano_opt(h, mi, s, nanos)?;
    let utc = naive.checked_sub_signed(TimeDelta::seconds(offset_secs))?;
    Some(utc.and_utc())
}

/// Converts epoch seconds (float) to a UTC time, rejecting values outside 2000..2100.
pub(crate) fn from_epoch_secs(f: f64) -> Option<DateTime<Utc>> {
    if !f.is_finite() {
        return None;
    }
    let secs_f = if (MIN_EPOCH..MAX_EPOCH).contains(&f) {
        f
    } else if (MIN_EPOCH * 1e3..MAX_EPOCH * 1e3).contains(&f) {
        f / 1e3
    } else if (MIN_EPOCH * 1e9..MAX_EPOCH * 1e9).contains(&f) {
        f / 1e9
    } else {
        return None;
    };
    let secs = secs_f.floor();
    let mut nanos = ((secs_f - secs) * 1e9).round() as i64;
    let mut secs = secs as i64;
    if nanos >= 1_000_000_000 {
        secs += 1;
        nanos -= 1_000_000_000;
    }
    DateTime::from_timestamp(secs, nanos.max(0) as u32)
}

/// Parses an epoch token such as `1.6673298543378181e+09` or `1667329854.3378181`.
pub(crate) fn parse_epoch(b: &[u8]) -> Option<DateTime<Utc>> {
    if b.is_empty() || b.len() > 32 {
        return None;
    }
    if !b[0].is_ascii_digit() {
        return None;
    }
    if !b.iter().all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-')) {
        return None;
    }
    // Integer nanoseconds (Loki) exceed f64 precision but are exact enough for ordering;
    // parse them as integers when possible.
    if b.iter().all(u8::is_ascii_digit) && b.len() == 19 {
        let n: i64 = std::str::from_utf8(b).ok()?.parse().ok()?;
        let t = DateTime::from_timestamp(n.div_euclid(1_000_000_000), n.rem_euclid(1_000_000_000) as u32)?;
        let y = t.timestamp() as f64;
        return (MIN_EPOCH..MAX_EPOCH).contains(&y).then_some(t);
    }
    let f: f64 = std::str::from_utf8(b).ok()?.parse().ok()?;
    from_epoch_secs(f)
}

/// Parses a timestamp token in any supported encoding. Returns the time and
/// whether it was an epoch number.
pub(crate) fn parse_ts_token(b: &[u8]) -> Option<(DateTime<Utc>, bool)> {
    if b.len() >= 20 && b[4] == b'-' {
        return parse_rfc3339(b).map(|t| (t, false));
    }
    parse_epoch(b).map(|t| (t, true))
}

/// Parses a JSON `ts`/`timestamp`/`time` value (number or string).
pub(crate) fn parse_ts_value(v: &serde_json::Value) -> Option<(DateTime<Utc>, bool)> {
    match v {
        serde_json::Value::Number(n) => n.as_f64().and_then(from_epoch_secs).map(|t| (t, true)),
        serde_json::Value::String(s) => parse_ts_token(s.trim().as_bytes()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn rfc3339_variants() {
        let cases: &[(&str, Option<&str>)] = &[
            ("2023-10-11T14:05:47Z", Some("2023-10-11T14:05:47Z")),
            ("2024-01-02T03:04:05.123456789Z", Some("2024-01-02T03:04:05.123456789Z")),
            ("2024-01-02T03:04:05.1234567891234Z", Some("2024-01-02T03:04:05.123456789Z")),
            ("2024-09-04T11:34:01+02:00", Some("2024-09-04T09:34:01Z")),
            ("2023-10-11T14:05:47.123+0200", Some("2023-10-11T12:05:47.123Z")),
            ("2023-10-11T14:05:47-05", Some("2023-10-11T19:05:47Z")),
            ("2023-10-11t14:05:47z", Some("2023-10-11T14:05:47Z")),
            ("2016-12-31T23:59:60Z", Some("2016-12-31T23:59:59.999999999Z")),
            ("2023-10-11T14:05:47", None),
            ("2023-10-11 14:05:47.558", None),
            ("2023-13-11T14:05:47Z", None),
            ("2023-02-30T14:05:47Z", None),
            ("2023-10-11T14:05:47Zjunk", None),
            ("2023-10-11T14:05:47.Z", None),
            ("abcd-10-11T14:05:47Z", None),
            ("", None),
        ];
        for (input, want) in cases {
            assert_eq!(parse_rfc3339(input.as_bytes()), want.map(ts), "input {input:?}");
        }
    }

    #[test]
    fn epoch_variants() {
        let cases: &[(&str, Option<&str>)] = &[
            ("1.6673298543378181e+09", Some("2022-11-01T19:10:54.337818146Z")),
            ("1672390031.2874165", Some("2022-12-30T08:47:11.287416458Z")),
            ("1672390031", Some("2022-12-30T08:47:11Z")),
            ("1672390031287", Some("2022-12-30T08:47:11.287Z")),
            ("1701920269558146862", Some("2023-12-07T03:37:49.558146862Z")),
            ("42", None),
            ("1e+20", None),
            ("-1672390031", None),
            ("NaN", None),
            ("12:30", None),
        ];
        for (input, want) in cases {
            let got = parse_epoch(input.as_bytes());
            match (got, want) {
                (None, None) => {}
                (Some(g), Some(w)) => {
                    let diff = (g - ts(w)).num_microseconds().unwrap().abs();
                    assert!(diff <= 1, "input {input:?}: got {g}, want {w}");
                }
                _ => panic!("input {input:?}: got {got:?}, want {want:?}"),
            }
        }
    }

    #[test]
    fn ts_values() {
        use serde_json::json;
        assert!(!parse_ts_value(&json!("2023-10-11T14:05:47Z")).unwrap().1);
        assert!(parse_ts_value(&json!(1.6673298543378181e9)).unwrap().1);
        assert!(parse_ts_value(&json!(null)).is_none());
        assert!(parse_ts_value(&json!("yesterday")).is_none());
    }
}
