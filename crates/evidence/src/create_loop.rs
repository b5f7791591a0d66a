//! The create loop against an object that already exists, read from one MR's provider log lines.
//!
//! Exists because this is the commonest way an MR loses its cloud object (upjet#305: a node
//! shutdown, then thousands of RecordSets asking to create again, every attempt answered
//! `409 … already exists`) and every line of it looks routine on its own: only counting the
//! attempts and noticing that no ID was ever logged tells a person what happened.

use super::correlate::go_time;
use super::logs::{Evidence, EvidenceKind};
use upjet_core::gotime::GoTime;
use upjet_core::rules::says_already_exists;

/// What one MR's log lines say about its create attempts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CreateAttempts {
    /// `Successfully requested creation of external resource` lines (or, when the provider does
    /// not log those, `Async create starting...`).
    pub requests: u32,
    /// Create results that said the object already exists (`Async create ended.`, CLI
    /// `apply async ended`, `Cannot create external resource`).
    pub already_exists: u32,
    /// The first attempt or failure.
    pub first: Option<GoTime>,
    /// The last attempt or failure.
    pub last: Option<GoTime>,
    /// Whether any line carried a non-empty external ID (external-name, tfID, Terraform id).
    pub id_logged: bool,
}

impl CreateAttempts {
    /// Whether the lines show a loop: a create refused because the object exists, or creates
    /// requested again and again.
    pub fn is_loop(&self) -> bool {
        self.already_exists > 0 || self.requests > 1
    }
}

/// Counts the create attempts and already-exists failures in one MR's log evidence (merged runs
/// of identical lines count once per line).
pub fn create_attempts(logs: &[&Evidence]) -> CreateAttempts {
    let mut out = CreateAttempts::default();
    let lines = |ev: &Evidence| ev.repeats + 1;
    let see = |out: &mut CreateAttempts, ev: &Evidence| {
        let (first, last) = (ev.time.map(go_time), ev.last_time.or(ev.time).map(go_time));
        out.first = match (out.first, first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        out.last = out.last.max(last);
    };
    let requested = |k: EvidenceKind| k == EvidenceKind::CreateRequested;
    let any_requested = logs.iter().any(|ev| requested(ev.kind));
    for ev in logs {
        let is_request = requested(ev.kind) || (!any_requested && ev.kind == EvidenceKind::AsyncCreateStarting);
        let is_result =
            matches!(ev.kind, EvidenceKind::AsyncCreateEnded | EvidenceKind::CliApply | EvidenceKind::CreateFailed);
        if is_request {
            out.requests += lines(ev);
            see(&mut out, ev);
        }
        if is_result && ev.error.as_deref().is_some_and(says_already_exists) {
            out.already_exists += lines(ev);
            see(&mut out, ev);
        }
        let logged = ev.kind.carries_logged_id() && ev.id.as_deref().is_some_and(|id| !id.is_empty());
        out.id_logged |= logged || !ev.created.is_empty();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::{LogScan, scan_slice};

    const UID: &str = "93250b67-47e4-4feb-81bc-e15b4a2329a1";

    fn requested(t: &str, name: &str) -> String {
        format!(
            "{t}\tDEBUG\tprovider-gcp\tSuccessfully requested creation of external resource\t{{\"controller\": \"managed/dns.gcp.upbound.io/v1beta1, kind=recordset\", \"request\": {{\"name\":\"rs\"}}, \"uid\": \"{UID}\", \"version\": \"1\", \"external-name\": \"{name}\", \"external-name\": \"{name}\"}}\n"
        )
    }

    fn ended(t: &str, error: &str) -> String {
        format!(
            "{t}\tDEBUG\tprovider-gcp\tAsync create ended.\t{{\"trackerUID\": \"{UID}\", \"resourceName\": \"rs\", \"tfID\": \"\", \"error\": \"{error}\"}}\n"
        )
    }

    fn attempts(log: &str) -> CreateAttempts {
        let mut scan = LogScan::new();
        scan_slice(log.as_bytes(), "l", &mut scan);
        let evidence = scan.take_evidence();
        create_attempts(&evidence.iter().collect::<Vec<_>>())
    }

    #[test]
    fn counts_the_loop_and_whether_an_id_was_logged() {
        let exists = "googleapi: Error 409: The resource 'x' already exists, alreadyExists";
        let t = |m: u32| format!("2023-10-11T14:{m:02}:01Z");
        let looped: String = (0..4).map(|i| requested(&t(10 + 2 * i), "") + &ended(&t(11 + 2 * i), exists)).collect();
        let at = |s: &str| GoTime::parse_rfc3339(s);
        for (name, log, want) in [
            (
                "four refused creates, external-name always empty",
                looped.clone(),
                CreateAttempts {
                    requests: 4,
                    already_exists: 4,
                    first: at(&t(10)),
                    last: at(&t(17)),
                    id_logged: false,
                },
            ),
            (
                "one create that worked is no loop",
                requested(&t(10), "") + &ended(&t(11), ""),
                CreateAttempts {
                    requests: 1,
                    already_exists: 0,
                    first: at(&t(10)),
                    last: at(&t(10)),
                    id_logged: false,
                },
            ),
            (
                "an external-name on a reconciler line counts as logged",
                requested(&t(10), "projects/p/managedZones/z/rrsets/rs./A") + &ended(&t(11), "other failure"),
                CreateAttempts { requests: 1, already_exists: 0, first: at(&t(10)), last: at(&t(10)), id_logged: true },
            ),
            ("no lines", String::new(), CreateAttempts::default()),
        ] {
            assert_eq!(attempts(&log), want, "{name}");
        }
        assert!(attempts(&looped).is_loop());
        assert!(!attempts(&(requested(&t(10), "") + &ended(&t(11), ""))).is_loop());
    }
}
