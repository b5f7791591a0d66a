//! The one reader of every duration flag: a Go duration (`30s`, `1m30s`, `1h`) or a bare number
//! of seconds, as kubectl's `--request-timeout` takes it; never negative. What a flag may not be
//! (zero, for a timeout or an interval) and how its refusal names the value differ by flag, so
//! each flag's value parser is one line below over [`read`].

use std::time::Duration;

/// What one kind of duration flag accepts, and how its refusals name the value.
struct Rule {
    /// The value, as a refusal names it ("the timeout").
    what: &'static str,
    /// Whether zero is a value (kubectl's "no timeout", "everything", "off").
    zero: bool,
}

/// Reads `s` as `rule` allows.
fn read(s: &str, rule: Rule) -> Result<Duration, String> {
    let nanos = if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) {
        s.parse::<i64>().map_err(|e| e.to_string())?.saturating_mul(1_000_000_000)
    } else {
        let examples = if rule.zero { "0, 30, 30s, 1m" } else { "30, 90s, 5m, 1h" };
        upjet_core::goduration::parse_go_duration(s)
            .ok_or_else(|| format!("{s:?} is not a duration (examples: {examples})"))?
    };
    if nanos < 0 {
        return Err(format!("{} must not be negative", rule.what));
    }
    if nanos == 0 && !rule.zero {
        return Err(format!("{} must be more than zero (examples: 30s, 5m)", rule.what));
    }
    Ok(Duration::from_nanos(nanos as u64))
}

/// kubectl's `--request-timeout`: `0` means none.
pub(super) fn request_timeout(s: &str) -> Result<Duration, String> {
    read(s, Rule { what: "the timeout", zero: true })
}

/// `--since`, `--retry-budget`, `--discovery-cache-ttl`: `0` means all, or off.
pub(super) fn duration(s: &str) -> Result<Duration, String> {
    read(s, Rule { what: "the duration", zero: true })
}

/// A wait or a reconcile timeout (`adopt --timeout`, `promote --timeout`, `migrate apply
/// --timeout`, `--create-timeout`): something always gets some time.
pub(super) fn timeout(s: &str) -> Result<Duration, String> {
    read(s, Rule { what: "the timeout", zero: false })
}

/// How often something repeats (`watch --resync`): zero would spin.
pub(super) fn interval(s: &str) -> Result<Duration, String> {
    read(s, Rule { what: "the interval", zero: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_duration_flag_reads_the_same_forms_and_refuses_what_its_flag_cannot_be() {
        let secs = |n| Ok(Duration::from_secs(n));
        for parse in [request_timeout, duration, timeout, interval] {
            assert_eq!(parse("45"), secs(45));
            assert_eq!(parse("1m30s"), secs(90));
            assert!(parse("soon").unwrap_err().contains("is not a duration"));
            assert!(parse("-3s").unwrap_err().contains("must not be negative"));
        }
        assert_eq!(request_timeout("0"), secs(0));
        assert_eq!(duration("0s"), secs(0));
        assert_eq!(timeout("0").unwrap_err(), "the timeout must be more than zero (examples: 30s, 5m)");
        assert_eq!(interval("0s").unwrap_err(), "the interval must be more than zero (examples: 30s, 5m)");
    }
}
