//! How the guard is set up: each rule's action, and who is never refused.

use super::rule::{Action, GuardRule};
use super::vars::Declarers;
use std::collections::{BTreeMap, BTreeSet};

/// The guard's settings, resolved from the command line by the caller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GuardSettings {
    /// Per-rule actions that replace the default (`--warn RULE`, `--deny RULE`).
    pub actions: BTreeMap<GuardRule, Action>,
    /// `--audit`: every rule in Audit, whatever else was asked, to trial the guard first.
    pub audit: bool,
    /// Users never refused: the providers' service accounts and `--allow-user`.
    pub users: BTreeSet<String>,
    /// Groups never refused (`--allow-group`, e.g. a break-glass group).
    pub groups: BTreeSet<String>,
    /// `--mutate`: also print the MutatingAdmissionPolicy that puts a locked ID back on a create.
    pub mutate: bool,
    /// `--authorize-declarations`: a repair's declaration of an identity change counts only for a
    /// user the API server's authorizer allows to declare one ([`Declarers::Authorized`]).
    pub authorize_declarations: bool,
}

/// The username the API server gives a service account's requests.
pub fn service_account(namespace: &str, name: &str) -> String {
    format!("system:serviceaccount:{namespace}:{name}")
}

impl GuardSettings {
    /// What the API server does when `rule` is broken.
    pub fn action(&self, rule: GuardRule) -> Action {
        if self.audit {
            return Action::Audit;
        }
        self.actions.get(&rule).copied().unwrap_or(rule.default_action())
    }

    /// Who a repair's declaration counts for.
    pub fn declarers(&self) -> Declarers {
        if self.authorize_declarations { Declarers::Authorized } else { Declarers::Writers }
    }

    /// Exempts a provider's service account (found from its pods' `spec.serviceAccountName`).
    pub fn exempt_service_account(&mut self, namespace: &str, name: &str) {
        self.users.insert(service_account(namespace, name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audit_wins_and_overrides_replace_defaults() {
        let mut s = GuardSettings::default();
        assert_eq!(s.action(GuardRule::IdentityKept), Action::Deny);
        s.actions.insert(GuardRule::IdentityKept, Action::Warn);
        s.actions.insert(GuardRule::Placeholder, Action::Deny);
        assert_eq!((s.action(GuardRule::IdentityKept), s.action(GuardRule::Placeholder)), (Action::Warn, Action::Deny));
        s.audit = true;
        assert!(GuardRule::ALL.iter().all(|r| s.action(*r) == Action::Audit));
        s.exempt_service_account("crossplane-system", "provider-aws-ec2-1a2b3c");
        assert!(s.users.contains("system:serviceaccount:crossplane-system:provider-aws-ec2-1a2b3c"));
    }
}
