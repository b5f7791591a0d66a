//! The guard's findings under watch: each look at the guard (every `--resync`) checks its lock
//! against every MR held and judges the guard's rules over the kinds followed, and the state
//! answers with what appeared or cleared, as for an MR. They are about the cluster (the guard,
//! its lock), kept apart from the MRs under the resource they name, and exported like an MR's.

use super::{Change, MrKey, Seen, State, Transition};
use crate::finding::Code;
use crate::guard::facts::{Fetched, GuardFacts, LockFacts};
use crate::guard::installed::Installed;
use crate::guard::kind::GuardKind;
use crate::report::ReportFinding;
use crate::rules;

impl State {
    /// The guard as just read (`lock`: when its identity-locked rule is bound), judged over
    /// `kinds` and the MRs held. What could not be read changes nothing: the guard's policies
    /// unread keep every guard finding as it was, its lock unread keeps `GuardLockStale`'s.
    pub fn guard(
        &mut self,
        admission: &Fetched<Installed>,
        mut lock: Option<LockFacts>,
        kinds: &[GuardKind],
    ) -> Vec<Change> {
        if matches!(admission, Fetched::Failed(_)) {
            return Vec::new();
        }
        if let Some(lock) = &mut lock {
            for tracked in self.mrs.values() {
                lock.check(&tracked.mr);
            }
        }
        let lock_unread = matches!(lock.as_ref().map(|l| &l.view), Some(Fetched::Failed(_)));
        let facts = GuardFacts { kinds, admission, lock: lock.as_ref() };
        let mut fresh: Vec<(MrKey, Seen)> = rules::guard_findings(&facts).into_iter().map(seen).collect();
        if lock_unread {
            fresh.extend(
                self.others
                    .iter()
                    .flat_map(|(k, s)| s.iter().map(move |s| (k.clone(), s.clone())))
                    .filter(|(_, s)| s.code == Code::GuardLockStale),
            );
        }
        let old = std::mem::take(&mut self.others);
        let change = |transition, key: &MrKey, finding: &Seen| Change {
            transition,
            key: key.clone(),
            provider_config: None,
            finding: finding.clone(),
        };
        let held = |set: &[(MrKey, Seen)], key: &MrKey, code: Code| set.iter().any(|(k, s)| k == key && s.code == code);
        let mut changes: Vec<Change> = old
            .iter()
            .flat_map(|(k, seen)| seen.iter().map(move |s| (k, s)))
            .filter(|(k, s)| !held(&fresh, k, s.code))
            .map(|(k, s)| change(Transition::Cleared, k, s))
            .collect();
        for (key, s) in &fresh {
            if !old.get(key).is_some_and(|o| o.iter().any(|o| o.code == s.code)) {
                changes.push(change(Transition::Appeared, key, s));
            }
            self.others.entry(key.clone()).or_default().push(s.clone());
        }
        changes
    }
}

/// A finding about the cluster as the watch keeps it: under the resource it names.
fn seen(f: ReportFinding) -> (MrKey, Seen) {
    let r = f.resource;
    let group = r.api_version.rsplit_once('/').map(|(g, _)| g.to_string()).unwrap_or_default();
    let key = MrKey { group, kind: r.kind, namespace: r.namespace, name: r.name };
    let f = f.finding;
    (key, Seen { code: f.code, severity: f.severity, message: f.message, next: f.next })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotime::GoTime;
    use crate::guard::lock::stale::{LockView, Stale};
    use crate::guard::settings::GuardSettings;
    use crate::managed::keys;
    use crate::testing::Mr;
    use serde_json::{Value, json};

    fn vpc() -> GuardKind {
        GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false)
    }

    fn installed(kinds: &[GuardKind]) -> Fetched<Installed> {
        let set = crate::guard::build(kinds, &GuardSettings::default(), &[]);
        let policies: Vec<Value> = set.validating.iter().map(|p| p.policy.clone()).collect();
        let bindings: Vec<Value> = set.validating.iter().map(|p| p.binding.clone()).collect();
        Fetched::Got(Installed::of(&policies, &bindings))
    }

    fn lock(entries: Value) -> Option<LockFacts> {
        let shard = json!({"metadata": {"name": "kubectl-upjet-lock-0000"}, "spec": {"entries": entries}});
        Some(LockFacts { view: Fetched::Got(LockView::of(&[shard])), stale: Stale::default() })
    }

    fn codes(changes: &[Change]) -> Vec<(Transition, Code, &str)> {
        changes.iter().map(|c| (c.transition, c.finding.code, c.key.name.as_str())).collect()
    }

    #[test]
    fn guard_findings_appear_and_clear_look_after_look() {
        let now = GoTime::parse_rfc3339("2024-11-30T12:00:00Z").unwrap();
        let mut state = State::default();
        let mr = Mr::new("VPC", "main")
            .api_version("ec2.aws.upbound.io/v1beta1")
            .external_name("vpc-1")
            .annotation(keys::CREATE_SUCCEEDED, "2024-01-01T00:00:00Z")
            .build();
        state.apply(mr, now);
        let kinds = [vpc()];
        let missing = state.guard(&Fetched::Got(Installed::default()), None, &kinds);
        assert_eq!(codes(&missing), [(Transition::Appeared, Code::GuardMissing, "kubectl-upjet-guard")]);
        assert!(state.guard(&Fetched::Got(Installed::default()), None, &kinds).is_empty(), "still missing: no change");
        let stale = state.guard(&installed(&kinds), lock(json!({})), &kinds);
        assert_eq!(
            codes(&stale),
            [
                (Transition::Cleared, Code::GuardMissing, "kubectl-upjet-guard"),
                (Transition::Appeared, Code::GuardLockStale, "kubectl-upjet-lock"),
            ]
        );
        let unread = Some(LockFacts { view: Fetched::Failed("forbidden".into()), stale: Stale::default() });
        assert!(state.guard(&installed(&kinds), unread, &kinds).is_empty(), "an unread lock keeps what was judged");
        assert!(state.guard(&Fetched::Failed("forbidden".into()), None, &kinds).is_empty(), "so does an unread guard");
        let current = state.guard(&installed(&kinds), lock(json!({"ec2.aws.upbound.io/VPC//main": "vpc-1"})), &kinds);
        assert_eq!(codes(&current), [(Transition::Cleared, Code::GuardLockStale, "kubectl-upjet-lock")]);
        let bucket = GuardKind::new("s3.aws.upbound.io", "Bucket", "buckets", false);
        let partial =
            state.guard(&installed(&kinds), lock(json!({"ec2.aws.upbound.io/VPC//main": "vpc-1"})), &[vpc(), bucket]);
        assert_eq!(codes(&partial), [(Transition::Appeared, Code::GuardPartial, "kubectl-upjet-guard")]);
        assert_eq!(partial[0].key.group, "admissionregistration.k8s.io");
    }
}
