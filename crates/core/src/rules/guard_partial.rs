//! `GuardPartial`: the guard runs (a rule is bound), but a served managed kind is not judged by
//! every rule `guard` prints over every kind (`installed::EVERY_KIND`): a provider installed
//! after the guard was printed, a rule whose policy or binding was removed, a policy or binding
//! narrowed by hand. A write to such a kind's MR that loses its ID goes through. A finding about
//! the cluster, not an MR.

use crate::finding::{Code, Finding};
use crate::guard::facts::{GuardFacts, about, guard_resource, listed};
use crate::guard::installed::EVERY_KIND;
use crate::report::ReportFinding;

/// How many kinds a finding names.
const SHOWN: usize = 20;

/// Printing the guard again covers every kind served now.
pub(crate) const PRINT_AGAIN: &str = "kubectl upjet guard | kubectl apply -f -";

/// At most one finding: the kinds some rule leaves out, with those rules.
pub(super) fn check(facts: &GuardFacts) -> Option<ReportFinding> {
    let installed = facts.installed()?;
    if !installed.any_bound() {
        return None;
    }
    let uncovered = installed.uncovered(facts.kinds);
    if uncovered.is_empty() {
        return None;
    }
    let kinds = uncovered.iter().map(|(k, rules)| {
        let which = match rules.len() == EVERY_KIND.len() {
            true => "no rule".to_string(),
            false => rules.iter().map(|r| r.name()).collect::<Vec<_>>().join(", "),
        };
        format!("{}.{} ({which})", k.plural, k.group)
    });
    let names = listed(kinds, SHOWN);
    let unbound: Vec<&str> = EVERY_KIND.iter().filter(|r| !installed.bound(**r)).map(|r| r.name()).collect();
    let mut message = format!(
        "the guard judges {} of the {} served managed kinds without every one of its rules: a write to their MRs that drops or changes an external-name, or a re-create without it, may go through: {}",
        uncovered.len(),
        facts.kinds.len(),
        listed(uncovered.iter().map(|(k, _)| format!("{}.{}", k.plural, k.group)), 5)
    );
    if !unbound.is_empty() {
        message.push_str(&format!("; not bound: {}", unbound.join(", ")));
    }
    let finding = Finding::new(Code::GuardPartial, message, PRINT_AGAIN)
        .with("uncovered", names)
        .with("kinds", facts.kinds.len().to_string());
    let finding = match unbound.is_empty() {
        true => finding,
        false => finding.with("unbound", unbound.join(", ")),
    };
    let half = installed.half_installed();
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
    use serde_json::Value;

    fn vpc() -> GuardKind {
        GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false)
    }
    fn bucket() -> GuardKind {
        GuardKind::new("s3.aws.upbound.io", "Bucket", "buckets", false)
    }

    /// The guard printed for the VPC kind, less the bindings of `without`.
    fn installed(without: &[GuardRule]) -> Fetched<Installed> {
        let set = crate::guard::build(&[vpc()], &GuardSettings::default(), &[]);
        let policies: Vec<Value> = set.validating.iter().map(|p| p.policy.clone()).collect();
        let bindings: Vec<Value> =
            set.validating.iter().filter(|p| !without.contains(&p.rule)).map(|p| p.binding.clone()).collect();
        Fetched::Got(Installed::of(&policies, &bindings))
    }

    /// (case, kinds served, the guard read, words in the message and `uncovered`; `None`: none)
    type Case =
        (&'static str, fn() -> Vec<GuardKind>, fn() -> Fetched<Installed>, Option<(&'static str, &'static str)>);

    const CASES: &[Case] = &[
        ("every kind it was printed for", || vec![vpc()], || installed(&[]), None),
        (
            "a provider installed since",
            || vec![vpc(), bucket()],
            || installed(&[]),
            Some(("judges 1 of the 2 served managed kinds", "buckets.s3.aws.upbound.io (no rule)")),
        ),
        (
            "a rule's binding removed",
            || vec![vpc()],
            || installed(&[GuardRule::IdentityLocked]),
            Some(("not bound: identity-locked", "vpcs.ec2.aws.upbound.io (identity-locked)")),
        ),
        (
            "a rule that covers only some kinds is not required",
            || vec![vpc()],
            || installed(&[GuardRule::LateInitialize, GuardRule::ExternalNameFormat]),
            None,
        ),
        ("not installed at all is GuardMissing's", || vec![vpc()], || Fetched::Got(Installed::default()), None),
        ("unread", || vec![vpc(), bucket()], || Fetched::Failed("forbidden".into()), None),
    ];

    #[test]
    fn table() {
        for (name, kinds, read, want) in CASES {
            let (kinds, admission) = (kinds(), read());
            let got = check(&GuardFacts { kinds: &kinds, admission: &admission, lock: None });
            match (want, got) {
                (None, None) => {}
                (Some((message, uncovered)), Some(f)) => {
                    assert!(f.finding.message.contains(message), "{name}: {}", f.finding.message);
                    assert!(f.finding.evidence["uncovered"].contains(uncovered), "{name}: {:?}", f.finding.evidence);
                    assert_eq!(
                        (f.finding.severity, f.finding.next.as_str()),
                        (Code::GuardPartial.severity(), PRINT_AGAIN)
                    );
                }
                (want, got) => panic!("{name}: wanted {want:?}, got {got:?}"),
            }
        }
    }

    #[test]
    fn many_kinds_are_counted_not_all_named() {
        let kinds: Vec<GuardKind> = (0..30)
            .map(|i| GuardKind::new("s3.aws.upbound.io", &format!("K{i:02}"), &format!("k{i:02}s"), false))
            .collect();
        let admission = installed(&[]);
        let f = check(&GuardFacts { kinds: &kinds, admission: &admission, lock: None }).unwrap();
        assert!(f.finding.evidence["uncovered"].ends_with("… and 10 more"), "{:?}", f.finding.evidence);
        assert!(f.finding.message.contains("judges 30 of the 30") && f.finding.message.contains("… and 25 more"));
    }
}
