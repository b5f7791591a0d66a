//! The guard's rules and what each does when a write breaks it.

use std::fmt;
use std::str::FromStr;

/// One admission rule: one ValidatingAdmissionPolicy and its binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GuardRule {
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

impl GuardRule {
    /// Every rule, in the order the guard prints them.
    pub const ALL: [GuardRule; 7] = [
        GuardRule::IdentityKept,
        GuardRule::IdentityLocked,
        GuardRule::ExternalNameFormat,
        GuardRule::ManagementPolicies,
        GuardRule::LateInitialize,
        GuardRule::PendingResolved,
        GuardRule::Placeholder,
    ];

    /// The rule's name on the command line (`--warn NAME`) and in object names.
    pub fn name(self) -> &'static str {
        match self {
            GuardRule::IdentityKept => "identity-kept",
            GuardRule::IdentityLocked => "identity-locked",
            GuardRule::ExternalNameFormat => "external-name-format",
            GuardRule::ManagementPolicies => "management-policies",
            GuardRule::LateInitialize => "late-initialize",
            GuardRule::PendingResolved => "pending-resolved",
            GuardRule::Placeholder => "placeholder",
        }
    }

    /// The action the issue sets for each rule: a lost or replaced identity and a set the
    /// reconciler rejects are refused; what may be deliberate or only risky is a warning.
    pub fn default_action(self) -> Action {
        match self {
            GuardRule::IdentityKept | GuardRule::IdentityLocked | GuardRule::ManagementPolicies => Action::Deny,
            GuardRule::ExternalNameFormat
            | GuardRule::LateInitialize
            | GuardRule::PendingResolved
            | GuardRule::Placeholder => Action::Warn,
        }
    }

    /// The ValidatingAdmissionPolicy's (and binding's) name.
    pub fn policy_name(self) -> String {
        format!("kubectl-upjet-guard-{}", self.name())
    }
}

impl fmt::Display for GuardRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name nobody knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a guard rule (one of: {names})", names = GuardRule::ALL.map(GuardRule::name).join(", "))]
pub struct UnknownRule(pub String);

impl FromStr for GuardRule {
    type Err = UnknownRule;
    fn from_str(s: &str) -> Result<GuardRule, UnknownRule> {
        GuardRule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| UnknownRule(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_defaults_follow_the_issue() {
        for r in GuardRule::ALL {
            assert_eq!(r.name().parse::<GuardRule>(), Ok(r));
        }
        let err = "identity".parse::<GuardRule>().unwrap_err().to_string();
        assert!(err.contains("identity-kept, identity-locked"), "{err}");
        let deny: Vec<GuardRule> = GuardRule::ALL.into_iter().filter(|r| r.default_action() == Action::Deny).collect();
        assert_eq!(deny, [GuardRule::IdentityKept, GuardRule::IdentityLocked, GuardRule::ManagementPolicies]);
    }
}
