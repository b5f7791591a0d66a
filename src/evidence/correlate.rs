//! Joining provider-log evidence (and provider restarts) to MRs, and the findings only that
//! evidence can support: orphans, restarts during a create, lost callbacks, missing debug logs.

use super::logs::{Evidence, EvidenceKind, LogScan, LoggedId, created_ids, last_logged_ids, same_id};
use crate::domain::create_marks::CreateMarks;
use crate::domain::finding::{Code, Finding, ResourceRef};
use crate::domain::gotime::GoTime;
use crate::domain::managed::{ManagedResource, keys};
use crate::domain::report::{LoggedIdRef, ReportFinding, ResourceState};
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// What one log source (pod container, file, stdin) held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceSummary {
    /// `namespace/pod/container (previous)` or a file path.
    pub name: String,
    /// The provider it belongs to, when known (live pods).
    pub provider: Option<String>,
    /// Lines read.
    pub lines: u64,
    /// Lines that were not provider log records (counted, skipped).
    pub unknown: u64,
    /// Whether any DEBUG line was seen: without debug logging upjet logs no IDs.
    pub saw_debug: bool,
}

impl SourceSummary {
    /// Summarises a finished scan of one source.
    pub fn of(name: &str, provider: Option<String>, scan: &LogScan) -> SourceSummary {
        SourceSummary {
            name: name.to_string(),
            provider,
            lines: scan.lines,
            unknown: scan.unknown + scan.too_long,
            saw_debug: scan.saw_debug,
        }
    }
}

/// Converts a log time to the annotation clock.
pub fn go_time(t: DateTime<Utc>) -> GoTime {
    GoTime::from_unix(t.timestamp(), t.timestamp_subsec_nanos())
}

/// Log evidence indexed for lookups by MR.
#[derive(Debug, Default)]
pub struct LogEvidence {
    by_uid: HashMap<String, Vec<Evidence>>,
    by_name: HashMap<String, Vec<Evidence>>,
    last_ids: HashMap<String, LoggedId>,
    /// Every source read, in order.
    pub sources: Vec<SourceSummary>,
}

impl LogEvidence {
    /// Indexes the evidence of one or more scans.
    pub fn new(evidence: Vec<Evidence>, sources: Vec<SourceSummary>) -> LogEvidence {
        let last_ids = last_logged_ids(&evidence);
        let mut by_uid: HashMap<String, Vec<Evidence>> = HashMap::new();
        let mut by_name: HashMap<String, Vec<Evidence>> = HashMap::new();
        for ev in evidence {
            if !ev.uid.is_empty() {
                by_uid.entry(ev.uid.clone()).or_default().push(ev);
            } else if let Some(name) = ev.mr.name.clone() {
                by_name.entry(name).or_default().push(ev);
            }
        }
        LogEvidence { by_uid, by_name, last_ids, sources }
    }

    /// Everything logged about one MR, by UID or (for lines without one) by name, oldest first.
    pub fn about(&self, mr: &ManagedResource) -> Vec<&Evidence> {
        let mut out: Vec<&Evidence> = self.by_uid.get(&mr.uid).map(|v| v.iter().collect()).unwrap_or_default();
        if let Some(named) = self.by_name.get(&mr.name) {
            out.extend(named.iter().filter(|e| e.is_about(&mr.uid, &mr.name, mr.namespace.as_deref())));
        }
        out.sort_by_key(|e| e.seq);
        out
    }

    /// The newest external ID a provider logged for this UID.
    pub fn last_logged_id(&self, uid: &str) -> Option<&LoggedId> {
        self.last_ids.get(uid)
    }

    /// The report form of [`Self::last_logged_id`].
    pub fn last_logged_ref(&self, uid: &str) -> Option<LoggedIdRef> {
        self.last_logged_id(uid).map(|l| LoggedIdRef {
            id: l.id.clone(),
            time: l.time.map(|t| go_time(t).to_string()),
            source: l.source.clone(),
        })
    }

    /// IDs logged as created for this UID.
    pub fn created(&self, uid: &str) -> Vec<LoggedId> {
        self.by_uid.get(uid).map(|v| created_ids(v, uid)).unwrap_or_default()
    }

