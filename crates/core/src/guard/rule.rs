//! The guard's rules and what each does when a write breaks it.

use std::fmt;
use std::str::FromStr;

/// One admission rule: one ValidatingAdmissionPolicy and its binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// An UPDATE removes or changes the external-name of an MR that created its object.
    IdentityKept,
    /// A CREATE of an MR whose (group, kind, namespace, name) the lock holds an ID for, with
    /// another external-name or none.
    IdentityLocked,
    /// An external-name that the format its kind follows does not give.
    ExternalNameFormat,
    /// A management-policy set the reconciler rejects (doctor's UnsupportedManagementPolicies).
    ManagementPolicies,
    /// A policy set without LateInitialize on a kind that creates asynchronously (doctor's
    /// LateInitializeMissing).
    LateInitialize,
    /// The pending mark removed by hand while nothing records an ID.
    PendingResolved,
    /// An external-name that is a provider's placeholder.
    Placeholder,
}

/// What the API server does when a write breaks a rule (a binding's `validationActions`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// The write is refused with the rule's message.
    Deny,
    /// The write goes through; the client is shown the message as a warning.
    Warn,
    /// The write goes through; the message lands in the audit log only.
    Audit,
}

impl Action {
    /// The binding's `validationActions` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Deny => "Deny",
            Action::Warn => "Warn",
            Action::Audit => "Audit",
        }
    }
}

impl Rule {
    /// Every rule, in the order the guard prints them.
    pub const ALL: [Rule; 7] = [
        Rule::IdentityKept,
        Rule::IdentityLocked,
        Rule::ExternalNameFormat,
        Rule::ManagementPolicies,
        Rule::LateInitialize,
        Rule::PendingResolved,
        Rule::Placeholder,
    ];

    /// The rule's name on the command line (`--warn NAME`) and in object names.
    pub fn name(self) -> &'static str {
        match self {
            Rule::IdentityKept => "identity-kept",
            Rule::IdentityLocked => "identity-locked",
            Rule::ExternalNameFormat => "external-name-format",
            Rule::ManagementPolicies => "management-policies",
            Rule::LateInitialize => "late-initialize",
            Rule::PendingResolved => "pending-resolved",
            Rule::Placeholder => "placeholder",
        }
    }

    /// The action the issue sets for each rule: a lost or replaced identity and a set the
    /// reconciler rejects are refused; what may be deliberate or only risky is a warning.
    pub fn default_action(self) -> Action {
        match self {
            Rule::IdentityKept | Rule::IdentityLocked | Rule::ManagementPolicies => Action::Deny,
            Rule::ExternalNameFormat | Rule::LateInitialize | Rule::PendingResolved | Rule::Placeholder => Action::Warn,
        }
    }

    /// The ValidatingAdmissionPolicy's (and binding's) name.
    pub fn policy_name(self) -> String {
        format!("kubectl-upjet-guard-{}", self.name())
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name nobody knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a guard rule (one of: {names})", names = Rule::ALL.map(Rule::name).join(", "))]
pub struct UnknownRule(pub String);

impl FromStr for Rule {
    type Err = UnknownRule;
    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        Rule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| UnknownRule(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_defaults_follow_the_issue() {
        for r in Rule::ALL {
            assert_eq!(r.name().parse::<Rule>(), Ok(r));
        }
        let err = "identity".parse::<Rule>().unwrap_err().to_string();
        assert!(err.contains("identity-kept, identity-locked"), "{err}");
        let deny: Vec<Rule> = Rule::ALL.into_iter().filter(|r| r.default_action() == Action::Deny).collect();
        assert_eq!(deny, [Rule::IdentityKept, Rule::IdentityLocked, Rule::ManagementPolicies]);
    }
}
