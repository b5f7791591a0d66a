//! Adoption plans: the file `doctor --plan` writes and `adopt -f` applies.
//! A list of `{resource, namespace?, id, candidates?, reason?}`; resumable because adopting an item
//! whose external-name already equals its `id` is a no-op that is reported as skipped.
//! `cluster` (the kubeconfig context doctor scanned) lets `adopt -f` refuse an item meant for
//! another cluster; plans without it apply to whatever cluster is current, as before.
//! `candidates` (ranked, best first) lets `adopt --probe` try several IDs through the Observe-only
//! import; plans written before it existed (only `id`) read the same as before.

use serde::{Deserialize, Serialize};

/// One adoption: make `resource` track the cloud object `id`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanItem {
    /// The kubeconfig context (cluster) the MR was found in, when doctor knew it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// `kind.group/name`, as every command accepts it.
    pub resource: String,
    /// Namespace of a namespaced MR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The cloud ID to adopt (the provider's external-name format); the best candidate. May be
    /// omitted when `candidates` is given: parsing fills it with the first candidate.
    #[serde(default)]
    pub id: String,
    /// Further candidate IDs in rank order, tried after `id` only by `adopt --probe`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
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

impl PlanItem {
    /// Every candidate ID in rank order: `id` first, then `candidates`, each once.
    pub fn ranked(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::with_capacity(1 + self.candidates.len());
        for c in std::iter::once(&self.id).chain(&self.candidates) {
            if !c.is_empty() && !out.contains(&c.as_str()) {
                out.push(c);
            }
        }
        out
    }
}

/// Parses and validates a plan; every item must name `kind/name` and a non-blank ID (as `id`
/// or first of `candidates`), once. An item without `id` gets its first candidate as `id`.
pub fn parse_plan(text: &str) -> Result<Vec<PlanItem>, PlanError> {
    let mut items: Vec<PlanItem> = serde_json::from_str(text)?;
    let mut seen = std::collections::HashSet::new();
    for (index, item) in items.iter_mut().enumerate() {
        let bad = |problem: &str| PlanError::Item { index, resource: item.resource.clone(), problem: problem.into() };
        match item.resource.split_once('/') {
            Some((k, n)) if !k.is_empty() && !n.is_empty() && !n.contains('/') => {}
            _ => return Err(bad("resource must be kind.group/name")),
        }
        if item.id.is_empty()
            && let Some(first) = item.candidates.first()
        {
            item.id = first.clone();
        }
        for (what, id) in std::iter::once(("id", &item.id)).chain(item.candidates.iter().map(|c| ("a candidate", c))) {
            if id.trim().is_empty() {
                return Err(bad(&format!("{what} is empty")));
            }
            if id.trim() != id {
                return Err(bad(&format!("{what} has leading or trailing whitespace")));
            }
        }
        if !seen.insert((item.cluster.clone(), item.resource.clone(), item.namespace.clone())) {
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
        assert_eq!(ok[0].cluster, None, "plans without a cluster still parse");
        let two = parse_plan(
            r#"[{"cluster":"prod","resource":"a/b","id":"x"},{"cluster":"staging","resource":"a/b","id":"x"}]"#,
        );
        assert_eq!(two.unwrap()[1].cluster.as_deref(), Some("staging"), "one MR in two clusters");
        for (bad, why) in [
            (r#"{"resource":"a/b","id":"x"}"#, "not a plan"),
            (r#"[{"resource":"a","id":"x"}]"#, "kind.group/name"),
            (r#"[{"resource":"a/b","id":"  "}]"#, "id is empty"),
            (r#"[{"resource":"a/b","id":" x"}]"#, "whitespace"),
            (r#"[{"resource":"a/b","id":"x"},{"resource":"a/b","id":"y"}]"#, "listed twice"),
            (r#"[{"resource":"a/b"}]"#, "id is empty"),
            (r#"[{"resource":"a/b","candidates":[]}]"#, "id is empty"),
            (r#"[{"resource":"a/b","candidates":["x",""]}]"#, "a candidate is empty"),
            (r#"[{"resource":"a/b","id":"x","candidates":["y "]}]"#, "a candidate has leading or trailing"),
            (r#"[{"resource":"a/b","candidates":"x"}]"#, "not a plan"),
        ] {
            let err = parse_plan(bad).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn candidates_in_rank_order() {
        // (plan item, its id after parsing, the ranked candidates)
        for (json, id, ranked) in [
            (r#"{"resource":"a/b","id":"x"}"#, "x", vec!["x"]),
            (r#"{"resource":"a/b","candidates":["x","y"]}"#, "x", vec!["x", "y"]),
            (r#"{"resource":"a/b","id":"x","candidates":["y","z"]}"#, "x", vec!["x", "y", "z"]),
            (r#"{"resource":"a/b","id":"x","candidates":["x","y","x"]}"#, "x", vec!["x", "y"]),
            (r#"{"resource":"a/b","id":"y","candidates":["x","y"]}"#, "y", vec!["y", "x"]),
        ] {
            let items = parse_plan(&format!("[{json}]")).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(items[0].id, id, "{json}");
            assert_eq!(items[0].ranked(), ranked, "{json}");
        }
        // Old plans serialize as before: no empty `candidates`.
        let old = PlanItem { resource: "a/b".into(), id: "x".into(), ..Default::default() };
        assert_eq!(serde_json::to_string(&old).unwrap(), r#"{"resource":"a/b","id":"x"}"#);
    }
}
