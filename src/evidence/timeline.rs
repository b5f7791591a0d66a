//! The create history of one MR as a single time-ordered timeline, built from every trace the
//! cluster still holds: the object, its events, the provider pods, the provider logs and the live
//! Terraform workspace. Pure: the shell gathers, this orders and points at what matters.

use super::correlate::{ProviderStarts, go_time};
use super::logs::{Evidence, EvidenceKind, same_id};
use crate::cluster::providers::ProviderPod;
use crate::domain::create_marks::CreateMarks;
use crate::domain::gotime::GoTime;
use crate::domain::managed::ManagedResource;
use serde::{Deserialize, Serialize};

/// Where an entry comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The MR object (creation, deletion).
    Object,
    /// A `crossplane.io/external-create-*` annotation.
    Annotation,
    /// A condition's last transition.
    Condition,
    /// A Kubernetes Event of the MR.
    Event,
    /// The provider pod or container.
    Pod,
    /// A provider log line about the MR.
    Log,
    /// The live Terraform workspace.
    Workspace,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// When (RFC3339), if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    #[serde(skip)]
    at: Option<GoTime>,
    /// Where it comes from.
    pub source: Source,
    /// What happened.
    pub text: String,
}

/// An external-name value and where and when it was seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NameSeen {
    /// The value.
    pub value: String,
    /// First time seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    /// Last time seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
    /// Sources that showed it (annotation, log, event, workspace).
    pub sources: Vec<String>,
}

/// A Kubernetes Event of the MR, with the `external-name` annotation crossplane's recorder adds.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct EventRecord {
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub type_: String,
    /// Reason, e.g. `CannotInitializeManagedResource`.
    pub reason: String,
    /// Message.
    pub message: String,
    /// First occurrence.
    pub first: Option<String>,
    /// Last occurrence.
    pub last: Option<String>,
    /// Occurrences.
    pub count: i64,
    /// The `external-name` annotation on the Event.
    pub external_name: Option<String>,
}

/// Parses a core/v1 EventList.
pub fn parse_events(body: &str) -> Result<Vec<EventRecord>, serde_json::Error> {
    #[derive(Deserialize)]
    struct L {
        #[serde(default)]
        items: Vec<E>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct E {
        #[serde(default)]
        metadata: M,
        #[serde(default, rename = "type")]
        type_: String,
        #[serde(default)]
        reason: String,
        #[serde(default)]
        message: String,
        #[serde(default)]
        first_timestamp: Option<String>,
        #[serde(default)]
        last_timestamp: Option<String>,
        #[serde(default)]
        event_time: Option<String>,
        #[serde(default)]
        count: Option<i64>,
    }
    #[derive(Deserialize, Default)]
    struct M {
        #[serde(default)]
        annotations: Option<std::collections::HashMap<String, String>>,
    }
    let list: L = serde_json::from_str(body)?;
    Ok(list
        .items
        .into_iter()
        .map(|e| EventRecord {
            type_: e.type_,
            reason: e.reason,
            message: e.message,
            first: e.first_timestamp.clone().or(e.event_time.clone()),
            last: e.last_timestamp.or(e.event_time).or(e.first_timestamp),
            count: e.count.unwrap_or(1),
            external_name: e.metadata.annotations.and_then(|a| a.get("external-name").cloned()),
        })
        .collect())
}

/// What the workspace of a Terraform-CLI resource holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorkspaceState {
    /// The pod it was read from.
    pub pod: String,
    /// `.resources[0].instances[0].attributes.id`, if any.
    pub id: Option<String>,
    /// `lineage` (upjet writes the MR UID).
    pub lineage: Option<String>,
}

/// Extracts the Terraform ID from a `terraform.tfstate` (format version 4).
pub fn tfstate_id(text: &str) -> Result<(Option<String>, Option<String>), serde_json::Error> {
    let v: serde_json::Value = serde_json::from_str(text)?;
    let id =
        v["resources"][0]["instances"][0]["attributes"]["id"].as_str().map(str::to_owned).filter(|s| !s.is_empty());
    Ok((id, v["lineage"].as_str().map(str::to_owned)))
}

