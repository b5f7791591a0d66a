//! Timestamps exactly as Go's `time.Parse(time.RFC3339, s)` reads them.
//!
//! crossplane-runtime decides whether a creation is incomplete by parsing the three
//! `crossplane.io/external-create-*` annotations with Go's parser and silently turning any value it
//! rejects into the zero time. A diagnosis that parsed more leniently (chrono accepts a lowercase
//! `t`, a space separator and leap seconds; Go does not) or more strictly (Go accepts a one-digit
//! hour and a comma before fractional seconds) would disagree with the reconciler about which MRs are
//! blocked, so this module reproduces Go's accept/reject rules and its nanosecond value exactly.
//!
//! Provider log timestamps go through `evidence/logs/time.rs` instead, because logs need the
//! lenient encodings shippers emit (epoch floats, `+0200` offsets) at line speed, not Go's rules.

use std::cmp::Ordering;
use std::fmt;

/// An instant with Go's semantics: seconds since the Unix epoch plus nanoseconds, where the
/// "zero time" (January 1, year 1, 00:00:00 UTC) is what a missing or unparsable value becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoTime {
    unix_secs: i64,
    nanos: u32,
}

/// Seconds from 0001-01-01T00:00:00Z to the Unix epoch, negated: Go's zero `time.Time`.
const ZERO_UNIX_SECS: i64 = -62_135_596_800;

impl GoTime {
    /// Go's zero time, the value `time.Parse` failures turn into in crossplane-runtime.
    pub const ZERO: GoTime = GoTime { unix_secs: ZERO_UNIX_SECS, nanos: 0 };

    /// Builds an instant from Unix seconds and nanoseconds (tests, clocks, log timestamps).
    pub fn from_unix(unix_secs: i64, nanos: u32) -> Self {
        GoTime { unix_secs, nanos: nanos.min(999_999_999) }
    }

    /// Go's `Time.IsZero`.
    pub fn is_zero(&self) -> bool {
        *self == GoTime::ZERO
    }

    /// Go's `Time.After`: strictly later, nanoseconds included.
    pub fn after(&self, other: &GoTime) -> bool {
        self.cmp(other) == Ordering::Greater
    }

    /// Go's `Time.Before`.
    pub fn before(&self, other: &GoTime) -> bool {
        self.cmp(other) == Ordering::Less
    }

    /// Seconds since the Unix epoch (may be negative).
    pub fn unix_secs(&self) -> i64 {
        self.unix_secs
    }

    /// Go's `Time.Add` for whole seconds (deadlines such as upjet's one-hour async timeout).
    pub fn add_secs(&self, secs: i64) -> GoTime {
        GoTime { unix_secs: self.unix_secs.saturating_add(secs), nanos: self.nanos }
    }

    /// Go's `later.Sub(self)`: the nanoseconds between the two, clamped to the range of a Go
    /// `time.Duration` as Go clamps it (a zero time against today does not overflow).
    pub fn nanos_until(&self, later: &GoTime) -> i64 {
        let at = |t: &GoTime| i128::from(t.unix_secs) * 1_000_000_000 + i128::from(t.nanos);
        (at(later) - at(self)).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }

    /// `time.Parse(time.RFC3339, s)` as crossplane-runtime uses it: `None` where Go returns an error.
    pub fn parse_rfc3339(s: &str) -> Option<GoTime> {
        parse_rfc3339_fast(s.as_bytes()).or_else(|| parse_rfc3339_layout(s.as_bytes()))
    }

    /// The annotation reading crossplane-runtime does: a value Go cannot parse is the zero time.
    pub fn parse_or_zero(s: Option<&str>) -> GoTime {
        s.and_then(GoTime::parse_rfc3339).unwrap_or(GoTime::ZERO)
    }
}

impl Ord for GoTime {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.unix_secs, self.nanos).cmp(&(other.unix_secs, other.nanos))
    }
}