    /// Whether any source had DEBUG lines.
    pub fn any_debug(&self) -> bool {
        self.sources.iter().any(|s| s.saw_debug)
    }
}

/// When the provider's container (re)started: container starts, and pod starts of replaced pods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderStarts {
    /// Provider name.
    pub provider: String,
    /// Start times, any order.
    pub starts: Vec<GoTime>,
}

/// The findings that logs and provider restarts support for one MR.
pub fn log_findings(mr: &ManagedResource, logs: Option<&LogEvidence>, starts: Option<&ProviderStarts>) -> Vec<Finding> {
    let mut out = Vec::new();
    let arg = mr.command_arg();
    if let Some(logs) = logs {
        out.extend(orphan_candidates(mr, logs, &arg));
        if let Some(cb) = logs.about(mr).into_iter().rev().find(|e| e.kind == EvidenceKind::CallbackFailed) {
            out.push(
                Finding::new(
                    Code::CallbackLost,
                    "the provider could not write the result of an async create (callback failed): the MR's status and conditions may be stale",
                    format!("kubectl upjet history {arg}"),
                )
                .with_opt("error", cb.error.clone())
                .with("log", cb.source.clone()),
            );
        }
    }
    if let Some(starts) = starts {
        out.extend(restarted_during_create(mr, starts, &arg));
    }
    out
}

/// upjet logged an ID as created for this MR that is not its external-name: that cloud object
/// probably exists with nothing tracking it (upjet#561, #305).
fn orphan_candidates(mr: &ManagedResource, logs: &LogEvidence, arg: &str) -> Vec<Finding> {
    let current = mr.external_name();
    // What the MR tracks: its external-name, or failing that the ID it last observed.
    let tracked = current.or(mr.at_provider_id.as_deref());
    logs.created(&mr.uid)
        .into_iter()
        .filter(|c| tracked.is_none_or(|t| !same_id(&c.id, t)))
        .map(|c| {
            let (message, next, suggest) = match tracked {
                None => (
                    format!("the provider logged creating {:?} for this MR, which has no external-name: adopt it before a restart creates a duplicate", c.id),
                    format!("kubectl upjet adopt {arg} --id {} --import", c.id),
                    Some(c.id.clone()),
                ),
                Some(cur) => (
                    format!("the provider logged creating {:?} for this MR, but it tracks {cur:?}: {:?} is probably an orphan nothing tracks", c.id, c.id),
                    format!("kubectl upjet history {arg}"),
                    None,
                ),
            };
            Finding::new(Code::OrphanCandidate, message, next)
                .with("loggedId", c.id.clone())
                .with_opt("loggedAt", c.time.map(|t| go_time(t).to_string()))
                .with("log", c.source.clone())
                .with_opt(keys::EXTERNAL_NAME, current)
                .suggest(suggest.as_deref())
        })
        .collect()
}

/// The provider container (re)started after create-pending and before any recorded result, so
/// the create's outcome (and any ID it produced) lived only in the lost process.
fn restarted_during_create(mr: &ManagedResource, starts: &ProviderStarts, arg: &str) -> Option<Finding> {
    let marks = CreateMarks::of(mr);
    if !marks.pending.is_set() {
        return None;
    }
    let pending = marks.pending.at;
    let result = marks.latest_result();
    let result_after_pending = !result.is_zero() && !result.before(&pending);
    let restart =
        starts.starts.iter().filter(|s| s.after(&pending) && (!result_after_pending || s.before(&result))).min()?;
    Some(
        Finding::new(
            Code::ProviderRestartedDuringCreate,
            format!(
                "provider {} restarted at {restart} while this MR's create (pending since {}) had no result yet",
                starts.provider,
                marks.pending.raw.as_deref().unwrap_or("?")
            ),
            format!("kubectl upjet history {arg}"),
        )
        .with("restartedAt", restart.to_string())
        .with_opt(keys::CREATE_PENDING, marks.pending.raw.clone())
        .with_opt(keys::CREATE_SUCCEEDED, marks.succeeded.raw.clone())
        .with_opt(keys::CREATE_FAILED, marks.failed.raw.clone()),
    )
}