/// The whole history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// Entries, oldest first; entries without a time last.
    pub entries: Vec<Entry>,
    /// Every external-name value seen.
    #[serde(rename = "externalNames")]
    pub external_names: Vec<NameSeen>,
    /// What matters, in plain words.
    pub highlights: Vec<String>,
}

fn ts(t: &Option<String>) -> Option<GoTime> {
    t.as_deref().and_then(GoTime::parse_rfc3339)
}

fn entry(at: Option<GoTime>, source: Source, text: String) -> Entry {
    Entry { time: at.map(|t| t.to_string()), at, source, text }
}

/// Everything the history is built from.
#[derive(Default)]
pub struct Inputs<'a> {
    /// Events of the MR.
    pub events: &'a [EventRecord],
    /// Pods of the MR's provider.
    pub pods: &'a [ProviderPod],
    /// Log evidence about the MR.
    pub logs: Vec<&'a Evidence>,
    /// The workspace, for CLI-mode resources.
    pub workspace: Option<&'a WorkspaceState>,
    /// Whether events were queried (offline they cannot be).
    pub events_read: bool,
}

/// Builds the timeline.
pub fn build(mr: &ManagedResource, inputs: &Inputs) -> Timeline {
    let mut entries = Vec::new();
    let mut names: Vec<NameSeen> = Vec::new();
    let mut see = |value: &str, at: Option<GoTime>, source: &str| {
        if value.is_empty() {
            return;
        }
        let t = at.map(|t| t.to_string());
        match names.iter_mut().find(|n| n.value == value) {
            Some(n) => {
                if t.is_some() && (n.first.is_none() || t < n.first) {
                    n.first = t.clone();
                }
                if t.is_some() && t > n.last {
                    n.last = t;
                }
                if !n.sources.iter().any(|s| s == source) {
                    n.sources.push(source.to_string());
                }
            }
            None => names.push(NameSeen {
                value: value.to_string(),
                first: t.clone(),
                last: t,
                sources: vec![source.to_string()],
            }),
        }
    };

    if let Some(c) = ts(&mr.creation_timestamp) {
        entries.push(entry(Some(c), Source::Object, "MR created".into()));
    }
    if let Some(d) = ts(&mr.deletion_timestamp) {
        entries.push(entry(Some(d), Source::Object, "MR deletion requested".into()));
    }
    let marks = CreateMarks::of(mr);
    for m in marks.timeline() {
        let at = (!m.at.is_zero()).then_some(m.at);
        let what = m.key.trim_start_matches("crossplane.io/");
        let text = if at.is_some() {
            what.to_string()
        } else {
            format!("{what} = {:?} (unparsable: read as zero time)", m.raw.as_deref().unwrap_or(""))
        };
        entries.push(entry(at, Source::Annotation, text));
    }
    if let Some(n) = mr.external_name() {
        see(n, None, "annotation");
    }
    for c in &mr.conditions {
        let msg = if c.message.is_empty() { String::new() } else { format!(": {}", c.message) };
        entries.push(entry(
            ts(&c.last_transition_time),
            Source::Condition,
            format!("{}={} {}{msg}", c.type_, c.status, c.reason),
        ));
    }
    for e in inputs.events {
        let times = if e.count > 1 {
            format!(" (×{}, last {})", e.count, e.last.as_deref().unwrap_or("?"))
        } else {
            String::new()
        };
        let name = e.external_name.as_deref().map(|n| format!(" [external-name {n:?}]")).unwrap_or_default();
        entries.push(entry(
            ts(&e.first),
            Source::Event,
            format!("{} {}: {}{times}{name}", e.type_, e.reason, e.message),
        ));
        if let Some(n) = &e.external_name {
            see(n, ts(&e.last), "event");
        }
    }
    for p in inputs.pods {
        if let Some(s) = p.pod_started {
            entries.push(entry(Some(s), Source::Pod, format!("provider pod {}/{} started", p.namespace, p.name)));
        }
        if let Some(t) = &p.last_termination {
            if let Some(s) = t.started {
                entries.push(entry(
                    Some(s),
                    Source::Pod,
                    format!("provider container {} started (previous container)", p.name),
                ));
            }
            entries.push(entry(
                t.finished,
                Source::Pod,
                format!("provider container {} terminated: {} (exit {})", p.name, t.reason, t.exit_code),
            ));
        }
        if let Some(s) = p.container_started.filter(|s| Some(*s) != p.pod_started) {
            entries.push(entry(
                Some(s),
                Source::Pod,
                format!("provider container {} started (restart {})", p.name, p.restart_count),
            ));
        }
    }
    for ev in &inputs.logs {
        let at = ev.time.map(go_time);
        let mut text = format!("{}: {}", ev.kind.as_str(), ev.msg);
        if let Some(id) = ev.id.as_deref().filter(|i| !i.is_empty()) {
            text.push_str(&format!(" [id {id:?}]"));
        }
        if let Some(err) = &ev.error {
            text.push_str(&format!(" error: {err}"));
        }
        if ev.repeats > 0 {
            text.push_str(&format!(
                " (×{}, last {})",
                ev.repeats + 1,
                ev.last_time.map(|t| go_time(t).to_string()).unwrap_or_default()
            ));
        }
        entries.push(entry(at, Source::Log, text));
        if let Some(id) =
            ev.id.as_deref().filter(|_| matches!(ev.kind, EvidenceKind::Reconciler | EvidenceKind::CreateRequested))
        {
            see(id, at, "log");
        }
    }
    if let Some(ws) = inputs.workspace {
        let text = match &ws.id {
            Some(id) => format!("Terraform workspace in {} holds id {id:?}", ws.pod),
            None => format!("Terraform workspace in {} holds no id", ws.pod),
        };
        entries.push(entry(None, Source::Workspace, text));
    }
    entries.sort_by_key(|e| (e.at.is_none(), e.at));

    let mut highlights = Vec::new();
    if marks.incomplete() {
        highlights.push(format!(
            "creation incomplete: external-create-pending ({}) is newer than any result; the provider will not proceed on its own",
            marks.pending.raw.as_deref().unwrap_or("?")
        ));
    }
    let starts = ProviderStarts {
        provider: inputs.pods.first().map(|p| p.provider.clone()).unwrap_or_default(),
        starts: inputs.pods.iter().flat_map(|p| p.starts()).collect(),
    };
    if marks.pending.is_set() {
        let result = marks.latest_result();
        let result_after = !result.is_zero() && !result.before(&marks.pending.at);
        if let Some(r) =
            starts.starts.iter().filter(|s| s.after(&marks.pending.at) && (!result_after || s.before(&result))).min()
        {
            highlights.push(format!(
                "provider restarted at {r}, between create-pending ({}) and any result",
                marks.pending.raw.as_deref().unwrap_or("?")
            ));
        }
    }
    let current = mr.external_name();
    for ev in inputs.logs.iter().filter(|e| !e.created.is_empty()) {
        for id in &ev.created {
            match current {
                Some(cur) if same_id(id, cur) => {}
                Some(cur) => highlights.push(format!("create ended with tfID {id:?} but the external-name is {cur:?}")),
                None => highlights.push(format!("create ended with tfID {id:?} but the MR has no external-name")),
            }
        }
    }
    if let Some(ws) = inputs.workspace {
        if let (Some(id), Some(cur)) = (&ws.id, current)
            && !same_id(id, cur)
        {
            highlights.push(format!("the Terraform workspace holds id {id:?} but the external-name is {cur:?}"));
        }
        if let Some(id) = &ws.id {
            see(id, None, "workspace");
        }
    }
    if names.len() > 1 {
        let list: Vec<String> = names.iter().map(|n| format!("{:?}", n.value)).collect();
        highlights.push(format!("external-name took {} values: {}", names.len(), list.join(" → ")));
    }
    if inputs.events_read && inputs.events.is_empty() {
        highlights.push("no events found (the API server keeps them for 1 hour by default)".into());
    }
    Timeline { entries, external_names: names, highlights }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::managed::keys;
    use crate::domain::testing::Mr;
    use crate::evidence::logs::{LogScan, scan_slice};

    #[test]
    fn events_parse_with_the_recorder_annotation() {
        let body = r#"{"items":[{"metadata":{"annotations":{"external-name":"rs-1"}},"type":"Warning","reason":"CannotInitializeManagedResource",
            "message":"cannot determine creation result","firstTimestamp":"2024-11-30T11:00:06Z","lastTimestamp":"2024-11-30T11:05:00Z","count":4},
            {"metadata":{},"type":"Normal","reason":"CreatedExternalResource","message":"Successfully requested creation","eventTime":"2024-11-30T11:00:00.123456Z"}]}"#;
        let ev = parse_events(body).unwrap();
        assert_eq!(ev[0].external_name.as_deref(), Some("rs-1"));
        assert_eq!((ev[0].count, ev[1].count), (4, 1));
        assert_eq!(ev[1].first.as_deref(), Some("2024-11-30T11:00:00.123456Z"));
    }

    #[test]
    fn tfstate() {
        let s = r#"{"version":4,"lineage":"uid-1","resources":[{"mode":"managed","type":"google_dns_record_set","name":"x","instances":[{"attributes":{"id":"projects/p/managedZones/z/rrsets/x/A"}}]}]}"#;
        assert_eq!(tfstate_id(s).unwrap(), (Some("projects/p/managedZones/z/rrsets/x/A".into()), Some("uid-1".into())));
        assert_eq!(tfstate_id(r#"{"version":4,"resources":[]}"#).unwrap(), (None, None));
        assert!(tfstate_id("not json").is_err());
    }

    #[test]
    fn orders_everything_and_points_at_what_matters() {
        let mr = Mr::new("Key", "k")
            .annotation(keys::CREATE_PENDING, "2024-11-30T11:00:05Z")
            .annotation(keys::CREATE_SUCCEEDED, "2024-11-30T11:00:00Z")
            .external_name("mrk-2")
            .cond("Synced", "False", "ReconcileError", "cannot determine creation result")
            .build();
        let log = "2024-11-30T11:00:09Z\tDEBUG\tprovider-aws\tAsync create ended.\t{\"trackerUID\": \"uid-k\", \"tfID\": \"mrk-9\"}\n";
        let mut scan = LogScan::new();
        scan_slice(log.as_bytes(), "l", &mut scan);
        let evidence = scan.take_evidence();
        let pod = ProviderPod {
            provider: "provider-aws-kms".into(),
            namespace: "crossplane-system".into(),
            name: "provider-aws-kms-1".into(),
            container: "package-runtime".into(),
            pod_started: GoTime::parse_rfc3339("2024-11-30T11:00:30Z"),
            container_started: GoTime::parse_rfc3339("2024-11-30T11:00:30Z"),
            restart_count: 0,
            last_termination: None,
        };
        let events = vec![EventRecord {
            type_: "Warning".into(),
            reason: "CannotInitializeManagedResource".into(),
            message: "cannot determine creation result".into(),
            first: Some("2024-11-30T11:01:00Z".into()),
            last: Some("2024-11-30T11:01:00Z".into()),
            count: 1,
            external_name: Some("mrk-1".into()),
        }];
        let ws = WorkspaceState { pod: "p".into(), id: Some("mrk-2".into()), lineage: None };
        let t = build(
            &mr,
            &Inputs {
                events: &events,
                pods: std::slice::from_ref(&pod),
                logs: evidence.iter().collect(),
                workspace: Some(&ws),
                events_read: true,
            },
        );
        let order: Vec<Source> = t.entries.iter().map(|e| e.source).collect();
        assert_eq!(
            order,
            vec![
                Source::Object,
                Source::Condition,
                Source::Annotation,
                Source::Annotation,
                Source::Log,
                Source::Pod,
                Source::Event,
                Source::Workspace
            ]
        );
        let h = t.highlights.join("\n");
        assert!(h.contains("creation incomplete"), "{h}");
        assert!(h.contains("provider restarted at 2024-11-30T11:00:30Z, between create-pending"), "{h}");
        assert!(h.contains("create ended with tfID \"mrk-9\" but the external-name is \"mrk-2\""), "{h}");
        assert!(h.contains("external-name took 2 values"), "{h}");
        assert!(!h.contains("Terraform workspace holds"), "workspace agrees with the external-name: {h}");
    }
}