impl PartialOrd for GoTime {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for GoTime {
    /// Formats as RFC3339 in UTC, the way `kubectl` shows times.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = self.unix_secs.div_euclid(86_400);
        let rem = self.unix_secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        write!(f, "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60)?;
        if self.nanos != 0 {
            let frac = format!("{:09}", self.nanos);
            write!(f, ".{}", frac.trim_end_matches('0'))?;
        }
        f.write_str("Z")
    }
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn digits(b: &[u8]) -> Option<i64> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0')))
}

/// Go's `parseNanoseconds`: `frac` starts with the separator and holds at least one digit;
/// digits beyond the ninth are ignored.
fn nanos_of(frac: &[u8]) -> u32 {
    let mut ns: u32 = 0;
    let mut scale = 0;
    for &c in frac[1..].iter().take(9) {
        ns = ns * 10 + u32::from(c - b'0');
        scale += 1;
    }
    ns * 10u32.pow(9 - scale)
}

fn assemble(year: i64, month: i64, day: i64, hms: (i64, i64, i64), nanos: u32, offset: i64) -> GoTime {
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hms.0 * 3600 + hms.1 * 60 + hms.2 - offset;
    GoTime { unix_secs: secs, nanos }
}

/// Go's `parseRFC3339` fast path (time/format_rfc3339.go), tried first by `time.Parse`.
fn parse_rfc3339_fast(s: &[u8]) -> Option<GoTime> {
    if s.len() < 19 {
        return None;
    }
    let year = digits(&s[0..4])?;
    let month = digits(&s[5..7]).filter(|m| (1..=12).contains(m))?;
    let day = digits(&s[8..10]).filter(|d| (1..=days_in(month, year)).contains(d))?;
    let hour = digits(&s[11..13]).filter(|h| (0..=23).contains(h))?;
    let min = digits(&s[14..16]).filter(|m| (0..=59).contains(m))?;
    let sec = digits(&s[17..19]).filter(|m| (0..=59).contains(m))?;
    if !(s[4] == b'-' && s[7] == b'-' && s[10] == b'T' && s[13] == b':' && s[16] == b':') {
        return None;
    }
    let mut rest = &s[19..];
    let mut nanos = 0;
    if rest.len() >= 2 && rest[0] == b'.' && rest[1].is_ascii_digit() {
        let n = 1 + rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        nanos = nanos_of(&rest[..n]);
        rest = &rest[n..];
    }
    let offset = if rest == b"Z" {
        0
    } else {
        if rest.len() != 6 {
            return None;
        }
        let hr = digits(&rest[1..3]).filter(|h| (0..=23).contains(h))?;
        let mm = digits(&rest[4..6]).filter(|m| (0..=59).contains(m))?;
        if !((rest[0] == b'-' || rest[0] == b'+') && rest[3] == b':') {
            return None;
        }
        let off = (hr * 60 + mm) * 60;
        if rest[0] == b'-' { -off } else { off }
    };
    Some(assemble(year, month, day, (hour, min, sec), nanos, offset))
}

/// Go's general layout parser for the layout "2006-01-02T15:04:05Z07:00", the fallback
/// `time.Parse` uses when the fast path fails. It is more lenient: the hour may have one digit,
/// fractional seconds may follow a comma, and zone offsets up to 24:60 pass the range check.
fn parse_rfc3339_layout(s: &[u8]) -> Option<GoTime> {
    let mut v = s;
    // "2006": exactly four characters, the first a digit, parsed by atoi (sign allowed after the first).
    if v.len() < 4 || !v[0].is_ascii_digit() {
        return None;
    }
    let year = digits(&v[..4])?;
    v = expect(&v[4..], b"-")?;
    let (month, r) = fixed2(v)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    v = expect(r, b"-")?;
    let (day, r) = fixed2(v)?;
    v = expect(r, b"T")?;
    let (hour, r) = getnum_loose(v)?;
    if !(0..24).contains(&hour) {
        return None;
    }
    v = expect(r, b":")?;
    let (min, r) = fixed2(v)?;
    if !(0..60).contains(&min) {
        return None;
    }
    v = expect(r, b":")?;
    let (sec, r) = fixed2(v)?;
    if !(0..60).contains(&sec) {
        return None;
    }
    v = r;
    let mut nanos = 0;
    if v.len() >= 2 && (v[0] == b'.' || v[0] == b',') && v[1].is_ascii_digit() {
        let n = 1 + v[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        nanos = nanos_of(&v[..n]);
        v = &v[n..];
    }
    let offset;
    if v.first() == Some(&b'Z') {
        offset = 0;
        v = &v[1..];
    } else {
        if v.len() < 6 || v[3] != b':' {
            return None;
        }
        let hr = digits(&v[1..3])?;
        let mm = digits(&v[4..6])?;
        if hr > 24 || mm > 60 {
            return None;
        }
        let off = (hr * 60 + mm) * 60;
        offset = match v[0] {
            b'+' => off,
            b'-' => -off,
            _ => return None,
        };
        v = &v[6..];
    }
    if !v.is_empty() {
        return None;
    }
    if day < 1 || day > days_in(month, year) {
        return None;
    }
    Some(assemble(year, month, day, (hour, min, sec), nanos, offset))
}

fn expect<'a>(v: &'a [u8], lit: &[u8]) -> Option<&'a [u8]> {
    v.strip_prefix(lit)
}

