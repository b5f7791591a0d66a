//! `MalformedAnnotation`: a crossplane.io annotation holds a value crossplane ignores or misreads.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::goduration::parse_go_duration;
use crate::domain::managed::keys;
use crate::domain::shell::quoted;

/// The smallest poll interval the annotation getter accepts (`GetPollInterval`'s
/// `MinPollInterval`). The managed reconciler clamps to its own configurable minimum
/// (`WithMinPollInterval`), which the MR does not show, so only values under 1s are certain to
/// be raised.
const MIN_POLL_INTERVAL_NS: i64 = 1_000_000_000;

/// What the managed reconciler makes of a `crossplane.io/poll-interval` value, when that is not
/// what it says: empty means unset (the getter's `!ok || v == ""`), an unparsable value falls
/// back to the controller's default, and a value below the minimum (zero and negative included,
/// which Go's `time.ParseDuration` accepts) is raised to the reconciler's minimum.
fn poll_interval_problem(v: &str) -> Option<String> {
    if v.is_empty() {
        return None;
    }
    match parse_go_duration(v) {
        Some(ns) if ns >= MIN_POLL_INTERVAL_NS => None,
        Some(_) => Some(format!(
            "{v} is below the minimum poll interval (1s); the reconciler raises it to its configured minimum instead",
            v = quoted(v)
        )),
        None => Some(format!(
            "{v} is not a Go duration (e.g. \"5m\"); the controller's default poll interval is used instead",
            v = quoted(v)
        )),
    }
}

/// Values crossplane-runtime silently ignores or misreads.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    let mut problems: Vec<(String, String)> = Vec::new();
    for mark in [&facts.marks.pending, &facts.marks.succeeded, &facts.marks.failed] {
        if mark.is_malformed() {
            problems.push((
                mark.key.to_string(),
                format!(
                    "{} is not RFC3339; crossplane reads it as the zero time",
                    quoted(mark.raw.as_deref().unwrap_or(""))
                ),
            ));
        }
    }
    if let Some(v) = mr.annotation(keys::PAUSED)
        && v != "true"
        && v != "false"
    {
        problems.push((
            keys::PAUSED.to_string(),
            format!("{v} does not pause; only the exact value \"true\" does", v = quoted(v)),
        ));
    }
    if let Some(why) = mr.annotation(keys::POLL_INTERVAL).and_then(poll_interval_problem) {
        problems.push((keys::POLL_INTERVAL.to_string(), why));
    }
    if problems.is_empty() {
        return None;
    }
    let first_key = problems[0].0.clone();
    let keys_list: Vec<&str> = problems.iter().map(|(k, _)| k.as_str()).collect();
    let message = format!(
        "{} hold{} a value crossplane ignores or misreads",
        keys_list.join(", "),
        if problems.len() == 1 { "s" } else { "" }
    );
    let next = facts.kubectl("annotate").arg_then(&first_key, "-");
    let mut f = Finding::new(Code::MalformedAnnotation, message, next);
    for (k, why) in problems {
        f = f.with(&k, why);
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::domain::finding::Code::*;
    use crate::domain::managed::keys;

    /// Follows the crossplane-runtime v2 poll-interval getter `GetPollInterval` (empty = unset,
    /// below `MinPollInterval` = 1s invalid)
    /// and the managed reconciler's effective poll interval (`reconciler_modern_test.go`:
    /// unparsable → default, below the minimum → the minimum), and `meta.IsPaused` (exactly
    /// "true").
    const CASES: &[Case] = &[
        (
            "paused value True is malformed, not paused",
            || base().healthy().annotation(keys::PAUSED, "True"),
            &[MalformedAnnotation],
        ),
        ("paused false is fine", || base().healthy().annotation(keys::PAUSED, "false"), &[]),
        (
            "malformed create marks and poll interval",
            || base().healthy().annotation(P, "2024-11-30 10:53:06").annotation(keys::POLL_INTERVAL, "5 minutes"),
            &[MalformedAnnotation],
        ),
        (
            "zero poll interval is raised",
            || base().healthy().annotation(keys::POLL_INTERVAL, "0s"),
            &[MalformedAnnotation],
        ),
        ("negative poll interval", || base().healthy().annotation(keys::POLL_INTERVAL, "-5m"), &[MalformedAnnotation]),
        (
            "sub-second poll interval",
            || base().healthy().annotation(keys::POLL_INTERVAL, "500ms"),
            &[MalformedAnnotation],
        ),
        (
            "a bare number is not a duration",
            || base().healthy().annotation(keys::POLL_INTERVAL, "60"),
            &[MalformedAnnotation],
        ),
        ("one second is the minimum", || base().healthy().annotation(keys::POLL_INTERVAL, "1s"), &[]),
        ("good poll interval", || base().healthy().annotation(keys::POLL_INTERVAL, "1h30m"), &[]),
        ("empty poll interval is unset", || base().healthy().annotation(keys::POLL_INTERVAL, ""), &[]),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
