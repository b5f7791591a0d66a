//! `watch --events`: a Kubernetes Event on the MR each time an error finding appears, reason =
//! the finding's code, deduplicated as client-go's recorder does (`domain::watch::events`). The
//! writes go through one task, in order (a patch follows the create it patches), so a slow or
//! refusing API server never holds up the watch; a refusal is said once.

use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::mpsc;
use upjet_cluster::connect::Connection;
use upjet_cluster::events::{create_event, patch_event};
use upjet_core::finding::Severity;
use upjet_core::gotime::GoTime;
use upjet_core::watch::events::{Correlator, Draft, Involved, Write};
use upjet_core::watch::{Change, State, Transition};

/// Records the Events of the error findings that appear.
pub(super) struct Recorder {
    correlator: Correlator,
    tx: mpsc::UnboundedSender<Write>,
}

impl Recorder {
    /// Starts the writer task.
    pub(super) fn start(conn: Arc<Connection>) -> Recorder {
        let (tx, mut rx) = mpsc::unbounded_channel::<Write>();
        tokio::spawn(async move {
            let mut said = HashSet::new();
            while let Some(write) = rx.recv().await {
                if let Err(why) = send(&conn, write).await
                    && said.insert(why.clone())
                {
                    eprintln!("{}", upjet_output::style::sanitize(&why));
                }
            }
        });
        Recorder { correlator: Correlator::default(), tx }
    }

    /// Records an Event for each error finding that appeared among `changes`.
    pub(super) fn record(&mut self, changes: &[Change], state: &State, now: GoTime) {
        for c in
            changes.iter().filter(|c| c.transition == Transition::Appeared && c.finding.severity == Severity::Error)
        {
            let Some(mr) = state.mr(&c.key) else { continue };
            let draft = Draft {
                involved: Involved {
                    api_version: mr.api_version.clone(),
                    kind: mr.kind.clone(),
                    namespace: mr.namespace.clone(),
                    name: mr.name.clone(),
                    uid: mr.uid.clone(),
                },
                reason: c.finding.code.to_string(),
                message: c.finding.message.clone(),
            };
            let _ = self.tx.send(self.correlator.record(&draft, now));
        }
    }
}

/// Sends one write; a patch of an Event that expired becomes its create (client-go does the same).
async fn send(conn: &Connection, write: Write) -> Result<(), String> {
    let result = match write {
        Write::Create { namespace, event } => create_event(conn, &namespace, &event).await,
        Write::Patch { namespace, name, patch, event } => match patch_event(conn, &namespace, &name, &patch).await {
            Err(e) if e.status_code() == Some(404) => create_event(conn, &namespace, &event).await,
            other => other,
        },
    };
    result.map_err(|e| format!("cannot record an Event (--events): {}", e.reason()))
}
