//! `MalformedAnnotation`: a crossplane.io annotation holds a value crossplane ignores or misreads.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::goduration::parse_go_duration;
use crate::managed::keys;
use crate::shell::quoted;

/// What crossplane-runtime makes of a `crossplane.io/poll-interval` value it cannot use, as
/// `meta.GetPollInterval` reads it (v2.3.0+): empty means unset (`!ok || v == ""`); a value Go's
/// `time.ParseDuration` rejects, or one that is zero or negative (which Go accepts), is ignored
/// and the controller's default poll interval is used. Any positive value is used as it is
/// (`PollIntervalTooShort` says what a sub-second one costs); runtimes before v2.3.0 do not read
/// the annotation at all.
fn poll_interval_problem(v: &str) -> Option<String> {
    if v.is_empty() {
        return None;
    }
    const IGNORED: &str = "crossplane-runtime v2.3+ ignores it and polls at the controller's default interval (older runtimes ignore the annotation altogether)";
    match parse_go_duration(v) {
        Some(ns) if ns > 0 => None,
        Some(_) => Some(format!("{v} is not a positive duration; {IGNORED}", v = quoted(v))),
        None => Some(format!("{v} is not a Go duration (e.g. \"5m\"); {IGNORED}", v = quoted(v))),
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
    use crate::finding::Code::*;
    use crate::managed::keys;

    /// Follows crossplane-runtime v2.3's `meta.GetPollInterval` (empty = unset; unparsable, zero
    /// or negative = ignored, the default interval used; any positive value used as it is: a
    /// sub-second one is `PollIntervalTooShort`'s) and `meta.IsPaused` (exactly "true").
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
            "zero poll interval is ignored",
            || base().healthy().annotation(keys::POLL_INTERVAL, "0s"),
            &[MalformedAnnotation],
        ),
        ("negative poll interval", || base().healthy().annotation(keys::POLL_INTERVAL, "-5m"), &[MalformedAnnotation]),
        (
            "a sub-second poll interval is used as it is",
            || base().healthy().annotation(keys::POLL_INTERVAL, "100ms"),
            &[PollIntervalTooShort],
        ),
        (
            "a bare number is not a duration",
            || base().healthy().annotation(keys::POLL_INTERVAL, "60"),
            &[MalformedAnnotation],
        ),
        ("one second", || base().healthy().annotation(keys::POLL_INTERVAL, "1s"), &[]),
        ("good poll interval", || base().healthy().annotation(keys::POLL_INTERVAL, "1h30m"), &[]),
        ("empty poll interval is unset", || base().healthy().annotation(keys::POLL_INTERVAL, ""), &[]),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    /// The evidence says what the runtime does with the value: ignored, the default used; never
    /// "raised to a minimum", which crossplane-runtime does not have unless a provider sets one.
    #[test]
    fn an_ignored_poll_interval_says_the_default_is_used() {
        for v in ["0s", "-5m", "5 minutes"] {
            let why = super::poll_interval_problem(v).unwrap();
            assert!(why.contains("ignores it and polls at the controller's default interval"), "{v}: {why}");
            assert!(why.contains("older runtimes ignore the annotation"), "{v}: {why}");
            assert!(!why.contains("minimum"), "{v}: {why}");
        }
        assert_eq!(super::poll_interval_problem("100ms"), None, "used as it is: PollIntervalTooShort's to say");
    }
}
