//! Kinds installed or removed while the watch runs: the CRD watcher's objects reduced to what
//! a kind's watcher needs (`evidence::crd`), a new kind of the `managed` category followed at
//! once, a deleted one dropped with its findings.

use super::{Loop, Seen};
use crate::cluster::kinds::ApiKind;
use crate::domain::watch::Change;
use crate::evidence::crd::{self, CrdSummary};

/// The kind a CRD serves, at its storage version (every served version reads the same objects).
fn kind_of(summary: &CrdSummary) -> Option<ApiKind> {
    Some(ApiKind {
        group: summary.group.clone(),
        version: summary.versions.first()?.clone(),
        plural: summary.plural.clone(),
        singular: summary.kind.to_lowercase(),
        kind: summary.kind.clone(),
        namespaced: summary.namespaced,
        short_names: Vec::new(),
        categories: summary.categories.clone(),
    })
}

impl Loop {
    /// One event of the CRD watcher.
    pub(super) fn on_crd(&mut self, seen: Seen<serde_json::Value>) -> Vec<Change> {
        match seen {
            Seen::Applied(obj) => {
                if let Some(kind) = crd::from_value(&obj).ok().filter(CrdSummary::is_managed).as_ref().and_then(kind_of)
                {
                    let id = (kind.group.clone(), kind.kind.clone());
                    if !self.tasks.contains_key(&id) {
                        self.say(format!("new managed kind {}.{}: watching it", kind.plural, kind.group));
                        self.follow(kind);
                    }
                }
                Vec::new()
            }
            Seen::Deleted(obj) => match crd::from_value(&obj) {
                Ok(summary) => {
                    let id = (summary.group.clone(), summary.kind.clone());
                    if !self.tasks.contains_key(&id) {
                        return Vec::new();
                    }
                    self.say(format!("the CRD {} was deleted: no longer watching its kind", summary.name));
                    self.unfollow(&id)
                }
                Err(_) => Vec::new(),
            },
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
}
