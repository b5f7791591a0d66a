//! `PollIntervalTooShort`: `crossplane.io/poll-interval` asks for a poll more often than once a
//! second, and crossplane-runtime does as it is told.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::goduration::parse_go_duration;
use crate::managed::keys;

/// One second, in nanoseconds: below it a poll interval is sub-second.
const ONE_SECOND_NS: i64 = 1_000_000_000;

/// crossplane-runtime v2.3's `meta.GetPollInterval` accepts any positive Go duration, and the
/// managed reconciler requeues the MR after it; it raises a value only to a minimum the provider
/// configured (`WithMinPollInterval`, none by default, and upjet's and provider-upjet-aws's
/// generated controllers set none). So a sub-second value reconciles the MR that often, and each
/// reconcile is an Observe: upjet reads the cloud object through the Terraform provider's API
/// calls, and the reconcile counts against the provider's rate limit shared by every MR it
/// serves. A runtime before v2.3.0 ignores the annotation: when the MR's CRD is known to lack
/// `status.lastHandledReconcileAt` (a runtime before v2.3), nothing is reported.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let value = facts.mr.annotation(keys::POLL_INTERVAL)?;
    let ns = parse_go_duration(value).filter(|ns| (1..ONE_SECOND_NS).contains(ns))?;
    if facts.evidence.and_then(|e| e.acknowledges_requests) == Some(false) {
        return None;
    }
    let rate = format_rate(ONE_SECOND_NS as f64 / ns as f64);
    let how_often =
        if rate == "1" { "about once a second".to_string() } else { format!("about {rate} times a second") };
    let message = format!(
        "crossplane.io/poll-interval {value:?} is used as it is: crossplane-runtime v2.3+ has no minimum unless the provider sets one (upjet's controllers set none), so this MR is reconciled up to {how_often}, each time reading its cloud object through the cloud's API, which can exhaust the API's rate limits and the provider's reconcile rate shared by all its MRs"
    );
    Some(
        Finding::new(
            Code::PollIntervalTooShort,
            message,
            facts.kubectl("annotate").arg(format!("{}-", keys::POLL_INTERVAL)),
        )
        .with(keys::POLL_INTERVAL, value)
        .with("runtime", "crossplane-runtime v2.3.0 or later reads the annotation; older runtimes ignore it"),
    )
}

/// Polls per second, rounded for reading: `10`, `1.3`, `2000`.
fn format_rate(per_second: f64) -> String {
    if per_second >= 10.0 {
        format!("{}", per_second.round() as u64)
    } else {
        let s = format!("{per_second:.1}");
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
    }
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::managed::keys;
    use crate::rules::{MrEvidence, findings_with};

    /// crossplane-runtime v2.3 `meta.GetPollInterval`: any positive duration is used; below one
    /// second it is reported, at or above it not; unparsable or not positive is
    /// `MalformedAnnotation`'s (ignored, the default used).
    const CASES: &[Case] = &[
        ("100ms", || base().healthy().annotation(keys::POLL_INTERVAL, "100ms"), &[PollIntervalTooShort]),
        ("999ms", || base().healthy().annotation(keys::POLL_INTERVAL, "999ms"), &[PollIntervalTooShort]),
        ("1ns", || base().healthy().annotation(keys::POLL_INTERVAL, "1ns"), &[PollIntervalTooShort]),
        ("one second is not sub-second", || base().healthy().annotation(keys::POLL_INTERVAL, "1s"), &[]),
        ("0.5s", || base().healthy().annotation(keys::POLL_INTERVAL, "0.5s"), &[PollIntervalTooShort]),
        (
            "zero is ignored, not sub-second",
            || base().healthy().annotation(keys::POLL_INTERVAL, "0"),
            &[MalformedAnnotation],
        ),
        ("negative is ignored", || base().healthy().annotation(keys::POLL_INTERVAL, "-100ms"), &[MalformedAnnotation]),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    #[test]
    fn the_message_says_how_often_and_the_next_removes_it() {
        let mr = base().healthy().annotation(keys::POLL_INTERVAL, "100ms").build();
        let f = findings_with(&mr, None, at()).into_iter().find(|f| f.code == PollIntervalTooShort).unwrap();
        assert!(f.message.contains("up to about 10 times a second"), "{}", f.message);
        assert!(f.message.contains("rate limits"), "{}", f.message);
        assert!(!f.message.contains("raise"), "no minimum raises it: {}", f.message);
        assert_eq!(f.next, "kubectl annotate recordset.dns.gcp.upbound.io rs crossplane.io/poll-interval-");
        assert_eq!(f.evidence[keys::POLL_INTERVAL], "100ms");
        assert_eq!(super::format_rate(1.0 / 0.75), "1.3");
        assert_eq!(super::format_rate(2.0), "2");
        let almost = base().healthy().annotation(keys::POLL_INTERVAL, "999ms").build();
        let f = findings_with(&almost, None, at()).into_iter().find(|f| f.code == PollIntervalTooShort).unwrap();
        assert!(f.message.contains("up to about once a second"), "{}", f.message);
    }

    /// A runtime before v2.3 does not read the annotation: when the kind's CRD shows it (no
    /// `status.lastHandledReconcileAt`), nothing polls that often.
    #[test]
    fn an_older_runtime_ignores_the_annotation() {
        let mr = base().healthy().annotation(keys::POLL_INTERVAL, "100ms").build();
        let old = MrEvidence { acknowledges_requests: Some(false), ..MrEvidence::default() };
        let new = MrEvidence { acknowledges_requests: Some(true), ..MrEvidence::default() };
        let codes = |e: &MrEvidence| findings_with(&mr, Some(e), at()).into_iter().map(|f| f.code).collect::<Vec<_>>();
        assert!(!codes(&old).contains(&PollIntervalTooShort));
        assert!(codes(&new).contains(&PollIntervalTooShort));
    }
}
