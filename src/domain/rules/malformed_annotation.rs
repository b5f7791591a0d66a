//! `MalformedAnnotation`: a crossplane.io annotation holds a value crossplane ignores or misreads.

use super::facts::Facts;
use crate::domain::finding::{Code, Finding};
use crate::domain::goduration::parse_go_duration;
use crate::domain::managed::keys;

/// Values crossplane-runtime silently ignores or misreads.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    let mut problems: Vec<(String, String)> = Vec::new();
    for mark in [&facts.marks.pending, &facts.marks.succeeded, &facts.marks.failed] {
        if mark.is_malformed() {
            problems.push((
                mark.key.to_string(),
                format!("{:?} is not RFC3339; crossplane reads it as the zero time", mark.raw.as_deref().unwrap_or("")),
            ));
        }
    }
    if let Some(v) = mr.annotation(keys::PAUSED)
        && v != "true"
        && v != "false"
    {
        problems.push((keys::PAUSED.to_string(), format!("{v:?} does not pause; only the exact value \"true\" does")));
    }
    if let Some(v) = mr.annotation(keys::POLL_INTERVAL) {
        match parse_go_duration(v) {
            Some(ns) if ns > 0 => {}
            Some(_) => problems
                .push((keys::POLL_INTERVAL.to_string(), format!("{v:?} is not a positive duration; it is ignored"))),
            None => problems.push((
                keys::POLL_INTERVAL.to_string(),
                format!("{v:?} is not a Go duration (e.g. \"5m\"); it is ignored"),
            )),
        }
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
    let next = format!("kubectl annotate {} {}-", facts.kubectl_target(), first_key);
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
        ("zero poll interval", || base().healthy().annotation(keys::POLL_INTERVAL, "0s"), &[MalformedAnnotation]),
        ("good poll interval", || base().healthy().annotation(keys::POLL_INTERVAL, "10m"), &[]),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }
}
