//! Provider restarts as the watch counts them, from successive looks at the provider pods.
//! Crossplane runs each active ProviderRevision as a Deployment whose pods carry the labels
//! `pkg.crossplane.io/provider` and `pkg.crossplane.io/revision` (crossplane
//! `internal/controller/pkg/revision/runtime_provider.go`, `providerSelectors`), so a restart is
//! either a container restart inside a pod (its `restartCount` grows) or a pod the provider did
//! not have before: a replaced pod, or the first pod of a new revision rolling out.

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One provider pod as the counter sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodSeen {
    /// The provider (label `pkg.crossplane.io/provider`).
    pub provider: String,
    /// `namespace/name`.
    pub pod: String,
    /// The revision it runs (label `pkg.crossplane.io/revision`).
    pub revision: Option<String>,
    /// Its provider container's restart count.
    pub restarts: i64,
}

/// What one look found about one provider.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restarted {
    /// Container restarts and new pods since the last look.
    pub count: u64,
    /// Revisions that appeared since the last look (a rollout).
    pub new_revisions: Vec<String>,
}

/// The pods and revisions seen at the last look.
#[derive(Debug, Default)]
pub struct RestartCounter {
    primed: bool,
    restarts: HashMap<String, i64>,
    revisions: BTreeSet<String>,
}

impl RestartCounter {
    /// Compares a new look with the last one: per provider that restarted, how often and which
    /// revisions are new. The first look only learns (what happened before the watch started is
    /// in the pods' start times, which the rules read).
    pub fn observe(&mut self, pods: &[PodSeen]) -> BTreeMap<String, Restarted> {
        let mut out: BTreeMap<String, Restarted> = BTreeMap::new();
        for p in pods {
            if self.primed {
                let grew = match self.restarts.get(&p.pod) {
                    Some(before) => (p.restarts - before).max(0) as u64,
                    None => 1 + p.restarts.max(0) as u64,
                };
                let fresh = p.revision.as_ref().filter(|r| !self.revisions.contains(*r));
                if grew > 0 || fresh.is_some() {
                    let r = out.entry(p.provider.clone()).or_default();
                    r.count += grew;
                    if let Some(rev) = fresh.filter(|rev| !r.new_revisions.contains(rev)) {
                        r.new_revisions.push(rev.clone());
                    }
                }
            }
        }
        self.restarts = pods.iter().map(|p| (p.pod.clone(), p.restarts)).collect();
        self.revisions.extend(pods.iter().filter_map(|p| p.revision.clone()));
        self.primed = true;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(provider: &str, pod: &str, revision: &str, restarts: i64) -> PodSeen {
        PodSeen { provider: provider.into(), pod: pod.into(), revision: Some(revision.into()), restarts }
    }

    #[test]
    fn container_restarts_replaced_pods_and_new_revisions_are_counted_after_the_first_look() {
        let mut c = RestartCounter::default();
        assert!(c.observe(&[pod("p-s3", "cs/s3-a", "s3-1", 3), pod("p-ec2", "cs/ec2-a", "ec2-1", 0)]).is_empty());
        assert!(c.observe(&[pod("p-s3", "cs/s3-a", "s3-1", 3), pod("p-ec2", "cs/ec2-a", "ec2-1", 0)]).is_empty());
        let got = c.observe(&[pod("p-s3", "cs/s3-a", "s3-1", 5), pod("p-ec2", "cs/ec2-a", "ec2-1", 0)]);
        assert_eq!(got.len(), 1);
        assert_eq!(got["p-s3"], Restarted { count: 2, new_revisions: vec![] });
        // The s3 pod is replaced by one of a new revision; ec2's pod is replaced within its revision.
        let got = c.observe(&[pod("p-s3", "cs/s3-b", "s3-2", 0), pod("p-ec2", "cs/ec2-b", "ec2-1", 1)]);
        assert_eq!(got["p-s3"], Restarted { count: 1, new_revisions: vec!["s3-2".into()] });
        assert_eq!(got["p-ec2"], Restarted { count: 2, new_revisions: vec![] });
        assert!(c.observe(&[pod("p-s3", "cs/s3-b", "s3-2", 0)]).is_empty(), "a pod gone is no restart");
    }
}
