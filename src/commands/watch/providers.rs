//! What the watch follows beside the MRs: the provider pods (Provider → ProviderRevision →
//! pods, by the labels Crossplane puts on each revision's pods), their Deployments (a provider
//! safe-start keeps at zero replicas has no pod, and its first pod is a start, not a restart)
//! and, with `--logs`, their logs. Each look lists the pods, the Deployments and the
//! ProviderRevisions (which CRDs each provider installed)
//! and, with `--logs`, reads each provider container's log as `history` reads it (the same
//! scanner and extractors): all of it the first time, then what is new since the last look,
//! and the previous container's log whenever the container restarted, so no ID logged just
//! before a restart is missed. An ID seen twice is written once by the journal.

use super::Msg;
use crate::commands::evidence::{crd_owners, provider_deployments, provider_pods, read_pod_log_with, unreadable_log};
use crate::commands::resolve::Follow;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use upjet_cluster::connect::Connection;
use upjet_cluster::logs::LogLimits;
use upjet_cluster::providers::provider_for_kind;
use upjet_cluster::retry::RetryPolicy;
use upjet_core::gotime::GoTime;
use upjet_core::journal::{self, Record, Source};
use upjet_core::watch::restarts::PodSeen;
use upjet_core::watch::{Change, KindId};
use upjet_evidence::logs::Retention;
use upjet_evidence::pods::{self, ProviderDeployment, ProviderPod};
use upjet_output::watch as lines;

/// One look at the providers.
pub(super) struct Look {
    /// The provider pods.
    pub(super) pods: Vec<ProviderPod>,
    /// The providers' Deployments (`None` when they could not be listed): a provider that
    /// safe-start keeps at zero replicas has its Deployment and no pod.
    pub(super) deployments: Option<Vec<ProviderDeployment>>,
    /// CRD (`plural.group`) → provider, from the ProviderRevisions.
    pub(super) owners: HashMap<String, String>,
    /// IDs the providers logged as created since the last look.
    pub(super) logged: Vec<Logged>,
    /// What could not be read.
    pub(super) notes: Vec<String>,
}

/// One ID a provider logged as created for an MR.
pub(super) struct Logged {
    /// The MR's uid.
    pub(super) uid: String,
    /// The ID.
    pub(super) id: String,
    /// When it was logged (RFC 3339), when the line had a time.
    pub(super) time: Option<String>,
    /// The MR's name and namespace as the line names them.
    pub(super) name: Option<String>,
    /// Its namespace.
    pub(super) namespace: Option<String>,
}

/// Looks at the providers every `follow.every` until the loop goes away.
pub(super) fn spawn(conn: Arc<Connection>, follow: Follow, tx: mpsc::Sender<Msg>) {
    tokio::spawn(async move {
        let mut reader = LogReader::default();
        let mut tick = tokio::time::interval(follow.every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let look = look(&conn, &follow, &mut reader).await;
            if tx.send(Msg::Providers(Box::new(look))).await.is_err() {
                return;
            }
        }
    });
}

async fn look(conn: &Connection, follow: &Follow, reader: &mut LogReader) -> Look {
    let mut notes = Vec::new();
    let pods = match provider_pods(conn, follow.namespace.as_deref()).await {
        Ok(pods) => pods,
        Err(e) => {
            notes.push(format!("cannot list provider pods: {}", e.reason()));
            Vec::new()
        }
    };
    let deployments = match provider_deployments(conn, follow.namespace.as_deref()).await {
        Ok(d) => Some(d),
        Err(e) => {
            notes.push(format!("cannot list the providers' Deployments: {}", e.reason()));
            None
        }
    };
    let owners = crd_owners(conn).await;
    let logged = match follow.logs {
        true => reader.read(conn, &pods, follow.every, &mut notes).await,
        false => Vec::new(),
    };
    Look { pods, deployments, owners, logged, notes }
}

/// What was read of each container already: its restart count at the last read.
#[derive(Default)]
struct LogReader {
    read: HashMap<(String, String, String), i64>,
}

impl LogReader {
    /// Reads what is new in each provider container's log (and the previous container's log
    /// after a restart), returning the IDs logged as created.
    async fn read(
        &mut self,
        conn: &Connection,
        pods: &[ProviderPod],
        every: Duration,
        notes: &mut Vec<String>,
    ) -> Vec<Logged> {
        let policy = RetryPolicy::default();
        let mut out = Vec::new();
        for pod in pods {
            let key = (pod.namespace.clone(), pod.name.clone(), pod.container.clone());
            let before = self.read.get(&key).copied();
            let restarted = match before {
                Some(count) => pod.restart_count > count,
                None => pod.restart_count > 0 || pod.last_termination.is_some(),
            };
            // The first read takes the whole log; later ones what the last interval (with slack)
            // added: lines seen twice are written once by the journal.
            let since = before.map(|_| (every.as_secs() as i64) * 3 + 5);
            let mut jobs = vec![(false, since)];
            if restarted {
                jobs.insert(0, (true, None));
            }
            for (previous, since_seconds) in jobs {
                let limits = LogLimits { since_seconds, limit_bytes: Some(64 * 1024 * 1024) };
                match read_pod_log_with(conn, pod, previous, limits, Retention::Compact, &policy).await {
                    Ok((evidence, _)) => out.extend(created(evidence)),
                    Err(e) => notes.push(unreadable_log(pod, previous, &e)),
                }
            }
            self.read.insert(key, pod.restart_count);
        }
        out
    }
}