/// How to turn on debug logging, the only way upjet logs the IDs it creates.
pub const ENABLE_DEBUG: &str = "kubectl apply -f - <<EOF\napiVersion: pkg.crossplane.io/v1beta1\nkind: DeploymentRuntimeConfig\nmetadata: {name: debug}\nspec:\n  deploymentTemplate:\n    spec:\n      selector: {}\n      template:\n        spec:\n          containers:\n          - name: package-runtime\n            args: [--debug]\nEOF\n# then set spec.runtimeConfigRef.name: debug on the Provider";

/// `DebugLogsMissing`, once per provider (or log file) whose logs held no DEBUG line.
pub fn debug_logs_missing(logs: &LogEvidence) -> Vec<ReportFinding> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    let mut by_owner: std::collections::BTreeMap<String, (Option<String>, bool, Vec<&SourceSummary>)> =
        Default::default();
    for s in &logs.sources {
        let key = s.provider.clone().unwrap_or_else(|| s.name.clone());
        let entry = by_owner.entry(key).or_insert((s.provider.clone(), false, Vec::new()));
        entry.1 |= s.saw_debug;
        entry.2.push(s);
    }
    for (owner, (provider, saw_debug, sources)) in by_owner {
        if saw_debug || sources.iter().all(|s| s.lines == 0) || !seen.insert(owner.clone()) {
            continue;
        }
        let (api_version, kind) = match provider {
            Some(_) => ("pkg.crossplane.io/v1", "Provider"),
            None => ("v1", "LogFile"),
        };
        let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
        let finding = Finding::new(
            Code::DebugLogsMissing,
            format!("{owner} does not log at debug level, so the IDs it creates cannot be recovered from its logs; enable --debug"),
            ENABLE_DEBUG,
        )
        .with("sources", names.join(", "));
        out.push(ReportFinding {
            resource: ResourceRef {
                api_version: api_version.into(),
                kind: kind.into(),
                namespace: None,
                name: owner,
                uid: String::new(),
            },
            finding,
            state: ResourceState::default(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::testing::Mr;
    use crate::evidence::logs::scan_slice;

    fn logs(lines: &str) -> LogEvidence {
        let mut scan = LogScan::new();
        scan_slice(lines.as_bytes(), "test.log", &mut scan);
        let summary = SourceSummary::of("test.log", None, &scan);
        LogEvidence::new(scan.take_evidence(), vec![summary])
    }

    const UID: &str = "uid-k";

    fn ended(tf_id: &str, at: &str) -> String {
        format!(
            "{at}\tDEBUG\tprovider-aws\tAsync create ended.\t{{\"trackerUID\": \"{UID}\", \"resourceName\": \"k\", \"gvk\": \"kms.aws.upbound.io/v1beta1, Kind=Key\", \"tfID\": \"{tf_id}\", \"error\": null}}\n"
        )
    }

    fn codes(f: &[Finding]) -> Vec<Code> {
        f.iter().map(|f| f.code).collect()
    }

    #[test]
    fn orphans_from_created_ids() {
        let log = logs(&(ended("mrk-1", "2024-11-30T10:51:13Z") + &ended("mrk-2", "2024-11-30T11:30:00Z")));
        // No external-name: both creations are candidates, adoptable.
        let missing = Mr::new("Key", "k").build();
        let f = log_findings(&missing, Some(&log), None);
        assert_eq!(codes(&f), vec![Code::OrphanCandidate, Code::OrphanCandidate]);
        assert_eq!(f[0].suggested_id.as_deref(), Some("mrk-1"));
        assert!(f[0].next.contains("--id mrk-1 --import"));
        // Observed the second (no external-name yet): only the first is an orphan.
        let observes_second = Mr::new("Key", "k").at_provider_id("mrk-2").build();
        let f = log_findings(&observes_second, Some(&log), None);
        assert_eq!(codes(&f), vec![Code::OrphanCandidate]);
        assert_eq!(f[0].evidence["loggedId"], "mrk-1");
        // Tracks the second: the first is the orphan, no adoption suggested.
        let tracks_second = Mr::new("Key", "k").external_name("mrk-2").build();
        let f = log_findings(&tracks_second, Some(&log), None);
        assert_eq!(codes(&f), vec![Code::OrphanCandidate]);
        assert_eq!(f[0].evidence["loggedId"], "mrk-1");
        assert!(f[0].suggested_id.is_none());
        // Another MR: nothing.
        assert!(log_findings(&Mr::new("Key", "other").build(), Some(&log), None).is_empty());
        assert_eq!(log.last_logged_id(UID).unwrap().id, "mrk-2", "newest wins");
    }

    #[test]
    fn callback_lost() {
        let line = format!(
            "{{\"level\":\"info\",\"ts\":\"2024-11-30T10:52:00Z\",\"logger\":\"provider-aws\",\"msg\":\"Async create callback failed\",\"trackerUID\":\"{UID}\",\"error\":\"cannot update status of the resource kms.aws.upbound.io/v1beta1, Kind=Key/k after an async create: Operation cannot be fulfilled\"}}\n"
        );
        let f = log_findings(&Mr::new("Key", "k").external_name("k").build(), Some(&logs(&line)), None);
        assert_eq!(codes(&f), vec![Code::CallbackLost]);
        assert!(f[0].evidence["error"].contains("after an async create"));
    }

    #[test]
    fn restarts_during_create() {
        let t = |s| GoTime::parse_rfc3339(s).unwrap();
        let starts = ProviderStarts {
            provider: "provider-aws-kms".into(),
            starts: vec![t("2024-11-30T10:00:00Z"), t("2024-11-30T11:00:03Z")],
        };
        let pending = |p: &str| Mr::new("Key", "k").annotation(keys::CREATE_PENDING, p);
        let cases = vec![
            ("restart after pending, no result", pending("2024-11-30T11:00:01Z").build(), true),
            ("restart before pending", pending("2024-11-30T11:30:00Z").build(), false),
            (
                "result before the restart",
                pending("2024-11-30T11:00:01Z").annotation(keys::CREATE_SUCCEEDED, "2024-11-30T11:00:02Z").build(),
                false,
            ),
            (
                "result after the restart",
                pending("2024-11-30T11:00:01Z").annotation(keys::CREATE_FAILED, "2024-11-30T11:10:00Z").build(),
                true,
            ),
            (
                "old result, new pending, restart",
                pending("2024-11-30T11:00:01Z").annotation(keys::CREATE_SUCCEEDED, "2024-11-29T11:00:00Z").build(),
                true,
            ),
            ("no create at all", Mr::new("Key", "k").build(), false),
        ];
        for (name, mr, want) in cases {
            let got = !log_findings(&mr, None, Some(&starts)).is_empty();
            assert_eq!(got, want, "{name}");
        }
    }

    #[test]
    fn debug_missing_once_per_owner() {
        let info = "2024-11-30T10:00:00Z\tINFO\tprovider-aws\tstarting\t{}\n";
        let mut a = LogScan::new();
        scan_slice(info.as_bytes(), "a", &mut a);
        let mut b = LogScan::new();
        scan_slice(ended("x", "2024-11-30T10:00:00Z").as_bytes(), "b", &mut b);
        let ev = LogEvidence::new(
            vec![],
            vec![
                SourceSummary::of("crossplane-system/p1/package-runtime", Some("provider-aws-kms".into()), &a),
                SourceSummary::of(
                    "crossplane-system/p1/package-runtime (previous)",
                    Some("provider-aws-kms".into()),
                    &a,
                ),
                SourceSummary::of("crossplane-system/p2/package-runtime", Some("provider-aws-ec2".into()), &b),
                SourceSummary::of("incident.log", None, &a),
            ],
        );
        let f = debug_logs_missing(&ev);
        let owners: Vec<(&str, &str)> =
            f.iter().map(|r| (r.resource.kind.as_str(), r.resource.name.as_str())).collect();
        assert_eq!(owners, vec![("LogFile", "incident.log"), ("Provider", "provider-aws-kms")]);
        assert!(f[1].finding.next.contains("DeploymentRuntimeConfig"));
    }
}
