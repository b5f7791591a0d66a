//! Kinds installed or removed while the watch runs. The CRDs are watched by their metadata
//! alone; a name not seen before is fetched once (`cluster::watch::crd`, schemas skipped) and,
//! when it serves a kind of the `managed` category, that kind is watched at once; a deleted CRD's
//! kind is dropped with its findings.

use super::{Loop, Msg, Seen};
use crate::commands::evidence::served_kind;
use upjet_cluster::watch::{self as watching, FromJson};
use upjet_core::watch::Change;
use upjet_core::watch::kinds::{Event, Look};
use upjet_evidence::crd::{self, CrdSummary};

/// A CRD fetched by name, read by the schema-skipping reader: the cluster shell's watch decodes
/// through `FromJson`, and neither it nor the evidence reader may name the other, so the wiring
/// joins them here.
#[derive(Clone, Debug)]
struct Fetched(CrdSummary);

impl FromJson for Fetched {
    fn from_json(json: &str) -> Result<Self, String> {
        crd::parse(json).map(Fetched).map_err(|e| e.to_string())
    }
}

impl Loop {
    /// One event of the CRD watcher (a CRD's name).
    pub(super) fn on_crd(&mut self, seen: Seen<String>) -> Vec<Change> {
        match seen {
            Seen::Applied(name) => {
                if self.crds_seen.insert(name.clone()) {
                    let (conn, tx) = (self.conn.clone(), self.tx.clone());
                    tokio::spawn(async move {
                        let found = watching::crd::<Fetched>(&conn, &name).await.map(|c| c.map(|f| Box::new(f.0)));
                        let _ = tx.send(Msg::CrdFetched(name, found)).await;
                    });
                }
                Vec::new()
            }
            Seen::Deleted(name) => {
                self.crds_seen.remove(&name);
                let Some(id) = self.followed.iter().find(|(_, f)| f.crd_name() == name).map(|(id, _)| id.clone())
                else {
                    return Vec::new();
                };
                self.say(format!("the CRD {name} was deleted: no longer watching its kind"));
                self.unfollow(&id)
            }
            Seen::Failed(f) => {
                let note = format!(
                    "cannot watch CustomResourceDefinitions (kinds installed later are not picked up): {}",
                    f.reason
                );
                self.say(note);
                Vec::new()
            }
            Seen::Listing | Seen::ListDone | Seen::Unreadable(_) => Vec::new(),
        }
    }

    /// A CRD not seen before, fetched: its kind is followed and watched at once when it is a
    /// managed kind (installed later: MRs are about to come).
    pub(super) fn on_crd_fetched(&mut self, name: String, found: Result<Option<Box<CrdSummary>>, String>) {
        match found {
            Ok(None) => {
                self.crds_seen.remove(&name);
            }
            Ok(Some(summary)) => {
                let Some(kind) = Some(&*summary).filter(|s| s.is_managed()).and_then(served_kind) else { return };
                let id = (kind.group.clone(), kind.kind.clone());
                let plural = kind.plural.clone();
                if self.track(kind) {
                    self.say(format!("new managed kind {plural}.{}: watching it", id.0));
                    self.kind_event(&id, Event::Look(Look::Populated));
                }
            }
            Err(why) => {
                self.crds_seen.remove(&name);
                self.say(format!("cannot read the CRD {name}: {why}"));
            }
        }
    }
}