/// Go's `getnum(s, true)`: exactly two digits.
fn fixed2(v: &[u8]) -> Option<(i64, &[u8])> {
    if v.len() < 2 || !v[0].is_ascii_digit() || !v[1].is_ascii_digit() {
        return None;
    }
    Some((digits(&v[..2])?, &v[2..]))
}

/// Go's `getnum(s, false)`: one or two digits.
fn getnum_loose(v: &[u8]) -> Option<(i64, &[u8])> {
    if v.is_empty() || !v[0].is_ascii_digit() {
        return None;
    }
    if v.len() >= 2 && v[1].is_ascii_digit() {
        Some((digits(&v[..2])?, &v[2..]))
    } else {
        Some((i64::from(v[0] - b'0'), &v[1..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Option<String> {
        GoTime::parse_rfc3339(s).map(|t| format!("{t}"))
    }

    #[test]
    fn accepts_and_rejects_like_go() {
        let cases: &[(&str, Option<&str>)] = &[
            ("2024-11-30T10:53:06Z", Some("2024-11-30T10:53:06Z")),
            ("2024-11-30T10:53:06+02:00", Some("2024-11-30T08:53:06Z")),
            ("2024-11-30T10:53:06-05:30", Some("2024-11-30T16:23:06Z")),
            ("2024-11-30T10:53:06.5Z", Some("2024-11-30T10:53:06.5Z")),
            ("2024-11-30T10:53:06.123456789123Z", Some("2024-11-30T10:53:06.123456789Z")),
            // Go's general parser: one-digit hour, comma fraction, offsets up to 24:60.
            ("2024-11-30T1:53:06Z", Some("2024-11-30T01:53:06Z")),
            ("2024-11-30T10:53:06,25Z", Some("2024-11-30T10:53:06.25Z")),
            ("2024-11-30T10:53:06+24:00", Some("2024-11-29T10:53:06Z")),
            ("2024-02-29T00:00:00Z", Some("2024-02-29T00:00:00Z")),
            ("0001-01-01T00:00:00Z", Some("0001-01-01T00:00:00Z")),
            // Rejected by Go.
            ("2023-02-29T00:00:00Z", None),
            ("2024-11-30t10:53:06Z", None),
            ("2024-11-30 10:53:06Z", None),
            ("2024-11-30T10:53:06z", None),
            ("2024-11-30T10:53:06", None),
            ("2024-11-30T10:53:60Z", None),
            ("2024-11-30T24:00:00Z", None),
            ("2024-13-01T00:00:00Z", None),
            ("2024-11-30T10:53:06+0200", None),
            ("2024-11-30T10:53:06+25:00", None),
            ("2024-11-30T10:53:06.Z", None),
            ("2024-11-30T10:53:06Z ", None),
            ("1732963986", None),
            ("", None),
            ("Sat, 30 Nov 2024 10:53:06 GMT", None),
            ("2024-11-30T10:53:06.999999999999999999999Z", Some("2024-11-30T10:53:06.999999999Z")),
        ];
        for (input, want) in cases {
            assert_eq!(t(input).as_deref(), *want, "input {input:?}");
        }
    }

    #[test]
    fn zero_and_ordering() {
        assert!(GoTime::parse_or_zero(None).is_zero());
        assert!(GoTime::parse_or_zero(Some("garbage")).is_zero());
        assert!(GoTime::parse_or_zero(Some("0001-01-01T00:00:00Z")).is_zero());
        let a = GoTime::parse_or_zero(Some("2024-11-30T10:53:06Z"));
        let b = GoTime::parse_or_zero(Some("2024-11-30T12:53:06+02:00"));
        assert_eq!(a, b, "same instant in different offsets");
        assert!(!a.after(&b));
        let c = GoTime::parse_or_zero(Some("2024-11-30T10:53:06.000000001Z"));
        assert!(c.after(&a), "Go compares nanoseconds");
        let year0 = GoTime::parse_or_zero(Some("0000-01-01T00:00:00Z"));
        assert!(year0.before(&GoTime::ZERO) && !year0.is_zero());
    }
}