/// The IDs a log's evidence reports as just created, with the MR they were created for.
fn created(evidence: Vec<upjet_evidence::logs::Evidence>) -> impl Iterator<Item = Logged> {
    evidence.into_iter().filter(|e| !e.uid.is_empty()).flat_map(|e| {
        let time = e.time.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        e.created
            .into_iter()
            .filter(|id| upjet_core::candidate::usable(id))
            .map(move |id| Logged {
                uid: e.uid.clone(),
                id,
                time: time.clone(),
                name: e.mr.name.clone(),
                namespace: e.mr.namespace.clone(),
            })
            .collect::<Vec<_>>()
    })
}

impl super::Loop {
    /// One look at the providers: the IDs logged become journal records (source `log`); a
    /// provider whose pods started anew has its MRs judged again at once with its new starts,
    /// its restarts are counted, and the MRs of its kinds that hold no external-name while the
    /// journal holds an ID for them are named.
    pub(super) fn on_providers(
        &mut self,
        look: Look,
        now: GoTime,
        records: &mut Vec<Record>,
        out: &mut dyn Write,
    ) -> anyhow::Result<Vec<Change>> {
        for note in look.notes {
            self.say(note);
        }
        if !look.logged.is_empty() {
            records.extend(self.log_records(look.logged, now));
        }
        let seen: Vec<PodSeen> = look
            .pods
            .iter()
            .map(|p| PodSeen {
                provider: p.provider.clone(),
                pod: format!("{}/{}", p.namespace, p.name),
                revision: p.revision.clone(),
                restarts: p.restart_count,
            })
            .collect();
        let idle = pods::scaled_to_zero(&look.pods, look.deployments.as_deref().unwrap_or_default());
        for d in &idle {
            self.say(format!(
                "{}: its Deployment {}/{} runs no pod (scaled to zero until one of its ManagedResourceDefinitions is active): its first pod will be a start, not a restart",
                d.provider, d.namespace, d.name
            ));
        }
        let idle: Vec<String> = idle.into_iter().map(|d| d.provider.clone()).collect();
        let restarted = self.restarts.observe(&seen, &idle);
        let starts = pods::provider_starts(&look.pods);
        let names: Vec<String> = starts.keys().cloned().collect();
        let mut served: HashMap<String, Vec<KindId>> = HashMap::new();
        for (id, followed) in &self.followed {
            if let Some(p) = provider_for_kind(&followed.api, &look.owners, &names) {
                served.entry(p).or_default().push(id.clone());
            }
        }
        let mut changes = Vec::new();
        for (provider, s) in starts {
            if self.starts_given.get(&provider) == Some(&s) {
                continue;
            }
            let kinds = served.get(&provider).cloned().unwrap_or_default();
            changes.extend(self.lock().state.provider_started(&kinds, s.clone(), now));
            self.starts_given.insert(provider, s);
        }
        for (provider, r) in &restarted {
            *self.lock().counters.provider_restarts.entry(provider.clone()).or_default() += r.count;
            lines::write_restart(out, now, provider, r.count, &r.new_revisions, self.json)?;
            let kinds = served.get(provider).cloned().unwrap_or_default();
            self.name_journal_only(&kinds, now, out)?;
        }
        Ok(changes)
    }

    /// The journal records of IDs a provider logged, each with the MR the watch holds under
    /// its uid (or what the line named, for an MR not held).
    fn log_records(&self, logged: Vec<Logged>, now: GoTime) -> Vec<Record> {
        let w = self.lock();
        let by_uid = w.state.mrs_by_uid();
        logged
            .into_iter()
            .map(|l| {
                let held = by_uid.get(l.uid.as_str());
                Record {
                    time: l.time.unwrap_or_else(|| now.to_string()),
                    group: held.map(|m| m.group().to_string()).unwrap_or_default(),
                    kind: held.map(|m| m.kind.clone()).unwrap_or_default(),
                    namespace: held.map_or(l.namespace, |m| m.namespace.clone()),
                    name: held.map_or(l.name.unwrap_or_default(), |m| m.name.clone()),
                    uid: l.uid,
                    source: Source::Log,
                    id: l.id,
                    composite: None,
                    resource: None,
                }
            })
            .collect()
    }

    /// Names the MRs of `kinds` without an external-name whose ID the journal holds.
    fn name_journal_only(&self, kinds: &[KindId], now: GoTime, out: &mut dyn Write) -> std::io::Result<()> {
        let Some(journal) = &self.journal else { return Ok(()) };
        let lost = self.lock().state.without_external_name(kinds);
        let uids: HashSet<&str> = lost.iter().map(|(_, uid)| uid.as_str()).collect();
        let known = journal.latest_ids(&uids);
        for (key, uid) in &lost {
            let Some(ids) = known.get(uid) else { continue };
            let records: Vec<Record> = ids
                .iter()
                .map(|(source, id)| Record {
                    time: String::new(),
                    uid: uid.clone(),
                    group: key.group.clone(),
                    kind: key.kind.clone(),
                    namespace: key.namespace.clone(),
                    name: key.name.clone(),
                    source: *source,
                    id: id.clone(),
                    composite: None,
                    resource: None,
                })
                .collect();
            if let Some(best) = journal::best_first(&records).first() {
                lines::write_journal_only(out, now, key, &best.id, self.json)?;
            }
        }
        out.flush()
    }
}
