//! Provider restarts as the watch counts them, from successive looks at the provider pods.
//! Crossplane runs each active ProviderRevision as a Deployment whose pods carry the labels
//! `pkg.crossplane.io/provider` and `pkg.crossplane.io/revision` (crossplane
//! `internal/controller/pkg/revision/runtime_provider.go`, `providerSelectors`), so a restart is
//! either a container restart inside a pod (its `restartCount` grows) or a pod the provider did
//! not have before: a replaced pod, or the first pod of a new revision rolling out. Not the first
//! pod of a provider that ran none because its Deployment was at zero replicas: with safe-start
//! (crossplane `internal/controller/pkg/runtime`, `BuilderWithMRDs`) Crossplane keeps a provider
//! there until one of its ManagedResourceDefinitions is active, and its first pod is a start.

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
    /// The providers that ran no pod while their Deployment was at zero replicas, and had run
    /// none since the watch began: safe-start's wait.
    idle: BTreeSet<String>,
    /// The providers seen with a pod at some look.
    ran: BTreeSet<String>,
}

impl RestartCounter {
    /// Compares a new look with the last one: per provider that restarted, how often and which
    /// revisions are new. The first look only learns (what happened before the watch started is
    /// in the pods' start times, which the rules read). `scaled_to_zero` names the providers
    /// whose Deployment is at zero replicas at this look: a pod of a provider that was so at the
    /// last look and never ran one before is its start, not a restart.
    pub fn observe(&mut self, pods: &[PodSeen], scaled_to_zero: &[String]) -> BTreeMap<String, Restarted> {
        let mut out: BTreeMap<String, Restarted> = BTreeMap::new();
        for p in pods {
            if self.primed && !self.idle.contains(&p.provider) {
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
        self.ran.extend(pods.iter().map(|p| p.provider.clone()));
        self.idle = scaled_to_zero.iter().filter(|n| !self.ran.contains(*n)).cloned().collect();
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
        assert!(c.observe(&[pod("p-s3", "cs/s3-a", "s3-1", 3), pod("p-ec2", "cs/ec2-a", "ec2-1", 0)], &[]).is_empty());
        assert!(c.observe(&[pod("p-s3", "cs/s3-a", "s3-1", 3), pod("p-ec2", "cs/ec2-a", "ec2-1", 0)], &[]).is_empty());
        let got = c.observe(&[pod("p-s3", "cs/s3-a", "s3-1", 5), pod("p-ec2", "cs/ec2-a", "ec2-1", 0)], &[]);
        assert_eq!(got.len(), 1);
        assert_eq!(got["p-s3"], Restarted { count: 2, new_revisions: vec![] });
        // The s3 pod is replaced by one of a new revision; ec2's pod is replaced within its revision.
        let got = c.observe(&[pod("p-s3", "cs/s3-b", "s3-2", 0), pod("p-ec2", "cs/ec2-b", "ec2-1", 1)], &[]);
        assert_eq!(got["p-s3"], Restarted { count: 1, new_revisions: vec!["s3-2".into()] });
        assert_eq!(got["p-ec2"], Restarted { count: 2, new_revisions: vec![] });
        assert!(c.observe(&[pod("p-s3", "cs/s3-b", "s3-2", 0)], &[]).is_empty(), "a pod gone is no restart");
    }

    /// Safe-start: a provider whose Deployment waits at zero replicas has no pod; its first pod,
    /// once an MRD is active, is its start. A provider that ran a pod and lost it, or one whose
    /// Deployment nobody reported, counts its next pod as before.
    #[test]
    fn the_first_pod_of_a_provider_scaled_to_zero_is_a_start_not_a_restart() {
        let mut c = RestartCounter::default();
        let s3 = pod("p-s3", "cs/s3-a", "s3-1", 0);
        assert!(c.observe(std::slice::from_ref(&s3), &["p-ec2".into()]).is_empty());
        assert!(c.observe(std::slice::from_ref(&s3), &["p-ec2".into()]).is_empty());
        let woke = c.observe(&[s3.clone(), pod("p-ec2", "cs/ec2-a", "ec2-1", 0)], &[]);
        assert!(woke.is_empty(), "a start from zero replicas: {woke:?}");
        let replaced = c.observe(&[s3.clone(), pod("p-ec2", "cs/ec2-b", "ec2-1", 0)], &[]);
        assert_eq!(replaced["p-ec2"].count, 1, "a pod replaced after it started is a restart");
        // Scaled to zero by hand after it ran: its process stopped, so the next pod is a restart.
        assert!(c.observe(std::slice::from_ref(&s3), &["p-ec2".into()]).is_empty());
        assert_eq!(c.observe(&[s3, pod("p-ec2", "cs/ec2-c", "ec2-1", 0)], &[])["p-ec2"].count, 1);
        // Without the Deployment's word, a provider without pods that gets one is counted.
        let mut blind = RestartCounter::default();
        blind.observe(&[], &[]);
        assert_eq!(blind.observe(&[pod("p-ec2", "cs/ec2-a", "ec2-1", 0)], &[])["p-ec2"].count, 1);
    }
}
