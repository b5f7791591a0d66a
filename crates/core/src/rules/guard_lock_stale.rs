//! `GuardLockStale`: the guard's identity-locked rule is bound, but its lock does not hold what
//! the MRs are: an MR's identity (`lock::entries::locked_id`) it lacks — that MR deleted and
//! applied again without its ID is not refused — or holds with another ID — its own re-apply is
//! refused (an adoption moved it since). Its CRD not installed is the same, for every identity.
//! Where the lock could not be read (403), nothing is reported here: the shell notes it. A
//! finding about the lock, not an MR.

use crate::finding::{Code, Finding};
use crate::guard::facts::{Fetched, GuardFacts, LOCK_CRD, about, listed, lock_resource, mr_reference};
use crate::guard::lock::stale::Stale;
use crate::guard::rule::GuardRule;
use crate::report::ReportFinding;

/// Writing every MR's identity into the lock.
pub const LOCK: &str = "kubectl upjet guard lock";

/// At most one finding.
pub(super) fn check(facts: &GuardFacts) -> Option<ReportFinding> {
    if !facts.installed()?.bound(GuardRule::IdentityLocked) {
        return None;
    }
    let lock = facts.lock?;
    let stale = &lock.stale;
    let (message, next, shards) = match &lock.view {
        Fetched::Got(view) if stale.any() => (missed(stale), LOCK.to_string(), Some(view)),
        Fetched::NotServed if stale.checked > 0 => (
            format!(
                "the guard's identity-locked rule is bound but its lock's CRD {LOCK_CRD} is not installed: the rule reads no lock and lets every re-create through; {} MRs have an identity to lock",
                stale.checked
            ),
            format!("{} && {LOCK}", super::guard_partial::PRINT_AGAIN),
            None,
        ),
        _ => return None,
    };
    let mut finding = Finding::new(Code::GuardLockStale, message, next)
        .with("checked", stale.checked.to_string())
        .with("lacking", stale.lacking.to_string())
        .with("differing", stale.differing.to_string());
    if !stale.sample.is_empty() {
        finding = finding.with("sample", sample(stale));
    }
    if let Some(view) = shards {
        finding = finding.with("shards", view.shards.to_string());
        if !view.unreadable.is_empty() {
            finding = finding.with("unreadableShards", view.unreadable.join("; "));
        }
    }
    Some(about(lock_resource(), finding, facts))
}

fn missed(stale: &Stale) -> String {
    let mut what = Vec::new();
    if stale.lacking > 0 {
        what.push(format!(
            "lacks {} of the {} MR identities (such an MR deleted and applied again without its ID is not refused)",
            stale.lacking, stale.checked
        ));
    }
    if stale.differing > 0 {
        what.push(format!("holds another ID for {} (their own re-apply would be refused)", stale.differing));
    }
    format!("the guard's lock {}: {}", what.join(" and "), sample(stale))
}

/// The sampled MRs: `kind.group/name (ID; the lock: ID or none)`.
fn sample(stale: &Stale) -> String {
    let items = stale.sample.iter().map(|(key, miss)| {
        let held = if miss.held.is_empty() { "none".to_string() } else { miss.held.join(", ") };
        format!("{} ({}; the lock: {held})", mr_reference(key), miss.id)
    });
    let more = stale.lacking + stale.differing - stale.sample.len();
    let mut text = listed(items, usize::MAX);
    if more > 0 {
        text.push_str(&format!(", … and {more} more"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::facts::LockFacts;
    use crate::guard::installed::Installed;
    use crate::guard::kind::GuardKind;
    use crate::guard::lock::stale::LockView;
    use crate::guard::settings::GuardSettings;
    use crate::managed::keys;
    use crate::testing::Mr;
    use serde_json::{Value, json};

    fn kinds() -> Vec<GuardKind> {
        vec![GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false)]
    }

    fn installed(locked: bool) -> Fetched<Installed> {
        let set = crate::guard::build(&kinds(), &GuardSettings::default(), &[]);
        let policies: Vec<Value> = set.validating.iter().map(|p| p.policy.clone()).collect();
        let bindings: Vec<Value> = set
            .validating
            .iter()
            .filter(|p| locked || p.rule != GuardRule::IdentityLocked)
            .map(|p| p.binding.clone())
            .collect();
        Fetched::Got(Installed::of(&policies, &bindings))
    }

    fn shard(entries: Value) -> Value {
        json!({"metadata": {"name": "kubectl-upjet-lock-0000"}, "spec": {"entries": entries}})
    }

    /// The lock read (`None`: its CRD not served) checked against a VPC `main` created as vpc-1.
    fn lock(shards: Option<Vec<Value>>) -> LockFacts {
        let view = shards.map(|s| LockView::of(&s));
        let mr = Mr::new("VPC", "main")
            .api_version("ec2.aws.upbound.io/v1beta1")
            .external_name("vpc-1")
            .annotation(keys::CREATE_SUCCEEDED, "2024-01-01T00:00:00Z")
            .build();
        let mut stale = Stale::default();
        view.clone().unwrap_or_default().check(&mr, &mut stale);
        LockFacts { view: view.map_or(Fetched::NotServed, Fetched::Got), stale }
    }

    /// (case, identity-locked bound, the lock, words in the message and next; `None`: none)
    type Case = (&'static str, bool, fn() -> LockFacts, Option<(&'static str, &'static str)>);

    const CASES: &[Case] = &[
        ("current", true, || lock(Some(vec![shard(json!({"ec2.aws.upbound.io/VPC//main": "vpc-1"}))])), None),
        (
            "lacks it",
            true,
            || lock(Some(vec![shard(json!({}))])),
            Some(("lacks 1 of the 1 MR identities", "vpc.ec2.aws.upbound.io/main (vpc-1; the lock: none)")),
        ),
        (
            "holds another",
            true,
            || lock(Some(vec![shard(json!({"ec2.aws.upbound.io/VPC//main": "vpc-0"}))])),
            Some(("holds another ID for 1", "(vpc-1; the lock: vpc-0)")),
        ),
        ("no shard yet", true, || lock(Some(vec![])), Some(("lacks 1 of the 1", LOCK))),
        ("the CRD not installed", true, || lock(None), Some(("is not installed", "&& kubectl upjet guard lock"))),
        ("identity-locked not bound: no lock to keep", false, || lock(Some(vec![])), None),
        (
            "unread",
            true,
            || LockFacts { view: Fetched::Failed("forbidden (403)".into()), stale: Stale::default() },
            None,
        ),
    ];

    #[test]
    fn table() {
        for (name, bound, lock, want) in CASES {
            let (kinds, admission, lock) = (kinds(), installed(*bound), lock());
            let got = check(&GuardFacts { kinds: &kinds, admission: &admission, lock: Some(&lock) });
            match (want, got) {
                (None, None) => {}
                (Some((words, more)), Some(f)) => {
                    let text = format!("{} | {} | {:?}", f.finding.message, f.finding.next, f.finding.evidence);
                    assert!(text.contains(words) && text.contains(more), "{name}: {text}");
                    assert_eq!(f.finding.severity, Code::GuardLockStale.severity());
                    assert_eq!(
                        (f.resource.kind.as_str(), f.resource.name.as_str()),
                        ("IdentityLock", "kubectl-upjet-lock")
                    );
                }
                (want, got) => panic!("{name}: wanted {want:?}, got {got:?}"),
            }
        }
    }
}
