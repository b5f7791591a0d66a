//! Durations exactly as Go's `time.ParseDuration` reads them.
//!
//! crossplane-runtime (v2.3+) reads `crossplane.io/poll-interval` with `time.ParseDuration` and
//! ignores a value it rejects or one that is not positive. Reporting a bad poll interval is only
//! useful if this agrees with Go on every input, so the grammar
//! `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` and its overflow rules are reproduced here.

/// Parses a Go duration into nanoseconds; `None` where Go returns an error.
pub fn parse_go_duration(input: &str) -> Option<i64> {
    let (neg, mut s) = split_sign(input.as_bytes());
    if s == b"0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        let (nanos, rest) = component(s)?;
        s = rest;
        total = total.checked_add(nanos)?;
        if total > 1 << 63 {
            return None;
        }
    }
    if neg {
        Some((total as i128).wrapping_neg() as i64)
    } else if total > i64::MAX as u64 {
        None
    } else {
        Some(total as i64)
    }
}

/// Whole seconds as Go's `time.Duration.String` prints them (`3m0s`, `1h0m30s`, `45s`), so a
/// timeout reads as the provider's own flags and code write it.
pub(crate) fn format_go_secs(secs: i64) -> String {
    let (sign, s) = if secs < 0 { ("-", secs.unsigned_abs()) } else { ("", secs as u64) };
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    match (h, m) {
        (0, 0) => format!("{sign}{s}s"),
        (0, _) => format!("{sign}{m}m{s}s"),
        _ => format!("{sign}{h}h{m}m{s}s"),
    }
}

/// An optional leading `-` or `+`: whether it was `-`, and the rest.
fn split_sign(s: &[u8]) -> (bool, &[u8]) {
    match s.first() {
        Some(&c @ (b'-' | b'+')) => (c == b'-', &s[1..]),
        _ => (false, s),
    }
}

/// One `<number><unit>` component of a non-empty input, in nanoseconds (at most 2^63), and the
/// rest of the input. The loop body of Go's `time.ParseDuration`.
fn component(s: &[u8]) -> Option<(u64, &[u8])> {
    if !(s[0] == b'.' || s[0].is_ascii_digit()) {
        return None;
    }
    let (v, s, pre) = leading_int(s)?;
    let (frac, scale, post, s) = match s.strip_prefix(b".") {
        Some(rest) => leading_fraction(rest),
        None => (0, 1.0, false, s),
    };
    if !pre && !post {
        return None;
    }
    let unit_len = s.iter().take_while(|&&c| !(c == b'.' || c.is_ascii_digit())).count();
    if unit_len == 0 {
        return None;
    }
    let unit = unit_nanos(&s[..unit_len])?;
    if v > (1 << 63) / unit {
        return None;
    }
    let mut v = v * unit;
    if frac > 0 {
        v += (frac as f64 * (unit as f64 / scale)) as u64;
        if v > 1 << 63 {
            return None;
        }
    }
    Some((v, &s[unit_len..]))
}

/// Go's `leadingInt`: the leading digits as a number (`None` above 2^63), the rest, and
/// whether there were any digits.
fn leading_int(s: &[u8]) -> Option<(u64, &[u8], bool)> {
    let int_len = s.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut v: u64 = 0;
    for &c in &s[..int_len] {
        v = v.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
        if v > 1 << 63 {
            return None;
        }
    }
    Some((v, &s[int_len..], int_len > 0))
}

/// Go's `leadingFraction`: the digits after the dot as a number and its scale (digits past
/// overflow are dropped, not an error), whether there were any digits, and the rest.
fn leading_fraction(s: &[u8]) -> (u64, f64, bool, &[u8]) {
    let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
    let (mut frac, mut scale, mut overflow) = (0u64, 1f64, false);
    for &c in &s[..n] {
        if overflow {
            continue;
        }
        if frac > (1 << 63) / 10 {
            overflow = true;
            continue;
        }
        let y = frac * 10 + u64::from(c - b'0');
        if y > 1 << 63 {
            overflow = true;
            continue;
        }
        frac = y;
        scale *= 10.0;
    }
    (frac, scale, n > 0, &s[n..])
}

/// Nanoseconds per unit, for the units Go accepts (`us`, `µs` in both encodings, ...).
fn unit_nanos(unit: &[u8]) -> Option<u64> {
    Some(match unit {
        b"ns" => 1,
        b"us" | [0xc2, 0xb5, b's'] | [0xce, 0xbc, b's'] => 1_000,
        b"ms" => 1_000_000,
        b"s" => 1_000_000_000,
        b"m" => 60_000_000_000,
        b"h" => 3_600_000_000_000,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn whole_seconds_print_as_go_prints_them() {
        for (secs, want) in [
            (0, "0s"),
            (45, "45s"),
            (60, "1m0s"),
            (180, "3m0s"),
            (90, "1m30s"),
            (3600, "1h0m0s"),
            (3630, "1h0m30s"),
            (-60, "-1m0s"),
        ] {
            assert_eq!(format_go_secs(secs), want);
            assert_eq!(parse_go_duration(want), Some(secs * 1_000_000_000), "{want} reads back");
        }
    }

    use super::{format_go_secs, parse_go_duration};

    #[test]
    fn matches_go() {
        let s = 1_000_000_000i64;
        let cases: &[(&str, Option<i64>)] = &[
            ("0", Some(0)),
            ("5s", Some(5 * s)),
            ("1m30s", Some(90 * s)),
            ("1.5h", Some(5400 * s)),
            ("-1s", Some(-s)),
            ("+2m", Some(120 * s)),
            (".5s", Some(s / 2)),
            ("1.s", Some(s)),
            ("100ms", Some(100_000_000)),
            ("10us", Some(10_000)),
            ("10\u{b5}s", Some(10_000)),
            ("10\u{3bc}s", Some(10_000)),
            ("3ns", Some(3)),
            ("", None),
            ("10", None),
            ("s", None),
            (".s", None),
            ("5 s", None),
            ("5S", None),
            ("1d", None),
            ("-", None),
            ("9223372036854775808ns", None),
            ("9223372036854775807ns", Some(i64::MAX)),
            ("-9223372036854775808ns", Some(i64::MIN)),
            ("1h1", None),
        ];
        for (input, want) in cases {
            assert_eq!(parse_go_duration(input), *want, "input {input:?}");
        }
    }
}
