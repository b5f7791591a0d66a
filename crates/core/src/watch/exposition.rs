//! The watch's state as metric families, the names docs/metrics.md documents (an interface:
//! alerts and dashboards match on them). Pure: the shell encodes the families in Prometheus's
//! text format. Only MRs with findings get series of their own, so a large healthy fleet
//! exports a few series per kind.

use super::{KindId, State};
use crate::finding::{Code, Severity};
use crate::gotime::GoTime;
use std::collections::BTreeMap;

/// A Prometheus metric type, as the text format names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricType {
    /// A value that goes up and down.
    Gauge,
    /// A value that only goes up (its name ends in `_total`).
    Counter,
}

/// One series: its labels, in the family's label order, and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Label names and values.
    pub labels: Vec<(&'static str, String)>,
    /// The value.
    pub value: f64,
}

/// One metric family.
#[derive(Clone, Debug, PartialEq)]
pub struct Family {
    /// The metric name.
    pub name: &'static str,
    /// Its help text.
    pub help: &'static str,
    /// Gauge or counter.
    pub kind: MetricType,
    /// Its series.
    pub series: Vec<Series>,
}

/// What the shell counts as the watch runs: events, relists, journal records, restarts.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// Watch events handled (every kind, every list item included).
    pub events: u64,
    /// Relists by reason (`expired`: a 410 on the watch; `error`: a failed watch or list;
    /// `crd`: a kind's CRD changed).
    pub relists: BTreeMap<String, u64>,
    /// Identity records appended to the journal.
    pub journal_records: u64,
    /// Provider restarts seen, by provider (container restarts and new revisions' pods).
    pub provider_restarts: BTreeMap<String, u64>,
}

fn family(name: &'static str, help: &'static str, kind: MetricType, series: Vec<Series>) -> Family {
    Family { name, help, kind, series }
}

fn one(value: f64) -> Vec<Series> {
    vec![Series { labels: Vec::new(), value }]
}

fn flag(b: bool) -> f64 {
    if b { 1.0 } else { 0.0 }
}

/// Every family the watch exports, at `now` (the age of incomplete creates).
pub fn families(state: &State, counters: &Counters, now: GoTime) -> Vec<Family> {
    use MetricType::{Counter, Gauge};
    let by = |labels: Vec<(&'static str, String)>, value: f64| Series { labels, value };
    let counted = |map: &BTreeMap<String, u64>, label: &'static str| -> Vec<Series> {
        map.iter().map(|(k, v)| by(vec![(label, k.clone())], *v as f64)).collect()
    };
    vec![
        family(
            "upjet_managed_resource_finding",
            "1 for each finding present now on an MR (one series per MR and code; removed when it clears).",
            Gauge,
            finding_series(state),
        ),
        family(
            "upjet_managed_resource_create_pending_seconds",
            "Seconds since create-pending for each MR whose create has no result and is past the providers' reconcile timeout (stuck at the create-incomplete gate).",
            Gauge,
            pending_series(state, now),
        ),
        family(
            "upjet_restart_duplicates",
            "MRs a provider restart would create twice now, by API group.",
            Gauge,
            state.restart_duplicates.iter().map(|(g, n)| by(vec![("group", g.clone())], *n as f64)).collect(),
        ),
        family(
            "upjet_external_name_shared",
            "External-names held by more than one MR of one kind.",
            Gauge,
            shared_series(state),
        ),
        family("upjet_findings", "Findings present now, by code and severity.", Gauge, totals(state)),
        family(
            "upjet_managed_resources",
            "MRs under watch, by API group and kind.",
            Gauge,
            state
                .kinds
                .iter()
                .filter(|(_, s)| s.exported())
                .map(|((g, k), s)| by(vec![("group", g.clone()), ("kind", k.clone())], s.count as f64))
                .collect(),
        ),
        family("upjet_watch_kinds", "MR kinds under watch.", Gauge, one(state.kinds.len() as f64)),
        family(
            "upjet_watch_synced",
            "1 once every kind's first list was judged and no kind is relisting; 0 while the watch is blind.",
            Gauge,
            one(flag(state.synced())),
        ),
        family(
            "upjet_watch_relists_total",
            "Relists of a kind, by reason.",
            Counter,
            counted(&counters.relists, "reason"),
        ),
        family("upjet_watch_events_total", "Watch events handled.", Counter, one(counters.events as f64)),
        family(
            "upjet_journal_records_total",
            "Identity records appended to the ID journal.",
            Counter,
            one(counters.journal_records as f64),
        ),
        family(
            "upjet_provider_restarts_total",
            "Provider container restarts and new revisions seen, by provider.",
            Counter,
            counted(&counters.provider_restarts, "provider"),
        ),
    ]
}

