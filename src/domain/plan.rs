//! Adoption plans: the file `doctor --plan` writes and `adopt -f` applies.
//! A list of `{resource, namespace?, id, reason?}`; resumable because adopting an item whose
//! external-name already equals its `id` is a no-op that is reported as skipped.

use serde::{Deserialize, Serialize};

/// One adoption: make `resource` track the cloud object `id`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanItem {
    /// `kind.group/name`, as every command accepts it.
    pub resource: String,
    /// Namespace of a namespaced MR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The cloud ID to adopt (the provider's external-name format).
    pub id: String,
    /// Why this item is in the plan (the finding code that suggested it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Why a plan file was rejected.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Not JSON of the right shape.
    #[error("not a plan (a JSON list of {{\"resource\": \"kind.group/name\", \"id\": \"…\"}}): {0}")]
    Shape(#[from] serde_json::Error),
    /// An item is unusable.
    #[error("item {index} ({resource}): {problem}")]
    Item {
        /// Position in the list.
        index: usize,
        /// Its resource.
        resource: String,
        /// What is wrong.
        problem: String,
    },
}

/// Parses and validates a plan; every item must name `kind/name` and a non-blank ID, once.
pub fn parse_plan(text: &str) -> Result<Vec<PlanItem>, PlanError> {
    let items: Vec<PlanItem> = serde_json::from_str(text)?;
    let mut seen = std::collections::HashSet::new();
    for (index, item) in items.iter().enumerate() {
        let bad = |problem: &str| PlanError::Item { index, resource: item.resource.clone(), problem: problem.into() };
        match item.resource.split_once('/') {
            Some((k, n)) if !k.is_empty() && !n.is_empty() && !n.contains('/') => {}
            _ => return Err(bad("resource must be kind.group/name")),
        }
        if item.id.trim().is_empty() {
            return Err(bad("id is empty"));
        }
        if item.id.trim() != item.id {
            return Err(bad("id has leading or trailing whitespace"));
        }
        if !seen.insert((item.resource.clone(), item.namespace.clone())) {
            return Err(bad("listed twice"));
        }
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        let ok = parse_plan(r#"[{"resource":"key.kms.aws.upbound.io/k","id":"mrk-1"},{"resource":"vpc.ec2.aws.m.upbound.io/v","namespace":"a","id":"vpc-1","reason":"ExternalNameMissing"}]"#).unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(ok[1].namespace.as_deref(), Some("a"));
        for (bad, why) in [
            (r#"{"resource":"a/b","id":"x"}"#, "not a plan"),
            (r#"[{"resource":"a","id":"x"}]"#, "kind.group/name"),
            (r#"[{"resource":"a/b","id":"  "}]"#, "id is empty"),
            (r#"[{"resource":"a/b","id":" x"}]"#, "whitespace"),
            (r#"[{"resource":"a/b","id":"x"},{"resource":"a/b","id":"y"}]"#, "listed twice"),
            (r#"[{"resource":"a/b"}]"#, "not a plan"),
        ] {
            let err = parse_plan(bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
