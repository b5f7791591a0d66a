//! Joining provider-log evidence to MRs: the index of what was logged, and its reduction to the
//! per-MR evidence ([`MrEvidence`]) and log sources ([`LogSource`]) the rules read.

use super::logs::{Evidence, EvidenceKind, LogScan, LoggedId, created_ids, last_logged_ids, started_kind_of};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use upjet_core::candidate::{Candidate, Confidence};
use upjet_core::gotime::GoTime;
use upjet_core::managed::ManagedResource;
use upjet_core::report::LoggedIdRef;
use upjet_core::rules::{CallbackFailure, LogSource, LoggedCreate, LoggedLine, MrEvidence};
use upjet_core::upjet_client::{Client, LoggedClient};

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
    /// Provider process starts by the managed kind whose controller started (`kind.group`, lower
    /// case), oldest first, one per start time (the same process read from two sources is one).
    starts: HashMap<String, Vec<Evidence>>,
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
        let mut starts: HashMap<String, Vec<Evidence>> = HashMap::new();
        for ev in evidence {
            if let Some(kind) = ev.started_kind() {
                starts.entry(kind).or_default().push(ev);
            } else if !ev.uid.is_empty() {
                by_uid.entry(ev.uid.clone()).or_default().push(ev);
            } else if let Some(name) = ev.mr.name.clone() {
                by_name.entry(name).or_default().push(ev);
            }
        }
        for list in starts.values_mut() {
            list.sort_by_key(|e| (e.time, e.seq));
            list.dedup_by_key(|e| e.time);
        }
        LogEvidence { by_uid, by_name, starts, last_ids, sources }
    }

    /// The starts of the provider process serving this MR's kind, oldest first.
    pub fn process_starts(&self, mr: &ManagedResource) -> &[Evidence] {
        self.starts.get(&started_kind_of(&mr.kind, mr.group())).map(Vec::as_slice).unwrap_or_default()
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

    /// [`Self::about`] and the starts of the provider process serving the MR's kind
    /// ([`Self::process_starts`]): what the MR's timeline shows of its provider's log.
    pub fn timeline(&self, mr: &ManagedResource) -> Vec<&Evidence> {
        let mut out = self.about(mr);
        out.extend(self.process_starts(mr));
        out.sort_by_key(|e| (e.time, e.seq));
        out
    }

    /// The newest external ID a provider logged for this UID.
    pub fn last_logged_id(&self, uid: &str) -> Option<&LoggedId> {
        self.last_ids.get(uid)
    }

    /// The IDs the provider logged for this MR as candidates to adopt: every ID logged as created,
    /// then the newest logged ID. CLI-mode output masks ProviderConfig values as `REDACTED`: such
    /// an ID cannot be adopted and is left out.
    pub fn candidates(&self, mr: &ManagedResource) -> Vec<Candidate> {
        let when = |t: Option<DateTime<Utc>>| t.map(|t| format!(" at {}", go_time(t))).unwrap_or_default();
        let mut out = Vec::new();
        for ev in self.about(mr) {
            for id in ev.created.iter().filter(|id| !id.contains("REDACTED")) {
                let evidence = format!("{}{}", ev.msg, when(ev.time));
                out.push(Candidate::new(id.clone(), "logged as created", Confidence::High, evidence));
            }
        }
        if let Some(last) = self.last_logged_id(&mr.uid).filter(|l| !l.id.contains("REDACTED")) {
            let evidence = format!("logged{}", when(last.time));
            out.push(Candidate::new(last.id.clone(), "last provider-logged ID", Confidence::High, evidence));
        }
        out
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

    /// Fills what the logs say about one MR into its evidence, in the rules' terms (the logs'
    /// evidence source, `sources::logs`, calls it).
    pub fn fill(&self, mr: &ManagedResource, evidence: &mut MrEvidence) {
        let created = self
            .created(&mr.uid)
            .into_iter()
            .map(|c| LoggedCreate { id: c.id, time: c.time.map(go_time), source: c.source })
            .collect();
        let callback_failure = self
            .about(mr)
            .into_iter()
            .rev()
            .find(|e| e.kind == EvidenceKind::CallbackFailed)
            .map(|cb| CallbackFailure { error: cb.error.clone(), source: cb.source.clone() });
        let about = self.about(mr);
        // A run of identical lines (merged to keep memory bounded) is a sighting at its first and
        // at its last time: a restart marker repeated an hour later is two restarts to the rules.
        let lines = |kind: EvidenceKind| -> Vec<LoggedLine> {
            about
                .iter()
                .filter(|e| e.kind == kind)
                .flat_map(|e| {
                    let last = e.last_time.filter(|l| e.repeats > 0 && Some(*l) != e.time);
                    std::iter::once(e.time)
                        .chain(last.map(Some))
                        .map(|t| LoggedLine { time: t.map(go_time), source: e.source.clone() })
                })
                .collect()
        };
        evidence.created = created;
        evidence.callback_failure = callback_failure;
        evidence.creates_started = lines(EvidenceKind::AsyncCreateStarting);
        evidence.state_rebuilt = lines(EvidenceKind::StateReconstructing);
        evidence.gate_bypassed = lines(EvidenceKind::CreateGateBypassed).pop();
        evidence.client_logged = about.iter().rev().find_map(|e| {
            let client = client_of(e.kind)?;
            let at = e.time.map(|t| format!(" at {}", go_time(t))).unwrap_or_default();
            Some(LoggedClient { client, line: format!("{:?}{at}", e.msg) })
        });
        evidence.process_starts = self
            .process_starts(mr)
            .iter()
            .map(|e| LoggedLine { time: e.time.map(go_time), source: e.source.clone() })
            .collect();
    }

    /// Every source read, as the debug-level rule sees it.
    pub fn log_sources(&self) -> Vec<LogSource> {
        self.sources
            .iter()
            .map(|s| LogSource {
                name: s.name.clone(),
                provider: s.provider.clone(),
                lines: s.lines,
                saw_debug: s.saw_debug,
            })
            .collect()
    }
}

/// Which of upjet's clients logs lines of this kind, when only one does: the workspace's lines
/// are the Terraform CLI client's (`pkg/terraform/workspace.go`, as is `Critical annotations
/// have been updated.`, `pkg/controller/external.go`), the async tracker's and the rebuilt
/// state's the in-process clients' (`external_async_tfpluginsdk.go`, `external_tfpluginsdk.go`
/// and their plugin-framework twins).
fn client_of(kind: EvidenceKind) -> Option<Client> {
    match kind {
        EvidenceKind::CliRun
        | EvidenceKind::CliApply
        | EvidenceKind::CliRefresh
        | EvidenceKind::CliImport
        | EvidenceKind::CliDestroy
        | EvidenceKind::CriticalAnnotationsUpdated => Some(Client::TerraformCli),
        EvidenceKind::AsyncCreateStarting
        | EvidenceKind::AsyncCreateEnded
        | EvidenceKind::StateReconstructing
        | EvidenceKind::RecoveredExternalName => Some(Client::InProcess),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::log_findings;
    use crate::logs::scan_slice;
    use crate::sources::mr_evidence;
    use upjet_core::finding::{Code, Finding};
    use upjet_core::reconcile_timeout::JudgedAt;
    use upjet_core::testing::Mr;

    fn logs(lines: &str) -> LogEvidence {
        let mut scan = LogScan::new();
        scan_slice(lines.as_bytes(), "test.log", &mut scan);
        let summary = SourceSummary::of("test.log", None, &scan);
        LogEvidence::new(scan.take_evidence(), vec![summary])
    }

    const UID: &str = "uid-k";
    /// When the tests judge (only log rules run here, which do not look at it).
    const NOW: GoTime = GoTime::ZERO;

    fn ended(tf_id: &str, at: &str) -> String {
        format!(
            "{at}\tDEBUG\tprovider-aws\tAsync create ended.\t{{\"trackerUID\": \"{UID}\", \"resourceName\": \"k\", \"gvk\": \"kms.aws.upbound.io/v1beta1, Kind=Key\", \"tfID\": \"{tf_id}\", \"error\": null}}\n"
        )
    }

    fn codes(f: &[Finding]) -> Vec<Code> {
        f.iter().map(|f| f.code).collect()
    }

    /// upjet logs "Instance state not found in cache, reconstructing..." at every `Connect` with
    /// an empty tracker (`pkg/controller/external_tfpluginsdk.go`): at first sight and after a
    /// restart. doctor's compact scan merges the two identical lines into one run; the rules still
    /// see both, so the create after the restart is named.
    #[test]
    fn a_merged_run_of_restart_markers_is_two_restarts() {
        let rebuilt = |at: &str| {
            format!(
                "{at}\tDEBUG\tprovider-aws\tInstance state not found in cache, reconstructing...\t{{\"uid\": \"{UID}\", \"name\": \"k\"}}\n"
            )
        };
        let starting = |at: &str| {
            format!(
                "{at}\tDEBUG\tprovider-aws\tAsync create starting...\t{{\"trackerUID\": \"{UID}\", \"resourceName\": \"k\", \"tfID\": \"\"}}\n"
            )
        };
        let text = rebuilt("2024-11-30T10:40:02Z")
            + &starting("2024-11-30T10:40:02Z")
            + &ended("mrk-1", "2024-11-30T10:40:09Z")
            + &rebuilt("2024-11-30T10:51:12Z")
            + &starting("2024-11-30T10:51:12Z")
            + &ended("mrk-2", "2024-11-30T10:51:19Z");
        let mut scan = LogScan::with_retention(crate::logs::Retention::Compact);
        scan_slice(text.as_bytes(), "test.log", &mut scan);
        let log = LogEvidence::new(scan.take_evidence(), vec![]);
        let mr = Mr::new("Key", "k").at_provider_id("mrk-2").build();
        let merged = log.about(&mr).iter().any(|e| e.kind == EvidenceKind::StateReconstructing && e.repeats == 1);
        assert!(merged, "the compact scan merged the two markers into one run");
        let ev = mr_evidence(&mr, &[&log]);
        let times: Vec<String> = ev.state_rebuilt.iter().filter_map(|l| l.time).map(|t| t.to_string()).collect();
        assert_eq!(times, ["2024-11-30T10:40:02Z", "2024-11-30T10:51:12Z"]);
        let f = log_findings(&mr, Some(&log), None, JudgedAt::upjet(NOW));
        assert!(codes(&f).contains(&Code::CreateAfterStateRebuild), "{:?}", codes(&f));
        assert!(!codes(&f).contains(&Code::AsyncCreateRace), "a restart came between the creates");
    }

    #[test]
    fn orphans_from_created_ids() {
        let log = logs(&(ended("mrk-1", "2024-11-30T10:51:13Z") + &ended("mrk-2", "2024-11-30T11:30:00Z")));
        // No external-name: both creations are candidates, adoptable.
        let missing = Mr::new("Key", "k").build();
        let f = log_findings(&missing, Some(&log), None, JudgedAt::upjet(NOW));
        assert_eq!(codes(&f), vec![Code::OrphanCandidate, Code::OrphanCandidate]);
        assert_eq!(f[0].suggested_id.as_deref(), Some("mrk-1"));
        assert!(f[0].next.contains("--id mrk-1 --import"));
        // Observed the second (no external-name yet): only the first is an orphan.
        let observes_second = Mr::new("Key", "k").at_provider_id("mrk-2").build();
        let f = log_findings(&observes_second, Some(&log), None, JudgedAt::upjet(NOW));
        assert_eq!(codes(&f), vec![Code::OrphanCandidate]);
        assert_eq!(f[0].evidence["loggedId"], "mrk-1");
        // Tracks the second: the first is the orphan, no adoption suggested.
        let tracks_second = Mr::new("Key", "k").external_name("mrk-2").build();
        let f = log_findings(&tracks_second, Some(&log), None, JudgedAt::upjet(NOW));
        assert_eq!(codes(&f), vec![Code::OrphanCandidate]);
        assert_eq!(f[0].evidence["loggedId"], "mrk-1");
        assert!(f[0].suggested_id.is_none());
        // Another MR: nothing.
        assert!(log_findings(&Mr::new("Key", "other").build(), Some(&log), None, JudgedAt::upjet(NOW)).is_empty());
        assert_eq!(log.last_logged_id(UID).unwrap().id, "mrk-2", "newest wins");
    }

    #[test]
    fn callback_lost() {
        let line = format!(
            "{{\"level\":\"info\",\"ts\":\"2024-11-30T10:52:00Z\",\"logger\":\"provider-aws\",\"msg\":\"Async create callback failed\",\"trackerUID\":\"{UID}\",\"error\":\"cannot update status of the resource kms.aws.upbound.io/v1beta1, Kind=Key/k after an async create: Operation cannot be fulfilled\"}}\n"
        );
        let f = log_findings(
            &Mr::new("Key", "k").external_name("k").build(),
            Some(&logs(&line)),
            None,
            JudgedAt::upjet(NOW),
        );
        assert_eq!(codes(&f), vec![Code::CallbackLost]);
        assert!(f[0].evidence["error"].contains("after an async create"));
    }
}