/// The families of several clusters' watches as one exposition (one metrics server for a watch
/// of several contexts): every series gets a `context` label first, the families keep their
/// order. A watch of one cluster never goes through here, so each metric name has one label
/// set per process: with `context` when several contexts are watched, without otherwise.
pub fn by_context(per_context: Vec<(String, Vec<Family>)>) -> Vec<Family> {
    let mut merged: Vec<Family> = Vec::new();
    for (context, families) in per_context {
        for mut family in families {
            for series in &mut family.series {
                series.labels.insert(0, ("context", context.clone()));
            }
            match merged.iter_mut().find(|m| m.name == family.name) {
                Some(m) => m.series.append(&mut family.series),
                None => merged.push(family),
            }
        }
    }
    merged
}

/// One series per (MR, code) present now, then per finding about the cluster (the guard's: no
/// provider config).
fn finding_series(state: &State) -> Vec<Series> {
    let mut keys: Vec<_> = state.mrs.iter().filter(|(_, t)| !t.findings.is_empty()).collect();
    keys.sort_by(|a, b| a.0.cmp(b.0));
    let held =
        keys.into_iter().map(|(key, t)| (&**key, &t.findings, t.mr.provider_config.as_ref().map(ToString::to_string)));
    let others = state.others.iter().map(|(key, seen)| (key, seen, None));
    let mut out = Vec::new();
    for (key, findings, provider_config) in held.chain(others) {
        for f in findings {
            out.push(Series {
                labels: vec![
                    ("code", f.code.to_string()),
                    ("severity", f.severity.to_string()),
                    ("group", key.group.clone()),
                    ("kind", key.kind.clone()),
                    ("namespace", key.namespace.clone().unwrap_or_default()),
                    ("name", key.name.clone()),
                    ("provider_config", provider_config.clone().unwrap_or_default()),
                ],
                value: 1.0,
            });
        }
    }
    out
}

/// The age of each create stuck at the create-incomplete gate: crossplane-runtime's
/// `ExternalCreateIncomplete`, once the reconcile that marked it pending can no longer record a
/// result (a create still within the reconcile timeout is not stuck, and has no series).
fn pending_series(state: &State, now: GoTime) -> Vec<Series> {
    state
        .stuck_creates(now)
        .map(|(key, at)| (key, at.nanos_until(&now).max(0) as f64 / 1e9))
        .map(|(key, value)| Series {
            labels: vec![
                ("group", key.group.clone()),
                ("kind", key.kind.clone()),
                ("namespace", key.namespace.clone().unwrap_or_default()),
                ("name", key.name.clone()),
            ],
            value,
        })
        .collect()
}

/// Per kind: how many external-names more than one acting MR holds, a legacy kind and its `.m.`
/// twin counted as one (every kind a watcher follows, 0 included).
fn shared_series(state: &State) -> Vec<Series> {
    let mut per_kind: BTreeMap<&KindId, usize> =
        state.kinds.iter().filter(|(_, s)| s.exported()).map(|(k, _)| (k, 0)).collect();
    let fights = state.names.fights_per_kind();
    for (kind, n) in &fights {
        *per_kind.entry(kind).or_default() += n;
    }
    per_kind
        .into_iter()
        .map(|((g, k), n)| Series { labels: vec![("group", g.clone()), ("kind", k.clone())], value: n as f64 })
        .collect()
}

/// Findings present now by code and severity.
fn totals(state: &State) -> Vec<Series> {
    let mut counts: BTreeMap<(Code, Severity), usize> = BTreeMap::new();
    for f in state.mrs.values().flat_map(|t| &t.findings).chain(state.others.values().flatten()) {
        *counts.entry((f.code, f.severity)).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|((code, severity), n)| Series {
            labels: vec![("code", code.to_string()), ("severity", severity.to_string())],
            value: n as f64,
        })
        .collect()
}
