//! One managed kind the guard covers, as discovery or a CRD file describes it.

use crate::domain::identity::Template;

/// A served managed kind and what the guard needs to know of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuardKind {
    /// API group (`ec2.aws.upbound.io`).
    pub group: String,
    /// Kind (`VPC`).
    pub kind: String,
    /// Plural resource name (`vpcs`): what a policy's resource rule names.
    pub plural: String,
    /// Namespaced (Crossplane v2 `.m.` groups) or cluster-scoped.
    pub namespaced: bool,
    /// Whether the kind creates asynchronously: upjet's default (`UseAsync: true`), so an
    /// external-name learned after the create is saved only with LateInitialize.
    pub creates_async: bool,
    /// The ID formats its external-names follow, when known (learned from healthy peers or
    /// given as `--id-template`, docs/id-templates.md); several when peers agree on more than
    /// one, and any of them is accepted.
    pub id_templates: Vec<Template>,
}

impl GuardKind {
    /// A kind with upjet's defaults: asynchronous, no known ID format.
    pub fn new(group: &str, kind: &str, plural: &str, namespaced: bool) -> GuardKind {
        GuardKind {
            group: group.to_string(),
            kind: kind.to_string(),
            plural: plural.to_string(),
            namespaced,
            creates_async: true,
            id_templates: Vec::new(),
        }
    }

    /// `group/Kind`: how the expressions tell kinds apart (`request.kind`).
    pub fn key(&self) -> String {
        format!("{}/{}", self.group, self.kind)
    }
}
