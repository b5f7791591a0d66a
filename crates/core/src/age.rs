//! Ages and durations the way kubectl prints them: `HumanDuration` of k8s.io/apimachinery
//! (`pkg/util/duration`), the format of kubectl's AGE column ("45s", "3m20s", "2h5m", "5d3h",
//! "723d", "2y12d").
//!
//! Users read this plugin's output next to `kubectl get`; an age printed as "17367h20m" where
//! kubectl says "723d" makes the two hard to compare. Only human output uses it: JSON and YAML
//! keep RFC 3339 times and whole seconds, which scripts can compute with.

use super::gotime::GoTime;

const SECOND: i64 = 1_000_000_000;
const MINUTE: i64 = 60 * SECOND;
const HOUR: i64 = 60 * MINUTE;

/// `duration.HumanDuration(d)` for a Go `time.Duration` in nanoseconds: about two significant
/// figures, truncated (never rounded up), so an age never looks older than it is. A duration
/// below -1s (a time in the future beyond clock skew) is `<invalid>`; down to -1s it is `0s`,
/// as upstream tolerates that much skew between machines.
pub fn human_duration(d: i64) -> String {
    // Go truncates `d.Seconds()` toward zero, so -1.9s counts as -1 second: still "0s".
    let seconds = d / SECOND;
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 120 {
        return format!("{seconds}s");
    }
    let minutes = d / MINUTE;
    if minutes < 10 {
        return with_rest(minutes, "m", seconds % 60, "s");
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = d / HOUR;
    if hours < 8 {
        return with_rest(hours, "h", minutes % 60, "m");
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    let days = hours / 24;
    if hours < 24 * 8 {
        return with_rest(days, "d", hours % 24, "h");
    }
    if hours < 24 * 365 * 2 {
        return format!("{days}d");
    }
    if hours < 24 * 365 * 8 {
        return with_rest(days / 365, "y", days % 365, "d");
    }
    format!("{}y", days / 365)
}

/// "3m" or "3m10s": the smaller unit is left out when it is zero.
fn with_rest(big: i64, big_unit: &str, small: i64, small_unit: &str) -> String {
    if small == 0 { format!("{big}{big_unit}") } else { format!("{big}{big_unit}{small}{small_unit}") }
}

/// The age of `since` at `now`, as kubectl's AGE column shows it (`translateTimestampSince`).
pub fn age(since: &GoTime, now: &GoTime) -> String {
    human_duration(since.nanos_until(now))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: i64 = 1_000_000;
    const DAY: i64 = 24 * HOUR;
    const YEAR: i64 = 365 * DAY;

    /// `TestHumanDuration` and `TestHumanDurationBoundaries` of k8s.io/apimachinery
    /// `pkg/util/duration/duration_test.go`, case for case.
    #[test]
    fn matches_upstream_human_duration_cases() {
        let cases: &[(i64, &str)] = &[
            // TestHumanDuration
            (SECOND, "1s"),
            (70 * SECOND, "70s"),
            (190 * SECOND, "3m10s"),
            (70 * MINUTE, "70m"),
            (47 * HOUR, "47h"),
            (49 * HOUR, "2d1h"),
            ((8 * 24 + 2) * HOUR, "8d"),
            (367 * 24 * HOUR, "367d"),
            ((365 * 2 * 24 + 25) * HOUR, "2y1d"),
            ((365 * 8 * 24 + 2) * HOUR, "8y"),
            // TestHumanDurationBoundaries
            (-2 * SECOND, "<invalid>"),
            (-2 * SECOND + 1, "0s"),
            (0, "0s"),
            (SECOND - MS, "0s"),
            (2 * MINUTE - MS, "119s"),
            (2 * MINUTE, "2m"),
            (2 * MINUTE + SECOND, "2m1s"),
            (10 * MINUTE - MS, "9m59s"),
            (10 * MINUTE, "10m"),
            (10 * MINUTE + SECOND, "10m"),
            (3 * HOUR - MS, "179m"),
            (3 * HOUR, "3h"),
            (3 * HOUR + MINUTE, "3h1m"),
            (8 * HOUR - MS, "7h59m"),
            (8 * HOUR, "8h"),
            (8 * HOUR + 59 * MINUTE, "8h"),
            (2 * DAY - MS, "47h"),
            (2 * DAY, "2d"),
            (2 * DAY + HOUR, "2d1h"),
            (8 * DAY - MS, "7d23h"),
            (8 * DAY, "8d"),
            (8 * DAY + 23 * HOUR, "8d"),
            (2 * YEAR - MS, "729d"),
            (2 * YEAR, "2y"),
            (2 * YEAR + 23 * HOUR, "2y"),
            (2 * YEAR + 23 * HOUR + 59 * MINUTE, "2y"),
            (2 * YEAR + DAY - MS, "2y"),
            (2 * YEAR + DAY, "2y1d"),
            (3 * YEAR, "3y"),
            (4 * YEAR, "4y"),
            (5 * YEAR, "5y"),
            (6 * YEAR, "6y"),
            (7 * YEAR, "7y"),
            (8 * YEAR - MS, "7y364d"),
            (8 * YEAR, "8y"),
            (8 * YEAR + 364 * DAY, "8y"),
            (9 * YEAR, "9y"),
        ];
        for &(d, want) in cases {
            assert_eq!(human_duration(d), want, "HumanDuration({d}ns)");
        }
    }

    #[test]
    fn ages_are_taken_between_two_instants() {
        let now = GoTime::parse_rfc3339("2024-12-01T00:00:00Z").unwrap();
        for (since, want) in [
            ("2024-11-30T22:20:05Z", "99m"),
            ("2024-11-30T10:53:06.5Z", "13h"),
            ("2023-01-15T03:40:00Z", "685d"),
            ("2024-12-01T00:00:01Z", "0s"),
            ("2024-12-01T00:00:05Z", "<invalid>"),
        ] {
            assert_eq!(age(&GoTime::parse_rfc3339(since).unwrap(), &now), want, "{since}");
        }
        // Go's zero time against today saturates instead of overflowing, as Go's Sub does.
        assert_eq!(age(&GoTime::ZERO, &now), "292y");
    }
}
