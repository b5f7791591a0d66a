//! The estimated cost of each printed policy against the API server's limits (see `cel`): its
//! most expensive expression against the per-expression limit, every expression together
//! against the per-evaluation budget, and its match conditions against theirs.

use super::admission::{Policy, condition_costs};
use super::cel::limit;
use super::rule::GuardRule;
use super::settings::GuardSettings;

/// One policy's estimate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyCost {
    /// The rule.
    pub rule: GuardRule,
    /// Which expression costs most (`validations[0].expression`, `variables.target`, …).
    pub worst: String,
    /// Its cost.
    pub worst_cost: u64,
    /// Every variable, validation and message expression together (each variable counted at
    /// every use: an upper bound).
    pub total: u64,
    /// The match conditions together.
    pub match_conditions: u64,
}

impl PolicyCost {
    /// Whether the estimate stays within every limit.
    pub fn within_limits(&self) -> bool {
        self.worst_cost <= limit::PER_CALL
            && self.total <= limit::PER_POLICY
            && self.match_conditions <= limit::MATCH_CONDITIONS
    }
}

/// The estimate for `policy` under `settings` (whose exemptions are match conditions).
pub fn estimate(policy: &Policy, settings: &GuardSettings) -> PolicyCost {
    let mut each: Vec<(String, u64)> =
        policy.variables.iter().map(|(n, c)| (format!("variables.{n}"), c.cost())).collect();
    for (i, v) in policy.validations.iter().enumerate() {
        each.push((format!("validations[{i}].expression"), v.expression.cost()));
        each.push((format!("validations[{i}].messageExpression"), v.message_expression.cost()));
    }
    let conditions = condition_costs(policy, settings);
    let match_conditions = conditions.iter().map(|(_, c)| c).sum();
    each.extend(conditions.into_iter().map(|(n, c)| (format!("matchConditions[{n}]"), c)));
    let (worst, worst_cost) = each.into_iter().max_by_key(|(_, c)| *c).unwrap_or_default();
    let total = policy.validations.iter().map(|v| v.expression.cost() + v.message_expression.cost()).sum();
    PolicyCost { rule: policy.rule, worst, worst_cost, total, match_conditions }
}
