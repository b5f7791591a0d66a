//! Durations exactly as Go's `time.ParseDuration` reads them.
//!
//! crossplane-runtime (v2.3+) reads `crossplane.io/poll-interval` with `time.ParseDuration` and
//! ignores a value it rejects or one that is not positive. Reporting a bad poll interval is only
//! useful if this agrees with Go on every input, so the grammar
//! `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` and its overflow rules are reproduced here.

/// Parses a Go duration into nanoseconds; `None` where Go returns an error.
pub fn parse_go_duration(input: &str) -> Option<i64> {
    let mut s = input.as_bytes();
    let mut neg = false;
    if let Some(&c) = s.first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        s = &s[1..];
    }
    if s == b"0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return None;
        }
        let int_len = s.iter().take_while(|c| c.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &c in &s[..int_len] {
            v = v.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
            if v > 1 << 63 {
                return None;
            }
        }
        s = &s[int_len..];
        let pre = int_len > 0;
        let (mut frac, mut scale, mut post) = (0u64, 1f64, false);
        if s.first() == Some(&b'.') {
            s = &s[1..];
            let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
            let mut overflow = false;
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
            post = n > 0;
            s = &s[n..];
        }
        if !pre && !post {
            return None;
        }
        let unit_len = s.iter().take_while(|&&c| !(c == b'.' || c.is_ascii_digit())).count();
        if unit_len == 0 {
            return None;
        }
        let unit: u64 = match &s[..unit_len] {
            b"ns" => 1,
            b"us" | [0xc2, 0xb5, b's'] | [0xce, 0xbc, b's'] => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => return None,
        };
        s = &s[unit_len..];
        if v > (1 << 63) / unit {
            return None;
        }
        v *= unit;
        if frac > 0 {
            v += (frac as f64 * (unit as f64 / scale)) as u64;
            if v > 1 << 63 {
                return None;
            }
        }
        total = total.checked_add(v)?;
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

#[cfg(test)]
mod tests {
    use super::parse_go_duration;

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
            ("1h1", None),
        ];
        for (input, want) in cases {
            assert_eq!(parse_go_duration(input), *want, "input {input:?}");
        }
    }
}
