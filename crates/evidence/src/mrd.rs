//! ManagedResourceDefinitions as the API server or a snapshot holds them, reduced to the kind each
//! defines and its state, read with the CRD reader's `Definition` (schemas skipped while decoding).

use super::crd::Definition;
use serde::Deserialize;
use upjet_core::mrd::Mrd;

#[derive(Deserialize)]
struct List {
    #[serde(default)]
    items: Vec<Definition>,
}

impl From<Definition> for Mrd {
    fn from(w: Definition) -> Mrd {
        Mrd {
            name: w.metadata.name,
            group: w.spec.group,
            kind: w.spec.names.kind,
            active: w.spec.state.as_deref() == Some("Active"),
            deleted_at: w.metadata.deletion_timestamp.filter(|d| !d.is_empty()),
        }
    }
}

/// The MRDs of a list body (`GET …/managedresourcedefinitions`).
pub fn parse_list(body: &str) -> Result<Vec<Mrd>, serde_json::Error> {
    Ok(serde_json::from_str::<List>(body)?.items.into_iter().map(Mrd::from).collect())
}

/// One MRD object (a snapshot's item), when the JSON is one.
pub fn parse_one(json: &str) -> Option<Mrd> {
    let w: Definition = serde_json::from_str(json).ok()?;
    (w.kind.as_deref() == Some("ManagedResourceDefinition")).then(|| w.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_state_group_and_kind_and_defaults_to_inactive() {
        let body = r#"{"items":[
            {"apiVersion":"apiextensions.crossplane.io/v1alpha1","kind":"ManagedResourceDefinition","metadata":{"name":"buckets.s3.aws.m.upbound.io"},
             "spec":{"group":"s3.aws.m.upbound.io","names":{"kind":"Bucket","plural":"buckets"},"scope":"Namespaced","state":"Active","versions":[{"name":"v1beta1","schema":{}}]}},
            {"metadata":{"name":"queues.sqs.aws.m.upbound.io"},"spec":{"group":"sqs.aws.m.upbound.io","names":{"kind":"Queue"}}}]}"#;
        let got = parse_list(body).unwrap();
        assert_eq!(
            got.iter().map(|m| (m.kind.as_str(), m.active)).collect::<Vec<_>>(),
            [("Bucket", true), ("Queue", false)]
        );
        assert_eq!(got[1].name, "queues.sqs.aws.m.upbound.io");
        assert_eq!(got[1].deleted_at, None);
        let going = r#"{"items":[{"metadata":{"name":"buckets.s3.aws.m.upbound.io","deletionTimestamp":"2024-11-30T11:00:00Z"},"spec":{"group":"s3.aws.m.upbound.io","names":{"kind":"Bucket"},"state":"Active"}}]}"#;
        assert_eq!(parse_list(going).unwrap()[0].deleted_at.as_deref(), Some("2024-11-30T11:00:00Z"));
        assert!(parse_one(r#"{"kind":"ManagedResourceDefinition","metadata":{"name":"a.b"},"spec":{"group":"b","names":{"kind":"A"}}}"#).is_some());
        assert!(parse_one(r#"{"kind":"Bucket","metadata":{"name":"a"},"spec":{}}"#).is_none());
    }
}
