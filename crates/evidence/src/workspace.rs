//! What a Terraform-CLI resource's live workspace (`/tmp/<uid>/terraform.tfstate` in the provider
//! pod, upjet pkg/terraform/files.go) says about the cloud object it manages.

use serde::Serialize;
use upjet_core::candidate::{Candidate, Confidence};

/// What the workspace of a Terraform-CLI resource holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorkspaceState {
    /// The pod it was read from.
    pub pod: String,
    /// `.resources[0].instances[0].attributes.id`, if any.
    pub id: Option<String>,
    /// `lineage` (upjet writes the MR UID).
    pub lineage: Option<String>,
}

impl WorkspaceState {
    /// The workspace's ID as a candidate to adopt: what Terraform itself recorded for this MR.
    pub fn candidate(&self) -> Option<Candidate> {
        let id = self.id.clone()?;
        Some(Candidate::new(id, "Terraform workspace", Confidence::High, format!("terraform.tfstate in {}", self.pod)))
    }
}

/// Extracts the Terraform ID from a `terraform.tfstate` (format version 4).
pub(crate) fn tfstate_id(text: &str) -> Result<(Option<String>, Option<String>), serde_json::Error> {
    let v: serde_json::Value = serde_json::from_str(text)?;
    let id =
        v["resources"][0]["instances"][0]["attributes"]["id"].as_str().map(str::to_owned).filter(|s| !s.is_empty());
    Ok((id, v["lineage"].as_str().map(str::to_owned)))
}

/// A workspace file that is not a Terraform state.
#[derive(Debug, thiserror::Error)]
#[error("{path} is not a Terraform state: {source}")]
pub struct NotTerraformState {
    /// The file read.
    pub path: String,
    /// Why it does not parse.
    pub source: serde_json::Error,
}

/// The workspace state of `path`, read from `pod` (`namespace/name`).
pub fn workspace_state(pod: String, path: &str, text: &str) -> Result<WorkspaceState, NotTerraformState> {
    let (id, lineage) = tfstate_id(text).map_err(|source| NotTerraformState { path: path.to_string(), source })?;
    Ok(WorkspaceState { pod, id, lineage })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tfstate() {
        let s = r#"{"version":4,"lineage":"uid-1","resources":[{"mode":"managed","type":"google_dns_record_set","name":"x","instances":[{"attributes":{"id":"projects/p/managedZones/z/rrsets/x/A"}}]}]}"#;
        assert_eq!(tfstate_id(s).unwrap(), (Some("projects/p/managedZones/z/rrsets/x/A".into()), Some("uid-1".into())));
        assert_eq!(tfstate_id(r#"{"version":4,"resources":[]}"#).unwrap(), (None, None));
        assert!(tfstate_id("not json").is_err());
    }

    #[test]
    fn not_a_state_names_the_file() {
        let e = workspace_state("ns/p".into(), "/tmp/u/terraform.tfstate", "nope").unwrap_err();
        assert!(e.to_string().starts_with("/tmp/u/terraform.tfstate is not a Terraform state: "), "{e}");
    }
}
