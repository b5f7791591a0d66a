//! `GuardMissing`: the cluster serves ValidatingAdmissionPolicies, but none of the guard's is
//! bound (no policy, or policies without a binding, which judge nothing): every write that drops
//! or changes an MR's external-name is accepted without a word. Info: many clusters run without
//! it. A finding about the cluster, not an MR; where the policies could not be read (403) or the
//! API is not served (before v1.30), nothing is reported here: the shell notes it.

use crate::finding::{Code, Finding};
use crate::guard::facts::{GuardFacts, about, guard_resource};
use crate::report::ReportFinding;

/// How to install the guard, in Audit first.
pub(crate) const INSTALL: &str = "kubectl upjet guard --audit | kubectl apply -f -";

/// At most one finding: the guard's objects were read and none of its rules is bound.
pub(super) fn check(facts: &GuardFacts) -> Option<ReportFinding> {
    let installed = facts.installed()?;
    if installed.any_bound() || facts.kinds.is_empty() {
        return None;
    }
    let half = installed.half_installed();
    let mut message = format!(
        "kubectl upjet guard is not installed: none of its admission policies is bound, so the API server accepts a write that drops or changes the external-name of any of the {} served managed kinds' MRs, and an MR applied again without its ID (crossplane#2532: the provider then creates a second object)",
        facts.kinds.len()
    );
    if !half.is_empty() {
        message.push_str(&format!("; found without effect: {}", half.join(", ")));
    }
    let finding = Finding::new(Code::GuardMissing, message, INSTALL).with("kinds", facts.kinds.len().to_string());
    let finding = if half.is_empty() { finding } else { finding.with("halfInstalled", half.join(", ")) };
    Some(about(guard_resource(), finding, facts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::facts::Fetched;
    use crate::guard::installed::Installed;
    use crate::guard::kind::GuardKind;
    use crate::guard::rule::GuardRule;
    use crate::guard::settings::GuardSettings;
    use serde_json::{Value, json};

    fn kinds() -> Vec<GuardKind> {
        vec![GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false)]
    }

    fn printed() -> (Vec<Value>, Vec<Value>) {
        let set = crate::guard::build(&kinds(), &GuardSettings::default(), &[]);
        (
            set.validating.iter().map(|p| p.policy.clone()).collect(),
            set.validating.iter().map(|p| p.binding.clone()).collect(),
        )
    }

    /// (case, what was read, words in the message; `None`: no finding)
    type Case = (&'static str, fn() -> Fetched<Installed>, Option<&'static str>);

    const CASES: &[Case] = &[
        ("nothing of it", || Fetched::Got(Installed::default()), Some("none of its admission policies is bound")),
        (
            "policies without bindings",
            || Fetched::Got(Installed::of(&printed().0, &[])),
            Some("found without effect: identity-kept (a policy, no binding)"),
        ),
        ("installed", || Fetched::Got(Installed::of(&printed().0, &printed().1)), None),
        (
            "one rule bound is a partial guard, not a missing one",
            || {
                let (p, b) = printed();
                let name = GuardRule::Placeholder.policy_name();
                Fetched::Got(Installed::of(
                    &p,
                    &b.into_iter().filter(|b| b["spec"]["policyName"] == json!(name)).collect::<Vec<_>>(),
                ))
            },
            None,
        ),
        ("the API is not served (before v1.30): a note, not a finding", || Fetched::NotServed, None),
        ("forbidden: unknown, so nothing is claimed", || Fetched::Failed("forbidden (403)".into()), None),
    ];

    #[test]
    fn table() {
        for (name, read, words) in CASES {
            let (kinds, admission) = (kinds(), read());
            let got = check(&GuardFacts { kinds: &kinds, admission: &admission, lock: None });
            match (words, got) {
                (None, None) => {}
                (Some(words), Some(f)) => {
                    assert!(f.finding.message.contains(words), "{name}: {}", f.finding.message);
                    assert_eq!((f.finding.severity, f.finding.next.as_str()), (Code::GuardMissing.severity(), INSTALL));
                    assert_eq!(
                        (f.resource.kind.as_str(), f.resource.name.as_str()),
                        ("ValidatingAdmissionPolicy", "kubectl-upjet-guard")
                    );
                }
                (want, got) => panic!("{name}: wanted {want:?}, got {got:?}"),
            }
        }
        let admission = Fetched::Got(Installed::default());
        assert!(
            check(&GuardFacts { kinds: &[], admission: &admission, lock: None }).is_none(),
            "no kind, nothing to guard"
        );
    }
}
